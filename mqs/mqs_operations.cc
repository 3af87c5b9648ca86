// mqs_operations.cc — the operation iterator of the message-queue interface.
#include "mpidbg/mqs_interface.h"
#include "mqs/pending_operation.h"
#include "mqs/process_info.h"
#include "plugin/errors.h"
#include "plugin/export.h"

namespace {

using mpidbg::mqs::CommEntry;
using mpidbg::mqs::Cursor;
using mpidbg::mqs::ProcessState;
using namespace mpidbg::plugin;

}  // namespace

MPIDBG_EXPORT int mqs_setup_operation_iterator(mqs_process* process, int op_class) {
  ProcessState* ps = mpidbg::mqs::process_state(process);
  if (ps == nullptr) return kErrOutOfOrder;
  ps->op_cursor = Cursor::kNotSetUp;
  ps->last_op = SIZE_MAX;
  if (mpidbg::mqs::current_comm(ps) == nullptr) {
    return ps->comm_cursor == Cursor::kNotSetUp ? kErrOutOfOrder : kErrNoCurrentComm;
  }
  switch (op_class) {
    case mqs_pending_sends:
    case mqs_pending_receives:
      break;
    case mqs_unexpected_messages:
      // The runtime sees messages only when the application receives them; what the
      // MPI library holds unmatched is not visible from the PMPI layer.
      return mqs_no_information;
    default:
      return kErrBadArgument;
  }
  ps->op_class = op_class;
  ps->op_next = 0;
  ps->op_cursor = Cursor::kOn;
  return mqs_ok;
}

MPIDBG_EXPORT int mqs_next_operation(mqs_process* process, mqs_pending_operation* op) {
  ProcessState* ps = mpidbg::mqs::process_state(process);
  if (ps == nullptr) return kErrOutOfOrder;
  switch (ps->op_cursor) {
    case Cursor::kNotSetUp:
      return kErrOutOfOrder;
    case Cursor::kAtEnd:
    case Cursor::kPastEnd:
      ps->op_cursor = Cursor::kPastEnd;
      return kErrPastEnd;
    case Cursor::kOn:
      break;
  }
  if (op == nullptr) return kErrBadArgument;
  const CommEntry* comm = mpidbg::mqs::current_comm(ps);
  if (comm == nullptr) return kErrNoCurrentComm;
  const auto& ops = ps->snapshot->ops;
  // Operations are sorted by post_serial, which is MPI's matching order.
  for (size_t i = ps->op_next; i < ops.size(); ++i) {
    if (!mpidbg::mqs::op_in_queue(ops[i], *comm, ps->op_class)) continue;
    mpidbg::mqs::to_pending_operation(ops[i], *comm, ps->reader, op);
    ps->op_next = i + 1;
    ps->last_op = i;
    return mqs_ok;
  }
  ps->op_next = ops.size();
  ps->op_cursor = Cursor::kAtEnd;
  ps->last_op = SIZE_MAX;
  return mqs_end_of_list;
}
