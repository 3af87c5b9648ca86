// session.h — what the plugin keeps per image and per process between calls: the
// session every face (mqs/, handles/, extensions/) works in.
//
// Both live in the debugger's memory and are attached to the debugger's objects with
// mqs_put_image_info / mqs_put_process_info. The process session owns the decoded
// snapshots, the positions of the two mqs iterators (communicators, operations), the
// extensions' last reads and the handle interface's decodes; the faces share it, so a
// process set up through one interface is known to the others.
#ifndef MPIDBG_PLUGIN_SESSION_H
#define MPIDBG_PLUGIN_SESSION_H

#include <cstddef>
#include <cstdint>

#include "mpidbg/mqs_interface.h"
#include "plugin/debugger_memory.h"
#include "plugin/metadata_snapshot.h"
#include "plugin/monitor_snapshot.h"
#include "plugin/object_snapshot.h"
#include "plugin/profile_snapshot.h"
#include "plugin/runtime_snapshot.h"
#include "plugin/target_reader.h"
#include "plugin/traffic_snapshot.h"
#include "plugin/unexpected_join.h"

namespace mpidbg::plugin {
// Which interface holds an info.
enum class InfoUser : uint8_t { kMessageQueues = 1, kHandles = 2 };
}  // namespace mpidbg::plugin

// The debugger sees these as opaque; they are defined here.
struct _mqs_image_info {
  mqs_image_callbacks cb{};
  mqs_image* image = nullptr;
  uint8_t users = 0;  // InfoUser bits
  _mqs_image_info* prev = nullptr;  // the list of live image infos
  _mqs_image_info* next = nullptr;
};

namespace mpidbg::plugin {

// Where an iterator stands.
enum class Cursor { kNotSetUp, kOn, kAtEnd, kPastEnd };

struct ProcessSession {
  mqs_process* process = nullptr;
  mqs_process_callbacks cb{};
  mqs_image* image = nullptr;
  mqs_image_callbacks image_cb{};
  TargetReader reader;
  SnapshotLimits limits;

  bool root_known = false;
  TargetAddr root_addr;

  RuntimeSnapshot* snapshot = nullptr;  // null until the first successful decode
  TrafficSnapshot* traffic = nullptr;  // the last mpidbg_traffic_read
  TrafficLimits traffic_limits;
  MpitSnapshot* mpit = nullptr;  // the last mpidbg_mpit_read
  MetadataLimits metadata_limits;
  MonitorSnapshot* monitor = nullptr;  // the last successful mpidbg_monitor_read
  MonitorLimits monitor_limits;
  ProfileSnapshot* profile = nullptr;  // the last successful mpidbg_profile_read
  ProfileLimits profile_limits;

  Cursor comm_cursor = Cursor::kNotSetUp;
  size_t comm_index = 0;  // into snapshot->comms while comm_cursor == kOn

  Cursor op_cursor = Cursor::kNotSetUp;
  int op_class = 0;
  size_t op_next = 0;                  // next index of snapshot->operations to examine
  size_t last_op = SIZE_MAX;           // index of the operation returned last
  // The unexpected queue of the current communicator while op_class is
  // mqs_unexpected_messages (op_next indexes it then).
  Vec<UnexpectedMessage> unexpected;
  // What other processes' unexpected queues need of this one as a sender: its job
  // identity (fixed once MPI_Init has run) and its traffic as of `sender_generation`.
  uint64_t world_job = 0;  // job id of its MPI_COMM_WORLD, 0 until known
  int32_t world_rank = -1;
  TrafficSnapshot* sender_traffic = nullptr;
  uint64_t sender_generation = 0;

  // The handle interface's decodes. It reads `snapshot` when that is current and
  // otherwise decodes its own copy, so a handle query never moves the mqs iterators.
  RuntimeSnapshot* handle_snapshot = nullptr;
  ObjectSnapshot* objects = nullptr;
};

}  // namespace mpidbg::plugin

struct _mqs_process_info {
  mpidbg::plugin::ProcessSession state;
  uint8_t users = 0;  // InfoUser bits
  _mqs_process_info* prev = nullptr;  // the list of live process infos
  _mqs_process_info* next = nullptr;
};

namespace mpidbg::plugin {

// The state attached to `process`, or nullptr when mqs_setup_process did not run.
ProcessSession* process_session(mqs_process* process);

// Finds and checks the runtime root once; later calls reuse the address.
int ensure_root(ProcessSession* ps);

// The state of `process` and its runtime root as it is now, read afresh (for what
// changes without moving the generation: traffic, metadata).
int read_current_root(mqs_process* process, ProcessSession** ps, mpidbg_root* root);

// Decodes a fresh snapshot (replacing the old one only on success) and resets both
// iterators, which pointed into the old one.
int refresh_snapshot(ProcessSession* ps);

// Decodes the traffic block of `root` into a fresh snapshot and, on success only,
// replaces *slot (one of the state's traffic snapshots) with it.
int replace_traffic(ProcessSession* ps, const mpidbg_root& root, TrafficSnapshot** slot);

// Decode the monitoring / sampling block of `root` afresh into ps->monitor / ps->profile.
// On failure the previous decode is dropped too (the getters then answer out of order),
// so a getter never answers from a read older than the last one asked for.
int replace_monitor(ProcessSession* ps, const mpidbg_root& root);
int replace_profile(ProcessSession* ps, const mpidbg_root& root);
void drop_monitor(ProcessSession* ps);
void drop_profile(ProcessSession* ps);

// What mqs_update_communicator_list does: keeps the snapshot when the runtime's
// generation has not moved (one small read, and the threads' live words merged again),
// else decodes afresh; resets both iterators.
int update_snapshot(ProcessSession* ps);

// The snapshot for the extension calls: decoded afresh when there is none yet or the
// runtime's generation moved on since it was taken; else the threads' live words are
// merged again (they change without the generation).
int current_snapshot(ProcessSession* ps, const RuntimeSnapshot** out);

// Whether the mqs communicator list shows this communicator: every live one, and freed
// ones while operations still refer to them.
bool comm_is_listed(const CommEntry& comm);

// The communicator the mqs iterator stands on, or nullptr.
const CommEntry* current_comm(const ProcessSession* ps);

// Frees a process state and everything it owns.
void destroy_process_session(_mqs_process_info* info);

// The image info for `image` with `user` added: the one already attached to the image
// when it is a live info of ours for the same image, else a new one attached with
// mqs_put_image_info. The callbacks are (re)taken from `cb`. Plugin error code.
int acquire_image_info(mqs_image* image, const mqs_image_callbacks* cb, InfoUser user,
                       _mqs_image_info** out);
// Drops `user`; frees the info when no user is left. Ignores infos that are not ours.
void release_image_info(_mqs_image_info* info, InfoUser user);
// Whether `info` is a live image info of this DLL.
bool is_live_image_info(const _mqs_image_info* info);

// The same for process infos. A new process info needs the image set up first
// (kErrOutOfOrder otherwise).
int acquire_process_info(mqs_process* process, const mqs_process_callbacks* cb, InfoUser user,
                         _mqs_process_info** out);
void release_process_info(_mqs_process_info* info, InfoUser user);
bool is_live_process_info(const _mqs_process_info* info);
// Whether any process info is alive (DLL-wide state may be let go when none is).
bool any_process_info();
// The live process infos of every process set up, as a list: the first, then ->next
// (nullptr at the end). The list changes only in set-up and destroy/finalize calls.
_mqs_process_info* first_process_info();

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_SESSION_H
