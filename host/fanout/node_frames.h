// node_frames.h — a node record carried as short self-describing lines ("frames"), so
// the records of many nodes survive a transport that interleaves its tasks' output and
// splits long lines (srun, pdsh): `collect --framed` writes them, the fan-out reads them.
//
//   @mpidbg.frame/1 TAG SEQ FLAG LENGTH [CHUNK]
//
// TAG names the node (its hostname), SEQ counts the node's frames from 0 with no gap,
// FLAG is '+' (CHUNK continues a record line), '.' (CHUNK ends a record line) or '$'
// (the node's stream ends; no chunk), LENGTH is CHUNK's length as written, so a frame
// cut short reads as damage. CHUNK is a piece of the record's text with '%', spaces and
// every byte outside printable ASCII written as %XX, so a frame is one line of
// printable ASCII a transport neither splits nor trims. Anything before the marker
// (pdsh's "host: " prefix) is ignored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace mpidbg::host {

inline constexpr std::string_view kFrameMarker = "@mpidbg.frame/1";
// Escaped chunk text per frame: with the marker, tag and number a frame stays well under
// the ~1 KiB pieces srun passes on.
inline constexpr std::size_t kFrameChunkChars = 600;
// What a reader accepts: longer frames are damaged ones.
inline constexpr std::size_t kMaxFrameChunkChars = 4096;
inline constexpr std::size_t kMaxFrameTagChars = 255;

enum class FrameFlag { kContinues, kLineEnd, kStreamEnd };

struct Frame {
  std::string tag;
  uint64_t seq = 0;
  FrameFlag flag = FrameFlag::kContinues;
  std::string chunk;  // decoded
};

// Cuts record lines into frames of one node, handed to `emit` one frame line (without
// its newline) at a time.
class FrameWriter {
 public:
  FrameWriter(std::string tag, std::function<void(const std::string&)> emit);
  // One line of the record, without its newline.
  void RecordLine(std::string_view line);
  // Text of a line the record did not finish (its writer stopped), then nothing more.
  void Partial(std::string_view text);
  void End();

 private:
  void Emit(FrameFlag flag, const std::string& chunk);
  std::string tag_;
  std::function<void(const std::string&)> emit_;
  uint64_t seq_ = 0;
};

// An ostream whose text goes out as frames to `out`, one frame line at a time, each
// flushed: what `collect --framed` hands the node record writer. Close() (or the
// destructor) writes the end frame.
class FramedOutput {
 public:
  FramedOutput(std::ostream& out, const std::string& tag);
  ~FramedOutput();
  std::ostream& stream();
  void Close();

 private:
  class Buf;
  std::unique_ptr<Buf> buf_;
  std::unique_ptr<std::ostream> stream_;
};

// A tag a frame may carry: 1..255 of [A-Za-z0-9._-].
bool ValidFrameTag(std::string_view tag);

struct ParsedFrame {
  enum Kind { kFrame, kNoFrame, kBadFrame } kind = kNoFrame;
  Frame frame;        // kFrame; for kBadFrame the tag when it could be read
  std::string why;    // kBadFrame
};

// One transport line (without its newline). A line without the marker is kNoFrame
// (a transport's own chatter); one with the marker that breaks the format is
// kBadFrame with why.
ParsedFrame ParseFrame(std::string_view line);

}  // namespace mpidbg::host
