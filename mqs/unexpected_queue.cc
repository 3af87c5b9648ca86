#include "mqs/unexpected_queue.h"

#include <cstdio>
#include <cstring>

#include "plugin/call_names.h"
#include "plugin/errors.h"

namespace mpidbg::mqs {

using plugin::CommEntry;
using plugin::debugger_delete;
using plugin::debugger_new;
using plugin::first_process_info;
using plugin::kMaxUnexpectedPerFlow;
using plugin::ProcessSession;
using plugin::RuntimeSnapshot;
using plugin::UnexpectedMessage;

namespace {

// The job-wide id of MPI_COMM_WORLD in a snapshot: processes of one job share it.
uint64_t world_job_id(const RuntimeSnapshot& snap) {
  for (const CommEntry& c : snap.comms) {
    if ((c.rec.hdr.flags & MPIDBG_REC_PREDEFINED) != 0 &&
        plugin::same_handle(c.rec.handle, snap.root.comm_world_handle, snap.root.handle_size)) {
      return c.rec.job_id;
    }
  }
  return 0;
}

// A process's job identity, learnt once (it is fixed after MPI_Init) from its current
// snapshot or, without one, from a decode that leaves its iterators alone.
int learn_identity(ProcessSession* ps) {
  if (ps->world_job != 0) return mqs_ok;
  int rc = ensure_root(ps);
  if (rc != mqs_ok) return rc;
  const RuntimeSnapshot* snap = ps->snapshot;
  RuntimeSnapshot* fresh = nullptr;
  if (snap == nullptr) {
    fresh = debugger_new<RuntimeSnapshot>();
    if (fresh == nullptr) return plugin::kErrNoMemory;
    rc = plugin::decode_snapshot(ps->reader, ps->root_addr, ps->limits, fresh);
    snap = fresh;
  }
  if (rc == mqs_ok && snap->root.process_state == MPIDBG_PROCESS_RUNNING) {
    ps->world_job = world_job_id(*snap);
    ps->world_rank = snap->root.world_rank;
  }
  debugger_delete(fresh);
  return rc;
}

// A process's traffic, read again only when its generation moved (every MPI call
// moves it, so an unchanged generation means unchanged counters).
int sender_traffic(ProcessSession* ps, const plugin::TrafficSnapshot** out) {
  uint64_t generation = 0;
  int rc = plugin::read_root_generation(ps->reader, ps->root_addr, &generation);
  if (rc != mqs_ok) return rc;
  if (ps->sender_traffic == nullptr || ps->sender_generation != generation) {
    mpidbg_root root{};
    rc = plugin::read_runtime_root(ps->reader, ps->root_addr, ps->limits, &root);
    if (rc != mqs_ok) return rc;
    rc = replace_traffic(ps, root, &ps->sender_traffic);
    if (rc != mqs_ok) return rc;
    ps->sender_generation = root.generation;
  }
  *out = ps->sender_traffic;
  return mqs_ok;
}

// The comm rank of world rank `world` among `count` ranks at `ranks`, or -1.
int32_t comm_rank_of(plugin::TargetReader& reader, plugin::TargetAddr ranks, int32_t count,
                     int32_t world) {
  for (int32_t i = 0; i < count; ++i) {
    int32_t w = -1;
    if (plugin::read_rank_at(reader, ranks, count, i, &w) != mqs_ok) return -1;
    if (w == world) return i;
  }
  return -1;
}

}  // namespace

int collect_unexpected(ProcessSession* ps, const CommEntry& comm,
                       plugin::Vec<UnexpectedMessage>* out) {
  out->clear();
  if (learn_identity(ps) != mqs_ok || ps->world_job == 0 || ps->world_rank < 0) {
    return mqs_no_information;
  }
  // The other processes of this job the debugger has set up (one per rank).
  int others = 0;
  for (_mqs_process_info* info = first_process_info(); info != nullptr; info = info->next) {
    ProcessSession* other = &info->state;
    if (other == ps || learn_identity(other) != mqs_ok) continue;
    if (other->world_job == ps->world_job && other->world_rank >= 0 &&
        other->world_rank != ps->world_rank) {
      ++others;
    }
  }
  if (others == 0) return mqs_no_information;
  const plugin::TrafficSnapshot* mine = nullptr;
  if (sender_traffic(ps, &mine) != mqs_ok) return mqs_no_information;
  for (_mqs_process_info* info = first_process_info(); info != nullptr; info = info->next) {
    ProcessSession* sender = &info->state;
    if (sender != ps && (sender->world_job != ps->world_job || sender->world_rank < 0 ||
                         sender->world_rank == ps->world_rank)) {
      continue;
    }
    const plugin::TrafficSnapshot* theirs = nullptr;
    if (sender_traffic(sender, &theirs) != mqs_ok) continue;  // its traffic is unreadable
    if (sender == ps) mine = theirs;  // the same read; `mine` may have been replaced
    if (!join_unexpected(*mine, ps->world_rank, *theirs, sender->world_rank, comm.rec.job_id,
                         kMaxUnexpectedPerFlow, out)) {
      return plugin::kErrNoMemory;
    }
  }
  sort_unexpected(out);
  return mqs_ok;
}

void to_unexpected_operation(const UnexpectedMessage& m, const CommEntry& comm,
                             plugin::TargetReader& reader, mqs_pending_operation* out) {
  std::memset(out, 0, sizeof *out);
  // Sent, not yet matched by a receive: waiting in the receiver's MPI (or on its way).
  out->status = mqs_st_pending;
  const bool inter = comm.rec.remote_size > 0;
  const plugin::TargetAddr ranks(inter ? comm.rec.remote_world_ranks : comm.rec.world_ranks);
  const int32_t count = inter ? comm.rec.remote_size : comm.rec.size;
  const int32_t local = comm_rank_of(reader, ranks, count, m.sender_world);
  out->desired_local_rank = local;
  out->desired_global_rank = m.sender_world;
  out->tag_wild = 0;
  out->desired_tag = m.tag;
  out->desired_length = m.logged ? m.send.bytes : 0;
  out->system_buffer = 1;
  out->buffer = 0;
  out->actual_local_rank = out->desired_local_rank;
  out->actual_global_rank = m.sender_world;
  out->actual_tag = m.tag;
  out->actual_length = out->desired_length;
  int n = 0;
  if (m.logged) {
    const char* call = plugin::call_name(m.send.call);
    std::snprintf(out->extra_text[n++], 64, "%s from world rank %d", call != nullptr ? call : "send",
                  m.sender_world);
    std::snprintf(out->extra_text[n++], 64, "count %lld x datatype 0x%llx",
                  static_cast<long long>(m.send.count),
                  static_cast<unsigned long long>(m.send.datatype));
  } else {
    std::snprintf(out->extra_text[n++], 64, "send from world rank %d (left the send log)",
                  m.sender_world);
  }
  std::snprintf(out->extra_text[n++], 64, "sent, not yet received: message %llu of its flow",
                static_cast<unsigned long long>(m.ordinal));
}

}  // namespace mpidbg::mqs
