// node_stream_merge.h — the framed record streams of many nodes merged into one job as
// they arrive: frames sorted per node (frame_demux.h), each node's record lines read by
// its own node record reader, every rank handed on at once. Only the unfinished line of
// each node is held, never a node's whole text.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "host/collect/node_record_parser.h"
#include "host/fanout/frame_demux.h"
#include "host/model/snapshot.h"
#include "host/util/status.h"

namespace mpidbg::host {

class NodeStreamMerge {
 public:
  explicit NodeStreamMerge(std::function<void(model::ProcessSnapshot&&)> on_rank);
  // Records of any content, each node's read through `sinks`.
  explicit NodeStreamMerge(NodeRecordSinks sinks);

  // A node whose record must come; one that sends nothing is reported unreadable.
  void Expect(const std::string& node);
  // One line of a reader's output (frames of any node, or chatter).
  void Feed(std::string_view transport_line);
  // Every node whose record has not ended yet gets no more input: its stream is
  // unreadable for `why` (a reader that exited early, a timeout).
  void CloseUnfinished(const std::string& why);
  // Only the nodes among `tags` (short or full names), e.g. those one reader reached.
  void CloseUnfinished(const std::set<std::string>& tags, const std::string& why);

  // True when every node expected and every node seen has finished its record.
  bool AllEnded() const;
  int ranks_read() const;
  int ranks_announced() const;

  // One summary per node seen or expected: complete, or why not.
  std::vector<NodeRecordSummary> Finish();

 private:
  NodeRecordLines& RecordOf(const std::string& tag);
  bool Ended(const std::string& tag) const;
  std::string SeenAs(const std::string& expected) const;

  NodeRecordSinks sinks_;
  std::map<std::string, std::unique_ptr<NodeRecordLines>> records_;
  std::set<std::string> expected_;
  FrameDemux demux_;
};

// "node1.cluster" and "node1" name the same host.
std::string ShortHostName(const std::string& name);

}  // namespace mpidbg::host
