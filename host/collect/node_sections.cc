// node_sections.cc — targets read as matrix and profile read them, kept as JSON entries.
#include "host/collect/node_sections.h"

#include <algorithm>
#include <utility>

#include "host/collect/node_record_schema.h"
#include "host/matrix/monitor_document.h"
#include "host/matrix/monitor_plugin.h"
#include "host/profile/profile_json.h"
#include "host/profile/profile_plugin.h"
#include "mpidbg/mpidbg_ext.h"

namespace mpidbg::host {

NodeSections::NodeSections(std::string content, std::string which)
    : content_(std::move(content)), which_(which.empty() ? "accumulated" : std::move(which)) {}

Status NodeSections::Read(const TargetSpec& spec) {
  if (content_ == kNodeContentMonitor) {
    int which = which_ == "current" ? MPIDBG_MONITOR_CURRENT : MPIDBG_MONITOR_ACCUMULATED;
    auto read = monitor::ReadTargetMonitor(spec, which);
    if (!read.ok()) return read.status();
    world_size_ = std::max(world_size_, read->world_size);
    ranks_.push_back(monitor::MonitorRankObject(read->rank));
    return Status::Ok();
  }
  auto read = profile::ReadTargetProfile(spec);
  if (!read.ok()) return read.status();
  if (ranks_.empty()) {
    period_ns_ = read->period_ns;
    clock_ = read->clock;
    signal_ = read->signal;
  }
  world_size_ = std::max(world_size_, read->world_size);
  ranks_.push_back(profile::ProfileRankObject(read->rank, read->period_ns));
  return Status::Ok();
}

nlohmann::json NodeSections::JobObject() const {
  if (content_ == kNodeContentMonitor) {
    monitor::JobMonitor job;
    job.which = which_;
    job.world_size = world_size_;
    return monitor::MonitorJobObject(job);
  }
  profile::JobProfile job;
  job.world_size = world_size_;
  job.period_ns = period_ns_;
  job.clock = clock_;
  job.signal = signal_;
  return profile::ProfileJobObject(job, /*with_totals=*/false);
}

}  // namespace mpidbg::host
