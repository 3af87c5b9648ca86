// profile_report.cc — the job's MPI-state profile at MPI_Finalize (rt/process/init_steps.h:
// ProfileBeforeFinalize): every rank stops sampling and symbolises its sites; world
// rank 0 collects the ranks one by one, merges them and writes one file
// ("mpidbg.profile/1", docs/OUTPUT.md). PMPI_* only, on a private duplicate of
// MPI_COMM_WORLD so no message of the application can match ours.
//
// Bounded: rank 0 asks each rank in turn (a token) before that rank sends its size and
// its bytes, so at most one rank's results are in flight or in memory at a time; the
// merge keeps totals and merged sites, and the "ranks" part of the document is rendered
// as each rank arrives.
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <new>

#include "core/clock.h"
#include "core/record_write.h"
#include "rt/process/init_steps.h"
#include "rt/profile/profile.h"
#include "rt/profile/profile_merge.h"
#include "rt/profile/profile_pack.h"
#include "rt/profile/profile_symbols.h"
#include "rt/process/registry.h"
#include "rt/report/report_file.h"

namespace mpidbg::rt {
namespace {

// This rank's results, symbolised. False only when memory ran out.
bool PackThisRank(GrowBuffer<unsigned char>* out) {
  const mpidbg_profile* b = ProfileBlock();
  const mpidbg_root& root = mpidbg_runtime_root;
  ProfilePackBuilder pack;
  ProfileRankHeader& h = pack.header;
  h.rank = root.world_rank;
  h.pid = static_cast<int32_t>(getpid());
  h.signal = b->signal;
  h.clock = b->clock;
  h.period_ns = b->period_ns;
  h.start_time_ns = b->start_time_ns;
  h.stop_time_ns = b->stop_time_ns;
  for (int s = 0; s < 3; ++s) h.samples[s] = __atomic_load_n(&b->samples[s], __ATOMIC_RELAXED);
  h.lost = __atomic_load_n(&b->lost, __ATOMIC_RELAXED);
  h.threads = __atomic_load_n(&b->threads, __ATOMIC_RELAXED);
  h.sampled = b->start_time_ns != 0 ? 1 : 0;
  core::CopyName(h.host, sizeof h.host, root.hostname);
  if (h.sampled) {
    const mpidbg_profile_function* f = ProfileFunctions();
    for (uint32_t c = 0; c < b->function_count; ++c) {
      const uint64_t working = __atomic_load_n(&f[c].working, __ATOMIC_RELAXED);
      const uint64_t blocked = __atomic_load_n(&f[c].blocked, __ATOMIC_RELAXED);
      if (working + blocked != 0) pack.AddFunction(static_cast<int32_t>(c), working, blocked);
    }
    const mpidbg_profile_site* sites = ProfileSites();
    static SiteLocation where;  // 1.5 KiB: not on the stack of whoever called Finalize
    for (uint32_t i = 0; i < b->site_capacity; ++i) {
      const mpidbg_profile_site& s = sites[i];
      if (__atomic_load_n(&s.state, __ATOMIC_ACQUIRE) != MPIDBG_PROFILE_SITE_READY) continue;
      const uint64_t working = __atomic_load_n(&s.working, __ATOMIC_RELAXED);
      const uint64_t blocked = __atomic_load_n(&s.blocked, __ATOMIC_RELAXED);
      if (working + blocked == 0) continue;
      LocateSite(s.address, &where);
      pack.AddSite(s.call, s.address, where.module, where.offset,
                   where.has_symbol ? where.symbol : nullptr, working, blocked);
    }
  }
  return pack.Finish(out);
}

// Sends this rank's bytes to rank 0 when asked (an empty message when packing failed).
void SendToRoot(MPI_Comm comm, const GrowBuffer<unsigned char>& bytes, bool ok) {
  int token = 0;
  PMPI_Recv(&token, 1, MPI_INT, 0, 0, comm, MPI_STATUS_IGNORE);
  uint64_t size = ok ? bytes.size() : 0;
  PMPI_Send(&size, 1, MPI_UINT64_T, 0, 1, comm);
  if (size > 0) {
    PMPI_Send(bytes.data(), static_cast<int>(size), MPI_BYTE, 0, 2, comm);
  }
}

// Rank r's bytes (rank 0 asks, then receives); false when it sent none.
bool ReceiveFrom(MPI_Comm comm, int r, GrowBuffer<unsigned char>* bytes) {
  int token = 1;
  PMPI_Send(&token, 1, MPI_INT, r, 0, comm);
  uint64_t size = 0;
  PMPI_Recv(&size, 1, MPI_UINT64_T, r, 1, comm, MPI_STATUS_IGNORE);
  if (size == 0) return false;
  // The sender announced the bytes, so it sends them: when they are more than rank 0
  // accepts (or memory ran out), they are still received, then dropped, so the sender
  // is not left hanging.
  if (size > kProfileMaxPackBytes || !bytes->Resize(static_cast<uint32_t>(size))) {
    MPI_Status status;
    PMPI_Probe(r, 2, comm, &status);
    int count = 0;
    PMPI_Get_count(&status, MPI_BYTE, &count);
    void* sink = malloc(count > 0 ? static_cast<size_t>(count) : 1);
    PMPI_Recv(sink, sink != nullptr ? count : 0, MPI_BYTE, r, 2, comm, MPI_STATUS_IGNORE);
    free(sink);
    return false;
  }
  PMPI_Recv(bytes->data(), static_cast<int>(size), MPI_BYTE, r, 2, comm, MPI_STATUS_IGNORE);
  return true;
}

// Adds one rank's bytes to the merge and its entry to "ranks".
void AddRank(ProfileJobMerge& merge, JsonWriter& ranks, const GrowBuffer<unsigned char>& bytes,
             bool received, int r) {
  ProfileRankView view;
  if (received && UnpackRank(bytes.data(), bytes.size(), &view) && view.header.rank == r) {
    merge.Add(view);
    RenderProfileRank(ranks, view);
    return;
  }
  merge.AddMissing();
  ranks.BeginObject(true);
  ranks.Key("rank");
  ranks.Int(r);
  ranks.Key("missing");
  ranks.Bool(true);
  ranks.EndObject();
}

const char* JobId() {
  const auto* launch = reinterpret_cast<const mpidbg_launch_info*>(
      static_cast<uintptr_t>(__atomic_load_n(&mpidbg_runtime_root.launch, __ATOMIC_ACQUIRE)));
  return launch != nullptr ? launch->job_id : "";
}

// Rank 0: collects every rank, renders the document, writes it.
void CollectAndWrite(MPI_Comm comm, int size, const GrowBuffer<unsigned char>& mine, bool mine_ok) {
  void* mem = malloc(sizeof(ProfileJobMerge));
  if (mem == nullptr) return;
  auto* merge = new (mem) ProfileJobMerge();
  JsonWriter ranks(1);  // goes in at depth 1, as the document's "ranks"
  ranks.BeginArray();
  AddRank(*merge, ranks, mine, mine_ok, 0);
  GrowBuffer<unsigned char> bytes;
  for (int r = 1; r < size; ++r) {
    const bool received = ReceiveFrom(comm, r, &bytes);
    AddRank(*merge, ranks, bytes, received, r);
  }
  ranks.EndArray();

  JsonWriter doc;
  doc.BeginObject();
  doc.Key("schema");
  doc.String("mpidbg.profile/1");
  doc.Key("job");
  ProfileJobInfo info = {JobId(), size, core::RealtimeNs()};
  merge->Render(doc, info);
  doc.Key("ranks");
  const char* ranks_text = ranks.Text();
  doc.Raw(ranks_text, ranks.Size());
  doc.EndObject();
  merge->~ProfileJobMerge();
  free(mem);

  const ProfileConfig& c = ProfileSettings();
  char path[1024];
  if (c.out[0] != '\0') {
    core::CopyName(path, sizeof path, c.out);
  } else {
    DefaultProfilePath(JobId(), path, sizeof path);
  }
  if (!ranks.ok() || !doc.ok()) {
    fprintf(stderr, "mpidbg: MPI-state profile not written to %s: out of memory\n", path);
    return;
  }
  const char* text = doc.Text();
  if (!WriteReportFile(path, text, doc.Size())) {
    fprintf(stderr, "mpidbg: MPI-state profile not written to %s: %s\n", path, strerror(errno));
  }
}

}  // namespace

void ProfileBeforeFinalize() {
  // Every rank of a job that asked for sampling takes part, sampled or not (a rank
  // that found no free signal still reports), so none waits for another forever.
  if (!ProfileSettings().enabled) return;
  ProfileStop();
  GrowBuffer<unsigned char> mine;
  const bool ok = PackThisRank(&mine);
  MPI_Comm comm = MPI_COMM_NULL;
  if (PMPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS) return;
  int rank = 0, size = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  if (rank == 0) {
    CollectAndWrite(comm, size, mine, ok);
  } else {
    SendToRoot(comm, mine, ok);
  }
  PMPI_Comm_free(&comm);
}

}  // namespace mpidbg::rt
