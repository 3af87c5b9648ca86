// job_inputs.cc — collecting the per-rank snapshots of a job.
#include "host/job/job_inputs.h"

#include <dirent.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "host/model/group_table.h"
#include "host/snapshot/snapshot_parse.h"
#include "host/snapshot/snapshot_reader.h"

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

std::vector<model::ProcessSnapshot> ReadJobTargets(const std::vector<TargetSpec>& targets,
                                                   std::vector<Status>* failures) {
  std::vector<model::ProcessSnapshot> snaps;
  model::GroupTable groups;  // each communicator's members once for the whole job
  for (const TargetSpec& spec : targets) {
    auto snap = ReadTarget(spec);
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
    if (at != std::string::npos && (after == why.size() || !std::isdigit(static_cast<unsigned char>(why[after])))) {
      std::fprintf(stderr, "mpidbg: %s\n", why.c_str());
    } else {
      std::fprintf(stderr, "mpidbg: %s: %s\n", what.c_str(), why.c_str());
    }
    if (failures != nullptr) failures->push_back(snap.status());
    snaps.push_back(UnreadableSnapshot(spec, pid, snap.status()));
  }
  return snaps;
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
  for (const std::string& name : files) {
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
  for (const std::string& name : files) {
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
      std::fprintf(stderr, "mpidbg: node record %s: %s\n", name.c_str(),
                   node.status.message().c_str());
    }
    nodes->push_back(std::move(node));
  }
  return snaps;
}

}  // namespace mpidbg::host
