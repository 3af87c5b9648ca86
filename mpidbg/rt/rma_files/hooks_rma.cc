// hooks_rma.cc — windows, their synchronisation, and one-sided communication
// (gen/calls_rma.def). PMPI_* only.
#include "rt/rma_files/hooks_rma.h"

#include "core/normalise.h"
#include "rt/comms/comm_registry.h"
#include "rt/hot/datatype_info.h"
#include "rt/handle_widening.h"
#include "rt/monitor/monitor.h"
#include "rt/hot/operation_registry.h"
#include "rt/process/registry.h"
#include "rt/rma_files/window_state.h"

namespace mpidbg::rt {
namespace {

// The thread record of a call on `win` names the window's communicator.
void ShowWindowComm(CallScope& scope, MPI_Win win) {
  uint64_t handle = 0, job_id = 0;
  if (!WindowComm(win, &handle, &job_id)) return;
  CallDetail& d = scope.detail();
  d.comm_handle = handle;
  d.comm_job_id = job_id;
}

void ShowDatatype(CallScope& scope, int64_t count, MPI_Datatype datatype) {
  CallDetail& d = scope.detail();
  d.count = count;
  if (datatype == MPI_DATATYPE_NULL) return;
  DatatypeInfo info;
  DescribeDatatype(datatype, &info);
  d.datatype = HandleToU64(datatype);
  static_assert(sizeof d.datatype_name == sizeof info.name, "name sizes");
  for (unsigned i = 0; i < sizeof info.name; ++i) d.datatype_name[i] = info.name[i];
}

}  // namespace

// --- creation and free ---
void PreWinCreate(CallScope& scope, WinCreateArgs& args) { scope.SetComm(LookupComm(args.comm)); }

void PostWinCreate(CallScope& scope, WinCreateArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.win == nullptr || *args.win == MPI_WIN_NULL) return;
  WindowOrigin origin;
  origin.creator = scope.call();
  origin.flavor = args.flavor;
  origin.comm = args.comm;
  origin.info = args.info;
  RecordWindow(*args.win, origin);
}

void PreWinFree(CallScope& scope, WinFreeArgs& args) {
  if (args.win == nullptr) return;
  args.saved = HandleToU64(*args.win);
  ShowWindowComm(scope, *args.win);
}

void PostWinFree(CallScope&, WinFreeArgs& args, int rc) {
  if (rc == MPI_SUCCESS && args.saved != 0) ForgetWindow(args.saved);
}

void PreWinAttach(CallScope& scope, WinAttachArgs& args) { ShowWindowComm(scope, args.win); }

void PostWinAttach(CallScope&, WinAttachArgs& args, int rc) {
  if (rc != MPI_SUCCESS) return;
  if (args.attach) {
    WindowAttached(args.win, args.base, args.size);
  } else {
    WindowDetached(args.win, args.base);
  }
}

void PreWinSetName(CallScope&, WinSetNameArgs&) {}

void PostWinSetName(CallScope&, WinSetNameArgs& args, int rc) {
  if (rc == MPI_SUCCESS) WindowRenamed(args.win);
}

void PreWinSetErrhandler(CallScope&, WinErrhandlerArgs&) {}

void PostWinSetErrhandler(CallScope&, WinErrhandlerArgs& args, int rc) {
  if (rc == MPI_SUCCESS) WindowErrhandlerSet(args.win, args.errhandler);
}

// --- synchronisation ---
void PreWinSync(CallScope& scope, WinSyncArgs& args) {
  ShowWindowComm(scope, args.win);
  switch (args.kind) {
    case kWinFence:
      WindowFenceEntered(args.win);
      break;
    case kWinStart:  // the access epoch starts with the call, which may wait for posts
      WindowAccessStarted(args.win, args.group);
      break;
    case kWinPost:
      WindowExposureStarted(args.win, args.group);
      break;
    default:
      break;
  }
}

void PostWinSync(CallScope&, WinSyncArgs& args, int rc) {
  if (rc != MPI_SUCCESS) {
    // A start or post MPI refused opened no epoch.
    if (args.kind == kWinStart) WindowAccessEnded(args.win);
    if (args.kind == kWinPost) WindowExposureEnded(args.win);
    return;
  }
  switch (args.kind) {
    case kWinFence:
      WindowFenced(args.win, args.assert_bits);
      break;
    case kWinLock:
      WindowLocked(args.win, args.rank, args.lock_type);
      break;
    case kWinUnlock:
      WindowUnlocked(args.win, args.rank);
      break;
    case kWinLockAll:
      WindowLockedAll(args.win);
      break;
    case kWinUnlockAll:
      WindowUnlockedAll(args.win);
      break;
    case kWinComplete:
      WindowAccessEnded(args.win);
      break;
    case kWinWait:
      WindowExposureEnded(args.win);
      break;
    case kWinTest:
      if (args.flag != nullptr && *args.flag != 0) WindowExposureEnded(args.win);
      break;
    default:
      break;
  }
}

// --- one-sided communication ---
void PreRma(CallScope& scope, RmaArgs& args) {
  ShowWindowComm(scope, args.win);
  ShowDatatype(scope, args.count, args.datatype);
}

void PostRma(CallScope& scope, RmaArgs& args, int rc) {
  if (rc != MPI_SUCCESS) return;
  if (MonitorOn()) MonitorRma(scope.thread(), scope.call(), args);
  if (args.request == nullptr || *args.request == MPI_REQUEST_NULL) {
    CountRma(args.win);
    return;
  }
  OperationDescription d;
  d.call = scope.call();
  d.direction = MPIDBG_OPERATION_RMA;
  d.buffer = args.buf;
  d.count = args.count;
  d.datatype = args.datatype;
  d.peer = core::NormaliseRank(args.target, kEncodings);
  d.tag = MPIDBG_TAG_ANY;
  d.target_disp = args.target_disp;
  TrackRmaRequest(args.win, HandleToU64(*args.request), d, scope.thread()->tid);
}

}  // namespace mpidbg::rt
