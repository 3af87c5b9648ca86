// frame_demux.h — the frames of many nodes, interleaved in any order between nodes,
// sorted back into each node's record lines (node_frames.h).
//
// Each node's frames must come in sequence: a gap, a repeated number or a bad frame
// makes that node's stream broken (the lines it gave before stay). A transport line
// holding several markers (a cut line of one node glued to the next of another) is
// read as one frame per marker. Lines without the
// marker are a transport's chatter and counted; a bad frame whose node cannot be told
// is counted too. Memory is bounded: one unfinished line per node, at most
// kMaxNodeRecordLineBytes long, and at most kMaxFrameNodes nodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "host/util/status.h"

namespace mpidbg::host {

inline constexpr std::size_t kMaxFrameNodes = std::size_t{1} << 16;

class FrameDemux {
 public:
  struct NodeStream {
    uint64_t next_seq = 0;
    std::string partial;   // the record line being reassembled
    bool ended = false;    // the end frame came
    Status broken;         // why the stream cannot be trusted any more (Ok while it can)
  };

  // `on_line(tag, line)`: a whole record line of node `tag`. `on_broken(tag)`: the
  // node's stream just broke (its status says why).
  FrameDemux(std::function<void(const std::string&, std::string&&)> on_line,
             std::function<void(const std::string&)> on_broken, std::size_t max_line_bytes);

  // One line of a transport's output, without its newline.
  void Feed(std::string_view transport_line);

  // The node's stream is over from the outside (its reader exited or was stopped) with
  // `why`; a node whose stream already ended or broke keeps its state.
  void Close(const std::string& tag, const Status& why);

  const std::map<std::string, NodeStream>& nodes() const { return nodes_; }
  std::size_t chatter_lines() const { return chatter_; }
  std::size_t orphan_bad_frames() const { return orphan_bad_; }

 private:
  void FeedFrame(std::string_view piece);
  void Break(const std::string& tag, NodeStream& node, const std::string& why);

  std::function<void(const std::string&, std::string&&)> on_line_;
  std::function<void(const std::string&)> on_broken_;
  std::size_t max_line_bytes_;
  std::map<std::string, NodeStream> nodes_;
  std::size_t chatter_ = 0;
  std::size_t orphan_bad_ = 0;
};

}  // namespace mpidbg::host
