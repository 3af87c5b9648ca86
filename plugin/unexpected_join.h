// unexpected_join.h — what one rank has sent to another and the other has not received.
//
// PMPI sees no receiver's unexpected queue. It sees, per (communicator, peer, tag), how
// many sends each rank posted and how many receives each rank completed, and the last
// sends' envelopes (records.h, mpidbg_traffic). MPI delivers one (sender, receiver,
// communicator, tag) flow in order, so the receiver has taken ordinals 1..received of
// that flow and ordinals received+1..sent are still on their way or waiting unmatched
// at the receiver: its unexpected messages. This file joins two ranks' traffic into that
// list; the message-queue front end asks it for every sender it has been set up with.
#ifndef MPIDBG_PLUGIN_UNEXPECTED_JOIN_H
#define MPIDBG_PLUGIN_UNEXPECTED_JOIN_H

#include <cstdint>

#include "mpidbg/records.h"
#include "plugin/debugger_memory.h"
#include "plugin/traffic_snapshot.h"

namespace mpidbg::plugin {

struct UnexpectedMessage {
  int32_t sender_world;         // MPI_COMM_WORLD rank of the sender
  int32_t tag;
  uint64_t comm_job_id;
  uint64_t ordinal;             // number within its flow: 1, 2, ...
  int32_t logged;               // 1: `send` holds the sender's log entry of it
  int32_t reserved;
  // When it was sent as far as the order goes: its log time, never earlier than the
  // message before it in its flow (clocks may step; older messages that left the log
  // take the time of their predecessor, the first ones the earliest time).
  int64_t order_time_ns;
  mpidbg_send_log_entry send;   // envelope from the sender's log (when logged)
};

// Most messages listed per flow: a stuck flow can hold millions.
constexpr uint64_t kMaxUnexpectedPerFlow = 64;

// Appends to `out` the messages the sender (`sender`, world rank `sender_world`) sent on
// communicator `comm_job_id` to world rank `receiver_world` that the receiver
// (`receiver`) has not received, flow by flow in ordinal order, at most `max_per_flow`
// per flow. Returns false only when `out` cannot grow.
bool join_unexpected(const TrafficSnapshot& receiver, int32_t receiver_world,
                     const TrafficSnapshot& sender, int32_t sender_world,
                     uint64_t comm_job_id, uint64_t max_per_flow, Vec<UnexpectedMessage>* out);

// Orders the list the way the receiver would match it as far as PMPI can tell: by
// order_time_ns (flows of different senders interleave by time), then by sender,
// communicator, tag and ordinal — a total order, so damaged times cannot upset it, and
// every flow stays in ordinal order.
void sort_unexpected(Vec<UnexpectedMessage>* list);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_UNEXPECTED_JOIN_H
