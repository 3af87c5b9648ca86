// rank_classes.cc — frames into call paths, paths into the prefix tree.
#include "job/rank_classes.h"

#include <cstdio>

namespace mpidbg::job {
namespace {

// Where a path starts: the C library's frames outside these are the same for every
// rank and say nothing.
bool IsPathStart(const std::string& name) { return name == "main" || name == "start_thread"; }

std::string FrameElement(const model::Frame& f) {
  std::string name;
  if (f.function) {
    name = *f.function;
  } else {
    char pc[32];
    std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(f.pc));
    name = f.module.empty() ? std::string(pc) : std::string(pc) + " in " + f.module;
  }
  if (f.file && f.line) {
    const std::size_t slash = f.file->rfind('/');
    name += " at " + (slash == std::string::npos ? *f.file : f.file->substr(slash + 1)) + ":" +
            std::to_string(*f.line);
  }
  return name;
}

const char* StatePhrase(RankState state) {
  switch (state) {
    case RankState::kBlocked: return "blocked";
    case RankState::kInMpi: return "in MPI";
    case RankState::kNotInMpi: return "not in MPI";
    case RankState::kFinalized: return "finalized";
    case RankState::kUnreadable: return "not readable";
  }
  return "not readable";
}

}  // namespace

std::vector<std::string> CallPathOf(const RankReport& r) {
  if (r.state == RankState::kUnreadable || r.state == RankState::kFinalized ||
      r.frames.empty()) {
    return {r.call && r.state != RankState::kUnreadable ? *r.call : StatePhrase(r.state)};
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
