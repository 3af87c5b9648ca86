// rank_classes.cc — frames into call paths, paths into the prefix tree.
#include "job/rank_classes.h"

#include "job/call_info.h"

namespace mpidbg::job {
namespace {

// Where a path starts: the C library's frames outside these are the same for every
// rank and say nothing.
bool IsPathStart(const std::string& name) { return name == "main" || name == "start_thread"; }

// "exchange at ring.c:12", or the name alone where the line is not known.
std::string FrameElement(const model::Frame& f) {
  return f.file && f.line ? FrameName(f) + " at " + FrameFileLine(f) : FrameName(f);
}

}  // namespace

std::vector<std::string> CallPathOf(const RankReport& r) {
  if (r.state == RankState::kUnreadable || r.state == RankState::kFinalized ||
      r.frames.empty()) {
    return {r.call && r.state != RankState::kUnreadable ? *r.call : RankStateText(r.state)};
  }
  // Frames are innermost first: the path is read back from the start frame.
  std::size_t start = r.frames.size() - 1;
  for (std::size_t k = 0; k < r.frames.size(); ++k) {
    if (r.frames[k].function && IsPathStart(*r.frames[k].function)) {
      start = k;
      break;
    }
  }
  std::vector<std::string> path;
  path.reserve(start + 1);
  for (std::size_t k = start + 1; k-- > 0;) path.push_back(FrameElement(r.frames[k]));
  return path;
}

CallTree RankClasses(const std::vector<RankReport>& ranks) {
  std::vector<RankPath> paths;
  paths.reserve(ranks.size());
  for (const RankReport& r : ranks) {
    if (r.rank >= 0) paths.push_back({r.rank, CallPathOf(r)});
  }
  return BuildCallTree(paths);
}

}  // namespace mpidbg::job
