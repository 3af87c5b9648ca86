// frame_demux.cc — reassembling each node's record lines from its frames.
#include "host/fanout/frame_demux.h"

#include <utility>

#include "host/fanout/node_frames.h"

namespace mpidbg::host {

FrameDemux::FrameDemux(std::function<void(const std::string&, std::string&&)> on_line,
                       std::function<void(const std::string&)> on_broken,
                       std::size_t max_line_bytes)
    : on_line_(std::move(on_line)), on_broken_(std::move(on_broken)),
      max_line_bytes_(max_line_bytes) {}

void FrameDemux::Break(const std::string& tag, NodeStream& node, const std::string& why) {
  if (!node.broken.ok()) return;
  node.broken = Status::Unreadable(why);
  node.partial.clear();
  node.partial.shrink_to_fit();
  on_broken_(tag);
}

void FrameDemux::Feed(std::string_view transport_line) {
  // A transport may glue the unfinished last line of one node (a reader cut mid-frame)
  // to the next line of another: every marker starts a frame of its own, so the cut one
  // reads as damage of its node and the next one stays whole.
  std::size_t at = transport_line.find(kFrameMarker);
  if (at == std::string_view::npos) {
    ++chatter_;
    return;
  }
  while (at != std::string_view::npos) {
    std::size_t next = transport_line.find(kFrameMarker, at + 1);
    FeedFrame(transport_line.substr(at, next == std::string_view::npos ? next : next - at));
    at = next;
  }
}

void FrameDemux::FeedFrame(std::string_view piece) {
  ParsedFrame p = ParseFrame(piece);
  if (p.kind == ParsedFrame::kNoFrame) return;
  auto found = nodes_.find(p.frame.tag);
  if (found == nodes_.end()) {
    if (p.frame.tag.empty() || nodes_.size() >= kMaxFrameNodes) {
      ++orphan_bad_;
      return;
    }
    found = nodes_.emplace(p.frame.tag, NodeStream{}).first;
  }
  const std::string& tag = found->first;
  NodeStream& node = found->second;
  if (!node.broken.ok()) return;
  if (p.kind == ParsedFrame::kBadFrame) {
    Break(tag, node, "garbage in its stream: " + p.why);
    return;
  }
  if (node.ended) {
    Break(tag, node, "frame " + std::to_string(p.frame.seq) + " after its stream ended");
    return;
  }
  if (p.frame.seq != node.next_seq) {
    Break(tag, node,
          p.frame.seq > node.next_seq
              ? "frame " + std::to_string(node.next_seq) + " is missing (got " +
                    std::to_string(p.frame.seq) + ")"
              : "frame " + std::to_string(p.frame.seq) + " came twice or out of order");
    return;
  }
  ++node.next_seq;
  switch (p.frame.flag) {
    case FrameFlag::kStreamEnd:
      node.ended = true;
      if (!node.partial.empty()) Break(tag, node, "its stream ended inside a record line");
      return;
    case FrameFlag::kContinues:
    case FrameFlag::kLineEnd:
      if (node.partial.size() + p.frame.chunk.size() > max_line_bytes_) {
        Break(tag, node, "a record line longer than " + std::to_string(max_line_bytes_) + " bytes");
        return;
      }
      node.partial += p.frame.chunk;
      if (p.frame.flag == FrameFlag::kLineEnd) {
        std::string line;
        line.swap(node.partial);
        on_line_(tag, std::move(line));
      }
      return;
  }
}

void FrameDemux::Close(const std::string& tag, const Status& why) {
  auto found = nodes_.find(tag);
  if (found == nodes_.end()) {
    if (nodes_.size() >= kMaxFrameNodes) return;
    found = nodes_.emplace(tag, NodeStream{}).first;
  }
  NodeStream& node = found->second;
  if (node.ended || !node.broken.ok()) return;
  Break(found->first, node, why.message());
}

}  // namespace mpidbg::host
