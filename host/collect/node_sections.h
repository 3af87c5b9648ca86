// node_sections.h — the ranks of a node record of monitor or profile content
// (`collect --content monitor|profile`): each target read as `matrix` or `profile`
// reads it (through the plugin's extensions), kept as the rank entry of that command's
// document, and the job-wide object the header carries.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "host/target/opened_target.h"
#include "host/util/status.h"

namespace mpidbg::host {

class NodeSections {
 public:
  // `content` is kNodeContentMonitor (`which`: "accumulated" or "current") or
  // kNodeContentProfile.
  NodeSections(std::string content, std::string which);

  // Reads one target; its failure is the target's (nothing is kept).
  Status Read(const TargetSpec& spec);

  // The header's object: for the ranks read so far, the largest world size they name.
  nlohmann::json JobObject() const;
  const std::vector<nlohmann::json>& ranks() const { return ranks_; }

 private:
  std::string content_;
  std::string which_;
  std::vector<nlohmann::json> ranks_;
  int world_size_ = 0;
  // Profile: the sampling of the first rank read (a rank of another period is still
  // kept; the front end decides).
  int64_t period_ns_ = 0;
  std::string clock_ = "wall";
  int signal_ = 0;
};

}  // namespace mpidbg::host
