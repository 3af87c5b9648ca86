// node_record_writer.h — the "mpidbg.node/1" record of one node (OUTPUT.md): JSON
// Lines, a header, one line per communicator membership the node's ranks share, one
// line per rank, a trailer. node_record_parser.h reads it back.
//
// Size is linear in the ranks written: a rank line carries its snapshot without the
// world-rank lists of its communicators, which sit once per node in the communicator
// lines as rank ranges ("0-3,8-11"). A rank line is the snapshot document of
// snapshot_json.h with those lists, the schema key, `handles` (derived from the
// communicators) and `metadata.mpi_t` left out.
//
// A record of other content (node_record_schema.h) carries, per rank line, an object
// its command wrote (the rank's entry of mpidbg.monitor/1 or mpidbg.profile/1), and in
// the header that command's job-wide object; the writer only frames them.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/model/snapshot.h"
#include "host/util/status.h"

namespace mpidbg::host {

struct NodeRecordHeader {
  std::string hostname;
  std::string job;       // the job id the ranks were found by, "" when given as pids/cores
  int ranks = 0;         // ranks the record will hold (read and failed)
  std::string version;   // of the mpidbg that wrote it
};

class NodeRecordWriter {
 public:
  explicit NodeRecordWriter(std::ostream& out) : out_(out) {}

  void Header(const NodeRecordHeader& header);
  // A record of another content (node_record_schema.h) than snapshots: `job` is its
  // job-wide object, and its ranks are written with Section.
  void Header(const NodeRecordHeader& header, const std::string& content,
              const nlohmann::json& job);
  // A communicator line for each communicator of `snap` not written yet, then its
  // rank line. Lines are flushed as written, so a reader sees whole lines.
  void Rank(const model::ProcessSnapshot& snap);
  // A rank of a record of other content: `{"record": "rank", CONTENT: rank}`.
  void Section(const nlohmann::json& rank);
  // A rank that could not be read: listed in the trailer with why.
  void Failure(int64_t pid, const std::string& source, const Status& why);
  // A process `collect --job` could not read, so could not tell whether it belongs to
  // the job: listed in the trailer's "skipped", not counted as a rank of the node.
  void Skipped(int64_t pid, const Status& why);
  // Ends the record; a record without it is incomplete.
  void Trailer(double elapsed_seconds);

 private:
  struct Membership {
    model::RankList world_ranks;
    std::optional<model::RankList> remote_world_ranks;
  };
  // True when the rank line may leave out `c`'s lists: its membership is (now) in the
  // node's table. A communicator without an id, or whose id names another membership
  // already written (an inconsistent target), keeps its lists inline.
  bool InTable(const model::Communicator& c);

  std::ostream& out_;
  std::string content_ = "snapshot";
  std::unordered_map<std::string, Membership> written_;
  int ranks_read_ = 0;
  nlohmann::json failures_ = nlohmann::json::array();  // the trailer's "failed"
  nlohmann::json skipped_ = nlohmann::json::array();   // the trailer's "skipped"
};

}  // namespace mpidbg::host
