// frame_fold.cc — recognising MPI and system code, and folding runs of it.
#include "host/stacks/frame_fold.h"

#include <cstddef>
#include <cstring>

namespace mpidbg::host {
namespace {

bool StartsWith(const std::string& s, const char* prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

bool StartsWithAny(const std::string& s, const char* const* prefixes) {
  for (const char* const* p = prefixes; *p != nullptr; ++p) {
    if (StartsWith(s, *p)) return true;
  }
  return false;
}

// mpidbg's runtime, MPICH, Open MPI (and their component plugins mca_*), and the
// transport and process-management libraries either one calls into.
const char* const kMpiModules[] = {
    "libmpidbg_rt", "libmpi",   "libopen-pal", "libopen-rte", "libompitrace", "mca_",
    "libucp",       "libucs",   "libuct",      "libucm",      "libfabric",    "libpmix",
    "libpmi",       "libpsm",   "libhcoll",    "libevent",    "libibverbs",   "librdmacm",
    "libmlx",       "libxpmem", "libknem",     "libhwloc",    "libprrte",     nullptr};

const char* const kSystemModules[] = {"libc.so", "libc-",    "libpthread", "ld-linux", "ld-",
                                      "linux-vdso", "[vdso", "libgcc_s",  "librt",    "libdl",
                                      nullptr};

// Internal names of the MPI libraries and the runtime, for programs that link MPI
// statically (the module is then the program itself).
const char* const kMpiFunctions[] = {"MPI_",  "PMPI_",  "MPIR_", "MPID_",  "MPIDI_", "MPIC_",
                                     "MPII_", "ompi_",  "opal_", "mca_",   "mpidbg_", nullptr};

}  // namespace

std::string MpiCallName(const std::string& function) {
  if (StartsWith(function, "PMPI_") && function.size() > 5) return function.substr(1);
  if (StartsWith(function, "MPI_") && function.size() > 4) return function;
  return "";
}

FrameOrigin ClassifyFrame(const model::Frame& frame) {
  if (StartsWithAny(frame.module, kMpiModules)) return FrameOrigin::kMpi;
  if (frame.function && StartsWithAny(*frame.function, kMpiFunctions)) return FrameOrigin::kMpi;
  if (StartsWithAny(frame.module, kSystemModules)) return FrameOrigin::kSystem;
  return FrameOrigin::kProgram;
}

std::vector<model::Frame> FoldMpiFrames(const std::vector<model::Frame>& frames) {
  std::vector<model::Frame> out;
  std::size_t i = 0;
  while (i < frames.size()) {
    // A run: system frames, then MPI frames (system frames between them allowed); it
    // ends after its outermost MPI frame.
    std::size_t j = i;
    while (j < frames.size() && ClassifyFrame(frames[j]) == FrameOrigin::kSystem) ++j;
    std::size_t last_mpi = frames.size();
    for (std::size_t k = j; k < frames.size(); ++k) {
      FrameOrigin origin = ClassifyFrame(frames[k]);
      if (origin == FrameOrigin::kProgram) break;
      if (origin == FrameOrigin::kMpi) last_mpi = k;
    }
    std::size_t named = frames.size();  // the outermost frame with an MPI call's name
    if (last_mpi < frames.size()) {
      for (std::size_t k = i; k <= last_mpi; ++k) {
        if (frames[k].function && !MpiCallName(*frames[k].function).empty()) named = k;
      }
    }
    if (named == frames.size()) {
      // Nothing to fold here: keep this frame and look again from the next.
      out.push_back(frames[i]);
      ++i;
      continue;
    }
    model::Frame folded;
    folded.function = MpiCallName(*frames[named].function);
    folded.module = frames[named].module;
    folded.pc = frames[named].pc;
    out.push_back(std::move(folded));
    i = last_mpi + 1;
  }
  return out;
}

}  // namespace mpidbg::host
