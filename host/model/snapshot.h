// snapshot.h — what the host knows about one MPI process, independent of where it
// came from (live process, core file, or a `snapshot --json` document).
//
// The target readers fill it through the plugin; snapshot_json turns it into the
// "mpidbg.snapshot/1" document of OUTPUT.md and back; the job analysis joins many.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rank_list.h"

namespace mpidbg::model {

// A rank value after normalisation: a plain rank or one of the wildcard names.
struct Rank {
  enum class Kind { kRank, kAnySource, kProcNull, kUnknown };
  Kind kind = Kind::kUnknown;
  int value = -1;  // valid when kind == kRank

  static Rank Of(int r) { return Rank{Kind::kRank, r}; }
  static Rank AnySource() { return Rank{Kind::kAnySource, -1}; }
  static Rank ProcNull() { return Rank{Kind::kProcNull, -2}; }
  static Rank Unknown() { return Rank{}; }
  bool is_rank() const { return kind == Kind::kRank; }
  bool operator==(const Rank& o) const { return kind == o.kind && (kind != Kind::kRank || value == o.value); }
};

struct Tag {
  bool any = false;
  int value = 0;  // valid when !any
  bool operator==(const Tag& o) const { return any == o.any && (any || value == o.value); }
};

// One point-to-point operation (OUTPUT.md "OP").
struct Operation {
  std::string call;            // "MPI_Isend", "MPI_Recv", ...
  std::string status = "pending";  // "pending" | "matched" | "complete"
  bool is_send = false;        // direction; probes count as receives
  Rank peer;                   // rank in the operation's communicator
  Rank peer_world;             // MPI_COMM_WORLD rank, Unknown if not known
  Tag tag;
  int64_t count = 0;
  std::string datatype;        // "MPI_INT", or a handle in hex
  int64_t bytes = 0;
  uint64_t buffer = 0;
  std::optional<std::string> mode;   // "standard" | "synchronous" | "buffered" | "ready"
  std::optional<uint64_t> request;   // request handle, none for blocking calls
  bool blocking = false;
  std::optional<int64_t> tid;
  std::string comm_id;         // job-wide communicator id (hex), "" if unknown
  std::string comm_name;
  uint64_t post_serial = 0;    // posting order in the process (matching order)
  bool persistent = false;     // a persistent request (MPI_Send_init, MPI_Allreduce_init, ...)
  // A partitioned request (MPI_Psend_init, MPI_Precv_init): its partitions and how many
  // are done this round (a send's marked ready, a receive's seen arrived).
  struct Partitions {
    int count = 0;
    int done = 0;
  };
  std::optional<Partitions> partitions;
};

// One frame of a thread's call stack (OUTPUT.md "FRAME"). The frames of the runtime's
// wrapper and of the MPI library are folded into one frame named after the MPI call.
struct Frame {
  std::optional<std::string> function;  // symbol (demangled), nullopt when none covers pc
  std::optional<std::string> file;      // from the line table; nullopt without DWARF
  std::optional<int> line;
  std::string module;                   // file name of the module ("libmpich.so.12"), "" if none
  uint64_t pc = 0;                      // the frame's pc (a caller's: its return address)
};

// What one thread is doing in MPI.
struct Thread {
  int64_t tid = 0;
  std::string state = "not_in_mpi";  // "not_in_mpi" | "in_mpi" | "blocked"
  std::optional<std::string> call;   // current MPI call
  std::optional<double> seconds_in_call;
  uint64_t mpi_calls = 0;            // MPI calls the thread has made (0: not known); a
                                     // thread whose count moves between two reads progresses
  std::string call_class;            // "p2p" | "wait" | "coll" | "other" | ""
  std::optional<Operation> operation;       // blocking point-to-point envelope
  std::vector<Operation> waited;            // requests a Wait/Test-family call waits for
  int waited_unknown = 0;                   // waited requests the runtime could not decode
  std::string comm_id;                      // communicator of a collective, "" if none
  std::string comm_name;
  std::optional<int> root;                  // collective root (comm rank)
  std::vector<Frame> frames;                // innermost first; empty when not unwound
  std::optional<std::string> stack_error;   // why frames is empty or cut short, if it is
  // Where the call's envelope (operation, comm_name, root) came from: "" the runtime's
  // records, "caller_frame" the values the caller's DWARF says it passed (stacks view).
  std::string arguments_from;
  // The thread has paused the runtime's recording (mpidbg_pause_recording): its calls
  // are not recorded, so its state and call come from its stack ("stack" in state_from)
  // or are "unknown"; requests it posted while paused are not known.
  bool recording_paused = false;
  std::string state_from;  // "" the runtime's records, "stack" the thread's stack
};

struct Neighbors {
  std::vector<int> sources;       // MPI_Neighbor_* receive from these
  std::vector<int> destinations;  // ... and send to these
};

struct Communicator {
  std::string id;              // job-wide id, same on every member (hex string)
  std::string name;
  uint64_t handle = 0;
  std::string kind = "intra";  // "intra" | "inter"
  int size = 0;
  int rank = -1;
  // The same list on every member: readers share it job-wide (group_table.h).
  RankList world_ranks;
  std::optional<RankList> remote_world_ranks;
  // An intercommunicator to another job (spawn, parent, accept, connect, join): that
  // job's launcher id and the remote group's world ranks in its MPI_COMM_WORLD.
  // nullopt for every other communicator and when the runtime could not learn it.
  struct RemoteJob {
    std::string job_id;            // "" when the other job's launcher named none
    std::vector<int> world_ranks;  // one per remote rank
  };
  std::optional<RemoteJob> remote_job;
  std::optional<std::string> topology;  // "cart" | "graph" | "dist_graph"
  // This process's topology neighbours (communicator ranks) as its neighbourhood
  // collectives use them; nullopt when not known (no topology, or not recorded).
  std::optional<Neighbors> neighbors;
  bool freed = false;
  bool predefined = false;
  std::string creator;         // creating call, "" if unknown
  std::vector<Operation> pending_sends;
  std::vector<Operation> pending_receives;
  std::optional<std::vector<Operation>> unexpected;  // nullopt: not known for this target
};

// What the DLL's walk of the runtime's records had to leave out (mpidbg_process_summary,
// version 5): all 0 for a healthy runtime.
struct WalkDamage {
  uint32_t records_torn = 0;     // still being written after the retries
  uint32_t records_bad = 0;      // wrong kind or impossible size
  uint32_t tables_damaged = 0;   // walks that ended early
  uint32_t rings_damaged = 0;    // flight rings skipped: their pending requests are missing
  uint32_t live_unreadable = 0;  // threads shown as their records say
  bool Partial() const {
    return records_torn != 0 || records_bad != 0 || tables_damaged != 0 || rings_damaged != 0 ||
           live_unreadable != 0;
  }
  // One sentence for a person: what was left out and what that means.
  std::string Sentence() const {
    std::string parts;
    auto add = [&parts](uint32_t n, const char* one, const char* many) {
      if (n == 0) return;
      if (!parts.empty()) parts += ", ";
      parts += std::to_string(n) + " " + (n == 1 ? one : many);
    };
    add(records_torn, "record torn", "records torn");
    add(records_bad, "record malformed", "records malformed");
    add(tables_damaged, "table cut short", "tables cut short");
    add(rings_damaged, "flight ring unreadable", "flight rings unreadable");
    add(live_unreadable, "thread's live state unreadable", "threads' live state unreadable");
    return "the runtime's records could not all be read (" + parts +
           "); operations, threads or objects may be missing";
  }
};

struct ProcessInfo {
  int64_t pid = 0;
  int rank = -1;
  int size = 0;
  std::string hostname;
  std::string source = "live";  // "live" | "core" | "file"
  std::string mpi_library;
  std::string thread_level;     // "MPI_THREAD_SINGLE", ...
  std::string state;            // "before_init" | "running" | "finalized"
  std::string plugin;           // path of the message-queue DLL used
  // Only when state is "unreadable" (a job's rank): why it could not be read, one
  // sentence, and the exit status that failure alone gives (OUTPUT.md: 1 no MPI
  // debugging support, 3 cannot be read); "" and 0 when not known.
  std::string error;
  int error_kind = 0;
  // How much of the process could be read (OUTPUT.md "view"): "records" through a
  // message-queue DLL (mpidbg's runtime or the MPI library's own), "stacks" from the
  // threads' call stacks alone (a job not started under `mpidbg run`: the MPI call
  // each thread is in, no communicators, messages or requests).
  std::string view = "records";
  // Stacks view only: where rank and size came from, the environment variable that
  // named the rank ("PMI_RANK", "OMPI_COMM_WORLD_RANK", ...); "" when not known (the
  // job numbers such ranks by the order of its targets).
  std::string rank_from;
  // Records view: what the DLL could not read of the runtime's records; nullopt when the
  // DLL does not say (a DLL other than mpidbg's, or an older one).
  std::optional<WalkDamage> damage;
};

// Per (communicator, peer, tag): what this process sent and received (the runtime's
// traffic counters). Joined across ranks they give the messages sent and not received.
struct TrafficCount {
  std::string comm_id;
  int peer = -1;        // rank in the communicator (remote group for intercomms)
  Rank peer_world;
  int tag = 0;
  uint64_t sends = 0;
  uint64_t receives = 0;
  uint64_t send_bytes = 0;
  uint64_t receive_bytes = 0;
};

// One send from the runtime's log of recent sends.
struct LoggedSend {
  std::string call;
  std::string comm_id;
  uint64_t ordinal = 0;  // the send's number within (comm_id, peer, tag): 1, 2, ...
  int peer = -1;
  Rank peer_world;
  int tag = 0;
  int64_t count = 0;
  int64_t bytes = 0;
  std::string mode;      // "standard" | "synchronous" | "buffered" | "ready"
  int64_t time_ns = 0;   // CLOCK_REALTIME when posted
};

struct Traffic {
  std::vector<TrafficCount> counts;
  std::vector<LoggedSend> sends;  // oldest first
  int log_capacity = 0;
  uint64_t sends_logged = 0;      // into the send log since MPI_Init (the sends of
                                  // flight rings are listed in `sends`, not counted here)
  uint64_t dropped = 0;           // events the runtime could not count (table full)
};

// The launcher/PMI view and the runtime's bookkeeping (mpidbg_launch_summary).
struct LaunchInfo {
  std::string launcher;         // "hydra" | "orte" | "prrte" | "slurm" | "singleton" | "unknown"
  std::vector<std::string> sources;  // "pmi", "pmix", "ompi", "slurm", "mpi"
  int rank = -1, world_size = -1, local_rank = -1, local_size = -1, node_rank = -1;
  int appnum = -1, universe_size = -1, pid = -1, mpi_rank = -1;
  std::string job_id, host, pmi_interface;
  int mpi_version = 0, mpi_subversion = 0;
  std::string thread_level_requested;
  bool debug_gate_hold = false;
  uint32_t orphan_budget = 0;
  bool orphan_keep_all = false;
  uint64_t orphan_count = 0, orphan_evictions = 0, orphan_releases = 0;
};

struct MpitVariable {
  std::string name, description;
  std::string datatype;          // "int", "unsigned", ..., "char", "double", "other"
  int verbosity = 0, bind = 0, count = 0;
  int scope = -1;                // control variables
  std::string var_class;         // performance variables: "counter", "timer", ...
  bool readonly = false, continuous = false, atomic = false;  // performance variables
  std::optional<std::string> value;  // control variables whose value was captured
};

struct MpitCategory {
  std::string name, description;
  std::vector<std::string> cvars, pvars, categories;  // member names
};

struct MpitCatalogue {
  bool available = false;
  uint64_t refreshes = 0;
  int64_t captured_time_ns = 0;
  std::vector<MpitVariable> cvars, pvars;
  std::vector<MpitCategory> categories;
};

// One MPI object the runtime keeps a record of (mpidbg_object_list_query), with where
// the program created it and how long ago.
struct ObjectHandle {
  std::string kind;                     // "comm", "request", "datatype", ... "session"
  uint64_t handle = 0;
  std::optional<std::string> name;      // set or predefined name, nullopt when none
  std::string state = "live";           // "live" | "predefined" | "freed" | "released"
  bool predefined = false;
  bool freed = false;                   // the application freed it (an orphan is kept)
  bool released = false;                // and MPI no longer needs the object
  std::optional<std::string> creator;   // "MPI_Comm_dup", nullopt when not known
  int64_t create_time_ns = 0;           // 0 for predefined objects
  uint64_t create_serial = 0;
  uint64_t free_serial = 0;
  std::optional<double> age_seconds;    // to the listing's "now" (see ObjectListing)
  uint64_t create_pc = 0;               // return address into the program, 0 if unknown
  // create_pc symbolized (function, file:line), null when not; shared by the objects
  // made at one site (a listing may hold 100,000 objects from a handful of sites).
  std::shared_ptr<const Frame> site;
  uint64_t record = 0;                  // the runtime's record (target address)
  std::optional<std::string> request_state;  // requests: "pending" | "matched" | "complete" | "inactive"
  bool persistent = false;              // requests
};

struct ObjectListing {
  std::vector<ObjectHandle> objects;
  // Ages are taken against this: CLOCK_REALTIME at the read for a live process; for a
  // core the newest timestamp the process recorded (its clock stopped with it).
  int64_t now_ns = 0;
  std::string age_reference = "now";    // "now" | "latest_record"
};

struct ProcessSnapshot {
  std::optional<LaunchInfo> launch;     // nullopt: not recorded by the target
  std::optional<MpitCatalogue> mpi_t;   // nullopt: not captured
  ProcessInfo process;
  std::vector<Thread> threads;
  std::vector<Communicator> communicators;
  std::optional<Traffic> traffic;  // nullopt: the target's runtime keeps none
  // Every object of every kind, nullopt when the DLL has no listing query (handles[]
  // then holds communicators only, from `communicators`).
  std::optional<ObjectListing> objects;
};

}  // namespace mpidbg::model
