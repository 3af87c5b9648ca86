// comm_registry.cc — see comm_registry.h.
#include "rt/comms/comm_registry.h"

#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/concurrency.h"
#include "core/handle_filter.h"
#include "core/handle_map.h"
#include "core/job_id.h"
#include "core/record_arrays.h"
#include "core/record_map.h"
#include "core/record_write.h"
#include "core/spinlock.h"
#include "rt/comms/comm_topology.h"
#include "rt/handle_widening.h"
#include "rt/hot/flight_ring.h"
#include "rt/hot/thread_state.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {
namespace {

static_assert(sizeof(int) == sizeof(int32_t), "int must be 32 bits");

core::SpinLock g_lock;            // guards everything below and record updates, not Find
// Live comm handle -> its record: one word for most handles (core/record_map.h).
core::RecordMapOf<mpidbg_comm_record> g_by_handle(64);
core::HandleMap g_counters(64);   // job-id recipe key -> next counter value
MPI_Group g_world_group = MPI_GROUP_NULL;

// Freed communicators whose job id a pending operation record still carries; they are
// marked RELEASED once it is gone (checked at every communicator creation and free).
mpidbg_comm_record** g_unreleased = nullptr;
uint32_t g_unreleased_count = 0;
uint32_t g_unreleased_capacity = 0;

template <typename T>
T* Pointer(uint64_t address) {
  return reinterpret_cast<T*>(static_cast<uintptr_t>(address));
}

void FreeCommArrays(mpidbg_comm_record* rec) {
  free(Pointer<void>(rec->world_ranks));
  free(Pointer<void>(rec->remote_world_ranks));
  rec->world_ranks = rec->remote_world_ranks = 0;
  core::FreeArray(rec->topo_args);
  core::FreeArray(rec->attributes);
  core::FreeArray(rec->remote_job_id);
  core::FreeArray(rec->remote_job_ranks);
  rec->topo_args = mpidbg_array{0, 0, sizeof(int32_t)};
  rec->attributes = mpidbg_array{0, 0, sizeof(int64_t)};
  rec->remote_job_id = mpidbg_array{0, 0, 1};
  rec->remote_job_ranks = mpidbg_array{0, 0, sizeof(int32_t)};
}

// The job ids of communicators an operation record may name (NoteCommInOperations).
core::HandleFilter<64> g_comms_in_operations;

// Does a pending operation (request, blocking call, nonblocking collective) still
// carry this job id? Walks the request table, only at communicator creation and free,
// and only for a job id some operation record may name.
bool RequestsUseJobId(uint64_t job_id) {
  if (!g_comms_in_operations.MayContain(job_id)) return false;  // no op record names it
  if (FlightRingsUseJobId(job_id)) return true;
  bool used = false;
  ForEachRecord(mpidbg_runtime_root.operations, [&](mpidbg_record_header* h) {
    if (!used && __atomic_load_n(&reinterpret_cast<mpidbg_operation_record*>(h)->comm_job_id,
                                 __ATOMIC_RELAXED) == job_id)
      used = true;
  });
  return used;
}

void MarkFreedLocked(mpidbg_comm_record* rec, bool released) {
  g_comm_table.BeginUpdate(&rec->hdr);
  rec->hdr.flags |= MPIDBG_REC_FREED | (released ? MPIDBG_REC_RELEASED : 0u);
  // Serials come from MPI calls only: below MPI_THREAD_MULTIPLE one at a time, as for
  // every object (core::ObjectRegistry).
  rec->free_serial = core::CounterAdd(&mpidbg_runtime_root.free_counter, uint64_t{1});
  g_comm_table.EndUpdate(&rec->hdr);
}

bool AddUnreleasedLocked(mpidbg_comm_record* rec) {
  if (g_unreleased_count == g_unreleased_capacity) {
    const uint32_t capacity = g_unreleased_capacity == 0 ? 16 : g_unreleased_capacity * 2;
    auto* grown = static_cast<mpidbg_comm_record**>(
        realloc(g_unreleased, sizeof(mpidbg_comm_record*) * capacity));
    if (grown == nullptr) return false;
    g_unreleased = grown;
    g_unreleased_capacity = capacity;
  }
  g_unreleased[g_unreleased_count++] = rec;
  return true;
}

void RemoveUnreleasedLocked(mpidbg_comm_record* rec) {
  for (uint32_t i = 0; i < g_unreleased_count; ++i) {
    if (g_unreleased[i] == rec) {
      g_unreleased[i] = g_unreleased[--g_unreleased_count];
      return;
    }
  }
}

void SweepUnreleasedLocked() {
  for (uint32_t i = 0; i < g_unreleased_count;) {
    mpidbg_comm_record* rec = g_unreleased[i];
    if (RequestsUseJobId(rec->job_id)) {
      ++i;
      continue;
    }
    g_comm_table.BeginUpdate(&rec->hdr);
    rec->hdr.flags |= MPIDBG_REC_RELEASED;
    g_comm_table.EndUpdate(&rec->hdr);
    g_unreleased[i] = g_unreleased[--g_unreleased_count];
  }
}

// The orphan list drops a freed communicator's record (budget, or a debugger's call).
void ReleaseCommOrphan(mpidbg_record_header* hdr, void*) {
  auto* rec = reinterpret_cast<mpidbg_comm_record*>(hdr);
  {
    core::SpinGuard guard(g_lock);
    RemoveUnreleasedLocked(rec);
    g_by_handle.CompareErase(rec->handle, rec);
  }
  g_comm_table.BeginUpdate(hdr);
  FreeCommArrays(rec);
  g_comm_table.EndUpdate(hdr);
  g_comm_table.Release(hdr);
}

// The live record of `comm` under g_lock, or nullptr.
mpidbg_comm_record* FindLocked(MPI_Comm comm) { return g_by_handle.Find(HandleToU64(comm)); }

uint64_t ErrhandlerOf(MPI_Comm comm) {
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  if (PMPI_Comm_get_errhandler(comm, &eh) != MPI_SUCCESS || eh == MPI_ERRHANDLER_NULL) return 0;
  const uint64_t value = HandleToU64(eh);
  PMPI_Errhandler_free(&eh);  // MPI_Comm_get_errhandler handed out a reference
  return value;
}

}  // namespace

CommView LookupComm(MPI_Comm comm) {
  CommView v;
  v.handle = HandleToU64(comm);
  const mpidbg_comm_record* rec = g_by_handle.Find(v.handle);
  if (rec == nullptr) return v;
  v.job_id = rec->job_id;
  v.world_ranks = Pointer<const int32_t>(rec->world_ranks);
  v.size = rec->size;
  v.remote_world_ranks = Pointer<const int32_t>(rec->remote_world_ranks);
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

int32_t* GroupWorldRanks(MPI_Group group, int32_t n) {
  if (n <= 0) return nullptr;
  int* in = static_cast<int*>(malloc(sizeof(int) * static_cast<size_t>(n)));
  int32_t* out = static_cast<int32_t*>(malloc(sizeof(int32_t) * static_cast<size_t>(n)));
  if (in == nullptr || out == nullptr) {
    free(in);
    free(out);
    return nullptr;
  }
  for (int32_t i = 0; i < n; ++i) in[i] = i;
  int* translated = reinterpret_cast<int*>(out);
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
    out->local = GroupWorldRanks(group, size);
    PMPI_Group_free(&group);
  }
  if (out->inter) {
    int remote_size = 0;
    PMPI_Comm_remote_size(comm, &remote_size);
    out->remote_size = remote_size;
    MPI_Group remote = MPI_GROUP_NULL;
    if (PMPI_Comm_remote_group(comm, &remote) == MPI_SUCCESS) {
      out->remote = GroupWorldRanks(remote, remote_size);
      PMPI_Group_free(&remote);
    }
  }
  return true;
}

Inheritance InheritanceOf(const CommView& parent) {
  Inheritance in;
  if (parent.inter || parent.world_ranks == nullptr || parent.size <= 0) return in;
  const mpidbg_comm_record* rec = g_by_handle.Find(parent.handle);
  // The view and the record agree unless the handle was reused since the view was taken.
  if (rec == nullptr || rec->job_id != parent.job_id || rec->topology != MPIDBG_TOPO_NONE ||
      (rec->hdr.flags & MPIDBG_COMM_INTER) != 0 || rec->rank < 0 || rec->rank >= parent.size) {
    return in;
  }
  in.known = true;
  in.rank = rec->rank;
  in.errhandler = __atomic_load_n(&rec->errhandler, __ATOMIC_RELAXED);
  return in;
}

bool ReadDuplicateMembers(MPI_Comm comm, const CommView& parent, const Inheritance& inherited,
                          Members* out) {
  if (parent.inter || parent.world_ranks == nullptr || parent.size <= 0) {
    return ReadMembers(comm, out);
  }
  *out = Members{};
  int rank = inherited.rank;
  if (!inherited.known && PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return false;
  out->rank = rank;
  out->local_size = parent.size;
  const size_t bytes = sizeof(int32_t) * static_cast<size_t>(parent.size);
  out->local = static_cast<int32_t*>(malloc(bytes));
  if (out->local != nullptr) memcpy(out->local, parent.world_ranks, bytes);
  return true;
}

void FreeMembers(Members* m) {
  free(m->local);
  free(m->remote);
  m->local = m->remote = nullptr;
  core::FreeArray(m->remote_job_id);
  core::FreeArray(m->remote_job_ranks);
  m->remote_job_id = mpidbg_array{0, 0, 1};
  m->remote_job_ranks = mpidbg_array{0, 0, sizeof(int32_t)};
}

uint64_t MemberHashOf(const Members& m) {
  return core::MemberHash(m.local, m.local == nullptr ? 0 : m.local_size, m.remote,
                          m.remote == nullptr ? 0 : m.remote_size, m.inter);
}

void PublishComm(MPI_Comm comm, Members* m, uint64_t job_id, const CommOrigin& origin) {
  const uint64_t handle = HandleToU64(comm);
  // What MPI has attached to the new communicator, read before the record opens.
  mpidbg_array topo_args{0, 0, sizeof(int32_t)};
  const bool inherited = origin.inherited.known;
  const int32_t topology =
      inherited ? MPIDBG_TOPO_NONE : ReadTopology(comm, origin.reorder, &topo_args);
  const uint64_t errhandler = inherited ? origin.inherited.errhandler : ErrhandlerOf(comm);
  const int32_t fortran_index = static_cast<int32_t>(PMPI_Comm_c2f(comm));
  const bool predefined = (origin.flags & MPIDBG_REC_PREDEFINED) != 0;

  auto* hdr = g_comm_table.Create(origin.flags | (m->inter ? MPIDBG_COMM_INTER : 0u) |
                                  TopologyFlag(topology));
  if (hdr == nullptr) {
    FreeMembers(m);
    core::FreeArray(topo_args);
    return;
  }
  auto* rec = reinterpret_cast<mpidbg_comm_record*>(hdr);
  rec->handle = handle;
  rec->job_id = job_id;
  rec->parent_job_id = origin.parent_job_id;
  rec->world_ranks = AddressOf(m->local);
  rec->remote_world_ranks = AddressOf(m->remote);
  rec->create_serial = core::CounterAdd(&mpidbg_runtime_root.create_counter, uint64_t{1});
  rec->rank = m->rank;
  rec->size = m->local == nullptr ? 0 : m->local_size;
  rec->remote_size = m->inter ? m->remote_size : 0;
  rec->creator = origin.creator;
  rec->split_color = origin.split_color;
  rec->split_key = origin.split_key;
  core::CopyName(rec->name, sizeof rec->name, origin.name);
  rec->free_serial = 0;
  rec->errhandler = errhandler;
  rec->info = origin.info;
  rec->topo_args = topo_args;
  rec->attributes = mpidbg_array{0, 0, sizeof(int64_t)};
  rec->fortran_index = fortran_index;
  rec->topology = topology;
  // The coarse clock, as every object's creation time (the tick keeper's word).
  rec->create_time_ns = predefined ? 0 : core::CoarseRealtimeNs();
  rec->create_pc = predefined ? 0 : CurrentCallSite();
  rec->remote_job_id = m->remote_job_id;
  rec->remote_job_ranks = m->remote_job_ranks;
  m->local = m->remote = nullptr;  // owned by the record now
  m->remote_job_id = mpidbg_array{0, 0, 1};
  m->remote_job_ranks = mpidbg_array{0, 0, sizeof(int32_t)};

  mpidbg_comm_record* stale = nullptr;
  {
    core::SpinGuard guard(g_lock);
    g_comm_table.EndCreate(hdr);
    mpidbg_comm_record* previous = nullptr;
    g_by_handle.Insert(rec, &previous);
    // A handle still mapped to an older record means that communicator was freed by a
    // path the runtime did not see (MPI hands out a live communicator's handle only
    // once): the older record is an orphan MPI has released.
    if (previous != nullptr && previous != rec) {
      stale = previous;
      MarkFreedLocked(stale, /*released=*/true);
    }
    SweepUnreleasedLocked();
  }
  if (stale != nullptr) g_orphans.Add(&stale->hdr, &ReleaseCommOrphan, nullptr);
}

uint64_t NextCreationCounter(uint64_t key) {
  core::SpinGuard guard(g_lock);
  uint64_t value = 0;
  g_counters.FindAsWriter(key, &value);
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
  mpidbg_comm_record* rec = FindLocked(comm);
  if (rec == nullptr) return;
  g_comm_table.BeginUpdate(&rec->hdr);
  core::CopyName(rec->name, sizeof rec->name, name);
  g_comm_table.EndUpdate(&rec->hdr);
}

namespace {

// Replaces the attribute array with one where `keyval` maps to `value` (set) or is
// absent (!set). Pairs are kept in keyval order.
void ChangeAttribute(MPI_Comm comm, int keyval, uint64_t value, bool set) {
  mpidbg_array old{0, 0, sizeof(int64_t)};
  {
    core::SpinGuard guard(g_lock);
    mpidbg_comm_record* rec = FindLocked(comm);
    if (rec == nullptr) return;
    old = rec->attributes;
    const int64_t* pairs = core::ArrayData<int64_t>(old);
    const uint32_t n = old.count / 2;
    // At most one pair more; built whole, then swapped in (records.h: mpidbg_array).
    auto* fresh = static_cast<int64_t*>(malloc(sizeof(int64_t) * 2 * (n + 1)));
    if (fresh == nullptr) return;
    uint32_t out = 0;
    bool placed = !set;
    for (uint32_t i = 0; i < n; ++i) {
      const int64_t k = pairs[2 * i];
      if (k == keyval) continue;
      if (!placed && k > keyval) {
        fresh[2 * out] = keyval;
        fresh[2 * out + 1] = static_cast<int64_t>(value);
        ++out;
        placed = true;
      }
      fresh[2 * out] = k;
      fresh[2 * out + 1] = pairs[2 * i + 1];
      ++out;
    }
    if (!placed) {
      fresh[2 * out] = keyval;
      fresh[2 * out + 1] = static_cast<int64_t>(value);
      ++out;
    }
    mpidbg_array next{0, 0, sizeof(int64_t)};
    if (out != 0) {
      next.address = AddressOf(fresh);
      next.count = 2 * out;
    } else {
      free(fresh);
    }
    g_comm_table.BeginUpdate(&rec->hdr);
    rec->attributes = next;
    g_comm_table.EndUpdate(&rec->hdr);
  }
  core::FreeArray(old);
}

}  // namespace

void SetCommAttribute(MPI_Comm comm, int keyval, uint64_t value) {
  ChangeAttribute(comm, keyval, value, /*set=*/true);
}

void DeleteCommAttribute(MPI_Comm comm, int keyval) {
  ChangeAttribute(comm, keyval, 0, /*set=*/false);
}

int* CommAttributeKeyvals(MPI_Comm comm, uint32_t* n) {
  *n = 0;
  core::SpinGuard guard(g_lock);
  const mpidbg_comm_record* rec = FindLocked(comm);
  if (rec == nullptr || rec->attributes.count < 2) return nullptr;
  const int64_t* pairs = core::ArrayData<int64_t>(rec->attributes);
  const uint32_t count = rec->attributes.count / 2;
  auto* keyvals = static_cast<int*>(malloc(sizeof(int) * count));
  if (keyvals == nullptr) return nullptr;
  for (uint32_t i = 0; i < count; ++i) keyvals[i] = static_cast<int>(pairs[2 * i]);
  *n = count;
  return keyvals;
}

uint64_t SetCommErrhandler(MPI_Comm comm, uint64_t errhandler) {
  core::SpinGuard guard(g_lock);
  mpidbg_comm_record* rec = FindLocked(comm);
  if (rec == nullptr) return 0;
  const uint64_t previous = rec->errhandler;
  g_comm_table.BeginUpdate(&rec->hdr);
  rec->errhandler = errhandler;
  g_comm_table.EndUpdate(&rec->hdr);
  return previous;
}

void SetCommInfo(MPI_Comm comm, uint64_t info) {
  core::SpinGuard guard(g_lock);
  mpidbg_comm_record* rec = FindLocked(comm);
  if (rec == nullptr) return;
  g_comm_table.BeginUpdate(&rec->hdr);
  rec->info = info;
  g_comm_table.EndUpdate(&rec->hdr);
}

mpidbg_comm_record* DetachCommForFree(uint64_t handle) {
  core::SpinGuard guard(g_lock);
  mpidbg_comm_record* rec = g_by_handle.Find(handle);
  if (rec != nullptr) g_by_handle.CompareErase(handle, rec);
  return rec;
}

void ReattachComm(mpidbg_comm_record* rec) {
  if (rec == nullptr) return;
  core::SpinGuard guard(g_lock);
  if (g_by_handle.Find(rec->handle) != nullptr) return;  // a newer one took it
  mpidbg_comm_record* previous = nullptr;
  g_by_handle.Insert(rec, &previous);
}

bool MarkCommFreed(mpidbg_comm_record* rec, uint64_t* errhandler) {
  if (rec == nullptr) return false;
  {
    core::SpinGuard guard(g_lock);
    SweepUnreleasedLocked();
    // MPI keeps a freed communicator until its pending operations complete.
    const bool released = !RequestsUseJobId(rec->job_id);
    MarkFreedLocked(rec, released);
    // Without memory to remember it, the record just stays unreleased.
    if (!released) (void)AddUnreleasedLocked(rec);
    if (errhandler != nullptr) *errhandler = rec->errhandler;
  }
  g_orphans.Add(&rec->hdr, &ReleaseCommOrphan, nullptr);
  return true;
}

bool CommsUseErrhandler(uint64_t errhandler) {
  bool used = false;
  ForEachRecord(mpidbg_runtime_root.comms, [&](mpidbg_record_header* h) {
    auto* rec = reinterpret_cast<mpidbg_comm_record*>(h);
    if (!used && (__atomic_load_n(&h->flags, __ATOMIC_RELAXED) & MPIDBG_REC_FREED) == 0 &&
        __atomic_load_n(&rec->errhandler, __ATOMIC_RELAXED) == errhandler)
      used = true;
  });
  return used;
}

void ReleaseWorldGroup() {
  if (g_world_group != MPI_GROUP_NULL) PMPI_Group_free(&g_world_group);
  g_world_group = MPI_GROUP_NULL;
}

void NoteCommInOperations(uint64_t job_id) {
  if (job_id != 0) g_comms_in_operations.Add(job_id);
}

}  // namespace mpidbg::rt
