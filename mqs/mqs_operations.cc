// mqs_operations.cc — the operation iterator of the message-queue interface.
#include "mpidbg/mqs_interface.h"
#include "mqs/pending_operation.h"
#include "plugin/session.h"
#include "mqs/unexpected_queue.h"
#include "plugin/errors.h"
#include "plugin/export.h"

namespace {

using mpidbg::plugin::CommEntry;
using mpidbg::plugin::Cursor;
using mpidbg::plugin::ProcessSession;
using namespace mpidbg::plugin;

}  // namespace

MPIDBG_EXPORT int mqs_setup_operation_iterator(mqs_process* process, int op_class) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr) return kErrOutOfOrder;
  ps->op_cursor = Cursor::kNotSetUp;
  ps->last_op = SIZE_MAX;
  if (mpidbg::plugin::current_comm(ps) == nullptr) {
    return ps->comm_cursor == Cursor::kNotSetUp ? kErrOutOfOrder : kErrNoCurrentComm;
  }
  switch (op_class) {
    case mqs_pending_sends:
    case mqs_pending_receives:
      break;
    case mqs_unexpected_messages: {
      // PMPI sees no receiver's queue: the messages sent here and not yet received are
      // joined from the other processes of the job the debugger has set up (or
      // mqs_no_information when there are none).
      const int rc = mpidbg::mqs::collect_unexpected(ps, *mpidbg::plugin::current_comm(ps),
                                                     &ps->unexpected);
      if (rc != mqs_ok) return rc;
      break;
    }
    default:
      return kErrBadArgument;
  }
  ps->op_class = op_class;
  ps->op_next = 0;
  ps->op_cursor = Cursor::kOn;
  return mqs_ok;
}

MPIDBG_EXPORT int mqs_next_operation(mqs_process* process, mqs_pending_operation* op) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
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
  const CommEntry* comm = mpidbg::plugin::current_comm(ps);
  if (comm == nullptr) return kErrNoCurrentComm;
  if (ps->op_class == mqs_unexpected_messages) {
    if (ps->op_next < ps->unexpected.size()) {
      mpidbg::mqs::to_unexpected_operation(ps->unexpected[ps->op_next], *comm, ps->reader, op);
      ++ps->op_next;
      ps->last_op = SIZE_MAX;  // no operation record behind it
      return mqs_ok;
    }
  } else {
    // The communicator's operations in posting order, which is MPI's matching order.
    const auto& snap = *ps->snapshot;
    for (size_t k = ps->op_next; k < comm->pending_ops; ++k) {
      const size_t at = size_t{comm->first_op} + k;
      if (at >= snap.comm_ops.size() || snap.comm_ops[at] >= snap.operations.size()) break;
      const size_t i = snap.comm_ops[at];
      if (!mpidbg::mqs::op_in_queue(snap.operations[i], *comm, ps->op_class)) continue;
      mpidbg::mqs::to_pending_operation(snap.operations[i], *comm, ps->reader, op);
      ps->op_next = k + 1;
      ps->last_op = i;
      return mqs_ok;
    }
  }
  ps->op_next = SIZE_MAX;
  ps->op_cursor = Cursor::kAtEnd;
  ps->last_op = SIZE_MAX;
  return mqs_end_of_list;
}
