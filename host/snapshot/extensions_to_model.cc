// extensions_to_model.cc — conversions from DLL structures to the host model.
#include "host/snapshot/extensions_to_model.h"

#include <cstddef>

#include "host/util/record_names.h"
#include "mpidbg/records.h"

namespace mpidbg::host {

model::Rank RankFromNormalised(int32_t value) {
  if (value >= 0) return model::Rank::Of(value);
  if (value == MPIDBG_RANK_ANY_SOURCE) return model::Rank::AnySource();
  if (value == MPIDBG_RANK_PROC_NULL) return model::Rank::ProcNull();
  return model::Rank::Unknown();
}

model::Tag TagFromNormalised(int32_t value) {
  model::Tag tag;
  if (value == MPIDBG_TAG_ANY) {
    tag.any = true;
  } else {
    tag.value = value;
  }
  return tag;
}

std::string ThreadLevelName(int32_t level) {
  switch (level) {
    case MPIDBG_THREAD_SINGLE:
      return "MPI_THREAD_SINGLE";
    case MPIDBG_THREAD_FUNNELED:
      return "MPI_THREAD_FUNNELED";
    case MPIDBG_THREAD_SERIALIZED:
      return "MPI_THREAD_SERIALIZED";
    case MPIDBG_THREAD_MULTIPLE:
      return "MPI_THREAD_MULTIPLE";
    default:
      return "";
  }
}

std::string ProcessStateName(int32_t state) {
  switch (state) {
    case MPIDBG_PROCESS_BEFORE_INIT:
      return "before_init";
    case MPIDBG_PROCESS_RUNNING:
      return "running";
    case MPIDBG_PROCESS_FINALIZED:
      return "finalized";
    default:
      return "";
  }
}

std::string ThreadStateName(int32_t state) {
  switch (state) {
    case MPIDBG_THREAD_IN_MPI:
      return "in_mpi";
    case MPIDBG_THREAD_BLOCKED:
      return "blocked";
    default:
      return "not_in_mpi";
  }
}

std::string CallClassName(int32_t call_class) {
  switch (call_class) {
    case MPIDBG_CLASS_P2P:
      return "p2p";
    case MPIDBG_CLASS_WAIT:
      return "wait";
    case MPIDBG_CLASS_COLL:
      return "coll";
    case MPIDBG_CLASS_OTHER:
      return "other";
    default:
      return "";
  }
}

namespace {

std::string StatusName(int32_t status) {
  switch (status) {
    case MPIDBG_OPERATION_MATCHED:
      return "matched";
    case MPIDBG_OPERATION_COMPLETE:
      return "complete";
    default:
      return "pending";
  }
}

std::optional<std::string> ModeName(int32_t mode) {
  const char* name = SendModeName(mode);
  if (name == nullptr) return std::nullopt;
  return std::string(name);
}

}  // namespace

model::Operation OperationFromExtension(const mpidbg_operation_info& info) {
  model::Operation op;
  op.call = FixedString(info.call_name);
  op.status = StatusName(info.status);
  op.is_send = info.direction == MPIDBG_OPERATION_SEND;
  op.peer = RankFromNormalised(info.peer);
  op.peer_world = RankFromNormalised(info.peer_world);
  op.tag = TagFromNormalised(info.tag);
  op.count = info.count;
  op.datatype = FixedString(info.datatype_name);
  if (op.datatype.empty() && info.datatype != 0) op.datatype = HexString(info.datatype);
  op.bytes = info.bytes;
  op.buffer = info.buffer;
  op.mode = op.is_send ? ModeName(info.mode) : std::nullopt;
  if (info.request != 0) op.request = info.request;
  op.blocking = info.blocking != 0;
  if (info.tid != 0) op.tid = static_cast<int64_t>(info.tid);
  if (info.comm_id != 0) op.comm_id = CommIdString(info.comm_id);
  op.comm_name = FixedString(info.comm_name);
  op.post_serial = info.post_serial;
  op.persistent = info.persistent != 0;
  // A plugin before version 4 fills neither (zero): not partitioned.
  if (info.partitions > 0 && info.partitions_done >= 0 && info.partitions_done <= info.partitions) {
    op.partitions = model::Operation::Partitions{info.partitions, info.partitions_done};
  }
  return op;
}

model::Operation OperationFromMqs(const mqs_pending_operation& mop, int op_class) {
  model::Operation op;
  op.is_send = op_class == mqs_pending_sends;
  op.call = op_class == mqs_unexpected_messages ? "unexpected" : (op.is_send ? "send" : "receive");
  switch (mop.status) {
    case mqs_st_matched:
      op.status = "matched";
      break;
    case mqs_st_complete:
      op.status = "complete";
      break;
    default:
      op.status = "pending";
  }
  // The Forum's encoding: -1 is any source; other negatives mean nothing we know.
  auto rank = [](mqs_tword_t r) {
    if (r >= 0 && r <= INT32_MAX) return model::Rank::Of(static_cast<int>(r));
    if (r == -1) return model::Rank::AnySource();
    return model::Rank::Unknown();
  };
  bool actual = op.is_send || mop.status >= mqs_st_matched || op_class == mqs_unexpected_messages;
  op.peer = rank(actual ? mop.actual_local_rank : mop.desired_local_rank);
  op.peer_world = rank(actual ? mop.actual_global_rank : mop.desired_global_rank);
  if (mop.tag_wild != 0 && !actual) {
    op.tag.any = true;
  } else {
    op.tag.value = static_cast<int>(actual ? mop.actual_tag : mop.desired_tag);
  }
  op.bytes = actual ? mop.actual_length : mop.desired_length;
  op.buffer = mop.buffer;
  return op;
}

model::Thread ThreadFromExtension(const mpidbg_thread_info& info, int64_t capture_time_ns) {
  model::Thread t;
  t.tid = static_cast<int64_t>(info.tid);
  t.state = ThreadStateName(info.state);
  t.mpi_calls = info.calls;
  bool in_call = info.state != MPIDBG_THREAD_NOT_IN_MPI && info.call != MPIDBG_CALL_NONE;
  if (in_call) {
    std::string name = FixedString(info.call_name);
    if (!name.empty()) t.call = name;
    t.call_class = CallClassName(info.call_class);
    if (info.entry_time_ns > 0 && capture_time_ns >= info.entry_time_ns) {
      t.seconds_in_call = static_cast<double>(capture_time_ns - info.entry_time_ns) / 1e9;
    }
  }
  if (info.has_operation != 0) t.operation = OperationFromExtension(info.operation);
  if (info.comm_id != 0) t.comm_id = CommIdString(info.comm_id);
  t.comm_name = FixedString(info.comm_name);
  if (info.root >= 0) t.root = info.root;
  t.recording_paused = info.recording_paused != 0;  // 0 from a DLL before version 6
  return t;
}

void ApplySummary(const mpidbg_process_summary& s, model::ProcessInfo* p) {
  if (s.pid > 0) p->pid = s.pid;
  p->rank = s.world_rank;
  p->size = s.world_size;
  p->hostname = FixedString(s.hostname);
  p->mpi_library = FixedString(s.mpi_library);
  p->thread_level = ThreadLevelName(s.thread_level);
  p->state = ProcessStateName(s.process_state);
}

std::optional<model::WalkDamage> DamageFromSummary(const mpidbg_process_summary& s) {
  // A DLL that knows the walk's counts fills the structure past them (size).
  if (s.size < offsetof(mpidbg_process_summary, reserved5)) return std::nullopt;
  model::WalkDamage d;
  d.records_torn = s.records_torn;
  d.records_bad = s.records_bad;
  d.tables_damaged = s.tables_damaged;
  d.rings_damaged = s.rings_damaged;
  d.live_unreadable = s.live_unreadable;
  return d;
}

model::TrafficCount TrafficFromExtension(const mpidbg_traffic_info& info) {
  model::TrafficCount c;
  c.comm_id = CommIdString(info.comm_id);
  c.peer = info.peer;
  c.peer_world = RankFromNormalised(info.peer_world);
  c.tag = info.tag;
  c.sends = info.sends;
  c.receives = info.receives;
  c.send_bytes = info.send_bytes;
  c.receive_bytes = info.receive_bytes;
  return c;
}

model::LoggedSend LoggedSendFromExtension(const mpidbg_logged_send_info& info) {
  model::LoggedSend s;
  s.call = FixedString(info.call_name);
  s.comm_id = CommIdString(info.comm_id);
  s.ordinal = info.ordinal;
  s.peer = info.peer;
  s.peer_world = RankFromNormalised(info.peer_world);
  s.tag = info.tag;
  s.count = info.count;
  s.bytes = info.bytes;
  s.mode = ModeName(info.mode).value_or("standard");
  s.time_ns = info.time_ns;
  return s;
}

namespace {

std::string LauncherName(uint32_t kind) {
  switch (kind) {
    case MPIDBG_LAUNCHER_SINGLETON: return "singleton";
    case MPIDBG_LAUNCHER_HYDRA: return "hydra";
    case MPIDBG_LAUNCHER_ORTE: return "orte";
    case MPIDBG_LAUNCHER_PRRTE: return "prrte";
    case MPIDBG_LAUNCHER_SLURM: return "slurm";
    default: return "unknown";
  }
}

std::string MpitTypeName(int32_t type) {
  switch (type) {
    case MPIDBG_MPIT_INT: return "int";
    case MPIDBG_MPIT_UNSIGNED: return "unsigned";
    case MPIDBG_MPIT_UNSIGNED_LONG: return "unsigned_long";
    case MPIDBG_MPIT_UNSIGNED_LONG_LONG: return "unsigned_long_long";
    case MPIDBG_MPIT_COUNT: return "count";
    case MPIDBG_MPIT_CHAR: return "char";
    case MPIDBG_MPIT_DOUBLE: return "double";
    case MPIDBG_MPIT_BOOL: return "bool";
    default: return "other";
  }
}

std::string PvarClassName(int32_t c) {
  static const char* const kNames[] = {"state",         "level",        "size",    "percentage",
                                       "highwatermark", "lowwatermark", "counter", "aggregate",
                                       "timer",         "generic"};
  return c >= 0 && c < 10 ? kNames[c] : "unknown";
}

}  // namespace

model::LaunchInfo LaunchFromExtension(const mpidbg_launch_summary& info) {
  model::LaunchInfo l;
  l.launcher = FixedString(info.launcher_name);
  if (l.launcher.empty()) l.launcher = LauncherName(info.launcher);
  const std::pair<uint32_t, const char*> kSources[] = {{MPIDBG_LAUNCH_FROM_PMI, "pmi"},
                                                       {MPIDBG_LAUNCH_FROM_PMIX, "pmix"},
                                                       {MPIDBG_LAUNCH_FROM_OMPI, "ompi"},
                                                       {MPIDBG_LAUNCH_FROM_SLURM, "slurm"},
                                                       {MPIDBG_LAUNCH_FROM_MPI, "mpi"}};
  for (const auto& [bit, name] : kSources) {
    if ((info.sources & bit) != 0) l.sources.push_back(name);
  }
  l.rank = info.rank;
  l.world_size = info.world_size;
  l.local_rank = info.local_rank;
  l.local_size = info.local_size;
  l.node_rank = info.node_rank;
  l.appnum = info.appnum;
  l.universe_size = info.universe_size;
  l.pid = info.pid;
  l.mpi_rank = info.mpi_rank;
  l.job_id = FixedString(info.job_id);
  l.host = FixedString(info.host);
  l.pmi_interface = FixedString(info.pmi_interface);
  l.mpi_version = info.mpi_version;
  l.mpi_subversion = info.mpi_subversion;
  l.thread_level_requested = ThreadLevelName(info.thread_level_requested);
  l.debug_gate_hold = info.debug_gate_hold != 0;
  l.orphan_budget = info.orphan_budget;
  l.orphan_keep_all = info.orphan_keep_all != 0;
  l.orphan_count = info.orphan_count;
  l.orphan_evictions = info.orphan_evictions;
  l.orphan_releases = info.orphan_releases;
  return l;
}

model::MpitVariable MpitVariableFromExtension(const mpidbg_mpit_variable& info) {
  model::MpitVariable v;
  v.name = FixedString(info.name);
  v.description = FixedString(info.description);
  v.datatype = MpitTypeName(info.datatype);
  v.verbosity = info.verbosity;
  v.bind = info.bind;
  v.count = info.count;
  if (info.performance != 0) {
    v.var_class = PvarClassName(info.var_class);
    v.readonly = (info.flags & MPIDBG_PVAR_READONLY) != 0;
    v.continuous = (info.flags & MPIDBG_PVAR_CONTINUOUS) != 0;
    v.atomic = (info.flags & MPIDBG_PVAR_ATOMIC) != 0;
    return v;
  }
  v.scope = info.scope;
  if (info.value_valid != 0) {
    switch (info.datatype) {
      case MPIDBG_MPIT_CHAR: v.value = FixedString(info.value_text); break;
      case MPIDBG_MPIT_DOUBLE: v.value = std::to_string(info.value_double); break;
      case MPIDBG_MPIT_BOOL: v.value = info.value_int != 0 ? "true" : "false"; break;
      case MPIDBG_MPIT_UNSIGNED:
      case MPIDBG_MPIT_UNSIGNED_LONG:
      case MPIDBG_MPIT_UNSIGNED_LONG_LONG:
      case MPIDBG_MPIT_COUNT:
        v.value = std::to_string(static_cast<uint64_t>(info.value_int));
        break;
      default: v.value = std::to_string(info.value_int); break;
    }
  }
  return v;
}

}  // namespace mpidbg::host
