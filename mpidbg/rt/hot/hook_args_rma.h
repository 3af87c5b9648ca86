// hook_args_rma.h — what the window and RMA wrappers (gen/calls_rma.def) hand their
// hooks.
#ifndef MPIDBG_RT_HOOK_ARGS_RMA_H
#define MPIDBG_RT_HOOK_ARGS_RMA_H

#include <limits.h>
#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

// Window creation: base, size and disp_unit are read back from the window's attributes.
struct WinCreateArgs {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Info info = MPI_INFO_NULL;
  MPI_Win* win = nullptr;
  int flavor = MPIDBG_WIN_CREATE;  // enum mpidbg_win_flavor
};

// MPI_Win_free (sets the handle to MPI_WIN_NULL).
struct WinFreeArgs {
  MPI_Win* win = nullptr;
  uint64_t saved = 0;
};

// MPI_Win_attach (size given) and MPI_Win_detach (size absent).
struct WinAttachArgs {
  MPI_Win win = MPI_WIN_NULL;
  const void* base = nullptr;
  MPI_Aint size = 0;
  bool attach = true;
};

struct WinSetNameArgs {
  MPI_Win win = MPI_WIN_NULL;
  const char* name = nullptr;
};

struct WinErrhandlerArgs {
  MPI_Win win = MPI_WIN_NULL;
  MPI_Errhandler errhandler = MPI_ERRHANDLER_NULL;
};

// Which synchronisation call a WinSyncArgs describes.
enum WinSyncKind {
  kWinFence,
  kWinLock,
  kWinUnlock,
  kWinLockAll,
  kWinUnlockAll,
  kWinPost,
  kWinStart,
  kWinComplete,
  kWinWait,
  kWinTest,
  kWinFlush,  // flush, flush_all, flush_local, flush_local_all, sync: thread state only
};

struct WinSyncArgs {
  MPI_Win win = MPI_WIN_NULL;
  int kind = kWinFlush;
  int rank = INT_MIN;  // lock, unlock, flush targets
  int lock_type = 0;   // MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE
  int assert_bits = 0;
  MPI_Group group = MPI_GROUP_NULL;  // post, start
  int* flag = nullptr;               // test
};

// One-sided communication: the origin buffer's count and datatype, the target.
struct RmaArgs {
  MPI_Win win = MPI_WIN_NULL;
  const void* buf = nullptr;
  int64_t count = 0;  // int, or MPI_Count for the large-count (_c) calls
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  int target = INT_MIN;
  MPI_Aint target_disp = 0;
  MPI_Request* request = nullptr;  // request-based calls (Rput, Rget, ...)
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOK_ARGS_RMA_H
