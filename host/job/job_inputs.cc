// job_inputs.cc — collecting the per-rank snapshots of a job.
#include "host/job/job_inputs.h"

#include <dirent.h>
#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <unordered_map>

#include "host/model/group_table.h"
#include "host/snapshot/snapshot_parse.h"
#include "host/snapshot/snapshot_reader.h"
#include "host/util/progress_line.h"

namespace mpidbg::host {

model::ProcessSnapshot UnreadableSnapshot(const TargetSpec& spec, int64_t pid, const Status& why) {
  model::ProcessSnapshot snap;
  snap.process.pid = pid;
  snap.process.source = spec.core.empty() ? "live" : "core";
  snap.process.state = "unreadable";
  snap.process.error = why.message();
  snap.process.error_kind = why.exit_code();
  return snap;
}

namespace {

bool ReadCostWanted() {
  const char* env = std::getenv("MPIDBG_READ_COST");
  return env != nullptr && std::strcmp(env, "1") == 0;
}

// CPU time of this process (user + system), for the read-cost summary.
int64_t CpuNs() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return (static_cast<int64_t>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
          ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

// Every live target stopped before any is read (issue 16). MPI ranks busy-poll: 16 of
// them on 2 cores left the reader ~10% of a CPU, and reading them one by one took 6.5 s
// of wall time for 0.6 s of CPU. Stopped, they leave the CPUs to the reader, and the
// job is read as one moment instead of 16. A target that cannot be stopped here is
// left to ReadTarget, whose own attempt says why.
struct StoppedTargets {
  std::vector<std::unique_ptr<LiveTarget>> owned;  // one per distinct pid
  std::vector<LiveTarget*> lent;                   // per target; nullptr: not stopped here
};

StoppedTargets StopLiveTargets(const std::vector<TargetSpec>& targets) {
  StoppedTargets out;
  out.lent.assign(targets.size(), nullptr);
  std::vector<int64_t> pids;
  std::unordered_map<int64_t, std::size_t> slot;  // pid -> index in pids (a pid named twice)
  for (const TargetSpec& t : targets) {
    if (t.core.empty() && slot.emplace(t.pid, pids.size()).second) pids.push_back(t.pid);
  }
  std::vector<Result<std::unique_ptr<LiveTarget>>> live = LiveTarget::AttachMany(pids);
  std::vector<LiveTarget*> by_slot(pids.size(), nullptr);
  for (std::size_t k = 0; k < live.size(); ++k) {
    if (!live[k].ok()) continue;
    by_slot[k] = live[k].value().get();
    out.owned.push_back(std::move(live[k].value()));
  }
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (targets[i].core.empty()) out.lent[i] = by_slot[slot[targets[i].pid]];
  }
  return out;
}

}  // namespace

std::vector<model::ProcessSnapshot> ReadJobTargets(const std::vector<TargetSpec>& targets,
                                                   std::vector<Status>* failures,
                                                   std::vector<bool>* not_mpi, bool report) {
  if (not_mpi != nullptr) not_mpi->assign(targets.size(), false);
  std::vector<model::ProcessSnapshot> snaps;
  model::GroupTable groups;  // each communicator's members once for the whole job
  const int64_t wall_start = MonotonicNowNs();
  const int64_t cpu_start = CpuNs();
  std::vector<ReadCost> costs(targets.size());
  StoppedTargets stopped = StopLiveTargets(targets);
  const int64_t stop_ns = MonotonicNowNs() - wall_start;
  ProgressLine progress(ReadingWhat(targets), targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const TargetSpec& spec = targets[i];
    progress.Update(i);
    auto snap = ReadTarget(spec, stopped.lent[i], &costs[i]);
    if (snap.ok()) {
      groups.Share(&snap.value());
      snaps.push_back(std::move(snap.value()));
      continue;
    }
    int64_t pid = spec.pid;
    if (!spec.core.empty()) {
      // The pid of a core is worth keeping even when the rest cannot be read.
      auto core = CoreTarget::Open(spec.core, spec.exe);
      if (core.ok()) pid = core.value()->pid();
    }
    // Most sentences name their target already ("process 12 has exited ..."): one
    // name per line is enough.
    const std::string what = TargetDescription(spec);
    const std::string& why = snap.status().message();
    const std::size_t at = why.find(what);
    const std::size_t after = at + what.size();
    progress.Clear();  // the message gets a line of its own
    if (!report) {
      // Read before (a second read): said then.
    } else if (at != std::string::npos &&
               (after == why.size() || !std::isdigit(static_cast<unsigned char>(why[after])))) {
      std::fprintf(stderr, "mpidbg: %s\n", why.c_str());
    } else {
      std::fprintf(stderr, "mpidbg: %s: %s\n", what.c_str(), why.c_str());
    }
    if (failures != nullptr) failures->push_back(snap.status());
    if (not_mpi != nullptr) (*not_mpi)[i] = snap.status().not_mpi();
    snaps.push_back(UnreadableSnapshot(spec, pid, snap.status()));
  }
  progress.Finish();
  // Every stopped target let go, as found. ReadTarget let go those a foreign DLL read
  // in its child already; Detach is safe to repeat.
  for (std::unique_ptr<LiveTarget>& live : stopped.owned) live->Detach();
  if (ReadCostWanted()) {
    ReadCost total;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      std::fprintf(stderr, "mpidbg: read cost %s: %s\n", TargetName(targets[i]).c_str(),
                   ReadCostText(costs[i]).c_str());
      total.Add(costs[i]);
    }
    std::fprintf(stderr,
                 "mpidbg: read cost of %zu targets: %s; stop_all=%.1f wall=%.1f cpu=%.1f ms\n",
                 targets.size(), ReadCostText(total).c_str(),
                 static_cast<double>(stop_ns) * 1e-6,
                 static_cast<double>(MonotonicNowNs() - wall_start) * 1e-6,
                 static_cast<double>(CpuNs() - cpu_start) * 1e-6);
  }
  return snaps;
}

std::vector<job::LeftOutProcess> LeaveOutNonMpi(const std::vector<bool>& not_mpi,
                                                std::vector<TargetSpec>* targets,
                                                std::vector<model::ProcessSnapshot>* snaps) {
  std::vector<job::LeftOutProcess> out;
  const std::size_t n = std::min({not_mpi.size(), targets->size(), snaps->size()});
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (not_mpi[i]) {
      const model::ProcessInfo& p = (*snaps)[i].process;
      out.push_back({p.pid, p.source, p.error.empty() ? "not an MPI process" : p.error});
      continue;
    }
    if (kept != i) {
      (*targets)[kept] = std::move((*targets)[i]);
      (*snaps)[kept] = std::move((*snaps)[i]);
    }
    ++kept;
  }
  // Targets past the flags, and snapshots past the targets (ranks read on other nodes),
  // stay as they are, after the kept ones.
  targets->erase(targets->begin() + static_cast<std::ptrdiff_t>(kept),
                 targets->begin() + static_cast<std::ptrdiff_t>(n));
  snaps->erase(snaps->begin() + static_cast<std::ptrdiff_t>(kept),
               snaps->begin() + static_cast<std::ptrdiff_t>(n));
  return out;
}

Result<std::vector<model::ProcessSnapshot>> ReadSnapshotDirectory(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return Status::Usage("cannot open snapshot directory " + dir);
  std::vector<std::string> files;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) files.push_back(name);
  }
  closedir(d);
  std::sort(files.begin(), files.end());
  if (files.empty()) return Status::Usage("no *.json snapshot documents in " + dir);
  std::vector<model::ProcessSnapshot> snaps;
  model::GroupTable groups;
  ProgressLine progress("reading snapshots", files.size());
  for (const std::string& name : files) {
    progress.Update(snaps.size());
    std::string path = dir + "/" + name;
    std::ifstream in(path);
    nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    if (doc.is_discarded()) return Status::Usage(path + " is not valid JSON");
    auto snap = SnapshotFromJson(doc);
    if (!snap.ok()) return Status::Usage(path + ": " + snap.status().message());
    groups.Share(&snap.value());
    snaps.push_back(std::move(snap.value()));
  }
  return snaps;
}

std::vector<model::ProcessSnapshot> ReadNodeRecords(const std::vector<std::string>& files,
                                                    std::vector<NodeRecordSummary>* nodes) {
  std::vector<model::ProcessSnapshot> snaps;
  model::GroupTable groups;
  auto take = [&snaps, &groups](model::ProcessSnapshot&& snap) {
    groups.Share(&snap);
    snaps.push_back(std::move(snap));
  };
  ProgressLine progress("reading node records", files.size());
  for (const std::string& name : files) {
    progress.Update(nodes->size());
    NodeRecordSummary node;
    if (name == "-") {
      node = ReadNodeRecord(std::cin, name, take);
    } else {
      std::ifstream in(name, std::ios::binary);
      if (in) {
        node = ReadNodeRecord(in, name, take);
      } else {
        node.input = name;
        node.status = Status::Unreadable("cannot open the node record " + name);
      }
    }
    if (!node.status.ok()) {
      progress.Clear();
      std::fprintf(stderr, "mpidbg: node record %s: %s\n", name.c_str(),
                   node.status.message().c_str());
    }
    nodes->push_back(std::move(node));
  }
  return snaps;
}

}  // namespace mpidbg::host
