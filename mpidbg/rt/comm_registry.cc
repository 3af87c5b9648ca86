// comm_registry.cc — see comm_registry.h.
#include "rt/comm_registry.h"

#include <stdlib.h>

#include "core/handle_map.h"
#include "core/job_id.h"
#include "core/record_write.h"
#include "core/spinlock.h"
#include "rt/handles.h"
#include "rt/registry.h"

namespace mpidbg::rt {
namespace {

// How many freed communicator records are kept as orphans; the oldest goes first.
constexpr uint32_t kFreedCommsKept = 256;

core::SpinLock g_lock;               // guards everything below except Find
core::HandleMap g_by_handle(64);     // comm handle -> record address
core::HandleMap g_counters(64);      // job-id recipe key -> next counter value
mpidbg_comm_record* g_freed[kFreedCommsKept];
uint32_t g_freed_next = 0;           // ring position of the oldest orphan once full
uint32_t g_freed_count = 0;
uint64_t g_create_serial = 0;
MPI_Group g_world_group = MPI_GROUP_NULL;

mpidbg_comm_record* RecordAt(uint64_t address) {
  return reinterpret_cast<mpidbg_comm_record*>(static_cast<uintptr_t>(address));
}

int32_t* TranslateToWorld(MPI_Group group, int32_t n) {
  if (n <= 0) return nullptr;
  int* in = static_cast<int*>(malloc(sizeof(int) * static_cast<size_t>(n)));
  int32_t* out = static_cast<int32_t*>(malloc(sizeof(int32_t) * static_cast<size_t>(n)));
  if (in == nullptr || out == nullptr) {
    free(in);
    free(out);
    return nullptr;
  }
  for (int32_t i = 0; i < n; ++i) in[i] = i;
  int* translated = reinterpret_cast<int*>(out);  // int is int32_t on every target we build for
  static_assert(sizeof(int) == sizeof(int32_t), "int must be 32 bits");
  if (g_world_group == MPI_GROUP_NULL ||
      PMPI_Group_translate_ranks(group, n, in, g_world_group, translated) != MPI_SUCCESS) {
    for (int32_t i = 0; i < n; ++i) out[i] = MPIDBG_RANK_UNKNOWN;
  } else {
    for (int32_t i = 0; i < n; ++i) {
      if (out[i] == MPI_UNDEFINED || out[i] < 0) out[i] = MPIDBG_RANK_UNKNOWN;
    }
  }
  free(in);
  return out;
}

void ReleaseRecordLocked(mpidbg_comm_record* rec) {
  free(reinterpret_cast<void*>(static_cast<uintptr_t>(rec->world_ranks)));
  free(reinterpret_cast<void*>(static_cast<uintptr_t>(rec->remote_world_ranks)));
  g_comm_table.Release(&rec->hdr);
}

}  // namespace

CommView LookupComm(MPI_Comm comm) {
  CommView v;
  v.handle = HandleToU64(comm);
  uint64_t address = 0;
  if (!g_by_handle.Find(v.handle, &address) || address == 0) return v;
  const mpidbg_comm_record* rec = RecordAt(address);
  v.job_id = rec->job_id;
  v.world_ranks = reinterpret_cast<const int32_t*>(static_cast<uintptr_t>(rec->world_ranks));
  v.size = rec->size;
  v.remote_world_ranks =
      reinterpret_cast<const int32_t*>(static_cast<uintptr_t>(rec->remote_world_ranks));
  v.remote_size = rec->remote_size;
  v.inter = (rec->hdr.flags & MPIDBG_COMM_INTER) != 0;
  return v;
}

int32_t PeerWorld(const CommView& view, int32_t normalised_peer) {
  if (normalised_peer < 0) return normalised_peer;
  if (view.inter) return core::PeerWorldRank(normalised_peer, view.remote_world_ranks, view.remote_size);
  if (view.world_ranks == nullptr) return MPIDBG_RANK_UNKNOWN;
  return core::PeerWorldRank(normalised_peer, view.world_ranks, view.size);
}

bool ReadMembers(MPI_Comm comm, Members* out) {
  *out = Members{};
  int rank = -1, size = 0, inter = 0;
  if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS || PMPI_Comm_size(comm, &size) != MPI_SUCCESS)
    return false;
  PMPI_Comm_test_inter(comm, &inter);
  out->rank = rank;
  out->local_size = size;
  out->inter = inter != 0;
  MPI_Group group = MPI_GROUP_NULL;
  if (PMPI_Comm_group(comm, &group) == MPI_SUCCESS) {
    out->local = TranslateToWorld(group, size);
    PMPI_Group_free(&group);
  }
  if (out->inter) {
    int remote_size = 0;
    PMPI_Comm_remote_size(comm, &remote_size);
    out->remote_size = remote_size;
    MPI_Group remote = MPI_GROUP_NULL;
    if (PMPI_Comm_remote_group(comm, &remote) == MPI_SUCCESS) {
      out->remote = TranslateToWorld(remote, remote_size);
      PMPI_Group_free(&remote);
    }
  }
  return true;
}

void FreeMembers(Members* m) {
  free(m->local);
  free(m->remote);
  m->local = m->remote = nullptr;
}

uint64_t MemberHashOf(const Members& m) {
  return core::MemberHash(m.local, m.local == nullptr ? 0 : m.local_size, m.remote,
                          m.remote == nullptr ? 0 : m.remote_size, m.inter);
}

void PublishComm(MPI_Comm comm, Members* m, uint64_t job_id, const CommOrigin& origin) {
  const uint64_t handle = HandleToU64(comm);
  auto* hdr = g_comm_table.Create(origin.flags | (m->inter ? MPIDBG_COMM_INTER : 0u));
  if (hdr == nullptr) {
    FreeMembers(m);
    return;
  }
  auto* rec = reinterpret_cast<mpidbg_comm_record*>(hdr);
  rec->handle = handle;
  rec->job_id = job_id;
  rec->parent_job_id = origin.parent_job_id;
  rec->world_ranks = AddressOf(m->local);
  rec->remote_world_ranks = AddressOf(m->remote);
  rec->rank = m->rank;
  rec->size = m->local == nullptr ? 0 : m->local_size;
  rec->remote_size = m->inter ? m->remote_size : 0;
  rec->creator = origin.creator;
  rec->split_color = origin.split_color;
  rec->split_key = origin.split_key;
  core::CopyName(rec->name, sizeof rec->name, origin.name);
  m->local = m->remote = nullptr;  // owned by the record now

  core::SpinGuard guard(g_lock);
  rec->create_serial = ++g_create_serial;
  g_comm_table.EndCreate(hdr);
  uint64_t previous = 0;
  g_by_handle.Insert(handle, AddressOf(rec), &previous);
  // A handle still mapped to an older record means that communicator was freed by a
  // path the runtime did not see; the older record is stale.
  if (previous != 0 && previous != AddressOf(rec)) {
    mpidbg_comm_record* stale = RecordAt(previous);
    g_comm_table.BeginUpdate(&stale->hdr);
    stale->hdr.flags |= MPIDBG_REC_FREED;
    g_comm_table.EndUpdate(&stale->hdr);
  }
}

uint64_t NextCreationCounter(uint64_t key) {
  core::SpinGuard guard(g_lock);
  uint64_t value = 0;
  g_counters.Find(key, &value);
  g_counters.Insert(key, value + 1);
  return value;
}

void RegisterPredefinedComms(int32_t world_rank) {
  if (g_world_group == MPI_GROUP_NULL) PMPI_Comm_group(MPI_COMM_WORLD, &g_world_group);
  Members m;
  if (ReadMembers(MPI_COMM_WORLD, &m)) {
    CommOrigin o;
    o.creator = MPIDBG_CALL_MPIDBG_PREDEFINED;
    o.flags = MPIDBG_REC_PREDEFINED;
    o.name = "MPI_COMM_WORLD";
    PublishComm(MPI_COMM_WORLD, &m, core::kWorldJobId, o);
  }
  if (ReadMembers(MPI_COMM_SELF, &m)) {
    CommOrigin o;
    o.creator = MPIDBG_CALL_MPIDBG_PREDEFINED;
    o.flags = MPIDBG_REC_PREDEFINED;
    o.name = "MPI_COMM_SELF";
    PublishComm(MPI_COMM_SELF, &m, core::SelfJobId(world_rank), o);
  }
}

void SetCommName(MPI_Comm comm, const char* name) {
  core::SpinGuard guard(g_lock);
  uint64_t address = 0;
  if (!g_by_handle.Find(HandleToU64(comm), &address) || address == 0) return;
  mpidbg_comm_record* rec = RecordAt(address);
  g_comm_table.BeginUpdate(&rec->hdr);
  core::CopyName(rec->name, sizeof rec->name, name);
  g_comm_table.EndUpdate(&rec->hdr);
}

void MarkCommFreed(uint64_t handle) {
  core::SpinGuard guard(g_lock);
  uint64_t address = 0;
  if (!g_by_handle.Erase(handle, &address) || address == 0) return;
  mpidbg_comm_record* rec = RecordAt(address);
  g_comm_table.BeginUpdate(&rec->hdr);
  rec->hdr.flags |= MPIDBG_REC_FREED;
  g_comm_table.EndUpdate(&rec->hdr);
  if (g_freed_count == kFreedCommsKept) {
    ReleaseRecordLocked(g_freed[g_freed_next]);
    g_freed[g_freed_next] = rec;
    g_freed_next = (g_freed_next + 1) % kFreedCommsKept;
  } else {
    g_freed[(g_freed_next + g_freed_count) % kFreedCommsKept] = rec;
    ++g_freed_count;
  }
}

void ReleaseWorldGroup() {
  if (g_world_group != MPI_GROUP_NULL) PMPI_Group_free(&g_world_group);
  g_world_group = MPI_GROUP_NULL;
}

}  // namespace mpidbg::rt
