// monitor_model.h — a job's communication monitoring, as one model whatever it came
// from: the file the runtime writes at MPI_Finalize (monitor_file.cc) or the plugin's
// reading of live processes and cores (monitor_plugin.cc). Ranks are MPI_COMM_WORLD
// ranks throughout.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mpidbg::monitor {

// Bucket 0: empty messages; bucket k (1..64): [2^(k-1), 2^k) bytes.
constexpr int kBuckets = 65;
// Collective kinds by data flow, in the order of enum mpidbg_coll_kind.
constexpr int kCollKinds = 4;
extern const char* const kCollKindNames[kCollKinds];  // "one_to_all", ...

struct PeerCounters {
  uint64_t sent_messages = 0;
  uint64_t sent_bytes = 0;
  uint64_t received_messages = 0;
  uint64_t received_bytes = 0;
  uint64_t coll_messages = 0;
  uint64_t coll_bytes = 0;
  uint64_t put_messages = 0;
  uint64_t put_bytes = 0;
  uint64_t get_messages = 0;
  uint64_t get_bytes = 0;
  uint64_t acc_messages = 0;
  uint64_t acc_bytes = 0;
  std::array<uint64_t, kBuckets> histogram{};  // sent messages by size
};

struct CollCounters {
  uint64_t operations = 0;
  uint64_t bytes_sent = 0;
  uint64_t bytes_received = 0;
};

struct FileCounters {
  std::string name;
  uint64_t opens = 0;
  uint64_t read_operations = 0;
  uint64_t read_bytes = 0;
  uint64_t write_operations = 0;
  uint64_t write_bytes = 0;
};

// Open MPI's own monitoring through MPI_T (after collectives became messages).
struct MpitPeer {
  uint64_t pml_messages = 0;
  uint64_t pml_bytes = 0;
  uint64_t osc_sent_messages = 0;
  uint64_t osc_sent_bytes = 0;
  uint64_t osc_received_messages = 0;
  uint64_t osc_received_bytes = 0;
  uint64_t coll_messages = 0;
  uint64_t coll_bytes = 0;
};

struct MpitColl {
  uint64_t operations = 0;
  uint64_t bytes = 0;
};

struct RankMonitor {
  int rank = -1;
  bool present = false;  // false: no data for this rank (a rank that could not be read)
  int64_t pid = 0;
  std::string host;
  bool active = false;
  int64_t first_start_time_ns = 0;
  int64_t reset_time_ns = 0;
  uint64_t starts = 0;
  uint64_t stops = 0;
  uint64_t resets = 0;
  std::map<int, PeerCounters> peers;  // by peer world rank; peers with counts only
  std::array<CollCounters, kCollKinds> collectives{};
  std::vector<FileCounters> files;
  uint64_t files_dropped = 0;
  std::string mpit_state = "not_read";  // "read" | "unavailable" | "not_read"
  std::string mpit_reason;
  std::map<int, MpitPeer> mpit_peers;
  std::array<MpitColl, kCollKinds> mpit_collectives{};
};

struct JobMonitor {
  std::string source = "file";  // "file" | "live" | "core"
  std::string which = "accumulated";  // "accumulated" | "current"
  std::string id;
  std::string flavour;
  std::string mpi_library;
  int64_t written_time_ns = 0;
  int world_size = 0;
  std::vector<RankMonitor> ranks;  // world_size entries, element i is rank i
};

// What a matrix shows.
enum class View { kP2p, kColl, kPut, kGet, kAcc, kMpiT };
enum class Metric { kMessages, kBytes };

bool ParseView(const std::string& text, View* out);
bool ParseMetric(const std::string& text, Metric* out);
const char* ViewName(View v);      // "p2p", ...
const char* MetricName(Metric m);  // "messages" | "bytes"

// One sender x receiver matrix, sparse: non-zero cells only.
struct Cell {
  int from = 0;
  int to = 0;
  uint64_t value = 0;
};
struct Matrix {
  int size = 0;             // world size: rows and columns
  std::vector<Cell> cells;  // non-zero, ordered by (from, to)
  uint64_t Total() const;
  uint64_t Max() const;
  uint64_t MinNonZero() const;  // 0 when there are no cells
};

// The sender-side counters of `view`/`metric` (for kMpiT: the pml counters).
Matrix BuildMatrix(const JobMonitor& job, View view, Metric metric);
// The mpi_t matrices by name: "pml", "osc" (sent), "coll".
Matrix BuildMpitMatrix(const JobMonitor& job, const std::string& layer, Metric metric);

// Whether any rank's MPI_T monitoring was read.
bool AnyMpitRead(const JobMonitor& job);

// The rank whose MPI_T state and reason speak for the job (every rank runs the same
// MPI): the first that read it, else the first present; nullptr when none is present.
const RankMonitor* MpitSpeaker(const JobMonitor& job);

// The sender's histogram summed over its peers.
std::array<uint64_t, kBuckets> RankHistogram(const RankMonitor& rank);
// Job-wide histogram.
std::array<uint64_t, kBuckets> JobHistogram(const JobMonitor& job);
// "0", "1-1 B", "2-3 B", ..., "512-1023 B", "1-2 KiB", ..., "1-2 MiB", ...
std::string BucketLabel(int bucket);

// Collective counters summed over ranks.
std::array<CollCounters, kCollKinds> JobCollectives(const JobMonitor& job);

// Files joined by name over the ranks.
struct JobFile {
  FileCounters counters;  // sums
  std::vector<int> ranks;
};
std::vector<JobFile> JobFiles(const JobMonitor& job);

// 1536 -> "1.5 KiB"; below 1 KiB "123 B".
std::string FormatBytes(uint64_t bytes);

}  // namespace mpidbg::monitor
