// hook_args.h — what each generated wrapper hands its category's hooks.
//
// The wrapper generator (gen/gen_wrappers.py) fills these from the "roles" column of
// gen/mpi_calls.def; a field a call does not name keeps its default.
#ifndef MPIDBG_RT_HOOK_ARGS_H
#define MPIDBG_RT_HOOK_ARGS_H

#include <limits.h>
#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"
#include "rt/comms/comm_registry.h"
#include "rt/hot/operation_registry.h"

namespace mpidbg::rt {

// "This call has no such argument" for ints that can legitimately be negative.
constexpr int kAbsent = INT_MIN;

struct InitArgs {
  int required = kAbsent;  // MPI_Init_thread's request; absent for MPI_Init
  int* provided = nullptr;
};

struct FinalizeArgs {};

// Calls recorded only as thread state (queries, Iprobe, Cancel, Abort, ...).
struct PlainArgs {
  MPI_Comm comm = MPI_COMM_NULL;
};

struct P2pArgs {
  const void* buf = nullptr;
  int64_t count = 0;  // int, or MPI_Count for the MPI-4 large-count (_c) calls
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  int peer = kAbsent;  // dest or source, in the library's encoding
  int tag = kAbsent;
  MPI_Comm comm = MPI_COMM_NULL;  // MPI_COMM_NULL for message-handle calls (Mrecv)
  int direction = MPIDBG_OPERATION_SEND;
  int mode = MPIDBG_MODE_NONE;
  MPI_Request* request = nullptr;
  // The address of the call's status parameter (role `status=&status`): a hook that
  // needs the status of a call given MPI_STATUS_IGNORE points the parameter at the
  // thread's own status before PMPI runs; the caller sees no difference.
  MPI_Status** status = nullptr;
  MPI_Message* message = nullptr;  // Mprobe/Improbe (out), Mrecv/Imrecv (consumed)
  int* flag = nullptr;             // Improbe
  // Filled by the hooks: the call's communicator (for Mrecv/Imrecv the matched
  // message's), and for Mrecv/Imrecv the handle before MPI nulls it.
  const CommView* view = nullptr;
  uint64_t saved_message = 0;
  // Filled by the hooks (hooks_p2p.h, DescribeEnvelope): peer and tag normalised, the
  // peer's world rank.
  int32_t norm_peer = MPIDBG_RANK_UNKNOWN;
  int32_t peer_world = MPIDBG_RANK_UNKNOWN;
  int32_t norm_tag = MPIDBG_TAG_ANY;
  // A blocking send or receive's envelope in the thread's flight ring (hooks_p2p.h),
  // nullptr when it has an op record instead.
  mpidbg_flight_entry* flight = nullptr;
};

struct SendrecvArgs {
  P2pArgs send;
  P2pArgs recv;
};

struct StartArgs {
  int count = 0;
  MPI_Request* requests = nullptr;
};

enum CompletionKind { kCompleteOne, kCompleteAll, kCompleteAny, kCompleteSome };

struct CompletionArgs {
  int kind = kCompleteOne;
  int count = 1;
  MPI_Request* requests = nullptr;
  int* flag = nullptr;      // Test, Testall, Testany
  int* index = nullptr;     // Waitany, Testany
  int* outcount = nullptr;  // Waitsome, Testsome
  int* indices = nullptr;   // Waitsome, Testsome
  // The address of the status (Wait, Test, Waitany, Testany) or statuses parameter
  // (the others); see P2pArgs::status.
  MPI_Status** status = nullptr;
  MPI_Status** statuses = nullptr;
  int tracked = 0;          // handles saved in the thread's scratch by the Pre hook
  bool saved = false;       // ... with their records' op pointers and SavedRequest copies
  bool receives = false;    // a tracked request is a receive counted at completion
};

struct CancelArgs {
  MPI_Request* request = nullptr;
};

struct RequestFreeArgs {
  MPI_Request* request = nullptr;
  uint64_t saved = 0;  // the handle before the call (MPI sets it to MPI_REQUEST_NULL)
  FreeTicket ticket;   // what the Pre hook marked (operation_registry.h)
};

struct CollArgs {
  MPI_Comm comm = MPI_COMM_NULL;
  int root = kAbsent;
  // The call's count/datatype pair for the thread record, and the pair to use instead
  // when `inplace_buf` is MPI_IN_PLACE (the first pair is then not significant).
  // (int64_t: the large-count _c forms pass MPI_Count.)
  int64_t count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  const void* inplace_buf = nullptr;
  int64_t alt_count = 0;
  MPI_Datatype alt_datatype = MPI_DATATYPE_NULL;
  // The vector collectives' per-rank counts (monitoring): `counts` goes with `datatype`,
  // `alt_counts` with `alt_datatype` (e.g. Alltoallv's sendcounts and recvcounts).
  // Not set by the large-count forms (their counts are MPI_Count arrays).
  const int* counts = nullptr;
  const int* alt_counts = nullptr;
  MPI_Request* request = nullptr;
};

struct CommCreateArgs {
  MPI_Comm parent = MPI_COMM_NULL;
  MPI_Comm* newcomm = nullptr;
  int color = 0;
  int key = 0;
  int tag = 0;
  MPI_Request* request = nullptr;  // MPI_Comm_idup
};

struct CommFreeArgs {
  MPI_Comm* comm = nullptr;
  uint64_t saved = 0;
  mpidbg_comm_record* record = nullptr;  // detached from the handle lookup before the call
};

struct CommSetNameArgs {
  MPI_Comm comm = MPI_COMM_NULL;
  const char* name = nullptr;
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOK_ARGS_H
