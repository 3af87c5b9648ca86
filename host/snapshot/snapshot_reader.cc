// snapshot_reader.cc — the message-queue call order, from the process summary to the
// last operation of the last communicator. Every loop is bounded: the DLL reads
// untrusted memory and a confused one must not hang the host.
#include "host/snapshot/snapshot_reader.h"

#include <algorithm>
#include <cstdlib>

#include "host/snapshot/extensions_to_model.h"

namespace mpidbg::host {
namespace {

constexpr int kMaxThreads = 1 << 16;
constexpr int kMaxWaited = 1 << 16;
constexpr int kMaxCommunicators = 1 << 17;
constexpr int kMaxOpsPerQueue = 1 << 20;
constexpr mqs_tword_t kMaxGroupSize = 1 << 24;
constexpr int kMaxTrafficEntries = 1 << 20;
constexpr int kMaxMpitEntries = 1 << 16;

template <typename T>
T SizedStruct() {
  T value{};
  value.size = sizeof(T);
  return value;
}

void ReadSummary(MqSession& s, TargetContext& ctx, model::ProcessSnapshot* snap) {
  const ExtensionFunctions& extensions = s.dll().extensions();
  if (extensions.process_get_summary == nullptr) return;
  auto summary = SizedStruct<mpidbg_process_summary>();
  if (extensions.process_get_summary(s.process(), &summary) != mqs_ok) return;
  ApplySummary(summary, &snap->process);
  ctx.global_rank = summary.world_rank;
}

// What the DLL's walk left out, asked once every query ran: reading the threads reads
// their live words too, and counts the ones it could not read.
void ReadDamage(MqSession& s, model::ProcessSnapshot* snap) {
  const ExtensionFunctions& extensions = s.dll().extensions();
  if (extensions.process_get_summary == nullptr) return;
  auto summary = SizedStruct<mpidbg_process_summary>();
  if (extensions.process_get_summary(s.process(), &summary) != mqs_ok) return;
  if (auto damage = DamageFromSummary(summary)) snap->process.damage = damage;
}

void ReadThreads(MqSession& s, const CaptureFacts& facts, model::ProcessSnapshot* snap) {
  const ExtensionFunctions& extensions = s.dll().extensions();
  if (!s.dll().has_thread_extension()) {
    for (int64_t tid : facts.tids) {
      model::Thread t;
      t.tid = tid;
      t.state = "unknown";
      snap->threads.push_back(t);
    }
    return;
  }
  int count = 0;
  if (extensions.thread_count(s.process(), &count) != mqs_ok) return;
  count = std::clamp(count, 0, kMaxThreads);
  for (int i = 0; i < count; ++i) {
    auto info = SizedStruct<mpidbg_thread_info>();
    info.operation.size = sizeof(mpidbg_operation_info);
    if (extensions.thread_get(s.process(), i, &info) != mqs_ok) continue;
    model::Thread t = ThreadFromExtension(info, facts.capture_time_ns);
    int waited = std::clamp(info.waited_count, 0, kMaxWaited);
    for (int k = 0; k < waited; ++k) {
      auto op = SizedStruct<mpidbg_operation_info>();
      int rc = extensions.thread_waited_operation != nullptr
                   ? extensions.thread_waited_operation(s.process(), i, k, &op)
                   : mqs_no_information;
      if (rc == mqs_ok) {
        t.waited.push_back(OperationFromExtension(op));
      } else {
        ++t.waited_unknown;
      }
    }
    snap->threads.push_back(std::move(t));
  }
}

// One queue of the current communicator; nullopt when the DLL does not know it.
std::optional<std::vector<model::Operation>> ReadQueue(MqSession& s, int op_class,
                                                       const model::Communicator& comm) {
  const MqFunctions& f = s.dll().mqs();
  const ExtensionFunctions& extensions = s.dll().extensions();
  if (f.setup_operation_iterator(s.process(), op_class) != mqs_ok) return std::nullopt;
  std::vector<model::Operation> ops;
  for (int n = 0; n < kMaxOpsPerQueue; ++n) {
    mqs_pending_operation mop{};
    if (f.next_operation(s.process(), &mop) != mqs_ok) break;
    model::Operation op;
    auto detail = SizedStruct<mpidbg_operation_info>();
    if (extensions.operation_get_detail != nullptr &&
        extensions.operation_get_detail(s.process(), &detail) == mqs_ok) {
      op = OperationFromExtension(detail);
    } else {
      op = OperationFromMqs(mop, op_class);
    }
    if (op.comm_id.empty()) op.comm_id = comm.id;
    if (op.comm_name.empty()) op.comm_name = comm.name;
    ops.push_back(std::move(op));
  }
  return ops;
}

std::optional<std::string> TopologyName(int32_t topology) {
  switch (topology) {
    case MPIDBG_TOPO_CART: return "cart";
    case MPIDBG_TOPO_GRAPH: return "graph";
    case MPIDBG_TOPO_DIST_GRAPH: return "dist_graph";
    default: return std::nullopt;
  }
}

// The current communicator's topology neighbours; asks twice when the first room was
// too small (the plugin gives the full counts).
std::optional<model::Neighbors> ReadNeighbors(MqSession& s) {
  const auto get = s.dll().extensions().comm_get_neighbors;
  if (get == nullptr) return std::nullopt;
  int room = 64;
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::vector<int> sources(static_cast<size_t>(room)), destinations(static_cast<size_t>(room));
    int ns = 0, nd = 0;
    if (get(s.process(), room, sources.data(), &ns, room, destinations.data(), &nd) != mqs_ok) {
      return std::nullopt;
    }
    if (ns < 0 || nd < 0 || ns > kMaxGroupSize || nd > kMaxGroupSize) return std::nullopt;
    if (ns <= room && nd <= room) {
      sources.resize(static_cast<size_t>(ns));
      destinations.resize(static_cast<size_t>(nd));
      return model::Neighbors{std::move(sources), std::move(destinations)};
    }
    room = std::max(ns, nd);
  }
  return std::nullopt;
}

model::Communicator ReadCommunicator(MqSession& s, const mqs_communicator& mc) {
  const MqFunctions& f = s.dll().mqs();
  const ExtensionFunctions& extensions = s.dll().extensions();
  model::Communicator c;
  c.id = CommIdString(mc.unique_id);
  c.handle = mc.unique_id;
  c.name = FixedString(mc.name);
  c.rank = static_cast<int>(mc.local_rank);
  c.size = static_cast<int>(std::clamp<mqs_tword_t>(mc.size, 0, kMaxGroupSize));
  if (c.size > 0) {
    std::vector<int> group(static_cast<size_t>(c.size), -1);
    if (f.get_comm_group(s.process(), group.data()) == mqs_ok) c.world_ranks = std::move(group);
  }
  auto detail = SizedStruct<mpidbg_comm_detail>();
  if (extensions.comm_get_detail != nullptr &&
      extensions.comm_get_detail(s.process(), &detail) == mqs_ok) {
    c.id = CommIdString(detail.job_id);
    c.handle = detail.handle;
    c.kind = detail.inter != 0 ? "inter" : "intra";
    c.freed = detail.freed != 0;
    c.predefined = detail.predefined != 0;
    c.creator = FixedString(detail.creator_name);
    c.topology = TopologyName(detail.topology);
    if (c.topology) c.neighbors = ReadNeighbors(s);
    int remote = std::clamp<int>(detail.remote_size, 0, kMaxGroupSize);
    if (detail.inter != 0 && remote > 0 && extensions.comm_get_remote_group != nullptr) {
      std::vector<int> group(static_cast<size_t>(remote), -1);
      if (extensions.comm_get_remote_group(s.process(), group.data()) == mqs_ok) {
        c.remote_world_ranks = std::move(group);
      }
    }
    if (detail.inter != 0 && remote > 0 && detail.remote_job != 0 &&
        extensions.comm_get_remote_job_group != nullptr) {
      std::vector<int> group(static_cast<size_t>(remote), -1);
      if (extensions.comm_get_remote_job_group(s.process(), group.data()) == mqs_ok) {
        c.remote_job = model::Communicator::RemoteJob{FixedString(detail.remote_job_id),
                                                      std::move(group)};
      }
    }
  }
  c.pending_sends = ReadQueue(s, mqs_pending_sends, c).value_or(std::vector<model::Operation>{});
  c.pending_receives =
      ReadQueue(s, mqs_pending_receives, c).value_or(std::vector<model::Operation>{});
  c.unexpected = ReadQueue(s, mqs_unexpected_messages, c);
  return c;
}

Status ReadCommunicators(MqSession& s, model::ProcessSnapshot* snap) {
  const MqFunctions& f = s.dll().mqs();
  int rc = f.setup_communicator_iterator(s.process());
  if (rc == mqs_end_of_list || rc == mqs_no_information) return Status::Ok();
  if (rc != mqs_ok) {
    return Status::Unreadable("the message-queue DLL cannot list communicators: " + s.Explain(rc));
  }
  for (int n = 0; n < kMaxCommunicators; ++n) {
    mqs_communicator mc{};
    rc = f.get_communicator(s.process(), &mc);
    if (rc != mqs_ok) break;
    snap->communicators.push_back(ReadCommunicator(s, mc));
    if (f.next_communicator(s.process()) != mqs_ok) break;
  }
  return Status::Ok();
}

void ReadTraffic(MqSession& s, model::ProcessSnapshot* snap) {
  const ExtensionFunctions& extensions = s.dll().extensions();
  if (extensions.traffic_read == nullptr || extensions.traffic_get == nullptr ||
      extensions.logged_send_get == nullptr) {
    return;
  }
  auto summary = SizedStruct<mpidbg_traffic_summary>();
  if (extensions.traffic_read(s.process(), &summary) != mqs_ok) return;
  model::Traffic t;
  t.log_capacity = summary.log_capacity;
  t.sends_logged = summary.sends_logged;
  t.dropped = summary.dropped;
  const int entries = std::clamp(summary.entries, 0, kMaxTrafficEntries);
  for (int i = 0; i < entries; ++i) {
    auto e = SizedStruct<mpidbg_traffic_info>();
    if (extensions.traffic_get(s.process(), i, &e) != mqs_ok) continue;
    t.counts.push_back(TrafficFromExtension(e));
  }
  const int logged = std::clamp(summary.logged_sends, 0, kMaxTrafficEntries);
  for (int i = 0; i < logged; ++i) {
    auto e = SizedStruct<mpidbg_logged_send_info>();
    if (extensions.logged_send_get(s.process(), i, &e) != mqs_ok) continue;
    t.sends.push_back(LoggedSendFromExtension(e));
  }
  snap->traffic = std::move(t);
}

void ReadLaunch(MqSession& s, model::ProcessSnapshot* snap) {
  const ExtensionFunctions& extensions = s.dll().extensions();
  if (extensions.process_get_launch == nullptr) return;
  auto info = SizedStruct<mpidbg_launch_summary>();
  if (extensions.process_get_launch(s.process(), &info) != mqs_ok) return;
  snap->launch = LaunchFromExtension(info);
}

void ReadMpit(MqSession& s, model::ProcessSnapshot* snap) {
  const ExtensionFunctions& extensions = s.dll().extensions();
  if (extensions.mpit_read == nullptr || extensions.mpit_cvar_get == nullptr ||
      extensions.mpit_pvar_get == nullptr || extensions.mpit_category_get == nullptr ||
      extensions.mpit_category_member == nullptr) {
    return;
  }
  auto summary = SizedStruct<mpidbg_mpit_summary>();
  if (extensions.mpit_read(s.process(), &summary) != mqs_ok) return;
  model::MpitCatalogue m;
  m.available = summary.available != 0;
  m.refreshes = summary.refreshes;
  m.captured_time_ns = summary.captured_time_ns;
  const int cvars = std::clamp(summary.cvars, 0, kMaxMpitEntries);
  const int pvars = std::clamp(summary.pvars, 0, kMaxMpitEntries);
  const int categories = std::clamp(summary.categories, 0, kMaxMpitEntries);
  for (int i = 0; i < cvars; ++i) {
    auto v = SizedStruct<mpidbg_mpit_variable>();
    if (extensions.mpit_cvar_get(s.process(), i, &v) == mqs_ok) {
      m.cvars.push_back(MpitVariableFromExtension(v));
    }
  }
  for (int i = 0; i < pvars; ++i) {
    auto v = SizedStruct<mpidbg_mpit_variable>();
    if (extensions.mpit_pvar_get(s.process(), i, &v) == mqs_ok) {
      m.pvars.push_back(MpitVariableFromExtension(v));
    }
  }
  // Members are named, not numbered: indices mean nothing outside this process.
  auto name_of = [&](const std::vector<model::MpitVariable>& vars, int index) {
    return index >= 0 && static_cast<size_t>(index) < vars.size() ? vars[index].name : std::string();
  };
  std::vector<std::string> category_names;
  for (int i = 0; i < categories; ++i) {
    auto c = SizedStruct<mpidbg_mpit_category_info>();
    model::MpitCategory cat;
    if (extensions.mpit_category_get(s.process(), i, &c) == mqs_ok) {
      cat.name = FixedString(c.name);
      cat.description = FixedString(c.description);
      const int members = std::clamp(c.num_cvars + c.num_pvars + c.num_categories, 0, kMaxMpitEntries);
      for (int k = 0; k < members; ++k) {
        int kind = -1, member = -1;
        if (extensions.mpit_category_member(s.process(), i, k, &kind, &member) != mqs_ok) continue;
        if (kind == 0) cat.cvars.push_back(name_of(m.cvars, member));
        if (kind == 1) cat.pvars.push_back(name_of(m.pvars, member));
        if (kind == 2) cat.categories.push_back(std::to_string(member));  // named below
      }
    }
    m.categories.push_back(std::move(cat));
  }
  for (model::MpitCategory& cat : m.categories) {
    for (std::string& sub : cat.categories) {
      const int index = std::atoi(sub.c_str());
      sub = index >= 0 && static_cast<size_t>(index) < m.categories.size() ? m.categories[index].name
                                                                           : std::string();
    }
  }
  snap->mpi_t = std::move(m);
}

}  // namespace

Result<model::ProcessSnapshot> ReadSnapshot(MqSession& session, TargetContext& ctx,
                                            const CaptureFacts& facts) {
  model::ProcessSnapshot snap;
  snap.process.pid = facts.pid;
  snap.process.source = facts.source;
  snap.process.plugin = facts.plugin;
  ReadSummary(session, ctx, &snap);
  int rc = session.dll().mqs().update_communicator_list(session.process());
  if (rc != mqs_ok) {
    return Status::Unreadable("the message-queue DLL cannot read the communicators of process " +
                              std::to_string(facts.pid) + ": " + session.Explain(rc));
  }
  ReadThreads(session, facts, &snap);
  Status st = ReadCommunicators(session, &snap);
  if (!st.ok()) return st;
  ReadTraffic(session, &snap);
  ReadLaunch(session, &snap);
  if (facts.want_mpit) ReadMpit(session, &snap);
  ReadDamage(session, &snap);
  return snap;
}

}  // namespace mpidbg::host
