// job_scale_bench.cc — how the whole-job analysis follows the number of ranks. Not a
// test: it prints figures and passes or fails nothing, since machines differ.
//
//   mpidbg_job_scale_bench [RANKS ...] [--patterns P,Q]
//
// Each (pattern, size) runs in its own child, so its peak RSS is its own (wait4), under
// an address-space limit so a size that does not fit ends with a line, not the OOM
// killer. A child builds the job in memory (job_patterns), writes it as node records
// of 64 ranks each when it has at most kMaxRecordRanks ranks (the input `collect` would
// send) and reads them back, then runs the analysis. Lines, one figure each:
//   input_bytes=N ranks=N pattern=P       the node records' size
//   merge_s=S ranks=N pattern=P           reading them back into snapshots
//   generate_s=S ranks=N pattern=P        building the snapshots in memory (and the
//                                         resident set they take, rss_mb=)
//   analysis_s=S ranks=N pattern=P        Analyze()
//   peak_rss_mb=M ranks=N pattern=P       the child's peak resident set
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "host/collect/node_record_parser.h"
#include "host/collect/node_record_writer.h"
#include "host/job/job_analysis.h"
#include "host/model/group_table.h"
#include "job_patterns.h"

namespace mpidbg::scale {
namespace {

constexpr int kRanksPerNode = 64;
constexpr int kMaxRecordRanks = 16384;       // larger inputs are measured at this size
constexpr rlim_t kAddressLimit = rlim_t{8} << 30;
constexpr unsigned kChildSeconds = 900;

// The resident set now, in MB (VmRSS of /proc/self/status), -1 if it cannot be read.
double ResidentMb() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return -1;
  char line[256];
  long kb = -1;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
  }
  std::fclose(f);
  return kb < 0 ? -1 : static_cast<double>(kb) / 1024;
}

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The job as `collect` on each node would write it, then as `job --nodes` reads it.
void MeasureRecords(const std::vector<model::ProcessSnapshot>& snaps, const std::string& pattern) {
  std::vector<std::string> records;  // one per node
  std::size_t bytes = 0;
  for (std::size_t first = 0; first < snaps.size(); first += kRanksPerNode) {
    const std::size_t end = std::min(snaps.size(), first + kRanksPerNode);
    std::ostringstream out;
    host::NodeRecordWriter writer(out);
    writer.Header({snaps[first].process.hostname, "bench", static_cast<int>(end - first), "bench"});
    for (std::size_t i = first; i < end; ++i) writer.Rank(snaps[i]);
    writer.Trailer(0);
    records.push_back(out.str());
    bytes += records.back().size();
  }
  std::printf("input_bytes=%zu ranks=%zu pattern=%s\n", bytes, snaps.size(), pattern.c_str());

  // As `job --nodes` reads them (job_inputs.cc): one group table for the whole job.
  const auto start = std::chrono::steady_clock::now();
  std::vector<model::ProcessSnapshot> merged;
  model::GroupTable groups;
  for (const std::string& record : records) {
    std::istringstream in(record);
    host::NodeRecordSummary node =
        host::ReadNodeRecord(in, "bench", [&merged, &groups](model::ProcessSnapshot&& s) {
          groups.Share(&s);
          merged.push_back(std::move(s));
        });
    if (!node.status.ok()) {
      std::printf("merge_failed=%s\n", node.status.message().c_str());
      return;
    }
  }
  std::printf("merge_s=%.3f ranks=%zu pattern=%s groups=%zu\n", Since(start), merged.size(),
              pattern.c_str(), groups.lists());
}

int RunOne(const std::string& pattern, int size) {
  try {
    auto start = std::chrono::steady_clock::now();
    std::vector<model::ProcessSnapshot> snaps = MakeJob(pattern, size);
    std::printf("generate_s=%.3f ranks=%d pattern=%s rss_mb=%.1f\n", Since(start), size,
                pattern.c_str(), ResidentMb());
    if (size <= kMaxRecordRanks) MeasureRecords(snaps, pattern);
    std::fflush(stdout);
    start = std::chrono::steady_clock::now();
    job::JobReport report = job::Analyze(snaps);
    std::printf("analysis_s=%.3f ranks=%d pattern=%s deadlocked=%zu\n", Since(start), size,
                pattern.c_str(), report.deadlock.ranks.size());
  } catch (const std::bad_alloc&) {
    std::printf("out_of_memory ranks=%d pattern=%s limit_gb=%llu\n", size, pattern.c_str(),
                static_cast<unsigned long long>(kAddressLimit >> 30));
  }
  std::fflush(stdout);
  return 0;
}

void Measure(const std::string& pattern, int size) {
  std::fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    rlimit limit{kAddressLimit, kAddressLimit};
    setrlimit(RLIMIT_AS, &limit);
    alarm(kChildSeconds);
    _exit(RunOne(pattern, size));
  }
  if (child < 0) return;
  int status = 0;
  rusage usage{};
  if (wait4(child, &status, 0, &usage) != child) return;
  if (!WIFEXITED(status)) {
    std::printf("killed ranks=%d pattern=%s signal=%d\n", size, pattern.c_str(), WTERMSIG(status));
  }
  std::printf("peak_rss_mb=%.1f ranks=%d pattern=%s\n", static_cast<double>(usage.ru_maxrss) / 1024,
              size, pattern.c_str());
  std::fflush(stdout);
}

std::vector<std::string> Split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace
}  // namespace mpidbg::scale

int main(int argc, char** argv) {
  std::vector<int> sizes;
  std::vector<std::string> patterns = mpidbg::scale::PatternNames();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--patterns" && i + 1 < argc) {
      patterns = mpidbg::scale::Split(argv[++i]);
    } else if (const long n = std::strtol(a.c_str(), nullptr, 10); n > 0 && n <= 10'000'000) {
      sizes.push_back(static_cast<int>(n));
    } else {
      std::fprintf(stderr, "usage: %s [RANKS ...] [--patterns P,Q]\n", argv[0]);
      return 2;
    }
  }
  if (sizes.empty()) sizes = {4096, 100000, 1000000};
  for (int size : sizes) {
    for (const std::string& pattern : patterns) mpidbg::scale::Measure(pattern, size);
  }
  return 0;
}
