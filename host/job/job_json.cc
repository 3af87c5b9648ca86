// job_json.cc — the "mpidbg.job/1" document of OUTPUT.md. Keys there are a contract:
// never rename or drop one; extra keys are fine.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>

#include "job/job_analysis.h"
#include "job/stacks_view.h"

namespace mpidbg::job {
namespace {

using nlohmann::json;

json RankJson(const model::Rank& rank) {
  switch (rank.kind) {
    case model::Rank::Kind::kRank: return rank.value;
    case model::Rank::Kind::kAnySource: return "ANY_SOURCE";
    case model::Rank::Kind::kProcNull: return "PROC_NULL";
    case model::Rank::Kind::kUnknown: break;
  }
  return nullptr;
}

json TagJson(const model::Tag& tag) {
  if (tag.any) return "ANY_TAG";
  return tag.value;
}

template <typename T>
json Optional(const std::optional<T>& value) {
  if (!value) return nullptr;
  return *value;
}

// OUTPUT.md "FRAME": the same keys as a snapshot's threads[].frames.
json FramesJson(const std::vector<model::Frame>& frames) {
  json out = json::array();
  char pc[32];
  for (const model::Frame& f : frames) {
    std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(f.pc));
    out.push_back(json{{"function", Optional(f.function)},
                       {"file", Optional(f.file)},
                       {"line", Optional(f.line)},
                       {"module", f.module.empty() ? json(nullptr) : json(f.module)},
                       {"pc", pc}});
  }
  return out;
}

json RankEntry(const RankReport& r) {
  json entry = json{
      {"rank", r.rank},
      {"pid", r.pid},
      {"source", r.source},
      {"state", RankStateName(r.state)},
      {"call", Optional(r.call)},
      {"comm", Optional(r.comm)},
      {"comm_name", Optional(r.comm_name)},
      {"peer", r.peer ? RankJson(*r.peer) : json(nullptr)},
      {"tag", r.tag ? TagJson(*r.tag) : json(nullptr)},
      // additions
      // A process or null (OUTPUT.md): a wildcard names no process.
      {"peer_world", r.peer_world && r.peer_world->is_rank() ? json(r.peer_world->value)
                                                              : json(nullptr)},
      {"root", Optional(r.root)},
      {"arguments_from", r.arguments_from.empty() ? json(nullptr) : json(r.arguments_from)},
      {"recording_paused", r.recording_paused},
      {"summary", r.summary},
      {"threads", r.threads},
      {"blocked_threads", r.blocked_threads},
      // null unless the rank is "unreadable"
      {"error", Optional(r.error)},
      {"error_kind", Optional(r.error_kind)},
      {"frames", FramesJson(r.frames)},
  };
  // Inputs of several jobs only (OUTPUT.md "several jobs"): a single job's document is
  // as it always was.
  if (r.job) {
    entry["job"] = *r.job;
    entry["job_rank"] = Optional(r.job_rank);
  }
  return entry;
}

// Each job of inputs that span several: label, launcher id, and its analysis ranks.
json JobsJson(const std::vector<JobSpan>& jobs) {
  json out = json::array();
  for (const JobSpan& j : jobs) {
    std::vector<int> ranks;
    for (int r = 0; r < j.size; ++r) ranks.push_back(j.first_rank + r);
    out.push_back(json{{"job", j.label},
                       {"job_id", j.job_id.empty() ? json(nullptr) : json(j.job_id)},
                       {"first_rank", j.first_rank},
                       {"size", j.size},
                       {"ranks", FormatRankRanges(ranks)}});
  }
  return out;
}

json DeadlockJson(const DeadlockReport& d) {
  json edges = json::array();
  json wait_sets = json::array();
  for (const WaitRequirement& w : d.waits) {
    if (w.to.size() > kMaxEdgesPerWait) {
      wait_sets.push_back(json{{"from", w.from},
                               {"ranks", FormatRankSet(w.to)},
                               {"count", w.to.size()},
                               {"kind", WaitKindName(w.kind)},
                               {"reason", w.reason},
                               {"tid", w.tid},
                               {"satisfied", w.satisfied}});
      continue;
    }
    for (int to : w.to) {
      edges.push_back(json{{"from", w.from},
                           {"to", to},
                           {"kind", WaitKindName(w.kind)},
                           {"reason", w.reason},
                           {"tid", w.tid},
                           {"satisfied", w.satisfied}});
    }
  }
  return json{{"detected", d.detected},
              {"ranks", d.ranks},
              {"cycle", d.cycle},
              {"edges", std::move(edges)},
              {"wait_sets", std::move(wait_sets)}};
}

json UnmatchedJson(const UnmatchedMessage& m) {
  return json{{"from", m.from},        {"to", m.to},       {"comm", m.comm},
              {"tag", TagJson(m.tag)}, {"bytes", m.bytes}, {"call", m.call},
              {"comm_name", m.comm_name}, {"arrived", m.arrived},
              {"evidence", m.from_counts ? "traffic_counts"
                                         : (m.arrived ? "unexpected_queue" : "pending_send")},
              {"ordinal", m.from_counts ? json(m.ordinal) : json(nullptr)}};
}

json MismatchJson(const CollectiveMismatch& m) {
  json sides = json::array();
  for (const CollectiveMismatch::Side& side : m.sides) {
    sides.push_back(json{{"ranks", side.ranks}, {"call", side.call}, {"root", Optional(side.root)}});
  }
  return json{{"comm", m.comm}, {"comm_name", m.comm_name}, {"sides", std::move(sides)}};
}

// The call tree, nested; depth is bounded by the tree's (kMaxCallPathDepth).
json TreeJson(const CallTreeNode& node) {
  json children = json::array();
  for (const CallTreeNode& child : node.children) children.push_back(TreeJson(child));
  return json{{"name", node.name},
              {"ranks", FormatRankRanges(node.ranks)},
              {"count", node.ranks.size()},
              {"ends_here", node.ends_here},
              {"children", std::move(children)}};
}

// Each class: its ranks, its path (outermost first), and the frames of its lowest rank
// (every rank of the class has the same functions and lines).
json ClassesJson(const JobReport& report) {
  std::map<int, const RankReport*> by_rank;
  for (const RankReport& r : report.ranks) by_rank.emplace(r.rank, &r);
  json out = json::array();
  for (const RankClass& c : report.classes.classes) {
    const RankReport* first = by_rank.count(c.ranks.front()) ? by_rank[c.ranks.front()] : nullptr;
    out.push_back(json{{"ranks", FormatRankRanges(c.ranks)},
                       {"count", c.ranks.size()},
                       {"path", c.path},
                       {"frames", first != nullptr ? FramesJson(first->frames) : json::array()}});
  }
  return out;
}

// The reduced view's verdict (stacks_view.h, OUTPUT.md "STACKS").
json StacksJson(const JobReport& report) {
  const StacksVerdict& v = report.stacks;
  json sides = json::array();
  for (const CollectiveMismatch::Side& side : v.collectives) {
    sides.push_back(json{{"ranks", side.ranks}, {"call", side.call}});
  }
  json progress = nullptr;
  if (v.second_read_seconds > 0) {
    progress = json{{"second_read_seconds", v.second_read_seconds}, {"progressing", v.progressing}};
  }
  return json{{"hung", StacksHung(report)},
              {"all_blocked", v.all_blocked},
              {"blocked", v.blocked},
              {"not_blocked", v.not_blocked},
              {"progress", progress},
              {"different_collectives", std::move(sides)},
              {"ranks_by_order", v.ranks_by_order}};
}

}  // namespace

nlohmann::json ToJson(const JobReport& report) {
  json ranks = json::array();
  for (const RankReport& r : report.ranks) ranks.push_back(RankEntry(r));
  json groups = json::array();
  for (const RankGroup& g : report.groups) {
    groups.push_back(json{{"ranks", FormatRankRanges(g.ranks)},
                          {"summary", g.summary},
                          {"count", g.ranks.size()}});
  }
  json unmatched = json::array();
  for (const UnmatchedMessage& m : report.unmatched) unmatched.push_back(UnmatchedJson(m));
  json mismatches = json::array();
  for (const CollectiveMismatch& m : report.collective_mismatches) {
    mismatches.push_back(MismatchJson(m));
  }
  json inputs = json::array();
  for (const UnreadableInput& u : report.unreadable_inputs) {
    inputs.push_back(json{{"input", u.input},
                          {"hostname", u.hostname.empty() ? json(nullptr) : json(u.hostname)},
                          {"ranks_read", u.ranks_read},
                          {"error", u.error}});
  }
  json unread = json::array();
  for (const UnreadRank& u : report.unread) {
    unread.push_back(json{{"rank", Optional(u.rank)},
                          {"reason", u.reason},
                          {"pid", u.pid > 0 ? json(u.pid) : json(nullptr)},
                          {"source", u.source.empty() ? json(nullptr) : json(u.source)}});
  }
  json left_out = json::array();
  for (const LeftOutProcess& p : report.left_out) {
    left_out.push_back(json{{"pid", p.pid}, {"source", p.source}, {"reason", p.reason}});
  }
  json partial = json::array();
  for (const PartialRank& r : report.partial) {
    partial.push_back(json{{"rank", r.rank >= 0 ? json(r.rank) : json(nullptr)},
                           {"reason", r.reason},
                           {"pid", r.pid > 0 ? json(r.pid) : json(nullptr)},
                           {"source", r.source.empty() ? json(nullptr) : json(r.source)}});
  }
  const bool stacks = report.view == "stacks";
  json doc = json{{"schema", "mpidbg.job/1"},
              {"view", report.view},
              {"stacks", stacks ? StacksJson(report) : json(nullptr)},
              {"ranks", std::move(ranks)},
              {"groups", std::move(groups)},
              {"rank_classes", ClassesJson(report)},
              {"call_tree", TreeJson(report.classes.root)},
              // Not known in the stacks view: null, never "none found".
              {"deadlock", stacks ? json(nullptr) : DeadlockJson(report.deadlock)},
              {"unmatched", stacks ? json(nullptr) : std::move(unmatched)},
              {"hints", report.hints},
              // The stacks view lists the mismatches it proves; null when it proves none.
              {"collective_mismatches",
               stacks && mismatches.empty() ? json(nullptr) : std::move(mismatches)},
              {"incomplete", report.Incomplete()},
              {"unreadable_inputs", std::move(inputs)},
              // The same fact as "incomplete", the other way round, and which ranks.
              {"complete", !report.Incomplete()},
              {"unreadable", std::move(unread)},
              {"partial", std::move(partial)},
              {"world_size", report.world_size > 0 ? json(report.world_size) : json(nullptr)},
              {"waiting_on_unread", report.waiting_on_unread},
              {"left_out", std::move(left_out)}};
  if (!report.jobs.empty()) doc["jobs"] = JobsJson(report.jobs);
  return doc;
}

}  // namespace mpidbg::job
