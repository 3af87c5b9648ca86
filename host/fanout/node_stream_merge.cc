// node_stream_merge.cc — frames → record lines → ranks, per node.
#include "host/fanout/node_stream_merge.h"

#include <utility>

namespace mpidbg::host {

std::string ShortHostName(const std::string& name) { return name.substr(0, name.find('.')); }

NodeStreamMerge::NodeStreamMerge(std::function<void(model::ProcessSnapshot&&)> on_rank)
    : NodeStreamMerge(NodeRecordSinks{"snapshot", std::move(on_rank), nullptr}) {}

NodeStreamMerge::NodeStreamMerge(NodeRecordSinks sinks)
    : sinks_(std::move(sinks)),
      demux_([this](const std::string& tag, std::string&& line) { RecordOf(tag).Line(line); },
             [this](const std::string& tag) { RecordOf(tag); }, kMaxNodeRecordLineBytes) {}

NodeRecordLines& NodeStreamMerge::RecordOf(const std::string& tag) {
  auto found = records_.find(tag);
  if (found == records_.end()) {
    found = records_.emplace(tag, std::make_unique<NodeRecordLines>("reader on " + tag, sinks_))
                .first;
  }
  return *found->second;
}

void NodeStreamMerge::Expect(const std::string& node) { expected_.insert(node); }

void NodeStreamMerge::Feed(std::string_view transport_line) { demux_.Feed(transport_line); }

bool NodeStreamMerge::Ended(const std::string& tag) const {
  auto stream = demux_.nodes().find(tag);
  if (stream != demux_.nodes().end() && !stream->second.broken.ok()) return true;
  auto record = records_.find(tag);
  return record != records_.end() && record->second->ended();
}

std::string NodeStreamMerge::SeenAs(const std::string& expected) const {
  if (records_.count(expected) != 0) return expected;
  for (const auto& [tag, record] : records_) {
    if (ShortHostName(tag) == ShortHostName(expected)) return tag;
  }
  return "";
}

void NodeStreamMerge::CloseUnfinished(const std::string& why) {
  for (const std::string& node : expected_) {
    if (SeenAs(node).empty()) demux_.Close(node, Status::Unreadable(why));
  }
  for (const auto& [tag, stream] : demux_.nodes()) {
    if (!Ended(tag)) demux_.Close(tag, Status::Unreadable(why));
  }
}

void NodeStreamMerge::CloseUnfinished(const std::set<std::string>& tags, const std::string& why) {
  std::set<std::string> shorts;
  for (const std::string& t : tags) shorts.insert(ShortHostName(t));
  std::vector<std::string> close;
  for (const std::string& node : expected_) {
    if (shorts.count(ShortHostName(node)) != 0 && SeenAs(node).empty()) close.push_back(node);
  }
  for (const auto& [tag, stream] : demux_.nodes()) {
    if (shorts.count(ShortHostName(tag)) != 0 && !Ended(tag)) close.push_back(tag);
  }
  for (const std::string& tag : close) demux_.Close(tag, Status::Unreadable(why));
}

bool NodeStreamMerge::AllEnded() const {
  for (const std::string& node : expected_) {
    std::string tag = SeenAs(node);
    if (tag.empty() ? demux_.nodes().count(node) == 0 || !Ended(node) : !Ended(tag)) return false;
  }
  for (const auto& [tag, record] : records_) {
    if (!Ended(tag)) return false;
  }
  return true;
}

int NodeStreamMerge::ranks_read() const {
  int n = 0;
  for (const auto& [tag, record] : records_) n += record->summary().ranks_read;
  return n;
}

int NodeStreamMerge::ranks_announced() const {
  int n = 0;
  for (const auto& [tag, record] : records_) n += std::max(0, record->summary().ranks_announced);
  return n;
}

std::vector<NodeRecordSummary> NodeStreamMerge::Finish() {
  std::vector<NodeRecordSummary> out;
  for (const std::string& node : expected_) {
    if (!SeenAs(node).empty()) continue;
    RecordOf(node);  // a node that never answered: its (empty) record says so below
  }
  for (auto& [tag, record] : records_) {
    NodeRecordSummary s = record->Finish();
    if (s.hostname.empty()) s.hostname = tag;
    auto stream = demux_.nodes().find(tag);
    if (stream != demux_.nodes().end() && !stream->second.broken.ok()) {
      s.status = stream->second.broken;
      s.complete = false;
    } else if (stream == demux_.nodes().end()) {
      s.status = Status::Unreadable("no frame arrived from its reader");
      s.complete = false;
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace mpidbg::host
