// node_record_parser.h — the "mpidbg.node/1" record (node_record_writer.h writes it)
// read back line by line into the snapshots the job analysis joins.
//
// The record comes from another machine or a pipe: every line is bounded, every count
// checked, and a record that is cut short, is not JSON or names another schema ends in
// a status that says why, never in a crash. Ranks are handed out as their lines are
// read, so a node's text is never held whole.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <istream>
#include <string>

#include "host/model/snapshot.h"
#include "host/util/status.h"

namespace mpidbg::host {

// Bounds on what one record may make this process hold.
inline constexpr std::size_t kMaxNodeRecordLineBytes = std::size_t{64} << 20;
inline constexpr std::size_t kMaxNodeTableRanks = std::size_t{1} << 24;  // all comm lines
inline constexpr std::size_t kMaxNodeCommunicators = std::size_t{1} << 20;

// What one record said about itself and how far it could be read.
struct NodeRecordSummary {
  std::string input;        // the file named, "-" for standard input
  std::string hostname;     // from the header ("" when there was none)
  std::string job;
  std::string version;      // mpidbg_version of the writer
  int ranks_announced = -1; // the header's rank count
  int ranks_read = 0;       // rank lines taken
  int ranks_failed = 0;     // ranks the trailer lists as not read
  double elapsed_s = 0;     // the writer's time, from the trailer
  bool complete = false;    // the trailer was read and agrees with the lines before it
  Status status;            // why not complete (Ok when complete)
};

// Where a record's ranks go. A record holds the content its reader asks for or fails
// ("holds monitor counters, expected snapshots").
struct NodeRecordSinks {
  std::string content = "snapshot";  // node_record_schema.h
  // Each rank of a snapshot record, and each rank the trailer lists as failed (of any
  // content) as an "unreadable" snapshot with its pid, source and why.
  std::function<void(model::ProcessSnapshot&&)> on_rank;
  // Each rank line of another content: the header's job-wide object for that content
  // and the rank's object. An error ends the record (the rank is not counted as read).
  std::function<Status(const nlohmann::json& job, const nlohmann::json& rank)> on_section;
};

// Reads one record from `in`. Each rank line becomes a snapshot handed to `on_rank` at
// once; at the trailer each rank it lists as failed follows as an "unreadable"
// snapshot with its pid, source and why. Ranks handed out before an error stay valid
// (every rank line stands alone); the summary says where reading stopped and why.
NodeRecordSummary ReadNodeRecord(std::istream& in, const std::string& input,
                                 const std::function<void(model::ProcessSnapshot&&)>& on_rank);

// The same reading fed one line at a time (its newline taken off), for records that
// arrive in pieces from many nodes at once: the caller reassembles each line and hands
// it over as soon as it is whole.
class NodeRecordLines {
 public:
  NodeRecordLines(const std::string& input, std::function<void(model::ProcessSnapshot&&)> on_rank);
  NodeRecordLines(const std::string& input, NodeRecordSinks sinks);
  ~NodeRecordLines();
  NodeRecordLines(const NodeRecordLines&) = delete;
  NodeRecordLines& operator=(const NodeRecordLines&) = delete;

  // False once the record has failed (later lines are ignored).
  bool Line(const std::string& text);
  // The input ended inside a line.
  void CutShort();
  // The record failed or its trailer was read: nothing more belongs to it.
  bool ended() const;
  // The end of the input: the summary, complete only when the trailer was read.
  NodeRecordSummary Finish();
  const NodeRecordSummary& summary() const { return summary_; }

 private:
  struct State;
  bool Fail(const Status& why);

  NodeRecordSummary summary_;
  std::unique_ptr<State> state_;
  bool failed_ = false;
};

}  // namespace mpidbg::host
