#include "mqs/pending_operation.h"

#include <cstdio>
#include <cstring>

#include "plugin/call_names.h"

namespace mpidbg::mqs {
namespace {

using plugin::CommEntry;
using plugin::OperationEntry;
using plugin::TargetAddr;

int mqs_status_of(int32_t status) {
  switch (status) {
    case MPIDBG_OPERATION_MATCHED:
      return mqs_st_matched;
    case MPIDBG_OPERATION_COMPLETE:
      return mqs_st_complete;
    default:
      return mqs_st_pending;
  }
}

// The world rank of `rank` in the group an operation on `comm` addresses: the remote
// group of an intercommunicator, else the local one. -1 when it cannot be told.
mqs_tword_t world_rank_of(const CommEntry& comm, int32_t rank, plugin::TargetReader& reader) {
  if (rank < 0) return rank;
  const bool inter = (comm.rec.hdr.flags & MPIDBG_COMM_INTER) != 0;
  const TargetAddr array(inter ? comm.rec.remote_world_ranks : comm.rec.world_ranks);
  const int32_t count = inter ? comm.rec.remote_size : comm.rec.size;
  int32_t world = -1;
  if (plugin::read_rank_at(reader, array, count, rank, &world) != mqs_ok) return -1;
  return world;
}

const char* mode_text(int32_t mode) {
  switch (mode) {
    case MPIDBG_MODE_STANDARD:
      return "standard send";
    case MPIDBG_MODE_SYNCHRONOUS:
      return "synchronous send";
    case MPIDBG_MODE_BUFFERED:
      return "buffered send";
    case MPIDBG_MODE_READY:
      return "ready send";
    default:
      return nullptr;
  }
}

// Up to five lines for people reading the queue; not meant to be parsed.
void fill_extra_text(const mpidbg_operation_record& r, char (*lines)[64]) {
  int n = 0;
  const char* call = plugin::call_name(r.call);
  char call_buf[32];
  if (call == nullptr) {
    std::snprintf(call_buf, sizeof call_buf, "MPI call %d", r.call);
    call = call_buf;
  }
  if (r.direction == MPIDBG_OPERATION_PROBE) {
    std::snprintf(lines[n++], 64, "%s: waits for a matching message", call);
  } else {
    std::snprintf(lines[n++], 64, "%s", call);
  }
  if (r.datatype_name[0] != '\0') {
    std::snprintf(lines[n++], 64, "count %lld x %s", static_cast<long long>(r.count),
                  r.datatype_name);
  } else {
    std::snprintf(lines[n++], 64, "count %lld x datatype 0x%llx", static_cast<long long>(r.count),
                  static_cast<unsigned long long>(r.datatype));
  }
  if ((r.hdr.flags & MPIDBG_OPERATION_BLOCKING) != 0 || r.request == 0) {
    std::snprintf(lines[n++], 64, "blocking call in thread %llu",
                  static_cast<unsigned long long>(r.tid));
  } else {
    std::snprintf(lines[n++], 64, "%srequest 0x%llx",
                  (r.hdr.flags & MPIDBG_OPERATION_PERSISTENT) != 0 ? "persistent " : "",
                  static_cast<unsigned long long>(r.request));
  }
  if (const char* mode = mode_text(r.mode)) std::snprintf(lines[n++], 64, "%s", mode);
}

}  // namespace

bool op_in_queue(const OperationEntry& op, const CommEntry& comm, int op_class) {
  const mpidbg_operation_record& r = op.rec;
  if (r.comm_job_id != comm.rec.job_id || r.comm_handle != comm.rec.handle) return false;
  if ((r.hdr.flags & MPIDBG_OPERATION_INACTIVE) != 0) return false;
  switch (op_class) {
    case mqs_pending_sends:
      return r.direction == MPIDBG_OPERATION_SEND;
    case mqs_pending_receives:
      return r.direction == MPIDBG_OPERATION_RECV || r.direction == MPIDBG_OPERATION_PROBE;
    default:
      return false;  // collectives and anything else are not message queues
  }
}

void to_pending_operation(const OperationEntry& op, const CommEntry& comm, plugin::TargetReader& reader,
                          mqs_pending_operation* out) {
  const mpidbg_operation_record& r = op.rec;
  std::memset(out, 0, sizeof *out);
  out->status = mqs_status_of(r.status);
  out->desired_local_rank = r.peer;
  if (r.peer_world >= 0) {
    out->desired_global_rank = r.peer_world;
  } else if (r.peer >= 0) {
    // The runtime did not know the world rank; the communicator's group does.
    out->desired_global_rank = world_rank_of(comm, r.peer, reader);
  } else {
    out->desired_global_rank = r.peer;  // a wildcard: the same normalised value
  }
  out->tag_wild = r.tag == MPIDBG_TAG_ANY;
  out->desired_tag = r.tag;
  out->desired_length = r.bytes;
  out->system_buffer = r.mode == MPIDBG_MODE_BUFFERED;
  out->buffer = static_cast<mqs_taddr_t>(r.buffer);
  if (r.direction == MPIDBG_OPERATION_SEND) {
    out->actual_local_rank = out->desired_local_rank;
    out->actual_global_rank = out->desired_global_rank;
    out->actual_tag = out->desired_tag;
    out->actual_length = out->desired_length;
  } else if (out->status >= mqs_st_matched) {
    out->actual_local_rank = r.actual_source;
    out->actual_global_rank = world_rank_of(comm, r.actual_source, reader);
    out->actual_tag = r.actual_tag;
    out->actual_length = r.actual_bytes;
  } else {
    out->actual_local_rank = -1;
    out->actual_global_rank = -1;
    out->actual_tag = -1;
    out->actual_length = 0;
  }
  fill_extra_text(r, out->extra_text);
}

}  // namespace mpidbg::mqs
