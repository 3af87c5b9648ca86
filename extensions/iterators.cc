// iterators.cc — detail of what the mqs iterators stand on: the current
// communicator and the operation mqs_next_operation returned last. These answer from the
// snapshot the iterators walk, so they always describe the same objects.
#include <cstring>

#include "extensions/operation_info.h"
#include "extensions/sized_copy.h"
#include "mpidbg/mpidbg_ext.h"
#include "plugin/session.h"
#include "plugin/call_names.h"
#include "plugin/errors.h"
#include "plugin/export.h"
#include "plugin/object_snapshot.h"
#include "plugin/topology_args.h"

namespace {

using mpidbg::plugin::Cursor;
using mpidbg::plugin::ProcessSession;
using namespace mpidbg::plugin;

int comm_of(mqs_process* process, ProcessSession** ps, const CommEntry** comm) {
  *ps = mpidbg::plugin::process_session(process);
  if (*ps == nullptr) return kErrOutOfOrder;
  *comm = mpidbg::plugin::current_comm(*ps);
  if (*comm == nullptr) {
    return (*ps)->comm_cursor == Cursor::kNotSetUp ? kErrOutOfOrder : kErrNoCurrentComm;
  }
  return mqs_ok;
}

// The runtime names the other job only with the remote group's ranks in it, one per
// remote process (records.h: remote_job_ranks); anything else is not trusted.
bool has_remote_job(const mpidbg_comm_record& c) {
  return (c.hdr.flags & MPIDBG_COMM_INTER) != 0 && c.remote_size > 0 &&
         c.remote_job_ranks.count == static_cast<uint32_t>(c.remote_size) &&
         c.remote_job_ranks.address != 0;
}

// The other job's launcher id into out[size] (NUL-terminated), "" when it cannot be read.
void read_remote_job_id(TargetReader& reader, const mpidbg_array& id, char* out, size_t size) {
  out[0] = '\0';
  if (id.address == 0 || id.count == 0 || id.elem_size != 1) return;
  const size_t n = id.count < size - 1 ? id.count : size - 1;
  if (reader.read(TargetAddr(id.address), n, out) != mqs_ok) {
    out[0] = '\0';
    return;
  }
  out[n] = '\0';
}

}  // namespace

MPIDBG_EXPORT int mpidbg_comm_get_detail(mqs_process* process, mpidbg_comm_detail* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  ProcessSession* ps;
  const CommEntry* comm;
  const int rc = comm_of(process, &ps, &comm);
  if (rc != mqs_ok) return rc;
  const mpidbg_comm_record& c = comm->rec;
  mpidbg_comm_detail full;
  std::memset(&full, 0, sizeof full);
  full.creator = c.creator;
  full.handle = c.handle;
  full.job_id = c.job_id;
  full.parent_job_id = c.parent_job_id;
  full.inter = (c.hdr.flags & MPIDBG_COMM_INTER) != 0;
  full.remote_size = full.inter ? c.remote_size : 0;
  full.predefined = (c.hdr.flags & MPIDBG_REC_PREDEFINED) != 0;
  full.freed = (c.hdr.flags & MPIDBG_REC_FREED) != 0;
  full.topology = mpidbg::plugin::topology_kind(c);
  full.split_color = c.split_color;
  mpidbg::extensions::call_display_name(c.creator, full.creator_name, sizeof full.creator_name);
  if (has_remote_job(c)) {
    full.remote_job = 1;
    read_remote_job_id(ps->reader, c.remote_job_id, full.remote_job_id, sizeof full.remote_job_id);
  }
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_comm_get_remote_group(mqs_process* process, int* world_ranks) {
  if (world_ranks == nullptr) return kErrBadArgument;
  ProcessSession* ps;
  const CommEntry* comm;
  const int rc = comm_of(process, &ps, &comm);
  if (rc != mqs_ok) return rc;
  if ((comm->rec.hdr.flags & MPIDBG_COMM_INTER) == 0) return mqs_no_information;
  return read_rank_array(ps->reader, TargetAddr(comm->rec.remote_world_ranks),
                         comm->rec.remote_size, ps->limits, world_ranks);
}

MPIDBG_EXPORT int mpidbg_comm_get_remote_job_group(mqs_process* process, int* world_ranks) {
  if (world_ranks == nullptr) return kErrBadArgument;
  ProcessSession* ps;
  const CommEntry* comm;
  const int rc = comm_of(process, &ps, &comm);
  if (rc != mqs_ok) return rc;
  if (!has_remote_job(comm->rec)) return mqs_no_information;
  return read_rank_array(ps->reader, TargetAddr(comm->rec.remote_job_ranks.address),
                         comm->rec.remote_size, ps->limits, world_ranks);
}

MPIDBG_EXPORT int mpidbg_comm_get_neighbors(mqs_process* process, int max_sources, int* sources,
                                            int* num_sources, int max_destinations,
                                            int* destinations, int* num_destinations) {
  if (num_sources == nullptr || num_destinations == nullptr || max_sources < 0 ||
      max_destinations < 0 || (max_sources > 0 && sources == nullptr) ||
      (max_destinations > 0 && destinations == nullptr)) {
    return kErrBadArgument;
  }
  *num_sources = *num_destinations = 0;
  ProcessSession* ps;
  const CommEntry* comm;
  const int rc = comm_of(process, &ps, &comm);
  if (rc != mqs_ok) return rc;
  const mpidbg_comm_record& c = comm->rec;
  Topology t;
  t.kind = topology_kind(c);
  // An older runtime flags the topology without recording its arguments.
  if (t.kind == MPIDBG_TOPO_NONE || c.topo_args.count == 0) return mqs_no_information;
  const int read = read_int32_array(ps->reader, c.topo_args, ObjectLimits{}, &t.args);
  if (read != mqs_ok) return read;
  Vec<int32_t> in, out;
  if (!locate_topology(&t) || !topology_neighbors(t, c.rank, c.size, &in, &out)) {
    return mqs_no_information;  // arguments that contradict themselves name nobody
  }
  *num_sources = static_cast<int>(in.size());
  *num_destinations = static_cast<int>(out.size());
  for (size_t i = 0; i < in.size() && i < static_cast<size_t>(max_sources); ++i) {
    sources[i] = in.data()[i];
  }
  for (size_t i = 0; i < out.size() && i < static_cast<size_t>(max_destinations); ++i) {
    destinations[i] = out.data()[i];
  }
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_operation_get_detail(mqs_process* process, mpidbg_operation_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr) return kErrOutOfOrder;
  if (ps->op_cursor == Cursor::kNotSetUp || ps->snapshot == nullptr) return kErrOutOfOrder;
  if (ps->last_op >= ps->snapshot->operations.size()) return kErrPastEnd;
  mpidbg_operation_info full;
  mpidbg::extensions::fill_operation_info(*ps->snapshot, ps->snapshot->operations[ps->last_op], &full);
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}
