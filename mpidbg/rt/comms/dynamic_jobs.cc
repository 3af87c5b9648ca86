// dynamic_jobs.cc — see dynamic_jobs.h.
//
// Why an exchange: a dynamic intercommunicator is made by a collective whose two sides
// are different jobs. Each side sees its own members as world ranks, the others only as
// a group it cannot translate, and the other job's launcher id is in that job's
// environment. One PMPI_Allgather over the intercommunicator (each process sends its
// world rank and its job's launcher id, and gets those of every remote process) is the
// smallest exchange that gives both. It runs where both sides are anyway inside the
// collective creating call (after PMPI returned, and in the child right after
// PMPI_Init, which is where MPI itself connects the child to its parent), so it adds no
// new point where a program can block. Not on a hot path: once per such communicator.
#include "rt/comms/dynamic_jobs.h"

#include <stdlib.h>
#include <string.h>

#include "core/job_id.h"
#include "core/record_arrays.h"
#include "rt/comms/comm_registry.h"
#include "rt/process/launch_info.h"

namespace mpidbg::rt {
namespace {

bool g_exchange = true;

// What each process tells the other side. Plain bytes (MPI_BYTE): both sides run this
// runtime on the same machine architecture as MPI's own heterogeneity rules require.
struct JobCard {
  int32_t world_rank;
  char job_id[sizeof(mpidbg_launch_info::job_id)];
};

// The other side's cards, or false (no memory, or MPI refused the collective: then
// neither side's record gets the remote job, and both fall back to local ids).
bool ExchangeCards(MPI_Comm comm, int32_t world_rank, int32_t remote_size, JobCard** cards) {
  *cards = nullptr;
  if (remote_size <= 0) return false;
  JobCard mine;
  memset(&mine, 0, sizeof mine);
  mine.world_rank = world_rank;
  strncpy(mine.job_id, LaunchJobId(), sizeof mine.job_id - 1);
  auto* theirs = static_cast<JobCard*>(calloc(static_cast<size_t>(remote_size), sizeof(JobCard)));
  if (theirs == nullptr) {
    // The other side waits for our part all the same: answer it into a fixed buffer
    // when the remote group fits, then drop theirs. (Larger: nothing to answer with.)
    static JobCard spare[64];
    if (remote_size <= 64) {
      PMPI_Allgather(&mine, sizeof mine, MPI_BYTE, spare, sizeof(JobCard), MPI_BYTE, comm);
    }
    return false;
  }
  if (PMPI_Allgather(&mine, sizeof mine, MPI_BYTE, theirs, sizeof(JobCard), MPI_BYTE, comm) !=
      MPI_SUCCESS) {
    free(theirs);
    return false;
  }
  *cards = theirs;
  return true;
}

size_t BoundedLength(const char* s, size_t max) {
  size_t n = 0;
  while (n < max && s[n] != '\0') ++n;
  return n;
}

uint64_t SideHash(const char* job_id, size_t length, const int32_t* ranks, int32_t count) {
  uint64_t h = core::TagHash("dynamic-side");
  for (size_t i = 0; i < length; ++i) h = core::Combine(h, static_cast<uint8_t>(job_id[i]));
  return core::Combine(h, core::HashRanks(ranks, count));
}

// The remote group is in another job when our world cannot translate any of it.
bool RemoteIsOtherJob(const Members& m) {
  if (m.remote == nullptr) return true;
  for (int32_t i = 0; i < m.remote_size; ++i) {
    if (m.remote[i] != MPIDBG_RANK_UNKNOWN) return false;
  }
  return true;
}

// The other side names our own job: both are one job (an MPI_Open_port inside it).
bool SameJob(const JobCard* cards) {
  const char* own = LaunchJobId();
  const size_t length = BoundedLength(cards[0].job_id, sizeof cards[0].job_id);
  return own[0] != '\0' && length == strlen(own) && memcmp(own, cards[0].job_id, length) == 0;
}

// The id without the exchange (it is off, or failed): from what this side knows, so it
// differs from the other side's id.
uint64_t OneSidedId(int32_t call, uint64_t parent_job_id, const Members& m) {
  const uint64_t key = core::NonZero(core::Combine(
      core::Combine(core::TagHash("dynamic"), static_cast<uint64_t>(call)),
      core::Combine(parent_job_id, MemberHashOf(m))));
  return core::IntercommJobId(key, NextCreationCounter(key));
}

// Both sides derive the same id: each side hashed as (job id, world ranks in its job),
// the two hashes combined in a fixed order, a counter per pair (the same two groups
// may connect more than once, and both sides do so in the same order).
uint64_t SharedId(const Members& m, const JobCard* cards) {
  const char* own = LaunchJobId();
  const uint64_t local = SideHash(own, strlen(own), m.local, m.local ? m.local_size : 0);
  int32_t* ranks = static_cast<int32_t*>(malloc(sizeof(int32_t) * static_cast<size_t>(m.remote_size)));
  if (ranks == nullptr) return 0;
  for (int32_t i = 0; i < m.remote_size; ++i) ranks[i] = cards[i].world_rank;
  // Every remote process names the same job (one side is one job); the first speaks.
  const size_t length = BoundedLength(cards[0].job_id, sizeof cards[0].job_id);
  const uint64_t remote = SideHash(cards[0].job_id, length, ranks, m.remote_size);
  free(ranks);
  const uint64_t lo = local < remote ? local : remote;
  const uint64_t hi = local < remote ? remote : local;
  const uint64_t key =
      core::NonZero(core::Combine(core::Combine(core::TagHash("dynamic-pair"), lo), hi));
  return core::IntercommJobId(key, NextCreationCounter(key));
}

// The remote job's id and ranks into m (owned by m, then by the record).
void AttachRemoteJob(const JobCard* cards, Members* m) {
  const size_t length = BoundedLength(cards[0].job_id, sizeof cards[0].job_id);
  m->remote_job_id = core::MakeArray(cards[0].job_id, length, 1);
  int32_t* ranks = static_cast<int32_t*>(malloc(sizeof(int32_t) * static_cast<size_t>(m->remote_size)));
  if (ranks == nullptr) return;
  for (int32_t i = 0; i < m->remote_size; ++i) ranks[i] = cards[i].world_rank;
  m->remote_job_ranks = core::MakeArray(ranks, static_cast<uint64_t>(m->remote_size), sizeof(int32_t));
  free(ranks);
}

int32_t OwnWorldRank() {
  int rank = -1;
  if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS) return MPIDBG_RANK_UNKNOWN;
  return rank;
}

}  // namespace

void ReadDynamicSettings() {
  const char* value = getenv("MPIDBG_DYNAMIC_EXCHANGE");
  g_exchange = !(value != nullptr && strcmp(value, "0") == 0);
}

void PublishDynamicComm(MPI_Comm comm, int32_t call, uint64_t parent_job_id, uint64_t info,
                        bool exchange) {
  Members m;
  if (!ReadMembers(comm, &m)) return;
  CommOrigin origin;
  origin.creator = call;
  origin.parent_job_id = parent_job_id;
  origin.info = info;
  JobCard* cards = nullptr;
  if (!exchange || !g_exchange || !m.inter || !ExchangeCards(comm, OwnWorldRank(), m.remote_size, &cards)) {
    PublishComm(comm, &m, OneSidedId(call, parent_job_id, m), origin);
    return;
  }
  uint64_t id = SharedId(m, cards);
  if (id == 0) id = OneSidedId(call, parent_job_id, m);
  if (SameJob(cards)) {
    // A port inside one job (accept and connect by ranks of the same job): the remote
    // ranks are ranks of our own world. Taken from the other side, since a group
    // translation may not know them (Open MPI's connecting side answers
    // MPI_UNDEFINED).
    for (int32_t i = 0; m.remote != nullptr && i < m.remote_size; ++i) {
      m.remote[i] = cards[i].world_rank;
    }
  } else if (RemoteIsOtherJob(m)) {
    AttachRemoteJob(cards, &m);
  }
  free(cards);
  PublishComm(comm, &m, id, origin);
}

void PublishParentAtInit() {
  MPI_Comm parent = MPI_COMM_NULL;
  if (PMPI_Comm_get_parent(&parent) != MPI_SUCCESS || parent == MPI_COMM_NULL) return;
  PublishDynamicComm(parent, MPIDBG_CALL_MPI_Comm_get_parent, 0, 0, /*exchange=*/true);
}

}  // namespace mpidbg::rt
