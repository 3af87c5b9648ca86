// job_analysis.h — the whole job joined: what every rank is doing, who waits for whom,
// whether the job can ever move again, and why not.
//
// Input is one ProcessSnapshot per rank (a rank that could not be read has
// process.state == "unreadable"). Analysis is pure logic over those snapshots; it never
// touches a target. Output is a JobReport, rendered as the "mpidbg.job/1" JSON document
// of OUTPUT.md, as human text, or as a Graphviz picture.
//
// The analysis is conservative: whatever it cannot read or does not understand counts
// as "able to proceed", so a reported deadlock is one the snapshots prove.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "job/call_tree.h"
#include "job/rank_set.h"
#include "model/snapshot.h"

namespace mpidbg::job {

enum class RankState { kBlocked, kInMpi, kNotInMpi, kFinalized, kUnreadable };

// "blocked", "in_mpi", "not_in_mpi", "finalized", "unreadable".
const char* RankStateName(RankState state);
// The same as a person says it: "blocked", "in MPI", "not in MPI", "finalized",
// "not readable" (text and call paths; the JSON keeps the names above).
const char* RankStateText(RankState state);

// One rank, reduced to what it is doing now (from its first blocked thread, else its
// first thread in MPI).
struct RankReport {
  int rank = -1;                          // MPI_COMM_WORLD rank
  int64_t pid = 0;
  std::string source;                     // "live" | "core" | "file"
  RankState state = RankState::kNotInMpi;
  std::optional<std::string> call;
  std::optional<std::string> comm;        // job-wide communicator id
  std::optional<std::string> comm_name;
  std::optional<model::Rank> peer;        // rank in `comm`
  std::optional<model::Rank> peer_world;
  std::optional<model::Tag> tag;
  std::optional<int> root;                // collective root (rank in `comm`)
  int threads = 0;
  int blocked_threads = 0;
  std::string summary;                    // "MPI_Recv(source=1, tag=7, comm=MPI_COMM_WORLD)"
  // The stack of the thread the rank's state comes from (the representative thread, or
  // the main thread of a rank outside MPI), innermost first; empty when not read.
  std::vector<model::Frame> frames;
  // "caller_frame" when the call's arguments (peer, tag, comm, root) were read from the
  // caller's DWARF (the stacks view), "" when they come from the runtime's records.
  std::string arguments_from;
  // A thread of the rank paused the runtime's recording (model::Thread::recording_paused):
  // what it posted while paused is not known.
  bool recording_paused = false;
  // Where the paused threads' state was read (model::Thread::state_from): kStack when
  // from each one's stack (their records say "not in MPI": a paused call is not
  // recorded); kRecords while one is in a call recorded despite the pause (a completion
  // of requests posted before it, MPI_Init, MPI_Finalize); kUnknown when one's records
  // say "not in MPI" and its stack was not read.
  enum class PausedState { kStack, kRecords, kUnknown };
  PausedState paused_state = PausedState::kStack;
  // kUnreadable only, when known: why the rank could not be read (one sentence) and the
  // exit status that failure alone gives (1 no MPI debugging support, 3 cannot be read).
  std::optional<std::string> error;
  std::optional<int> error_kind;
  // Inputs from more than one job (job_join.h) only: the rank's job (its label in
  // JobReport::jobs) and its rank in that job's MPI_COMM_WORLD; `rank` is then the
  // analysis rank, unique across the jobs.
  std::optional<std::string> job;
  std::optional<int> job_rank;
};

// One job of inputs that span several (a parent and the job it spawned, two jobs joined
// by MPI_Comm_accept/connect). The analysis numbers their ranks one after the other:
// job A's world ranks as they are, job B's from A's size on, and so on, so every later
// step keeps working on plain integers and the verdict crosses the jobs.
struct JobSpan {
  std::string label;                      // "A", "B", ... in analysis order
  std::string job_id;                     // the launcher's job id, "" if none was recorded
  int first_rank = 0;                     // analysis rank of its world rank 0
  int size = 0;                           // its MPI_COMM_WORLD size
};

// Ranks doing exactly the same thing.
struct RankGroup {
  std::vector<int> ranks;                 // sorted world ranks
  std::string summary;
};

enum class WaitKind { kAnd, kOr };
const char* WaitKindName(WaitKind kind);  // "and" | "or"

// One requirement of one blocked thread, from one call or one waited request. A thread
// needs all of its requirements. kAnd: the requirement needs every rank of `to` (the
// peer of a send or receive, the members missing from a collective); kOr: any one of
// them (an ANY_SOURCE receive, MPI_Waitany).
// A wait on more ranks than this (an ANY_SOURCE receive on a big communicator) is
// rendered once, as a wait set with its ranks as ranges, rather than edge by edge:
// 4096 ranks each waiting on any of 4095 others would be 16.7 million edges.
inline constexpr std::size_t kMaxEdgesPerWait = 64;

struct WaitRequirement {
  int from = -1;                          // world rank of the waiting thread
  int64_t tid = 0;
  WaitKind kind = WaitKind::kAnd;
  RankSet to;                             // world ranks, sorted
  std::string reason;                     // the call it waits in
  bool satisfied = false;                 // the ranks it needs can proceed
};

struct DeadlockReport {
  bool detected = false;
  std::vector<int> ranks;                 // blocked ranks that can never proceed
  std::vector<int> cycle;                 // one witness cycle among them, may be empty
  std::vector<WaitRequirement> waits;     // every requirement of every blocked thread
  std::size_t EdgeCount() const;          // one edge per (requirement, rank in `to`)
};

// A send nobody has posted a receive for.
struct UnmatchedMessage {
  int from = -1;                          // world ranks
  int to = -1;
  std::string comm;                       // communicator id
  std::string comm_name;
  model::Tag tag;
  int64_t bytes = 0;
  std::string call;                       // "MPI_Send", "MPI_Isend", ...
  bool arrived = false;                   // seen only in the receiver's unexpected queue
  // Proven by the runtimes' traffic counters: complete at the sender (e.g. sent
  // eagerly), not received; `ordinal` is its number within (comm, from, to, tag).
  bool from_counts = false;
  uint64_t ordinal = 0;
};

// Members of one communicator sitting in different collectives (or different roots).
struct CollectiveMismatch {
  struct Side {
    std::vector<int> ranks;               // world ranks
    std::string call;
    std::optional<int> root;
  };
  std::string comm;
  std::string comm_name;
  std::vector<Side> sides;
};

// An input that holds the ranks of a whole node (a node record) and could not be read
// in full: cut short, not JSON, of another schema. The reading pipeline sets these; the
// ranks it read from the input before the failure are in the report's ranks.
struct UnreadableInput {
  std::string input;                      // the file named, "-" for standard input
  std::string hostname;                   // from the record's header, "" if none
  int ranks_read = 0;
  std::string error;                      // one sentence
};

// A rank of the job the verdict does not cover: its process or core could not be read,
// or no input held it (the world size every snapshot reports says it exists).
struct UnreadRank {
  std::optional<int> rank;                // world rank; nullopt when not known
  int64_t pid = 0;                        // 0 when no process of it was given
  std::string source;                     // "live" | "core" | "" (not given)
  std::string reason;                     // one sentence
};

// A process named among the targets that is no MPI process (a launcher, a shell, the
// `timeout` around mpiexec: what `pgrep -f app` also finds): left out of the job, not
// counted as a rank it could not read.
struct LeftOutProcess {
  int64_t pid = 0;
  std::string source;                     // "live" | "core"
  std::string reason;                     // one sentence
};

// A rank read in part: the DLL's walk of its runtime's records had to leave some out
// (model::WalkDamage), so an operation or a thread it waits in may be missing.
struct PartialRank {
  int rank = -1;
  int64_t pid = 0;
  std::string source;                     // "live" | "core"
  std::string reason;                     // one sentence (model::WalkDamage::Sentence)
};

// What the stacks prove in the reduced view (stacks_view.h). The pipeline sets the
// second read's facts; Analyze the rest.
struct StacksVerdict {
  bool all_blocked = false;               // every rank read is blocked in a blocking MPI call
  std::vector<int> blocked;               // ranks blocked in MPI
  std::vector<int> not_blocked;           // ranks read that are not
  // Ranks sitting in different blocking collectives (MPI_Finalize aside), one side per
  // call; empty unless two calls differ. Whether they share a communicator is not known.
  std::vector<CollectiveMismatch::Side> collectives;
  bool ranks_by_order = false;            // some rank was numbered by target order
  // Set by the pipeline: a second read was made `second_read_seconds` later, and these
  // ranks' stacks moved in between.
  double second_read_seconds = 0;
  std::vector<int> progressing;
};

struct JobReport {
  // "records": ranks read through the runtime's records; "stacks": the reduced view,
  // some rank read from its stacks alone (then no wait graph, deadlock or hints).
  std::string view = "records";
  StacksVerdict stacks;
  std::vector<RankReport> ranks;          // sorted by rank
  // Empty for the ranks of one job; else every job the inputs hold, in analysis order.
  std::vector<JobSpan> jobs;
  std::vector<RankGroup> groups;          // ordered by their lowest rank
  CallTree classes;                       // the ranks by call path (rank_classes.h)
  DeadlockReport deadlock;
  std::vector<UnmatchedMessage> unmatched;
  std::vector<CollectiveMismatch> collective_mismatches;
  std::vector<std::string> hints;
  std::vector<UnreadableInput> unreadable_inputs;  // never set by Analyze
  std::vector<LeftOutProcess> left_out;   // never set by Analyze
  std::vector<UnreadRank> unread;         // ranks the verdict does not cover, by rank
  std::vector<PartialRank> partial;       // ranks it covers only as far as they were read
  int world_size = 0;                     // the largest size a snapshot reports, 0 if none
  // Blocked ranks waiting for an unread rank: the verdict on them is open.
  std::vector<int> waiting_on_unread;
  // Some rank or input could not be read, or was read in part: the verdict covers only
  // what was.
  bool Incomplete() const;
};

JobReport Analyze(const std::vector<model::ProcessSnapshot>& ranks);

nlohmann::json ToJson(const JobReport& report);   // "mpidbg.job/1"
std::string ToText(const JobReport& report);
std::string ToDot(const JobReport& report);

// "job B rank 0" for an analysis rank of a report of several jobs, "rank 2" otherwise.
std::string RankName(const JobReport& report, int rank);

// "0-3,5" for {5, 0, 1, 2, 3}; duplicates are ignored.
std::string FormatRankRanges(std::vector<int> ranks);
// The same for a set, from its group's runs when it draws on one.
std::string FormatRankSet(const RankSet& ranks);
// "rank 3" or "ranks 0-3,5".
std::string RanksPhrase(const std::vector<int>& ranks);
std::string RankSetPhrase(const RankSet& ranks);

}  // namespace mpidbg::job
