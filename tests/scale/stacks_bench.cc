// stacks_bench.cc — not a test: figures of reading stacks (issue 16) on a real job.
//
// Starts tag_never_sent on 16 local ranks of each MPI flavour built, and prints:
//   job_live_s          wall time of `mpidbg job --pids ... --confirm 0` with stacks, and
//   job_live_nostack_s  the same with MPIDBG_STACKS=0 (what stacks add);
//   job_live_confirm_s  the default `job` (a second read after --confirm 1 s);
//   job_cores_s         `mpidbg job --cores` over 16 gcore cores (and without stacks);
//   unwind_us_per_thread  per thread of every rank, live and from the cores: libdwfl's
//                         attach plus walking, symbolising and folding (first use of a
//                         module loads its CFI and line table, so this is the cold cost);
//   read cost             one more run with MPIDBG_READ_COST=1: mpidbg's own per-phase
//                         total over the ranks (stop, modules, DLL choice = symbol tables,
//                         session, records, stacks, detach) with its wall and CPU time.
// Each wall time is the best of 3 runs. The goal (issue 16): both job times ≤ 2 s.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "host/stacks/read_stacks.h"
#include "host/target/opened_target.h"
#include "mpi_job.h"

namespace {

using mpidbg::itest::MpiJob;
using mpidbg::itest::Mpidbg;

constexpr int kRanks = 16;
constexpr int kRuns = 3;

double BestWallSeconds(const std::vector<std::string>& args, bool stacks, int* exit_code) {
  if (stacks) {
    unsetenv("MPIDBG_STACKS");
  } else {
    setenv("MPIDBG_STACKS", "0", 1);
  }
  double best = 1e9;
  for (int i = 0; i < kRuns; ++i) {
    const auto start = std::chrono::steady_clock::now();
    *exit_code = Mpidbg(args).exit_code;
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  unsetenv("MPIDBG_STACKS");
  return best;
}

// The per-phase summary line `job` prints under MPIDBG_READ_COST=1 (host/job/job_inputs.cc).
std::string ReadCostLine(const std::vector<std::string>& args) {
  setenv("MPIDBG_READ_COST", "1", 1);
  const std::string err = Mpidbg(args).err;
  unsetenv("MPIDBG_READ_COST");
  const std::string marker = "read cost of ";
  const std::size_t at = err.find(marker);
  if (at == std::string::npos) return "(no read cost printed)";
  const std::size_t end = err.find('\n', at);
  return err.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

struct UnwindFigures {
  int threads = 0;
  int frames = 0;
  int with_line = 0;  // frames with file:line
  double seconds = 0;
};

// Every thread of every target (not only those that called MPI), unwound in this process.
UnwindFigures UnwindAll(const std::vector<mpidbg::host::TargetSpec>& specs) {
  UnwindFigures out;
  for (const mpidbg::host::TargetSpec& spec : specs) {
    auto target = mpidbg::host::OpenedTarget::Open(spec);
    if (!target.ok()) {
      std::fprintf(stderr, "cannot open %s: %s\n", mpidbg::host::TargetName(spec).c_str(),
                   target.status().message().c_str());
      continue;
    }
    mpidbg::host::StackReadCost cost;
    auto stacks = mpidbg::host::ReadStacks(*target.value(), target.value()->tids(), &cost);
    target.value()->Close();
    out.threads += cost.threads;
    out.seconds += static_cast<double>(cost.attach_ns + cost.unwind_ns) * 1e-9;
    for (const auto& [tid, stack] : stacks) {
      out.frames += static_cast<int>(stack.frames.size());
      for (const auto& f : stack.frames) out.with_line += f.line ? 1 : 0;
    }
  }
  return out;
}

void PrintUnwind(const char* flavour, const char* source, const UnwindFigures& u) {
  std::printf("%s %s: threads=%d frames=%d frames_with_line=%d unwind_us_per_thread=%.0f\n",
              flavour, source, u.threads, u.frames, u.with_line,
              u.threads > 0 ? u.seconds * 1e6 / u.threads : 0.0);
}

int Bench(const std::string& flavour) {
  MpiJob job(flavour, "tag_never_sent", kRanks);
  std::string why;
  if (!job.Start(&why)) {
    std::fprintf(stderr, "%s: job did not start: %s\n", flavour.c_str(), why.c_str());
    return 1;
  }
  // Let rank 0 block in MPI_Recv and the others in MPI_Barrier.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const std::vector<std::string> live = {"job", "--pids", job.PidList(), "--confirm", "0"};
  int rc = 0;
  const double live_s = BestWallSeconds(live, true, &rc);
  int rc_nostack = 0;
  const double live_nostack_s = BestWallSeconds(live, false, &rc_nostack);
  int rc_confirm = 0;
  const double confirm_s = BestWallSeconds({"job", "--pids", job.PidList()}, true, &rc_confirm);
  std::printf("%s live, %d ranks: job_live_s=%.3f (exit %d) job_live_nostack_s=%.3f "
              "job_live_confirm_s=%.3f (default --confirm 1)\n",
              flavour.c_str(), kRanks, live_s, rc, live_nostack_s, confirm_s);
  std::printf("%s live %s\n", flavour.c_str(), ReadCostLine(live).c_str());
  std::vector<mpidbg::host::TargetSpec> pids;
  for (pid_t p : job.pids()) {
    mpidbg::host::TargetSpec spec;
    spec.pid = p;
    pids.push_back(spec);
  }
  PrintUnwind(flavour.c_str(), "live", UnwindAll(pids));

  const std::vector<std::string> cores = job.DumpCores(&why);
  job.Kill();
  if (cores.size() != static_cast<size_t>(kRanks)) {
    std::fprintf(stderr, "%s: cores not written: %s\n", flavour.c_str(), why.c_str());
    return 1;
  }
  std::vector<std::string> args = {"job", "--cores"};
  args.insert(args.end(), cores.begin(), cores.end());
  const double cores_s = BestWallSeconds(args, true, &rc);
  const double cores_nostack_s = BestWallSeconds(args, false, &rc_nostack);
  std::printf("%s cores, %d ranks: job_cores_s=%.3f (exit %d) job_cores_nostack_s=%.3f\n",
              flavour.c_str(), kRanks, cores_s, rc, cores_nostack_s);
  std::printf("%s cores %s\n", flavour.c_str(), ReadCostLine(args).c_str());
  std::vector<mpidbg::host::TargetSpec> core_specs;
  for (const std::string& c : cores) {
    mpidbg::host::TargetSpec spec;
    spec.core = c;
    core_specs.push_back(spec);
  }
  PrintUnwind(flavour.c_str(), "cores", UnwindAll(core_specs));
  for (const std::string& c : cores) unlink(c.c_str());
  return 0;
}

}  // namespace

int main() {
  int failures = 0;
  for (const std::string& flavour : mpidbg::itest::BuiltFlavours()) failures += Bench(flavour);
  return failures == 0 ? 0 : 1;
}
