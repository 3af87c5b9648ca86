// grequest_check — generalized requests, checked from inside the process (1 rank; the
// runtime linked or LD_PRELOADed): MPI_Grequest_start records a request (direction
// GENERALIZED, extra_state, query function), MPI_Grequest_complete marks it COMPLETE,
// and MPI_Wait (or MPI_Test) that collects it removes it.
// Usage: grequest_check <mpich|openmpi>. Exit status 0 = all passed.
#include <mpi.h>

#include "rt_check.h"

using namespace rtcheck;

namespace {

struct State {
  int queried = 0;
  int freed = 0;
};

int Query(void* extra, MPI_Status* status) {
  static_cast<State*>(extra)->queried += 1;
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}

int Free(void* extra) {
  static_cast<State*>(extra)->freed += 1;
  return MPI_SUCCESS;
}

int Cancel(void*, int) { return MPI_SUCCESS; }

// One request through start, complete and collection by MPI_Wait or MPI_Test.
void Lifecycle(bool by_test) {
  State state;
  MPI_Request req;
  MPI_Grequest_start(&Query, &Free, &Cancel, &state, &req);
  const uint64_t handle = U64(req);
  const mpidbg_operation_record* op = RequestOp(handle);
  RT_CHECK(op != nullptr);
  if (op == nullptr) return;
  RT_CHECK_EQ(op->call, MPIDBG_CALL_MPI_Grequest_start);
  RT_CHECK_EQ(op->direction, MPIDBG_OPERATION_GENERALIZED);
  RT_CHECK_EQ(op->status, MPIDBG_OPERATION_PENDING);
  RT_CHECK_EQ(op->extra_state, Addr(&state));
  RT_CHECK_EQ(op->query_fn, Addr(reinterpret_cast<const void*>(&Query)));
  RT_CHECK_EQ(op->object, 0);
  RT_CHECK_EQ(op->bytes, 0);
  RT_CHECK_EQ(op->file_offset, -1);
  RT_CHECK(op->post_serial != 0);

  if (by_test) {  // not complete yet: a test leaves the request and its record
    int flag = 1;
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    RT_CHECK(!flag);
    RT_CHECK(RequestOp(handle) == op);
  }
  MPI_Grequest_complete(req);
  RT_CHECK(RequestOp(handle) == op);  // complete, not yet collected
  RT_CHECK_EQ(op->status, MPIDBG_OPERATION_COMPLETE);
  if (by_test) {
    int flag = 0;
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    RT_CHECK(flag);
  } else {
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  RT_CHECK(req == MPI_REQUEST_NULL);
  RT_CHECK(RequestOp(handle) == nullptr);
  RT_CHECK_EQ(state.queried, 1);
  RT_CHECK_EQ(state.freed, 1);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  if (Root() != nullptr) {
    Lifecycle(/*by_test=*/false);
    Lifecycle(/*by_test=*/true);
  }
  int rc = Finish(argc > 1 ? argv[1] : "grequest_check");
  MPI_Finalize();
  return rc;
}
