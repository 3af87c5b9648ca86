// monitor_rma.cc — one-sided calls counted per target (records.h: put_*, get_*, acc_*
// of mpidbg_monitor_peer), and the world rank of a communicator rank found by the
// communicator's handle (wildcard receives, window targets).
//
// Bytes are origin count x origin datatype size (Fetch_and_op and Compare_and_swap:
// one element). The target's world rank comes from the window's communicator record;
// when that communicator was freed after the window was made (MPI keeps its own copy),
// from the window's group instead (a few calls into MPI, only in that case).
#include <mpi.h>

#include "core/concurrency.h"
#include "core/normalise.h"
#include "mpidbg/call_ids.h"
#include "rt/comms/comm_registry.h"
#include "rt/handle_widening.h"
#include "rt/hot/hook_args_rma.h"
#include "rt/monitor/monitor.h"
#include "rt/process/registry.h"
#include "rt/hot/type_cache.h"
#include "rt/rma_files/window_state.h"

namespace mpidbg::rt {
namespace {

// The world rank of `rank` of the window's group, asked of MPI.
int32_t WindowGroupWorld(MPI_Win win, int rank) {
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  int out = MPI_UNDEFINED;
  if (PMPI_Win_get_group(win, &group) == MPI_SUCCESS &&
      PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
    PMPI_Group_translate_ranks(group, 1, &rank, world, &out);
  }
  if (group != MPI_GROUP_NULL) PMPI_Group_free(&group);
  if (world != MPI_GROUP_NULL) PMPI_Group_free(&world);
  return out >= 0 ? out : MPIDBG_RANK_UNKNOWN;
}

int32_t TargetWorld(MPI_Win win, int32_t target) {
  uint64_t handle = 0, job_id = 0;
  if (WindowComm(win, &handle, &job_id)) {
    const CommView view = LookupComm(HandleFromU64<MPI_Comm>(handle));
    if (view.job_id == job_id && job_id != 0) return PeerWorld(view, target);
  }
  return WindowGroupWorld(win, target);
}

enum RmaKind { kPut, kGet, kAcc, kNotRma };

RmaKind KindOf(int32_t call) {
  switch (call) {
    case MPIDBG_CALL_MPI_Put:
    case MPIDBG_CALL_MPI_Rput:
      return kPut;
    case MPIDBG_CALL_MPI_Get:
    case MPIDBG_CALL_MPI_Rget:
      return kGet;
    case MPIDBG_CALL_MPI_Accumulate:
    case MPIDBG_CALL_MPI_Raccumulate:
    case MPIDBG_CALL_MPI_Get_accumulate:
    case MPIDBG_CALL_MPI_Rget_accumulate:
    case MPIDBG_CALL_MPI_Fetch_and_op:
    case MPIDBG_CALL_MPI_Compare_and_swap:
      return kAcc;
    default:
      return kNotRma;
  }
}

}  // namespace

int32_t MonitorSourceWorld(uint64_t comm_handle, uint64_t job_id, int32_t source) {
  if (comm_handle == 0 || source < 0) return MPIDBG_RANK_UNKNOWN;
  const CommView view = LookupComm(HandleFromU64<MPI_Comm>(comm_handle));
  return view.job_id == job_id && job_id != 0 ? PeerWorld(view, source) : MPIDBG_RANK_UNKNOWN;
}

void MonitorRma(ThreadState* ts, int32_t call, const RmaArgs& args) {
  const RmaKind kind = KindOf(call);
  if (kind == kNotRma || args.win == MPI_WIN_NULL) return;
  const int32_t target = core::NormaliseRank(args.target, kEncodings);
  if (target < 0) return;  // MPI_PROC_NULL
  mpidbg_monitor_peer* p = MonitorPeer(TargetWorld(args.win, target));
  if (p == nullptr) return;
  const int64_t size = args.datatype == MPI_DATATYPE_NULL ? 0 : DatatypeOf(ts, args.datatype).size;
  const uint64_t bytes = MonitorBytes(int64_t{args.count} * size);
  uint64_t* messages = kind == kPut ? &p->put_messages : kind == kGet ? &p->get_messages : &p->acc_messages;
  uint64_t* total = kind == kPut ? &p->put_bytes : kind == kGet ? &p->get_bytes : &p->acc_bytes;
  const bool concurrent = core::Concurrent();
  core::CounterAdd(messages, uint64_t{1}, concurrent);
  core::CounterAdd(total, bytes, concurrent);
}

}  // namespace mpidbg::rt
