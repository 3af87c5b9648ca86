// process_info.h — what the plugin keeps per image and per process between calls.
//
// Both live in the debugger's memory and are attached to the debugger's objects with
// mqs_put_image_info / mqs_put_process_info. The process info owns the decoded snapshot
// and the positions of the two mqs iterators (communicators, operations); the mpidbg_*
// extension functions read the same state.
#ifndef MPIDBG_MQS_PROCESS_INFO_H
#define MPIDBG_MQS_PROCESS_INFO_H

#include <cstddef>
#include <cstdint>
#include <cstdint>

#include "mpidbg/mqs_interface.h"
#include "plugin/runtime_snapshot.h"
#include "plugin/metadata_snapshot.h"
#include "plugin/target_reader.h"
#include "plugin/traffic_snapshot.h"

// The debugger sees these as opaque; they are defined here.
struct _mqs_image_info {
  mqs_image_callbacks cb;
};

namespace mpidbg::mqs {

using plugin::CommEntry;
using plugin::OpEntry;
using plugin::RuntimeSnapshot;
using plugin::TargetAddr;

// Where an iterator stands.
enum class Cursor { kNotSetUp, kOn, kAtEnd, kPastEnd };

struct ProcessState {
  mqs_process* process = nullptr;
  mqs_process_callbacks cb{};
  mqs_image* image = nullptr;
  mqs_image_callbacks image_cb{};
  plugin::TargetReader reader;
  plugin::SnapshotLimits limits;

  bool root_known = false;
  TargetAddr root_addr;

  RuntimeSnapshot* snapshot = nullptr;  // null until the first successful decode
  plugin::TrafficSnapshot* traffic = nullptr;  // the last mpidbg_traffic_read
  plugin::TrafficLimits traffic_limits;
  plugin::MpitSnapshot* mpit = nullptr;  // the last mpidbg_mpit_read
  plugin::MetadataLimits metadata_limits;

  Cursor comm_cursor = Cursor::kNotSetUp;
  size_t comm_index = 0;  // into snapshot->comms while comm_cursor == kOn

  Cursor op_cursor = Cursor::kNotSetUp;
  int op_class = 0;
  size_t op_next = 0;                  // next index of snapshot->ops to examine
  size_t last_op = SIZE_MAX;           // index of the operation returned last
};

}  // namespace mpidbg::mqs

struct _mqs_process_info {
  mpidbg::mqs::ProcessState state;
};

namespace mpidbg::mqs {

// The state attached to `process`, or nullptr when mqs_setup_process did not run.
ProcessState* process_state(mqs_process* process);

// Finds and checks the runtime root once; later calls reuse the address.
int ensure_root(ProcessState* ps);

// The state of `process` and its runtime root as it is now, read afresh (for what
// changes without moving the generation: traffic, metadata).
int read_current_root(mqs_process* process, ProcessState** ps, mpidbg_root* root);

// Decodes a fresh snapshot (replacing the old one only on success) and resets both
// iterators, which pointed into the old one.
int refresh_snapshot(ProcessState* ps);

// The snapshot for the extension calls: decoded afresh when there is none yet or the
// runtime's generation moved on since it was taken.
int current_snapshot(ProcessState* ps, const RuntimeSnapshot** out);

// Whether the mqs communicator list shows this communicator: every live one, and freed
// ones while operations still refer to them.
bool comm_is_listed(const CommEntry& comm);

// The communicator the mqs iterator stands on, or nullptr.
const CommEntry* current_comm(const ProcessState* ps);

// Frees a process state and everything it owns.
void destroy_process_state(_mqs_process_info* info);

}  // namespace mpidbg::mqs

#endif  // MPIDBG_MQS_PROCESS_INFO_H
