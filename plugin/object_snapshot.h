// object_snapshot.h — the handle records of every kind beyond communicators, operations
// and threads (groups, datatypes, reduction ops, errhandlers, infos, windows, files,
// messages, sessions), decoded once per runtime generation for the handle queries.
//
// Decoding walks the same slab chains with the same bounds as decode_snapshot
// (runtime_snapshot.h). Side arrays (mpidbg_array) are not read here: a query reads the
// few it shows with read_side_array, bounded by ObjectLimits.
#ifndef MPIDBG_PLUGIN_OBJECT_SNAPSHOT_H
#define MPIDBG_PLUGIN_OBJECT_SNAPSHOT_H

#include <cstdint>

#include "plugin/debugger_memory.h"
#include "mpidbg/records.h"
#include "plugin/runtime_snapshot.h"
#include "plugin/target_addr.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

template <typename Record>
struct ObjectEntry {
  Record rec;
  TargetAddr addr;  // the record slot
};

using GroupEntry = ObjectEntry<mpidbg_group_record>;
using DatatypeEntry = ObjectEntry<mpidbg_datatype_record>;
using ReduceOpEntry = ObjectEntry<mpidbg_reduce_op_record>;
using ErrhandlerEntry = ObjectEntry<mpidbg_errhandler_record>;
using InfoEntry = ObjectEntry<mpidbg_info_record>;
using WindowEntry = ObjectEntry<mpidbg_window_record>;
using FileEntry = ObjectEntry<mpidbg_file_record>;
using MessageEntry = ObjectEntry<mpidbg_message_record>;
using SessionEntry = ObjectEntry<mpidbg_session_record>;

struct ObjectLimits {
  uint32_t max_array_elements = 1u << 22;  // one side array
  uint32_t max_info_bytes = 1u << 20;      // one info object's key/value bytes
};

class ObjectSnapshot {
 public:
  uint64_t generation = 0;  // root.generation this was decoded at
  uint32_t handle_size = 0; // root.handle_size: how many low bytes of a handle compare
  Vec<GroupEntry> groups;   // each table by create_serial
  Vec<DatatypeEntry> datatypes;
  Vec<ReduceOpEntry> reduce_ops;
  Vec<ErrhandlerEntry> errhandlers;
  Vec<InfoEntry> infos;
  Vec<WindowEntry> windows;
  Vec<FileEntry> files;
  Vec<MessageEntry> messages;
  Vec<SessionEntry> sessions;
  SnapshotStats stats;

  // The record a handle value denotes: the live record with that handle if there is
  // one, else the orphan freed last (highest free_serial). Handles compare on the low
  // handle_size bytes. nullptr when none.
  const GroupEntry* find_group(uint64_t handle) const;
  const DatatypeEntry* find_datatype(uint64_t handle) const;
  const ReduceOpEntry* find_reduce_op(uint64_t handle) const;
  const ErrhandlerEntry* find_errhandler(uint64_t handle) const;
  const InfoEntry* find_info(uint64_t handle) const;
  const WindowEntry* find_window(uint64_t handle) const;
  const FileEntry* find_file(uint64_t handle) const;
  const MessageEntry* find_message(uint64_t handle) const;
  const SessionEntry* find_session(uint64_t handle) const;

  // By Fortran index (obj.fortran_index), same preference; nullptr when none.
  const GroupEntry* find_group_f(int32_t index) const;
  const DatatypeEntry* find_datatype_f(int32_t index) const;
  const ReduceOpEntry* find_reduce_op_f(int32_t index) const;
  const ErrhandlerEntry* find_errhandler_f(int32_t index) const;
  const InfoEntry* find_info_f(int32_t index) const;
  const WindowEntry* find_window_f(int32_t index) const;
  const FileEntry* find_file_f(int32_t index) const;
  const MessageEntry* find_message_f(int32_t index) const;
};

// Decodes every object table of the root at `root_addr`; `out` is filled from scratch.
int decode_objects(TargetReader& reader, TargetAddr root_addr, const SnapshotLimits& limits,
                   ObjectSnapshot* out);

// Reads a side array whose elements must be `elem_size` bytes (kErrBadArgument
// otherwise, or when the count passes limits.max_array_elements) into `out`, converting
// each element from the target's byte order (elem_size 1, 4 or 8).
int read_side_array(TargetReader& reader, const mpidbg_array& array, uint32_t elem_size,
                    const ObjectLimits& limits, Vec<uint8_t>* out);
int read_int32_array(TargetReader& reader, const mpidbg_array& array,
                     const ObjectLimits& limits, Vec<int32_t>* out);
int read_int64_array(TargetReader& reader, const mpidbg_array& array,
                     const ObjectLimits& limits, Vec<int64_t>* out);
int read_uint64_array(TargetReader& reader, const mpidbg_array& array,
                      const ObjectLimits& limits, Vec<uint64_t>* out);

// True when two handle values are equal on their low `handle_size` bytes.
bool same_handle(uint64_t a, uint64_t b, uint32_t handle_size);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_OBJECT_SNAPSHOT_H
