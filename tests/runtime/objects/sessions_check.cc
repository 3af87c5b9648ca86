// sessions_check — 2 ranks, run with MPIDBG_ORPHAN_BUDGET=2. A program of the MPI-4
// sessions model that never calls MPI_Init: its session, process-set group and
// communicator are recorded, and their orphans follow the budget read at
// MPI_Session_init. In an MPI without sessions (Open MPI 4.1) it checks that no session
// is recorded. Usage: rt_sessions_<f> <mpich|openmpi>.
#include <mpi.h>
#include <stdint.h>

#include <vector>

#include "rt_check.h"

using namespace rtcheck;

int main(int argc, char** argv) {
#if MPI_VERSION >= 4
  (void)argc;
  (void)argv;
  const mpidbg_root* R = Root();
  MPI_Session session;
  RT_CHECK_EQ(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session), MPI_SUCCESS);
  MPI_Group group;
  MPI_Group_from_session_pset(session, "mpi://WORLD", &group);
  MPI_Comm comm;
  MPI_Comm_create_from_group(group, "org.mpidbg.sessions_check", MPI_INFO_NULL,
                             MPI_ERRORS_RETURN, &comm);
  MPI_Comm_rank(comm, &g_rank);
  if (R == nullptr) return Finish("sessions_check");
  RT_CHECK_EQ(R->process_state, MPIDBG_PROCESS_BEFORE_INIT);
  RT_CHECK_EQ(R->orphan_budget, 2u);  // read at MPI_Session_init

  const auto* s = FindObject<mpidbg_session_record>(R->sessions, U64(session));
  RT_CHECK(s != nullptr);
  if (s != nullptr) {
    RT_CHECK_EQ(s->obj.creator, MPIDBG_CALL_MPI_Session_init);
    RT_CHECK_EQ(s->info, 0);
    RT_CHECK_EQ(s->errhandler, U64(MPI_ERRORS_RETURN));
  }
  const auto* g = FindObject<mpidbg_group_record>(R->groups, U64(group));
  RT_CHECK(g != nullptr);
  if (g != nullptr) {
    RT_CHECK_EQ(g->size, 2);
    RT_CHECK_EQ(g->rank, g_rank);
    RT_CHECK_STREQ(g->obj.name, "mpi://WORLD");
    // No MPI_COMM_WORLD to translate against in this model.
    RT_CHECK_EQ(g->world_ranks.count, 2u);
    for (uint32_t i = 0; i < g->world_ranks.count; ++i)
      RT_CHECK_EQ(ArrayAt<int32_t>(g->world_ranks)[i], MPIDBG_RANK_UNKNOWN);
  }
  const mpidbg_comm_record* c = nullptr;
  for (const auto* r : Records<mpidbg_comm_record>(R->comms))
    if (r->handle == U64(comm) && (r->hdr.flags & MPIDBG_REC_FREED) == 0) c = r;
  RT_CHECK(c != nullptr);
  if (c != nullptr) {
    RT_CHECK_EQ(c->creator, MPIDBG_CALL_MPI_Comm_create_from_group);
    RT_CHECK_EQ(c->rank, g_rank);
    RT_CHECK_EQ(c->size, 2);
    RT_CHECK_EQ(c->errhandler, U64(MPI_ERRORS_RETURN));
    uint64_t ids[2] = {0, 0};
    MPI_Allgather(&c->job_id, 1, MPI_UINT64_T, ids, 1, MPI_UINT64_T, comm);
    RT_CHECK(ids[0] != 0 && ids[0] == ids[1]);
  }

  const uint64_t evictions = R->orphan_evictions;
  const uint64_t session_handle = U64(session);
  MPI_Comm_free(&comm);
  MPI_Group_free(&group);
  RT_CHECK_EQ(MPI_Session_finalize(&session), MPI_SUCCESS);
  RT_CHECK_EQ(R->orphan_count, 2u);
  RT_CHECK_EQ(R->orphan_evictions, evictions + 1);  // the communicator, freed first
  const auto* o = FindObject<mpidbg_session_record>(R->sessions, session_handle, false);
  RT_CHECK(o != nullptr && (o->obj.hdr.flags & MPIDBG_REC_FREED) != 0);
  return Finish("sessions_check");
#else
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  if (const mpidbg_root* R = Root()) RT_CHECK_EQ(R->sessions.live_count, 0u);
  MPI_Finalize();
  return Finish("sessions_check");
#endif
}
