// unexpected_queue.h — the unexpected-message queue of one communicator, joined from
// the processes of the job the debugger has set up.
//
// A process alone cannot tell what others sent it (PMPI sees no receiver's queue), so
// the queue is answered only when the debugger has set up at least one other process
// of the same job: then every set-up process (this one included: self-sends) is a
// sender whose counters and send log are joined with this process's receive counters
// (unexpected_join.h). Senders the debugger has not set up are not listed.
#ifndef MPIDBG_MQS_UNEXPECTED_QUEUE_H
#define MPIDBG_MQS_UNEXPECTED_QUEUE_H

#include "mpidbg/mqs_interface.h"
#include "plugin/session.h"
#include "plugin/unexpected_join.h"

namespace mpidbg::mqs {

// Fills `out` (replacing its contents) with the messages sent to this process on
// `comm` and not received yet, in matching order. mqs_no_information when no other
// process of this job is set up or this process keeps no traffic counters.
int collect_unexpected(plugin::ProcessSession* ps, const plugin::CommEntry& comm,
                       plugin::Vec<plugin::UnexpectedMessage>* out);

// One listed message as the message-queue interface shows it.
void to_unexpected_operation(const plugin::UnexpectedMessage& m, const plugin::CommEntry& comm,
                             plugin::TargetReader& reader, mqs_pending_operation* out);

}  // namespace mpidbg::mqs

#endif  // MPIDBG_MQS_UNEXPECTED_QUEUE_H
