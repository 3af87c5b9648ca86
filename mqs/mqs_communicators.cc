// mqs_communicators.cc — the communicator iterator of the message-queue interface.
#include <cstring>

#include "mpidbg/mqs_interface.h"
#include "plugin/session.h"
#include "plugin/comm_names.h"
#include "plugin/errors.h"
#include "plugin/export.h"

namespace {

using mpidbg::plugin::CommEntry;
using mpidbg::plugin::Cursor;
using mpidbg::plugin::ProcessSession;
using namespace mpidbg::plugin;

// Moves comm_index to the first listed communicator at or after `from`.
void seek_listed(ProcessSession* ps, size_t from) {
  const auto& comms = ps->snapshot->comms;
  size_t i = from;
  while (i < comms.size() && !mpidbg::plugin::comm_is_listed(comms[i])) ++i;
  ps->comm_index = i;
  ps->comm_cursor = i < comms.size() ? Cursor::kOn : Cursor::kAtEnd;
  ps->op_cursor = Cursor::kNotSetUp;
  ps->last_op = SIZE_MAX;
}

// Why there is no current communicator, as a result code.
int no_current_comm(const ProcessSession* ps) {
  return ps->comm_cursor == Cursor::kNotSetUp ? kErrOutOfOrder : kErrNoCurrentComm;
}

}  // namespace

MPIDBG_EXPORT int mqs_setup_communicator_iterator(mqs_process* process) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr || ps->snapshot == nullptr) return kErrOutOfOrder;  // update first
  seek_listed(ps, 0);
  return mqs_ok;
}

MPIDBG_EXPORT int mqs_get_communicator(mqs_process* process, mqs_communicator* comm) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr) return kErrOutOfOrder;
  if (comm == nullptr) return kErrBadArgument;
  const CommEntry* c = mpidbg::plugin::current_comm(ps);
  if (c == nullptr) return no_current_comm(ps);
  std::memset(comm, 0, sizeof *comm);
  // The job-wide id: the same on every member rank, so a debugger can join the ranks.
  comm->unique_id = static_cast<mqs_taddr_t>(c->rec.job_id);
  comm->local_rank = c->rec.rank;
  comm->size = c->rec.size;
  comm_display_name(c->rec, ps->snapshot->root, true, comm->name, sizeof comm->name);
  return mqs_ok;
}

MPIDBG_EXPORT int mqs_get_comm_group(mqs_process* process, int* world_ranks) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr) return kErrOutOfOrder;
  if (world_ranks == nullptr) return kErrBadArgument;
  const CommEntry* c = mpidbg::plugin::current_comm(ps);
  if (c == nullptr) return no_current_comm(ps);
  return read_rank_array(ps->reader, TargetAddr(c->rec.world_ranks), c->rec.size, ps->limits,
                         world_ranks);
}

MPIDBG_EXPORT int mqs_next_communicator(mqs_process* process) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr || ps->snapshot == nullptr) return kErrOutOfOrder;
  switch (ps->comm_cursor) {
    case Cursor::kNotSetUp:
      return kErrOutOfOrder;
    case Cursor::kOn:
      seek_listed(ps, ps->comm_index + 1);
      return ps->comm_cursor == Cursor::kOn ? mqs_ok : mqs_end_of_list;
    case Cursor::kAtEnd:
    case Cursor::kPastEnd:
      ps->comm_cursor = Cursor::kPastEnd;
      return kErrPastEnd;
  }
  return kErrOutOfOrder;
}
