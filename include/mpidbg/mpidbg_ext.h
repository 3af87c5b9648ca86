/*
 * mpidbg_ext.h — mpidbg's extensions to the message-queue interface.
 *
 * The MPI Forum interface shows communicators and queues; a host that wants to explain
 * a hang also needs what each thread is blocked in, the communicator's job-wide
 * identity and the full envelope of each operation. Our plugin exports these functions
 * beside the mqs_* ones; a host looks them up with dlsym and works without them when a
 * foreign DLL is loaded.
 *
 * Conventions (the same as mqs_*): the process must have been set up with
 * mqs_setup_process; results are copied into caller-owned structures; return values are
 * mqs_ok, mqs_no_information, mqs_end_of_list or a DLL code for mqs_dll_error_string.
 * Every structure begins with its size: the caller sets `size` to sizeof its structure,
 * the plugin fills at most that many bytes, so either side may be newer.
 */
#ifndef MPIDBG_EXT_H
#define MPIDBG_EXT_H

#include <stdint.h>

#include "mpidbg/mqs_interface.h"
#include "mpidbg/records.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1: process, threads, operation and communicator detail.
 * 2: traffic counters and the send log (mpidbg_traffic_*), the launcher/PMI view and
 *    orphan counters (mpidbg_process_get_launch), the MPI_T catalogue (mpidbg_mpit_*). */
/* 3: communication monitoring (mpidbg_monitor_*) and MPI-state sampling
 *    (mpidbg_profile_*).
 * 4: an intercommunicator's other job (mpidbg_comm_detail.remote_job_id,
 *    mpidbg_comm_get_remote_job_group); topology neighbours (mpidbg_comm_get_neighbors),
 *    mpidbg_comm_detail.topology names every kind; partitioned requests' progress in
 *    mpidbg_operation_info. */
/* 5: what the walk of the runtime's records left out (mpidbg_process_summary's
 *    appended counts).
 * 6: mpidbg_thread_info.recording_paused. */
#define MPIDBG_EXT_VERSION 6

/* The process as a whole. */
typedef struct mpidbg_process_summary {
  uint32_t size;           /* set by the caller */
  int32_t flavour;         /* enum mpidbg_flavour */
  int32_t process_state;   /* enum mpidbg_process_state */
  int32_t world_rank;
  int32_t world_size;
  int32_t thread_level;    /* enum mpidbg_thread_level */
  int32_t pid;
  int32_t thread_count;    /* thread records in use */
  uint64_t generation;
  int64_t init_time_ns;
  char mpi_library[256];
  char hostname[64];
  /* ---- version 5: what the plugin's walk of the runtime's records had to leave out,
   * all 0 for a healthy runtime. Any other value makes the view of this process partial:
   * operations, threads or objects may be missing from what the other queries return.
   * A plugin that fills these sets `size` past them. ---- */
  uint32_t records_torn;    /* records still being written after the retries: skipped */
  uint32_t records_bad;     /* records of a wrong kind or an impossible size: skipped */
  uint32_t tables_damaged;  /* tables whose walk ended early (a cycle, a bad slab, an
                               unreadable slab, a limit) */
  uint32_t rings_damaged;   /* threads' flight rings skipped (bad geometry, unreadable,
                               a limit): their pending requests are missing */
  uint32_t live_unreadable; /* threads whose live words could not be read: shown as their
                               records say, which may be a call behind */
  uint32_t reserved5;
} mpidbg_process_summary;

/* One point-to-point operation in full. */
typedef struct mpidbg_operation_info {
  uint32_t size;           /* set by the caller */
  int32_t call;            /* enum mpidbg_call_id */
  uint64_t request;        /* 0 for a blocking call */
  uint64_t comm_id;        /* job-wide communicator id */
  uint64_t comm_handle;
  uint64_t buffer;
  uint64_t datatype;
  uint64_t tid;
  uint64_t post_serial;
  int64_t count;
  int64_t bytes;
  int64_t actual_bytes;
  int64_t post_time_ns;
  int32_t direction;       /* enum mpidbg_operation_direction */
  int32_t mode;            /* enum mpidbg_send_mode */
  int32_t status;          /* enum mpidbg_operation_status */
  int32_t blocking;        /* 1 for a blocking call in progress */
  int32_t peer;            /* normalised rank in the communicator */
  int32_t peer_world;      /* normalised world rank, MPIDBG_RANK_UNKNOWN if not known */
  int32_t tag;             /* normalised */
  int32_t actual_source;
  int32_t actual_tag;
  int32_t persistent;
  char call_name[32];
  char datatype_name[32];
  char comm_name[64];
  /* ---- version 4: partitioned requests (MPI_Psend_init, MPI_Precv_init) ---- */
  int32_t partitions;      /* number of partitions, 0 for other operations */
  int32_t partitions_done; /* this round: a send's partitions marked ready, a receive's
                              partitions MPI_Parrived reported arrived */
} mpidbg_operation_info;

/* What one thread is doing. */
typedef struct mpidbg_thread_info {
  uint32_t size;           /* set by the caller */
  int32_t state;           /* enum mpidbg_thread_state */
  uint64_t tid;
  int64_t entry_time_ns;   /* 0 when not in MPI */
  uint64_t calls;
  uint64_t comm_id;        /* communicator of the current call, 0 if none */
  uint64_t comm_handle;
  int64_t count;
  int32_t call;            /* enum mpidbg_call_id */
  int32_t call_class;      /* enum mpidbg_call_class */
  int32_t root;            /* collective root, -1 if none */
  int32_t has_operation;   /* 1: `operation` holds the blocking call's envelope */
  int32_t waited_count;    /* requests the thread waits for (WAIT class calls) */
  int32_t recording_paused; /* version 6: nonzero while the thread has paused recording
                              (mpidbg_pause_recording): its calls are not recorded, so
                              `state` NOT_IN_MPI does not say it is outside MPI */
  char call_name[32];
  char comm_name[64];
  char datatype_name[32];
  mpidbg_operation_info operation;
} mpidbg_thread_info;

/* The current communicator of the mqs iterator, beyond mqs_communicator. */
typedef struct mpidbg_comm_detail {
  uint32_t size;           /* set by the caller */
  int32_t creator;         /* enum mpidbg_call_id */
  uint64_t handle;
  uint64_t job_id;
  uint64_t parent_job_id;
  int32_t inter;           /* 1 for an intercommunicator */
  int32_t remote_size;
  int32_t predefined;
  int32_t freed;
  int32_t topology;        /* enum mpidbg_topology: 0 none, 1 cartesian, 2 graph, 3
                              distributed graph (before version 4: 0 or 1 only) */
  int32_t split_color;
  char creator_name[32];
  /* ---- appended (version 4): an intercommunicator whose remote group is another job
   * (spawn, the parent, accept, connect, join). remote_job: 1 when the runtime learnt
   * that job from the other side; remote_job_id: its launcher job id, NUL-terminated
   * ("" when not known). ---- */
  int32_t remote_job;
  int32_t reserved;
  char remote_job_id[128];
} mpidbg_comm_detail;

int mpidbg_ext_version(void);

/* The process summary, from the runtime's root. */
int mpidbg_process_get_summary(mqs_process* process, mpidbg_process_summary* out);

/* Threads: index 0 .. thread_count-1 of the last mqs_update_communicator_list
 * (or of this call, which refreshes the snapshot when the runtime changed). */
int mpidbg_thread_count(mqs_process* process, int* count);
int mpidbg_thread_get(mqs_process* process, int index, mpidbg_thread_info* out);
/* The k-th request a WAIT-class call waits for, decoded as an operation. Requests that
 * are already complete or unknown to the runtime return mqs_no_information. */
int mpidbg_thread_waited_operation(mqs_process* process, int index, int k,
                                   mpidbg_operation_info* out);

/* Detail of the communicator the mqs iterator stands on. */
int mpidbg_comm_get_detail(mqs_process* process, mpidbg_comm_detail* out);
/* World ranks of the remote group of the current intercommunicator (remote_size ints). */
int mpidbg_comm_get_remote_group(mqs_process* process, int* world_ranks);
/* Version 4. This process's neighbours in the current communicator's topology, in
 * communicator ranks, in the order MPI's neighbourhood collectives use (MPI_PROC_NULL
 * off a non-periodic cartesian edge left out; a graph's neighbours are both lists).
 * At most max_sources / max_destinations are written; *num_sources and
 * *num_destinations receive the full counts, so a caller with too little room asks
 * again. mqs_no_information when the communicator has no topology or the runtime did
 * not record its arguments. */
int mpidbg_comm_get_neighbors(mqs_process* process, int max_sources, int* sources,
                              int* num_sources, int max_destinations, int* destinations,
                              int* num_destinations);
/* Version 4: the remote group's world ranks in the other job's MPI_COMM_WORLD (remote_size
 * ints) when detail.remote_job is 1, else mqs_no_information. */
int mpidbg_comm_get_remote_job_group(mqs_process* process, int* world_ranks);
/* Full detail of the operation the last mqs_next_operation returned. */
int mpidbg_operation_get_detail(mqs_process* process, mpidbg_operation_info* out);

/* ---- version 2: traffic — what makes unexpected messages knowable ----
 * The runtime counts, per (communicator, peer, tag), the sends it posted and the
 * receives it completed, and logs recent sends (records.h, mpidbg_traffic). A host that
 * has every rank's counts knows how many messages from A to B are outstanding; the
 * last ones in A's log for (communicator, B, tag) are those messages. The sends of
 * nonblocking requests a layout-2 runtime posts into flight rings are logged in the
 * rings instead; the logged sends listed here are those of the log and of the rings.
 * Counters change with every message, so mpidbg_traffic_read always reads afresh;
 * mpidbg_traffic_get / mpidbg_logged_send_get answer from that read. */
typedef struct mpidbg_traffic_summary {
  uint32_t size;           /* set by the caller */
  int32_t entries;         /* counter entries: index range of mpidbg_traffic_get */
  int32_t logged_sends;    /* sends in the log or a flight ring: index range of
                            * mpidbg_logged_send_get */
  int32_t log_capacity;    /* the log keeps the last log_capacity sends */
  uint64_t sends_logged;   /* sends written to the log since MPI_Init (older ones left
                            * it); sends logged in flight rings are not among them */
  uint64_t dropped;        /* events not counted because the counter table was full */
} mpidbg_traffic_summary;

typedef struct mpidbg_traffic_info {
  uint32_t size;           /* set by the caller */
  int32_t tag;
  uint64_t comm_id;        /* job-wide communicator id */
  int32_t peer;            /* rank in the communicator (remote group for intercomms) */
  int32_t peer_world;      /* MPI_COMM_WORLD rank of the peer, MPIDBG_RANK_UNKNOWN if not known */
  uint64_t sends;          /* sends posted to (peer, tag) */
  uint64_t receives;       /* receives completed from (peer, tag) */
  uint64_t send_bytes;
  uint64_t receive_bytes;
} mpidbg_traffic_info;

typedef struct mpidbg_logged_send_info {
  uint32_t size;           /* set by the caller */
  int32_t call;            /* enum mpidbg_call_id */
  uint64_t comm_id;
  uint64_t ordinal;        /* the send's number within (comm_id, peer, tag): 1, 2, ... */
  int64_t bytes;
  int64_t time_ns;         /* CLOCK_REALTIME when it was posted */
  uint64_t datatype;
  int64_t count;
  int32_t peer;
  int32_t peer_world;
  int32_t tag;
  int32_t mode;            /* enum mpidbg_send_mode */
  char call_name[32];
} mpidbg_logged_send_info;

/* Reads the counters and the send log afresh. mqs_no_information when the runtime keeps
 * none (an older runtime, or before MPI_Init). */
int mpidbg_traffic_read(mqs_process* process, mpidbg_traffic_summary* out);
int mpidbg_traffic_get(mqs_process* process, int index, mpidbg_traffic_info* out);
/* index 0 is the oldest send still logged: the log's sends in log order, the rings'
 * among them by time_ns. */
int mpidbg_logged_send_get(mqs_process* process, int index, mpidbg_logged_send_info* out);

/* ---- version 2: process metadata (from memory, so also from core files) ---- */
typedef struct mpidbg_launch_summary {
  uint32_t size;            /* set by the caller */
  uint32_t launcher;        /* enum mpidbg_launcher_kind */
  uint32_t sources;         /* MPIDBG_LAUNCH_FROM_* */
  int32_t rank;             /* integers are -1 when not known */
  int32_t world_size;
  int32_t local_rank;
  int32_t local_size;
  int32_t node_rank;
  int32_t appnum;
  int32_t universe_size;
  int32_t pid;
  int32_t mpi_rank;
  int32_t mpi_version;
  int32_t mpi_subversion;
  int32_t thread_level_requested; /* enum mpidbg_thread_level */
  int32_t debug_gate_hold;        /* 1 while MPI_Init waits for MPIR_debug_gate */
  uint32_t orphan_budget;
  uint32_t orphan_keep_all;
  uint64_t orphan_count;
  uint64_t orphan_evictions;
  uint64_t orphan_releases;
  char job_id[128];
  char host[64];
  char launcher_name[32];
  char pmi_interface[16];
} mpidbg_launch_summary;

/* mqs_no_information before MPI_Init (or with a runtime that records none). */
int mpidbg_process_get_launch(mqs_process* process, mpidbg_launch_summary* out);

typedef struct mpidbg_mpit_summary {
  uint32_t size;            /* set by the caller */
  int32_t available;        /* 1 if the runtime could initialise MPI_T */
  int32_t cvars;
  int32_t pvars;
  int32_t categories;
  int32_t reserved;
  uint64_t refreshes;       /* captures so far */
  int64_t captured_time_ns; /* CLOCK_REALTIME of the last capture */
} mpidbg_mpit_summary;

typedef struct mpidbg_mpit_variable {
  uint32_t size;            /* set by the caller */
  int32_t performance;      /* 0 control variable, 1 performance variable */
  int32_t verbosity;        /* ordinal 0..8, user basic .. mpidev all */
  int32_t datatype;         /* enum mpidbg_mpit_type */
  int32_t bind;             /* MPI_T_BIND_* ordinal */
  int32_t count;
  int32_t scope;            /* control variables: MPI_T_SCOPE_* ordinal */
  int32_t var_class;        /* performance variables: MPI_T_PVAR_CLASS_* ordinal */
  uint32_t flags;           /* MPIDBG_CVAR_* or MPIDBG_PVAR_* */
  int32_t value_valid;      /* control variables: value_* hold the captured value */
  int64_t value_int;
  double value_double;
  char name[128];
  char value_text[256];
  char description[512];
} mpidbg_mpit_variable;

typedef struct mpidbg_mpit_category_info {
  uint32_t size;            /* set by the caller */
  int32_t num_cvars;
  int32_t num_pvars;
  int32_t num_categories;
  char name[128];
  char description[512];
} mpidbg_mpit_category_info;

/* Reads the catalogue afresh; the getters answer from that read. mqs_no_information
 * when the runtime captured none. */
int mpidbg_mpit_read(mqs_process* process, mpidbg_mpit_summary* out);
int mpidbg_mpit_cvar_get(mqs_process* process, int index, mpidbg_mpit_variable* out);
int mpidbg_mpit_pvar_get(mqs_process* process, int index, mpidbg_mpit_variable* out);
int mpidbg_mpit_category_get(mqs_process* process, int index, mpidbg_mpit_category_info* out);
/* Member k of a category, members listed as its control variables, then performance
 * variables, then subcategories: *kind is 0, 1 or 2 and *member the index. */
int mpidbg_mpit_category_member(mqs_process* process, int index, int k, int* kind, int* member);

/* ---- version 3: communication monitoring (records.h, mpidbg_monitor) ----
 * Counters change with every message, so mpidbg_monitor_read always reads afresh; the
 * getters answer from that read. `which` is MPIDBG_MONITOR_ACCUMULATED (0: everything
 * counted since monitoring first started) or MPIDBG_MONITOR_CURRENT (1: since the last
 * reset; accumulated - baseline, never below 0). */
#ifndef MPIDBG_MONITOR_ACCUMULATED
#define MPIDBG_MONITOR_ACCUMULATED 0
#define MPIDBG_MONITOR_CURRENT 1
#endif

typedef struct mpidbg_monitor_summary {
  uint32_t size;              /* set by the caller */
  int32_t world_size;         /* index range of mpidbg_monitor_peer_get */
  int32_t active;             /* 1 while counting */
  int32_t file_count;         /* used file entries: index range of mpidbg_monitor_file_get */
  uint64_t starts;
  uint64_t stops;
  uint64_t resets;
  int64_t first_start_time_ns;
  int64_t reset_time_ns;      /* the current phase began */
  uint64_t files_dropped;
  int32_t mpit_state;         /* enum mpidbg_monitor_mpit_state */
  int32_t mpit_peer_count;    /* index range of mpidbg_monitor_mpit_peer_get */
  int64_t mpit_time_ns;
  char mpit_reason[128];
  char output_path[256];      /* where MPI_Finalize writes the job file, "" if nowhere */
} mpidbg_monitor_summary;

typedef struct mpidbg_monitor_peer_info {
  uint32_t size;              /* set by the caller */
  int32_t world_rank;
  mpidbg_monitor_peer counters;
} mpidbg_monitor_peer_info;

typedef struct mpidbg_monitor_coll_info {
  uint32_t size;              /* set by the caller */
  int32_t kind;               /* enum mpidbg_coll_kind */
  mpidbg_monitor_coll counters;
  char kind_name[16];         /* "one_to_all", "all_to_one", "all_to_all", "barrier" */
} mpidbg_monitor_coll_info;

typedef struct mpidbg_monitor_file_info {
  uint32_t size;              /* set by the caller */
  int32_t index;
  mpidbg_monitor_file counters; /* name included */
} mpidbg_monitor_file_info;

typedef struct mpidbg_monitor_mpit_peer_info {
  uint32_t size;              /* set by the caller */
  int32_t world_rank;
  mpidbg_monitor_mpit_peer counters;
} mpidbg_monitor_mpit_peer_info;

/* mqs_no_information when monitoring never started in the process (root.monitor 0). */
int mpidbg_monitor_read(mqs_process* process, mpidbg_monitor_summary* out);
int mpidbg_monitor_peer_get(mqs_process* process, int world_rank, int which,
                            mpidbg_monitor_peer_info* out);
int mpidbg_monitor_coll_get(mqs_process* process, int kind, int which,
                            mpidbg_monitor_coll_info* out);
int mpidbg_monitor_file_get(mqs_process* process, int index, int which,
                            mpidbg_monitor_file_info* out);
/* The MPI's own monitoring as last read into the block (mpit_state READ), else
 * mqs_no_information. mpidbg_monitor_mpit_coll_get: kind as above, counters.operations
 * and counters.bytes_sent from coll_monitoring_*_count and _size. */
int mpidbg_monitor_mpit_peer_get(mqs_process* process, int world_rank,
                                 mpidbg_monitor_mpit_peer_info* out);
int mpidbg_monitor_mpit_coll_get(mqs_process* process, int kind, mpidbg_monitor_coll_info* out);

/* ---- version 3: MPI-state sampling (records.h, mpidbg_profile) ---- */
typedef struct mpidbg_profile_summary {
  uint32_t size;              /* set by the caller */
  int32_t active;
  int64_t period_ns;
  int32_t signal;
  int32_t clock;              /* enum mpidbg_profile_clock */
  int64_t start_time_ns;
  int64_t stop_time_ns;
  uint64_t samples[3];        /* per enum mpidbg_thread_state */
  uint64_t lost;
  uint64_t threads;
  int32_t function_count;     /* functions with samples: index range of _function_get */
  int32_t site_count;         /* sites with samples: index range of _site_get */
} mpidbg_profile_summary;

typedef struct mpidbg_profile_function_info {
  uint32_t size;              /* set by the caller */
  int32_t call;               /* enum mpidbg_call_id */
  uint64_t working;           /* samples */
  uint64_t blocked;
  char call_name[32];
} mpidbg_profile_function_info;

typedef struct mpidbg_profile_site_info {
  uint32_t size;              /* set by the caller */
  int32_t call;               /* enum mpidbg_call_id */
  uint64_t address;           /* return address in the calling code (target address) */
  uint64_t working;
  uint64_t blocked;
  char call_name[32];
} mpidbg_profile_site_info;

/* Reads the sampling counters afresh; mqs_no_information when sampling never ran.
 * Functions come in call-id order; sites by samples (working + blocked), most first. */
int mpidbg_profile_read(mqs_process* process, mpidbg_profile_summary* out);
int mpidbg_profile_function_get(mqs_process* process, int index, mpidbg_profile_function_info* out);
int mpidbg_profile_site_get(mqs_process* process, int index, mpidbg_profile_site_info* out);

#ifdef __cplusplus
}
#endif

#endif /* MPIDBG_EXT_H */
