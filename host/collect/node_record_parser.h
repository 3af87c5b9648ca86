// node_record_parser.h — the "mpidbg.node/1" record (node_record_writer.h writes it)
// read back line by line into the snapshots the job analysis joins.
//
// The record comes from another machine or a pipe: every line is bounded, every count
// checked, and a record that is cut short, is not JSON or names another schema ends in
// a status that says why, never in a crash. Ranks are handed out as their lines are
// read, so a node's text is never held whole.
#pragma once

#include <cstddef>
#include <functional>
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

// Reads one record from `in`. Each rank line becomes a snapshot handed to `on_rank` at
// once; at the trailer each rank it lists as failed follows as an "unreadable"
// snapshot with its pid, source and why. Ranks handed out before an error stay valid
// (every rank line stands alone); the summary says where reading stopped and why.
NodeRecordSummary ReadNodeRecord(std::istream& in, const std::string& input,
                                 const std::function<void(model::ProcessSnapshot&&)>& on_rank);

}  // namespace mpidbg::host
