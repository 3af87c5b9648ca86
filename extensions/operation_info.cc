#include "extensions/operation_info.h"

#include <cstdio>
#include <cstring>

#include "plugin/call_names.h"
#include "plugin/comm_names.h"

namespace mpidbg::extensions {

void call_display_name(int call, char* out, size_t size) {
  if (size == 0) return;
  const char* name = plugin::call_name(call);
  if (name != nullptr) {
    std::snprintf(out, size, "%s", name);
  } else if (call == MPIDBG_CALL_NONE) {
    out[0] = '\0';
  } else {
    std::snprintf(out, size, "MPI call %d", call);
  }
}

void fill_operation_info(const plugin::RuntimeSnapshot& snap, const plugin::OperationEntry& op,
                         mpidbg_operation_info* out) {
  const mpidbg_operation_record& r = op.rec;
  std::memset(out, 0, sizeof *out);
  out->size = sizeof *out;
  out->call = r.call;
  out->request = r.request;
  out->comm_id = r.comm_job_id;
  out->comm_handle = r.comm_handle;
  out->buffer = r.buffer;
  out->datatype = r.datatype;
  out->tid = r.tid;
  out->post_serial = r.post_serial;
  out->count = r.count;
  out->bytes = r.bytes;
  out->actual_bytes = r.actual_bytes;
  out->post_time_ns = r.post_time_ns;
  out->direction = r.direction;
  out->mode = r.mode;
  out->status = r.status;
  out->blocking = (r.hdr.flags & MPIDBG_OPERATION_BLOCKING) != 0;
  out->peer = r.peer;
  out->peer_world = r.peer_world;
  out->tag = r.tag;
  out->actual_source = r.actual_source;
  out->actual_tag = r.actual_tag;
  out->persistent = (r.hdr.flags & MPIDBG_OPERATION_PERSISTENT) != 0;
  call_display_name(r.call, out->call_name, sizeof out->call_name);
  std::memcpy(out->datatype_name, r.datatype_name, sizeof out->datatype_name);
  out->datatype_name[sizeof out->datatype_name - 1] = '\0';
  // Only a persistent request can be partitioned; the lookup stays off other operations.
  if (out->persistent != 0) {
    if (const plugin::PartitionEntry* p = snap.find_partition(r.request)) {
      out->partitions = p->rec.partitions;
      out->partitions_done = p->rec.done;
    }
  }
  if (const plugin::CommEntry* comm = snap.find_comm(r.comm_job_id, r.comm_handle)) {
    plugin::comm_display_name(comm->rec, snap.root, false, out->comm_name, sizeof out->comm_name);
  }
}

}  // namespace mpidbg::extensions
