// pending_operation.h — one runtime operation record as an mqs_pending_operation.
#ifndef MPIDBG_MQS_PENDING_OPERATION_H
#define MPIDBG_MQS_PENDING_OPERATION_H

#include "mpidbg/mqs_interface.h"
#include "plugin/runtime_snapshot.h"
#include "plugin/target_reader.h"

namespace mpidbg::mqs {

// Whether `op` belongs in the queue `op_class` of communicator `comm`: it refers to the
// communicator (job id and handle), is not an inactive persistent request, and is a
// send (mqs_pending_sends) or a receive or blocking probe (mqs_pending_receives).
bool op_in_queue(const plugin::OperationEntry& op, const plugin::CommEntry& comm, int op_class);

// Fills `out`. Ranks and tags are sign-extended, lengths are 64-bit byte counts; a
// matched receive's source is translated to its world rank through the communicator's
// group, read with `reader`.
void to_pending_operation(const plugin::OperationEntry& op, const plugin::CommEntry& comm,
                          plugin::TargetReader& reader, mqs_pending_operation* out);

}  // namespace mpidbg::mqs

#endif  // MPIDBG_MQS_PENDING_OPERATION_H
