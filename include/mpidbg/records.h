/*
 * records.h — the runtime<->plugin contract: the records the in-target runtime writes
 * and the plugin decodes. Both sides compile this one header.
 *
 * Rules that make the records readable from any debugger, live or from a core:
 *  - Everything is reachable from one exported object, `mpidbg_runtime_root`, in the dynamic
 *    symbol table (found in stripped binaries and in cores without debug info).
 *  - Fields are fixed-width integers or char arrays, naturally aligned, with explicit
 *    padding: the layout is the same for every target ABI, so the plugin decodes it
 *    with offsetof() from this header and the target's byte order. No pointers, no long.
 *  - Target addresses are stored as uint64_t.
 *  - Every structure carries its own size. New fields are appended, never reordered;
 *    a reader takes min(written size, its own size) and zero-fills the rest.
 *  - A record being written has an odd `seq`; a reader that sees an odd value, or a
 *    different value before and after reading, knows the record is torn.
 *  - `mpidbg_root.generation` changes whenever a record is created, updated or
 *    released, so a reader may cache a decoded snapshot until it changes. A thread's
 *    live words (mpidbg_thread_live) change without it: a reader re-reads them.
 *  - Records live in slabs that never move or get freed; a slot is reused after release,
 *    or, for an orphan the budget evicts, rewritten as a new record of its kind in one
 *    write window (a reader sees the orphan or the new record; compare create_serial).
 *
 * Ranks and tags are normalised by the runtime to the constants below, whatever the
 * MPI library's own encoding of the wildcards.
 */
#ifndef MPIDBG_RECORDS_H
#define MPIDBG_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "mpidbg/call_ids.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The exported object is `mpidbg_runtime_root` of type mpidbg_root. */
#define MPIDBG_ROOT_SYMBOL "mpidbg_runtime_root"
/* "MPIDBGRT" read as a little-endian uint64. */
#define MPIDBG_ROOT_MAGIC UINT64_C(0x5452474244495043)
/* "MPIDSLAB" read as a little-endian uint64. */
#define MPIDBG_SLAB_MAGIC UINT64_C(0x42414c5344495043)
/* 2: nonblocking point-to-point requests live in per-thread flight rings (below
 * MPI_THREAD_MULTIPLE); a reader that knows only op records would miss them.
 * 3: so do the starts of persistent point-to-point requests (MPIDBG_FLIGHT_START); a
 * reader that does not apply them (mpidbg_operation_apply_start) sees such a request
 * inactive, and its start as a pending request of its own. */
#define MPIDBG_LAYOUT_VERSION 3

/* Normalised rank and tag values. */
#define MPIDBG_RANK_ANY_SOURCE (-1)
#define MPIDBG_RANK_PROC_NULL (-2)
#define MPIDBG_RANK_UNKNOWN (-3)
#define MPIDBG_TAG_ANY (-1)

enum mpidbg_flavour {
  MPIDBG_FLAVOUR_UNKNOWN = 0,
  MPIDBG_FLAVOUR_MPICH = 1,
  MPIDBG_FLAVOUR_OPENMPI = 2
};

enum mpidbg_process_state {
  MPIDBG_PROCESS_BEFORE_INIT = 0,
  MPIDBG_PROCESS_RUNNING = 1,
  MPIDBG_PROCESS_FINALIZED = 2
};

/* MPI_THREAD_* levels, in their standard order. */
enum mpidbg_thread_level {
  MPIDBG_THREAD_SINGLE = 0,
  MPIDBG_THREAD_FUNNELED = 1,
  MPIDBG_THREAD_SERIALIZED = 2,
  MPIDBG_THREAD_MULTIPLE = 3
};

enum mpidbg_record_kind {
  MPIDBG_KIND_FREE = 0, /* slot not in use */
  MPIDBG_KIND_COMM = 1,
  MPIDBG_KIND_OPERATION = 2,
  MPIDBG_KIND_THREAD = 3,
  MPIDBG_KIND_GROUP = 4,
  MPIDBG_KIND_DATATYPE = 5,
  MPIDBG_KIND_REDUCE_OP = 6, /* MPI_Op (named so to keep "op" for pending operations) */
  MPIDBG_KIND_ERRHANDLER = 7,
  MPIDBG_KIND_INFO = 8,
  MPIDBG_KIND_WINDOW = 9,
  MPIDBG_KIND_FILE = 10,
  MPIDBG_KIND_MESSAGE = 11,
  MPIDBG_KIND_SESSION = 12,
  MPIDBG_KIND_PARTITIONS = 13 /* partition state of a partitioned request (not a handle) */
};

/* A variable-length array the runtime keeps beside a record (malloc'd, replaced as a
 * whole, freed only after the record stops pointing at it). */
typedef struct mpidbg_array {
  uint64_t address;   /* target address of the first element, 0 when empty */
  uint32_t count;     /* elements */
  uint32_t elem_size; /* bytes per element (1 for byte strings) */
} mpidbg_array;

/* One table of records of one kind: a singly linked chain of slabs. */
typedef struct mpidbg_table {
  uint64_t first_slab;  /* target address of the first slab, 0 when empty */
  uint32_t kind;        /* enum mpidbg_record_kind */
  uint32_t record_size; /* bytes per record slot as the runtime wrote them */
  uint32_t slab_count;  /* slabs in the chain (a reader's bound for the walk) */
  uint32_t live_count;  /* records in use */
} mpidbg_table;

typedef struct mpidbg_slab {
  uint64_t magic;       /* MPIDBG_SLAB_MAGIC */
  uint64_t next;        /* target address of the next slab, 0 at the end */
  uint32_t header_size; /* offset of the first record slot from the slab start */
  uint32_t record_size; /* bytes per slot */
  uint32_t capacity;    /* slots in this slab */
  uint32_t kind;        /* enum mpidbg_record_kind */
} mpidbg_slab;

/* The one exported root. */
typedef struct mpidbg_root {
  uint64_t magic;          /* MPIDBG_ROOT_MAGIC */
  uint32_t size;           /* sizeof(mpidbg_root) as the runtime was built */
  uint32_t layout_version; /* MPIDBG_LAYOUT_VERSION */
  uint64_t generation;     /* changes on every record create/update/release */
  uint32_t flavour;        /* enum mpidbg_flavour */
  uint32_t handle_size;    /* bytes of an MPI handle in this MPI's C ABI (4 or 8) */
  int32_t process_state;   /* enum mpidbg_process_state */
  int32_t world_rank;      /* -1 before MPI_Init */
  int32_t world_size;
  int32_t thread_level;    /* enum mpidbg_thread_level provided by MPI */
  int32_t pid;
  /* This MPI's own encodings, for reference; records hold normalised values. */
  int32_t mpi_any_source;
  int32_t mpi_any_tag;
  int32_t mpi_proc_null;
  uint64_t comm_world_handle;
  uint64_t comm_self_handle;
  int64_t init_time_ns;    /* CLOCK_REALTIME when MPI_Init returned */
  uint64_t post_counter;   /* operations posted so far (their post_serial source) */
  mpidbg_table comms;
  mpidbg_table operations;
  mpidbg_table threads;
  char mpi_library[256];   /* MPI_Get_library_version, first line */
  char hostname[64];

  /* ---- appended: every handle kind, orphans, metadata ---- */
  uint64_t create_counter; /* source of every object's create_serial (all kinds) */
  uint64_t free_counter;   /* source of free_serial: the order handles were freed in */
  /* Orphans: records of freed handles kept so stale handle copies still decode. */
  uint32_t orphan_budget;   /* most orphans kept (MPIDBG_ORPHAN_BUDGET, default 4096) */
  uint32_t orphan_keep_all; /* a debugger writes 1: keep every orphan, ignore the budget */
  uint64_t orphan_count;    /* orphans kept now */
  uint64_t orphan_evictions; /* orphans dropped, oldest first, to stay within the budget */
  uint64_t orphan_releases;  /* orphans dropped by mpidbg_release_orphans() */
  mpidbg_table groups;
  mpidbg_table datatypes;
  mpidbg_table reduce_ops;
  mpidbg_table errhandlers;
  mpidbg_table infos;
  mpidbg_table windows;
  mpidbg_table files;
  mpidbg_table messages;
  mpidbg_table sessions;
  uint64_t launch;  /* target address of the mpidbg_launch_info, 0 before MPI_Init */
  uint64_t mpit;    /* target address of the mpidbg_mpit_catalogue, 0 if none */
  uint64_t traffic; /* target address of the mpidbg_traffic counters and send log */
  int32_t mpi_version;            /* MPI_Get_version */
  int32_t mpi_subversion;
  int32_t thread_level_requested; /* MPI_Init_thread's `required`, MPI_Init: SINGLE */
  int32_t debug_gate_hold;        /* 1 while MPI_Init holds for a debugger (MPIR_debug_gate) */
  uint64_t request_bytes;         /* bytes of runtime memory per live request */

  /* ---- appended: what a handle query needs to know of this MPI's C ABI ---- */
  /* MPI_Status as this MPI lays it out (offsets in bytes, -1 when absent), so a debugger
   * can decode a status variable of the program. */
  uint32_t status_size;            /* sizeof(MPI_Status) */
  int32_t status_source_offset;    /* MPI_SOURCE */
  int32_t status_tag_offset;       /* MPI_TAG */
  int32_t status_error_offset;     /* MPI_ERROR */
  int32_t status_count_offset;     /* the received byte count, see status_count_encoding */
  int32_t status_count_encoding;   /* enum mpidbg_status_count_encoding */
  int32_t status_cancelled_offset; /* int flag (OPENMPI_INT) or bit 0 of the high word */
  int32_t status_reserved;
  /* The null handles (and the other named non-objects) of this MPI, widened. */
  uint64_t comm_null_handle;
  uint64_t group_null_handle;
  uint64_t group_empty_handle;
  uint64_t datatype_null_handle;
  uint64_t reduce_op_null_handle;
  uint64_t errhandler_null_handle;
  uint64_t info_null_handle;
  uint64_t win_null_handle;
  uint64_t file_null_handle;
  uint64_t request_null_handle;
  uint64_t message_null_handle;
  uint64_t message_no_proc_handle;

  /* ---- appended: communication monitoring and MPI-state sampling ---- */
  uint64_t monitor; /* target address of the mpidbg_monitor block, 0 until monitoring first starts */
  uint64_t profile; /* target address of the mpidbg_profile block, 0 unless sampling was enabled */

  /* ---- appended: requests a debugger writes, the runtime carries out ---- */
  /* A debugger asks without calling into the process (which needs the process stopped
   * outside MPI, and fails on some machines): it writes a number above
   * orphan_release_done into orphan_release_asked (done + 1). The runtime releases every
   * orphan, as mpidbg_release_orphans() does, at a safe point off the application's
   * path — its clock thread, within 250 ms of the process running again, also while
   * every application thread is blocked in MPI; or the next MPI_*_free — and then
   * stores the number it carried out in orphan_release_done. asked != done: pending.
   * Below MPI_THREAD_MULTIPLE the clock thread leaves freed requests' records (their
   * release changes state only MPI calls change there): they stay orphans, counted,
   * and the request stays pending until the next MPI_*_free releases them too. */
  uint64_t orphan_release_asked;
  uint64_t orphan_release_done;

  /* ---- appended: partitioned communication ---- */
  mpidbg_table partitions; /* mpidbg_partition_record, one per partitioned request */
} mpidbg_root;

/* How MPI_Status holds the received byte count. */
enum mpidbg_status_count_encoding {
  MPIDBG_STATUS_COUNT_UNKNOWN = 0,
  /* MPICH: int count_lo at status_count_offset, int count_hi_and_cancelled right after
   * it; bytes = (uint32)count_lo | (count_hi_and_cancelled >> 1) << 32, cancelled =
   * count_hi_and_cancelled & 1 (status_cancelled_offset names that int). */
  MPIDBG_STATUS_COUNT_LO_HI_CANCELLED = 1,
  /* Open MPI: size_t _ucount at status_count_offset (target pointer width), int
   * _cancelled at status_cancelled_offset. */
  MPIDBG_STATUS_COUNT_SIZE_T = 2
};

/* Common head of every record slot. */
typedef struct mpidbg_record_header {
  uint32_t seq;   /* odd while the record is being written */
  uint16_t kind;  /* enum mpidbg_record_kind; MPIDBG_KIND_FREE when the slot is unused */
  uint16_t size;  /* bytes of the record as written */
  uint32_t flags; /* MPIDBG_REC_* and kind-specific flags */
  uint32_t reserved;
} mpidbg_record_header;

/* Flags valid for every record. */
#define MPIDBG_REC_PREDEFINED 0x1u /* a predefined object (MPI_COMM_WORLD, ...) */
#define MPIDBG_REC_FREED 0x2u      /* freed by the application, kept as an orphan */
#define MPIDBG_REC_RELEASED 0x4u   /* MPI no longer needs the object (it would be gone) */

/* Common head of every handle record of the kinds added after comm/op/thread
 * (group, datatype, reduce op, errhandler, info, window, file, message, session). */
typedef struct mpidbg_object_head {
  mpidbg_record_header hdr;
  uint64_t handle;         /* the handle value widened to 64 bits */
  uint64_t create_serial;  /* root.create_counter at creation */
  uint64_t free_serial;    /* root.free_counter when the application freed it, else 0 */
  int64_t create_time_ns;  /* CLOCK_REALTIME (coarse) at creation, 0 for predefined objects */
  int32_t creator;         /* enum mpidbg_call_id of the creating call */
  int32_t fortran_index;   /* MPI_*_c2f of the handle, -1 when not known */
  char name[64];           /* MPI_*_set_name or the predefined name */
} mpidbg_object_head;

/* Communicator flags. */
#define MPIDBG_COMM_INTER 0x100u     /* an intercommunicator */
#define MPIDBG_COMM_CART 0x200u      /* cartesian topology attached */
#define MPIDBG_COMM_GRAPH 0x400u     /* graph topology attached */
#define MPIDBG_COMM_DIST_GRAPH 0x800u /* distributed graph topology attached */

/* Communicator topology (comm record `topology`); the integers in `topo_args`:
 *  CART        ndims, dims[ndims], periods[ndims], coords[ndims], reorder
 *  GRAPH       nnodes, nedges, index[nnodes], edges[nedges], reorder
 *  DIST_GRAPH  indegree, outdegree, weighted, sources[indegree], sourceweights[indegree
 *              if weighted], destinations[outdegree], destweights[outdegree if
 *              weighted], reorder   (this process's neighbours, as MPI reports them) */
enum mpidbg_topology {
  MPIDBG_TOPO_NONE = 0,
  MPIDBG_TOPO_CART = 1,
  MPIDBG_TOPO_GRAPH = 2,
  MPIDBG_TOPO_DIST_GRAPH = 3
};

typedef struct mpidbg_comm_record {
  mpidbg_record_header hdr;
  uint64_t handle;             /* the MPI_Comm value, widened to 64 bits */
  uint64_t job_id;             /* the same on every member rank; see the runtime */
  uint64_t parent_job_id;      /* communicator it was derived from, 0 if predefined */
  uint64_t world_ranks;        /* target address of int32_t[size]: world rank per local rank */
  uint64_t remote_world_ranks; /* int32_t[remote_size] for intercommunicators, else 0 */
  uint64_t create_serial;      /* creation order in this process */
  int32_t rank;                /* this process's rank in the (local) group */
  int32_t size;                /* (local) group size */
  int32_t remote_size;         /* remote group size, 0 for intracommunicators */
  int32_t creator;             /* enum mpidbg_call_id of the creating call */
  int32_t split_color;         /* MPI_Comm_split colour (or split_type), else 0 */
  int32_t split_key;
  char name[64];               /* MPI_Comm_set_name, NUL-terminated */
  /* ---- appended ---- */
  uint64_t free_serial;        /* root.free_counter when freed, else 0 */
  uint64_t errhandler;         /* attached MPI_Errhandler (widened), 0 if not known */
  uint64_t info;               /* MPI_Info given at creation/set_info, 0 if none */
  mpidbg_array topo_args;      /* int32_t, see enum mpidbg_topology */
  mpidbg_array attributes;     /* int64_t pairs (keyval, attribute value) set by the user */
  int32_t fortran_index;       /* MPI_Comm_c2f, -1 when not known */
  int32_t topology;            /* enum mpidbg_topology */
  int64_t create_time_ns;      /* CLOCK_REALTIME at creation, 0 for predefined */
  /* ---- appended: an intercommunicator to another job (spawn, parent, accept, connect,
   * join). Its remote group's world ranks are in that job's MPI_COMM_WORLD, which this
   * process's world cannot translate: remote_world_ranks holds MPIDBG_RANK_UNKNOWN for
   * them, and these name the job and the ranks in it. Both empty for every other
   * communicator, and when the other side did not tell (it runs no runtime). ---- */
  mpidbg_array remote_job_id;     /* char[count], not NUL-terminated: the other job's
                                   * launcher job id (its mpidbg_launch_info.job_id) */
  mpidbg_array remote_job_ranks;  /* int32_t[remote_size]: the remote group's world ranks
                                   * in the other job's MPI_COMM_WORLD */
  /* ---- appended: where the program created it ---- */
  uint64_t create_pc;  /* target address the creating MPI call returns to in the
                        * program (the caller's return address), 0 for predefined
                        * objects and when not known */
} mpidbg_comm_record;

enum mpidbg_operation_direction {
  MPIDBG_OPERATION_SEND = 1,
  MPIDBG_OPERATION_RECV = 2,
  MPIDBG_OPERATION_PROBE = 3,     /* a blocking probe: waits for a message like a receive */
  MPIDBG_OPERATION_COLLECTIVE = 4, /* a nonblocking collective's request; peer = root or -1 */
  MPIDBG_OPERATION_RMA = 5,        /* request-based RMA (Rput, Rget, ...); object = window */
  MPIDBG_OPERATION_FILE = 6,       /* nonblocking file I/O; object = file */
  MPIDBG_OPERATION_GENERALIZED = 7 /* MPI_Grequest_start */
};

enum mpidbg_send_mode {
  MPIDBG_MODE_NONE = 0, /* receives */
  MPIDBG_MODE_STANDARD = 1,
  MPIDBG_MODE_SYNCHRONOUS = 2,
  MPIDBG_MODE_BUFFERED = 3,
  MPIDBG_MODE_READY = 4
};

enum mpidbg_operation_status {
  MPIDBG_OPERATION_PENDING = 0,  /* posted, not known to be matched */
  MPIDBG_OPERATION_MATCHED = 1,  /* matched, data still moving */
  MPIDBG_OPERATION_COMPLETE = 2  /* complete, not yet collected by a wait/test */
};

/* Operation flags. */
#define MPIDBG_OPERATION_BLOCKING 0x100u   /* a blocking call in progress (no request) */
#define MPIDBG_OPERATION_PERSISTENT 0x200u /* a persistent request */
#define MPIDBG_OPERATION_INACTIVE 0x400u   /* persistent request not started */

/* A pending point-to-point operation: a nonblocking or persistent request, or the
 * envelope of a blocking call while a thread is inside it. */
typedef struct mpidbg_operation_record {
  mpidbg_record_header hdr;
  uint64_t request;      /* MPI_Request value widened to 64 bits; 0 for blocking calls */
  uint64_t comm_handle;
  uint64_t comm_job_id;
  uint64_t post_serial;  /* process-wide order of posting: MPI matching order per comm */
  uint64_t buffer;       /* user buffer address */
  uint64_t datatype;     /* MPI_Datatype value widened to 64 bits */
  int64_t count;
  int64_t bytes;         /* count * datatype size */
  uint64_t tid;          /* posting thread (Linux tid) */
  int64_t post_time_ns;  /* CLOCK_REALTIME at posting */
  int64_t actual_bytes;  /* for completed receives */
  int32_t call;          /* enum mpidbg_call_id that posted it */
  int32_t direction;     /* enum mpidbg_operation_direction */
  int32_t mode;          /* enum mpidbg_send_mode */
  int32_t status;        /* enum mpidbg_operation_status */
  int32_t peer;          /* rank in the communicator (normalised) */
  int32_t peer_world;    /* MPI_COMM_WORLD rank of the peer, or a normalised wildcard */
  int32_t tag;           /* normalised */
  int32_t actual_source; /* for matched/complete receives */
  int32_t actual_tag;
  int32_t reserved;
  char datatype_name[32];
  /* ---- appended ---- */
  uint64_t object;       /* window (RMA) or file (file I/O) handle, else 0 */
  uint64_t free_serial;  /* root.free_counter at MPI_Request_free, else 0 */
  int64_t file_offset;   /* explicit offset of *_at file I/O, -1 otherwise */
  int64_t target_disp;   /* RMA target displacement */
  uint64_t extra_state;  /* generalized requests: the extra_state argument */
  uint64_t query_fn;     /* generalized requests: query function address */
  /* ---- appended: where the program created it ---- */
  uint64_t create_pc;  /* target address the creating MPI call returns to in the
                        * program (the caller's return address), 0 for predefined
                        * objects and when not known */
  uint64_t reserved2;  /* keeps the record whole 16-byte blocks (the runtime's hot path
                        * copies its tail by blocks) */
} mpidbg_operation_record;

enum mpidbg_thread_state {
  MPIDBG_THREAD_NOT_IN_MPI = 0,
  MPIDBG_THREAD_IN_MPI = 1,   /* inside an MPI call that returns without peers */
  MPIDBG_THREAD_BLOCKED = 2   /* inside a call that may wait for other processes */
};

/* What a thread is doing in MPI right now. */
typedef struct mpidbg_thread_record {
  mpidbg_record_header hdr;
  uint64_t tid;            /* Linux thread id */
  int64_t entry_time_ns;   /* CLOCK_REALTIME at entry of the current call */
  uint64_t comm_handle;    /* communicator of the current call, if any */
  uint64_t comm_job_id;
  uint64_t op;             /* target address of the op record of a blocking p2p call
                            * (a blocking call whose envelope is a flight entry names
                            * it in the live words instead: mpidbg_thread_live) */
  uint64_t requests;       /* target address of the caller's MPI_Request array (WAIT) */
  uint64_t calls;          /* MPI calls made by this thread (see mpidbg_thread_live) */
  int64_t count;           /* collective count argument */
  uint64_t datatype;       /* collective datatype */
  int32_t state;           /* enum mpidbg_thread_state */
  int32_t call;            /* enum mpidbg_call_id, MPIDBG_CALL_NONE when outside MPI */
  int32_t request_count;   /* handles at `requests` (root.handle_size bytes each) */
  int32_t root;            /* collective root (comm rank), or -1 */
  char datatype_name[32];
  /* ---- appended (layout 2): the thread's flight ring, see mpidbg_flight_entry ---- */
  uint64_t flight_entries;    /* target address of mpidbg_flight_entry[flight_capacity],
                               * 0 until the thread first posts into it */
  uint64_t flight_head;       /* posts appended so far; post p sits in entry
                               * p % flight_capacity (stored after the entry) */
  uint32_t flight_capacity;   /* entries in the ring, a power of two */
  uint32_t flight_entry_size; /* sizeof(mpidbg_flight_entry) as the runtime wrote them */
  uint64_t live;              /* target address of the thread's mpidbg_thread_live */
  /* ---- appended: the size of the live words ---- */
  uint32_t live_size;         /* sizeof(mpidbg_thread_live) as the runtime wrote them;
                               * 0: the 48 bytes before `op` (see mpidbg_thread_live) */
  uint32_t reserved3;
} mpidbg_thread_record;

/* What a thread is doing in MPI, in words the thread writes as each outermost MPI call
 * is entered and left (layout 2). A call that may block (state BLOCKED) also publishes
 * itself in the thread record with its detail — except the Wait family (MPI_Wait,
 * MPI_Waitall, MPI_Waitany, MPI_Waitsome), which writes only these words, and, below
 * MPI_THREAD_MULTIPLE, a blocking send or receive whose envelope is a flight entry
 * (MPI_Send, MPI_Bsend, MPI_Ssend, MPI_Rsend, MPI_Recv and their large-count forms),
 * which writes only these words with `op` naming its entry. A call that returns by
 * itself (state IN_MPI: nonblocking posts, queries, handle creation, the Test family)
 * writes only these words too, with `op` 0. A Wait- or Test-family call names the
 * request array it waits for or tests in `requests` and `request_count` (live_size 72;
 * a reader of fewer bytes sees such a call without its requests).
 *
 * Reading: the thread record's `live_size` says how many bytes of these words the
 * runtime writes; a record without it (live_size 0, or a record written before it) has
 * the 48 bytes before `op`. A reader reads min(that size, its own sizeof) bytes and
 * zero-fills the rest (so a runtime that writes no `op` reads as op 0, and one that
 * writes no `requests` as none); a live_size below 48 is damage (ignore the words).
 * Then, while the thread record says NOT_IN_MPI and `state` here does not, the thread is
 * in the call these words name: call, state, entry_time_ns, comm_handle, comm_job_id,
 * op, requests and request_count come from here (a record that publishes a call has its
 * detail, and wins); `calls` comes from here always (mpidbg_thread_merge_live). A
 * Wait- or Test-family call stores request_count before requests as it enters and clears
 * requests first as it returns, so a stopped thread whose words name an array has its
 * count; a reader racing a live thread may still pair one call's array with another's
 * count, and bounds request_count as it bounds the record's.
 *
 * Entering: site, entry_time_ns, calls, call, then state; comm, op and requests once the
 * call has described its envelope (op after the flight entry is whole), before it
 * enters MPI; leaving: state, then call, comm, op and requests. Each field is one
 * naturally aligned word: a
 * reader racing the thread sees an old or a new value, never a torn one. Readers that
 * cache by root.generation re-read these words: a call that returns by itself steps the
 * generation once as it returns, and a blocking call that writes only these words steps
 * it once before it enters MPI (a blocking send or receive once its flight entry is
 * posted, so a cached reader finds the entry the words name; a Wait once its request
 * array is named) and once more as it returns.
 *
 * `paused` is nonzero while the thread has paused recording (mpidbg_pause_recording in
 * runtime_api.h; the pauses not yet resumed): its MPI calls then go straight to MPI, and
 * none of them shows here or in any record, so a reader cannot tell from these words
 * whether the thread is in MPI, nor trust that every request it posted is known. It is
 * written as the pause and the resume are made, outside MPI calls, and steps the
 * generation; a runtime from before it wrote 0 there. */
typedef struct mpidbg_thread_live {
  int32_t state;          /* enum mpidbg_thread_state */
  int32_t call;           /* enum mpidbg_call_id, MPIDBG_CALL_NONE outside MPI */
  uint64_t site;          /* where the program called MPI (the call's return address) */
  int64_t entry_time_ns;  /* CLOCK_REALTIME (coarse) at entry of the current call */
  uint64_t comm_handle;   /* communicator of the current call, 0 if none */
  uint64_t comm_job_id;
  uint64_t calls;         /* outermost MPI calls made by this thread */
  /* ---- appended (live_size 56) ---- */
  uint64_t op;            /* target address of the flight entry of the blocking send or
                           * receive the thread is in, 0 otherwise */
  /* ---- appended (live_size 72) ---- */
  uint64_t requests;      /* target address of the MPI_Request array of the Wait- or
                           * Test-family call the thread is in, 0 otherwise */
  int32_t request_count;  /* handles at `requests` (root.handle_size bytes each) */
  int32_t paused;         /* pauses of recording not yet resumed; see above */
} mpidbg_thread_live;

/* The bytes of live words a runtime writes that does not say (live_size 0): all before
 * `op`. */
#define MPIDBG_THREAD_LIVE_SIZE_V2 48u

/* The bytes of the live words of a thread record (decoded, zero-filled past its written
 * size) by the rule above: 0 when it has none or its live_size is damaged. */
static inline uint32_t mpidbg_thread_live_bytes(const mpidbg_thread_record* t) {
  if (t->live == 0) return 0;
  if (t->live_size == 0) return MPIDBG_THREAD_LIVE_SIZE_V2;
  if (t->live_size < MPIDBG_THREAD_LIVE_SIZE_V2) return 0;
  return t->live_size < sizeof(mpidbg_thread_live) ? t->live_size
                                                   : (uint32_t)sizeof(mpidbg_thread_live);
}

/* The thread as a reader shows it: its record `published` with its live words `live`
 * (read by the rule above) merged in. */
static inline void mpidbg_thread_merge_live(const mpidbg_thread_record* published,
                                            const mpidbg_thread_live* live,
                                            mpidbg_thread_record* out) {
  *out = *published;
  /* The thread counts every outermost call there; the record's count stops at the last
   * call that published itself. */
  out->calls = live->calls;
  if (published->state != MPIDBG_THREAD_NOT_IN_MPI) return;
  if (live->state == MPIDBG_THREAD_NOT_IN_MPI) return;
  out->state = live->state;
  out->call = live->call;
  out->entry_time_ns = live->entry_time_ns;
  out->comm_handle = live->comm_handle;
  out->comm_job_id = live->comm_job_id;
  out->op = live->op;
  out->requests = live->requests;
  out->request_count = live->request_count;
}

/* ======================= Flight rings: a thread's point-to-point posts =======================
 * Below MPI_THREAD_MULTIPLE a thread does not open an operation record for a nonblocking
 * point-to-point request it posts (MPI_Isend, MPI_Ibsend, MPI_Issend, MPI_Irsend,
 * MPI_Irecv and their large-count forms). It appends one fixed-size entry to a ring of
 * its own (thread record flight_*), and completion marks the entry DONE. The envelope
 * of a blocking send or receive (MPI_Send, MPI_Bsend, MPI_Ssend, MPI_Rsend, MPI_Recv and
 * their large-count forms) is such an entry too, with request 0, POSTED while the thread
 * is inside the call (the thread record's `op` names it) and DONE when it returns: a
 * reader derives it as an operation record flagged MPIDBG_OPERATION_BLOCKING. A reader derives
 * the pending operations from the rings: every entry in state POSTED is a pending
 * request, as an operation record with these fields would be (the rest: tid from the
 * thread record, status PENDING, actual_source MPIDBG_RANK_UNKNOWN, actual_tag
 * MPIDBG_TAG_ANY, file_offset -1, other fields 0; datatype_name from the datatype
 * table's record of `datatype`). An operation MPI completed inside the posting call (one
 * shared, already completed request handle: MPICH's preallocated requests, Open MPI's
 * empty request) is complete when its entry is written: the entry is DONE from the start.
 *
 * Nothing pending is lost: before the ring reuses an entry still POSTED, and whenever
 * the runtime needs the request as a record (MPI_Request_free; a ring whose thread
 * exited with the request pending, before another thread takes the ring over: until
 * then the exited thread's record stays and names the ring), the runtime carries it
 * into an operation record with the same fields and post_serial and then marks the
 * entry CARRIED. A reader that catches both (a live process stopped
 * between the two stores) keeps the operation record: the post_serial is the same.
 *
 * Reading: take flight_head, then entries p in [head - capacity, head) (from 0 while head
 * < capacity). An entry holds post p only if its seq is 2 * (p + 1) truncated to 32 bits;
 * any other value (odd: being written; else an older or newer post) means skip it.
 *
 * A start of a persistent point-to-point request (MPI_Start, MPI_Startall of a request
 * from MPI_Send_init, MPI_Bsend_init, MPI_Ssend_init, MPI_Rsend_init, MPI_Recv_init or
 * their large-count forms) is such an entry too, flagged MPIDBG_FLIGHT_START, with the
 * request's envelope (call: the init call) and the start's post_serial and time; the
 * request's operation record (MPIDBG_OPERATION_PERSISTENT) stays as the init made it,
 * INACTIVE. While the entry is POSTED a reader takes that record as started, as the
 * runtime would have written it: mpidbg_operation_apply_start() of the entry to a copy
 * of the record (the operation record mpidbg_operation_takes_start() picks: the one
 * with the entry's request handle that is PERSISTENT and INACTIVE and not FREED), and
 * derives no operation of its own from the
 * entry; only without such a record does the entry give an operation of its own
 * (mpidbg_operation_from_flight, flagged PERSISTENT). A start the runtime carries
 * (above) is applied to that record in place, with the entry's post_serial.
 *
 * The rings are also the send log of these requests (mpidbg_traffic): a send posted into
 * a ring is counted in the traffic counters but not written to the send log; every
 * whole SEND entry of a ring with a nonzero ordinal (0: not counted, e.g. MPI_PROC_NULL),
 * whatever its state, is a logged send with the entry's ordinal, comm_job_id, peer,
 * peer_world, tag, mode, call, count, bytes, datatype and post_time_ns (time_ns). */
enum mpidbg_flight_state {
  MPIDBG_FLIGHT_EMPTY = 0,
  MPIDBG_FLIGHT_POSTED = 1,  /* a pending request */
  MPIDBG_FLIGHT_DONE = 2,    /* completed (or MPI handed its handle out again) */
  MPIDBG_FLIGHT_CARRIED = 3  /* now an operation record with the same post_serial */
};

/* Flight entry flags. */
#define MPIDBG_FLIGHT_START 0x1u /* a start of the persistent request `request` (above) */

typedef struct mpidbg_flight_entry {
  uint32_t seq;          /* odd while written; 2 * (position + 1) (mod 2^32) once whole */
  uint8_t state;         /* enum mpidbg_flight_state (changes after seq, one byte store) */
  uint8_t direction;     /* enum mpidbg_operation_direction: SEND or RECV */
  uint8_t mode;          /* enum mpidbg_send_mode */
  uint8_t flags;         /* MPIDBG_FLIGHT_* (0 before layout 3) */
  int32_t call;          /* enum mpidbg_call_id that posted it */
  int32_t peer;          /* as in mpidbg_operation_record */
  int32_t peer_world;
  int32_t tag;
  uint64_t request;
  uint64_t comm_handle;
  uint64_t comm_job_id;
  uint64_t buffer;
  uint64_t datatype;
  int64_t count;
  int64_t bytes;
  uint64_t post_serial;
  int64_t post_time_ns;
  uint64_t create_pc;
  uint64_t ordinal;      /* a send: its number within (comm, peer, tag), as the send log's
                          * ordinal (0 when not counted); a receive: 0 */
} mpidbg_flight_entry;

/* The operation record a reader derives from a whole flight entry of the thread with
 * Linux thread id `tid`, by the rules above; datatype_name is left empty (it comes from
 * the datatype table's record of `datatype`). The runtime carries an entry into an op
 * record with the same body. */
static inline void mpidbg_operation_from_flight(const mpidbg_flight_entry* e, uint64_t tid,
                                                mpidbg_operation_record* r) {
  unsigned char* bytes = (unsigned char*)r;
  for (size_t i = 0; i < sizeof *r; ++i) bytes[i] = 0;
  r->hdr.kind = MPIDBG_KIND_OPERATION;
  r->hdr.size = (uint16_t)sizeof *r;
  r->hdr.flags = e->request == 0 ? MPIDBG_OPERATION_BLOCKING : 0u;
  if ((e->flags & MPIDBG_FLIGHT_START) != 0) r->hdr.flags |= MPIDBG_OPERATION_PERSISTENT;
  r->request = e->request;
  r->comm_handle = e->comm_handle;
  r->comm_job_id = e->comm_job_id;
  r->post_serial = e->post_serial;
  r->buffer = e->buffer;
  r->datatype = e->datatype;
  r->count = e->count;
  r->bytes = e->bytes;
  r->tid = tid;
  r->post_time_ns = e->post_time_ns;
  r->call = e->call;
  r->direction = e->direction;
  r->mode = e->mode;
  r->status = MPIDBG_OPERATION_PENDING;
  r->peer = e->peer;
  r->peer_world = e->peer_world;
  r->tag = e->tag;
  r->actual_source = MPIDBG_RANK_UNKNOWN;
  r->actual_tag = MPIDBG_TAG_ANY;
  r->file_offset = -1;
  r->create_pc = e->create_pc;
}

/* Whether a POSTED MPIDBG_FLIGHT_START entry of the persistent request `request`
 * applies to the operation record `r` (the rule above): the record of that request,
 * PERSISTENT and INACTIVE, not FREED. */
static inline int mpidbg_operation_takes_start(const mpidbg_operation_record* r,
                                               uint64_t request) {
  const uint32_t both = MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE;
  return r->request == request && (r->hdr.flags & both) == both &&
         (r->hdr.flags & MPIDBG_REC_FREED) == 0;
}

/* The persistent request's operation record `r` (PERSISTENT, INACTIVE) as the start a
 * POSTED MPIDBG_FLIGHT_START entry `e` of the thread `tid` is makes it: active, pending,
 * with the start's post_serial, time and thread. */
static inline void mpidbg_operation_apply_start(const mpidbg_flight_entry* e, uint64_t tid,
                                                mpidbg_operation_record* r) {
  r->hdr.flags &= ~MPIDBG_OPERATION_INACTIVE;
  r->status = MPIDBG_OPERATION_PENDING;
  r->post_serial = e->post_serial;
  r->post_time_ns = e->post_time_ns;
  r->tid = tid;
}

/* Partitioned communication (MPI-4: MPI_Psend_init, MPI_Precv_init). The request's
 * envelope is its operation record (call MPI_Psend_init/MPI_Precv_init, count = all
 * partitions' elements); this record, beside it, says how far the current round got:
 * a send's partitions the program marked ready (MPI_Pready, _range, _list), a
 * receive's partitions MPI_Parrived reported arrived — both since the request was last
 * started (MPI_Start/MPI_Startall clear them). A partition marked twice counts once.
 * The record goes when the request is freed. */
typedef struct mpidbg_partition_record {
  mpidbg_record_header hdr;
  uint64_t request;         /* the MPI_Request, widened */
  int64_t partition_count;  /* elements per partition (the call's count argument) */
  uint64_t starts;          /* rounds started so far (MPI_Start/Startall) */
  int32_t partitions;       /* number of partitions */
  int32_t direction;        /* MPIDBG_OPERATION_SEND or MPIDBG_OPERATION_RECV */
  int32_t done;             /* send: partitions ready; receive: partitions seen arrived */
  int32_t reserved;
  /* uint8_t[(partitions + 7) / 8]: bit p % 8 of byte p / 8 set when partition p is done
   * (ready or arrived); count 0 when the runtime kept no map (too many partitions). */
  mpidbg_array done_bits;
} mpidbg_partition_record;

/* ======================= Handle records of the other kinds ======================= */

typedef struct mpidbg_group_record {
  mpidbg_object_head obj;
  uint64_t source_handle;    /* the communicator or window or file it came from, or
                                the first input group of a group operation */
  uint64_t source_handle2;   /* second input group (union, intersection, difference) */
  uint64_t source_comm_job_id; /* job id of the communicator it came from, else 0 */
  mpidbg_array world_ranks;  /* int32_t per group rank: its MPI_COMM_WORLD rank */
  mpidbg_array args;         /* int32_t: incl/excl ranks, or range triplets */
  int32_t size;
  int32_t rank;              /* this process's rank in the group, -1 if not a member */
  /* ---- appended: where the program created it ---- */
  uint64_t create_pc;  /* target address the creating MPI call returns to in the
                        * program (the caller's return address), 0 for predefined
                        * objects and when not known */
} mpidbg_group_record;

/* Datatype constructors; our numbering (the MPI libraries' MPI_COMBINER_* differ). */
enum mpidbg_combiner {
  MPIDBG_COMBINER_UNKNOWN = 0,
  MPIDBG_COMBINER_NAMED = 1,
  MPIDBG_COMBINER_DUP = 2,
  MPIDBG_COMBINER_CONTIGUOUS = 3,
  MPIDBG_COMBINER_VECTOR = 4,
  MPIDBG_COMBINER_HVECTOR = 5,
  MPIDBG_COMBINER_INDEXED = 6,
  MPIDBG_COMBINER_HINDEXED = 7,
  MPIDBG_COMBINER_INDEXED_BLOCK = 8,
  MPIDBG_COMBINER_HINDEXED_BLOCK = 9,
  MPIDBG_COMBINER_STRUCT = 10,
  MPIDBG_COMBINER_SUBARRAY = 11,
  MPIDBG_COMBINER_DARRAY = 12,
  MPIDBG_COMBINER_F90_REAL = 13,
  MPIDBG_COMBINER_F90_COMPLEX = 14,
  MPIDBG_COMBINER_F90_INTEGER = 15,
  MPIDBG_COMBINER_RESIZED = 16
};

/* Datatype flags. */
#define MPIDBG_TYPE_COMMITTED 0x100u

/* A datatype and how it was made: the constructor's inputs in the order and meaning of
 * MPI_Type_get_contents (integers, addresses, datatypes), so a reader can rebuild the
 * type map from the records of the input types. */
typedef struct mpidbg_datatype_record {
  mpidbg_object_head obj;
  int64_t size;         /* MPI_Type_size_x */
  int64_t lb;           /* MPI_Type_get_extent_x */
  int64_t extent;
  int64_t true_lb;      /* MPI_Type_get_true_extent_x */
  int64_t true_extent;
  mpidbg_array integers;  /* int32_t array_of_integers */
  mpidbg_array addresses; /* int64_t array_of_addresses (MPI_Aint) */
  mpidbg_array types;     /* uint64_t array_of_datatypes, handles widened */
  int32_t combiner;       /* enum mpidbg_combiner */
  int32_t reserved;
  /* ---- appended: where the program created it ---- */
  uint64_t create_pc;  /* target address the creating MPI call returns to in the
                        * program (the caller's return address), 0 for predefined
                        * objects and when not known */
  /* ---- appended: room for small constructor arrays ---- */
  /* When `integers`, `addresses` and `types` fit together (each starting on an 8-byte
   * boundary), the runtime stores them here and points the arrays into it, so most
   * types need no allocation of their own; larger ones are stored elsewhere. Readers
   * only follow the arrays' addresses: nothing else reads this room. */
  uint64_t contents_room[6];
} mpidbg_datatype_record;

typedef struct mpidbg_reduce_op_record {
  mpidbg_object_head obj;
  uint64_t function;   /* user function address, 0 for predefined ops */
  int32_t commute;     /* 1 commutative, 0 not */
  int32_t reserved;
  /* ---- appended: where the program created it ---- */
  uint64_t create_pc;  /* target address the creating MPI call returns to in the
                        * program (the caller's return address), 0 for predefined
                        * objects and when not known */
} mpidbg_reduce_op_record;

enum mpidbg_errhandler_target {
  MPIDBG_ERRH_ANY = 0,  /* predefined: usable on every object kind */
  MPIDBG_ERRH_COMM = 1,
  MPIDBG_ERRH_WIN = 2,
  MPIDBG_ERRH_FILE = 3,
  MPIDBG_ERRH_SESSION = 4
};

typedef struct mpidbg_errhandler_record {
  mpidbg_object_head obj;
  uint64_t function;  /* user function address, 0 for predefined handlers */
  int32_t target;     /* enum mpidbg_errhandler_target */
  int32_t reserved;
  /* ---- appended: where the program created it ---- */
  uint64_t create_pc;  /* target address the creating MPI call returns to in the
                        * program (the caller's return address), 0 for predefined
                        * objects and when not known */
} mpidbg_errhandler_record;

typedef struct mpidbg_info_record {
  mpidbg_object_head obj;
  mpidbg_array entries; /* bytes: key NUL value NUL, repeated nkeys times, in key order */
  int32_t nkeys;
  int32_t reserved;
  /* ---- appended: where the program created it ---- */
  uint64_t create_pc;  /* target address the creating MPI call returns to in the
                        * program (the caller's return address), 0 for predefined
                        * objects and when not known */
} mpidbg_info_record;

enum mpidbg_win_flavor {
  MPIDBG_WIN_CREATE = 1,
  MPIDBG_WIN_ALLOCATE = 2,
  MPIDBG_WIN_SHARED = 3,
  MPIDBG_WIN_DYNAMIC = 4
};

/* The synchronisation a window is in, as seen from this process. */
enum mpidbg_win_epoch {
  MPIDBG_EPOCH_NONE = 0,
  MPIDBG_EPOCH_FENCE = 1,     /* between two MPI_Win_fence (access and exposure) */
  MPIDBG_EPOCH_LOCK = 2,      /* access: MPI_Win_lock on at least one target */
  MPIDBG_EPOCH_LOCK_ALL = 3,  /* access: MPI_Win_lock_all */
  MPIDBG_EPOCH_START = 4,     /* access: MPI_Win_start .. MPI_Win_complete */
  MPIDBG_EPOCH_POST = 5       /* exposure: MPI_Win_post .. MPI_Win_wait/test */
};

enum mpidbg_win_lock {
  MPIDBG_LOCK_NONE = 0,
  MPIDBG_LOCK_SHARED = 1,
  MPIDBG_LOCK_EXCLUSIVE = 2
};

typedef struct mpidbg_window_record {
  mpidbg_object_head obj;
  uint64_t comm_handle;     /* the communicator given at creation */
  uint64_t comm_job_id;
  uint64_t base;            /* local window base (0 for dynamic windows) */
  int64_t size;             /* local window size in bytes */
  uint64_t errhandler;
  uint64_t info;
  uint64_t fence_count;     /* MPI_Win_fence calls so far */
  uint64_t rma_count;       /* RMA operations issued on this window */
  mpidbg_array target_locks;   /* int32_t per comm rank: enum mpidbg_win_lock */
  mpidbg_array access_group;   /* int32_t comm ranks of the MPI_Win_start group */
  mpidbg_array exposure_group; /* int32_t comm ranks of the MPI_Win_post group */
  mpidbg_array attached;       /* int64_t pairs (base, size) of MPI_Win_attach regions */
  int32_t disp_unit;
  int32_t flavor;           /* enum mpidbg_win_flavor */
  int32_t access_epoch;     /* enum mpidbg_win_epoch */
  int32_t exposure_epoch;   /* enum mpidbg_win_epoch (NONE, FENCE or POST) */
  int32_t comm_size;
  int32_t reserved;
  /* ---- appended: where the program created it ---- */
  uint64_t create_pc;  /* target address the creating MPI call returns to in the
                        * program (the caller's return address), 0 for predefined
                        * objects and when not known */
} mpidbg_window_record;

typedef struct mpidbg_file_record {
  mpidbg_object_head obj;
  uint64_t comm_handle;
  uint64_t comm_job_id;
  uint64_t info;
  uint64_t errhandler;
  int64_t view_disp;     /* MPI_File_set_view */
  uint64_t etype;
  uint64_t filetype;
  int32_t amode;         /* MPI_MODE_* bits as MPI_File_open got them */
  int32_t reserved;
  char datarep[32];
  char filename[256];
  /* ---- appended: where the program created it ---- */
  uint64_t create_pc;  /* target address the creating MPI call returns to in the
                        * program (the caller's return address), 0 for predefined
                        * objects and when not known */
} mpidbg_file_record;

enum mpidbg_message_state {
  MPIDBG_MESSAGE_MATCHED = 0,  /* matched by MPI_Mprobe/Improbe, not yet received */
  MPIDBG_MESSAGE_RECEIVED = 1  /* consumed by MPI_Mrecv/Imrecv */
};

/* Message flags. */
#define MPIDBG_MESSAGE_NO_PROC 0x100u /* MPI_MESSAGE_NO_PROC (probe of MPI_PROC_NULL) */

typedef struct mpidbg_message_record {
  mpidbg_object_head obj;
  uint64_t comm_handle;
  uint64_t comm_job_id;
  int64_t bytes;        /* message size from the probe's status */
  int32_t source;       /* comm rank of the sender (from the status) */
  int32_t source_world;
  int32_t tag;
  int32_t state;        /* enum mpidbg_message_state */
  /* ---- appended: where the program created it ---- */
  uint64_t create_pc;  /* target address the creating MPI call returns to in the
                        * program (the caller's return address), 0 for predefined
                        * objects and when not known */
} mpidbg_message_record;

typedef struct mpidbg_session_record {
  mpidbg_object_head obj;
  uint64_t info;
  uint64_t errhandler;
  /* ---- appended: where the program created it ---- */
  uint64_t create_pc;  /* target address the creating MPI call returns to in the
                        * program (the caller's return address), 0 for predefined
                        * objects and when not known */
} mpidbg_session_record;

/* ============================== Process metadata ============================== */

enum mpidbg_launcher_kind {
  MPIDBG_LAUNCHER_UNKNOWN = 0,
  MPIDBG_LAUNCHER_SINGLETON = 1, /* started without a launcher */
  MPIDBG_LAUNCHER_HYDRA = 2,     /* MPICH's mpiexec (PMI-1/PMI-2 environment) */
  MPIDBG_LAUNCHER_ORTE = 3,      /* Open MPI's mpirun/orterun */
  MPIDBG_LAUNCHER_PRRTE = 4,     /* PRRTE / PMIx reference launcher */
  MPIDBG_LAUNCHER_SLURM = 5      /* srun */
};

/* Which sources filled mpidbg_launch_info (bit mask). */
#define MPIDBG_LAUNCH_FROM_PMI 0x1u   /* PMI_RANK, PMI_SIZE, PMI_FD, ... */
#define MPIDBG_LAUNCH_FROM_PMIX 0x2u  /* PMIX_RANK, PMIX_NAMESPACE, ... */
#define MPIDBG_LAUNCH_FROM_OMPI 0x4u  /* OMPI_COMM_WORLD_*, OMPI_UNIVERSE_SIZE, ... */
#define MPIDBG_LAUNCH_FROM_SLURM 0x8u /* SLURM_PROCID, SLURM_JOB_ID, ... */
#define MPIDBG_LAUNCH_FROM_MPI 0x10u  /* MPI_Comm_rank/size, MPI_UNIVERSE_SIZE, MPI_APPNUM */

/* The launcher/PMI view of this process. Integers are -1 when not known. */
typedef struct mpidbg_launch_info {
  uint32_t size;          /* sizeof(mpidbg_launch_info) as written */
  uint32_t launcher;      /* enum mpidbg_launcher_kind */
  uint32_t sources;       /* MPIDBG_LAUNCH_FROM_* */
  int32_t rank;           /* from the launcher's environment */
  int32_t world_size;
  int32_t local_rank;
  int32_t local_size;
  int32_t node_rank;
  int32_t appnum;         /* MPI_APPNUM attribute, or the launcher's */
  int32_t universe_size;  /* MPI_UNIVERSE_SIZE attribute, or the launcher's */
  int32_t pid;
  int32_t mpi_rank;       /* MPI_Comm_rank(MPI_COMM_WORLD), for comparison */
  char job_id[128];       /* PMI KVS name, PMIx namespace, Open MPI job id, Slurm job */
  char host[64];
  char launcher_name[32]; /* e.g. "hydra", "orte", "slurm" */
  char pmi_interface[16]; /* "pmi", "pmi2", "pmix" */
} mpidbg_launch_info;

/* MPI_T: the catalogue of variables captured at MPI_Init and on demand. Strings are
 * offsets into `strings` (bytes, NUL-terminated), MPIDBG_MPIT_NO_STRING when absent. */
#define MPIDBG_MPIT_NO_STRING UINT32_MAX

enum mpidbg_mpit_type { /* the variable's MPI datatype, normalised */
  MPIDBG_MPIT_OTHER = 0,
  MPIDBG_MPIT_INT = 1,
  MPIDBG_MPIT_UNSIGNED = 2,
  MPIDBG_MPIT_UNSIGNED_LONG = 3,
  MPIDBG_MPIT_UNSIGNED_LONG_LONG = 4,
  MPIDBG_MPIT_COUNT = 5,
  MPIDBG_MPIT_CHAR = 6,
  MPIDBG_MPIT_DOUBLE = 7,
  MPIDBG_MPIT_BOOL = 8  /* MPI_C_BOOL; the value is 0 or 1 in value_int */
};

/* Control-variable flags. */
#define MPIDBG_CVAR_VALUE_VALID 0x1u /* value_* was read (scalar, no binding needed) */

typedef struct mpidbg_mpit_cvar {
  uint32_t name;        /* string offset */
  uint32_t desc;        /* string offset */
  int32_t verbosity;    /* MPI_T_VERBOSITY_* ordinal 0..8 (user basic .. mpidev all) */
  int32_t datatype;     /* enum mpidbg_mpit_type */
  int32_t scope;        /* MPI_T_SCOPE_* ordinal: constant, readonly, local, group,
                           group_eq, all, all_eq */
  int32_t bind;         /* MPI_T_BIND_* ordinal: no_object, comm, datatype, errhandler,
                           file, group, op, request, win, message, info */
  int32_t count;        /* elements of the value */
  uint32_t flags;       /* MPIDBG_CVAR_* */
  int64_t value_int;    /* integer types */
  double value_double;  /* MPIDBG_MPIT_DOUBLE */
  uint32_t value_text;  /* string offset (MPIDBG_MPIT_CHAR) */
  uint32_t reserved;
} mpidbg_mpit_cvar;

/* Performance-variable flags. */
#define MPIDBG_PVAR_READONLY 0x1u
#define MPIDBG_PVAR_CONTINUOUS 0x2u
#define MPIDBG_PVAR_ATOMIC 0x4u

typedef struct mpidbg_mpit_pvar {
  uint32_t name;
  uint32_t desc;
  int32_t var_class;  /* MPI_T_PVAR_CLASS_* ordinal: state, level, size, percentage,
                         highwatermark, lowwatermark, counter, aggregate, timer, generic */
  int32_t verbosity;
  int32_t datatype;   /* enum mpidbg_mpit_type */
  int32_t bind;
  int32_t count;      /* elements (for no-object bindings), else -1 */
  uint32_t flags;     /* MPIDBG_PVAR_* */
} mpidbg_mpit_pvar;

typedef struct mpidbg_mpit_category {
  uint32_t name;
  uint32_t desc;
  int32_t num_cvars;
  int32_t num_pvars;
  int32_t num_categories;
  uint32_t first_member; /* index into `members`: cvars, then pvars, then categories */
} mpidbg_mpit_category;

typedef struct mpidbg_mpit_catalogue {
  uint32_t size;         /* sizeof(mpidbg_mpit_catalogue) as written */
  uint32_t seq;          /* odd while a refresh rewrites the catalogue */
  uint64_t refreshes;    /* captures so far (1 after MPI_Init) */
  int64_t captured_time_ns;
  int32_t available;     /* 1 if MPI_T_init_thread succeeded */
  int32_t reserved;
  mpidbg_array cvars;      /* mpidbg_mpit_cvar */
  mpidbg_array pvars;      /* mpidbg_mpit_pvar */
  mpidbg_array categories; /* mpidbg_mpit_category */
  mpidbg_array members;    /* int32_t indices referenced by categories */
  mpidbg_array strings;    /* bytes */
} mpidbg_mpit_catalogue;

/* ======================= Traffic: what makes unexpected messages knowable =======================
 * Per (communicator, peer, tag): sends this process posted and receives it completed
 * (counted from statuses, so wildcard receives count under the actual source and tag;
 * a matched MPI_Mprobe/Improbe counts as received). With every rank's counts a host
 * knows how many messages from A to B are outstanding; the last ones in A's send log
 * for (comm, B, tag) are those messages (MPI's non-overtaking rule). The sends of
 * nonblocking requests posted into flight rings are logged there instead
 * (mpidbg_flight_entry), with the same ordinals. */

/* Traffic entry states. */
#define MPIDBG_TRAFFIC_EMPTY 0u
#define MPIDBG_TRAFFIC_CLAIMED 1u /* being filled: skip */
#define MPIDBG_TRAFFIC_READY 2u

typedef struct mpidbg_traffic_entry {
  uint32_t state;        /* MPIDBG_TRAFFIC_* */
  int32_t tag;
  uint64_t comm_job_id;
  int32_t peer;          /* comm rank (remote group rank on intercommunicators) */
  int32_t peer_world;
  uint64_t sends;        /* sends posted to (peer, tag) */
  uint64_t receives;     /* receives completed from (peer, tag) */
  uint64_t send_bytes;
  uint64_t receive_bytes;
} mpidbg_traffic_entry;

typedef struct mpidbg_send_log_entry {
  uint32_t seq;          /* odd while being written; 2n+2 once it holds send n */
  int32_t call;          /* enum mpidbg_call_id */
  uint64_t comm_job_id;
  uint64_t ordinal;      /* this send's number within (comm, peer, tag): 1, 2, ... */
  int64_t bytes;
  int64_t time_ns;       /* CLOCK_REALTIME at posting */
  uint64_t datatype;
  int64_t count;
  int32_t peer;
  int32_t peer_world;
  int32_t tag;
  int32_t mode;          /* enum mpidbg_send_mode */
} mpidbg_send_log_entry;

typedef struct mpidbg_traffic {
  uint32_t size;           /* sizeof(mpidbg_traffic) as written */
  uint32_t entry_size;     /* sizeof(mpidbg_traffic_entry) */
  uint64_t entries;        /* target address of the entry array (open addressing) */
  uint32_t capacity;       /* entries in the array (power of two) */
  uint32_t log_entry_size; /* sizeof(mpidbg_send_log_entry) */
  uint64_t used;           /* entries READY */
  uint64_t dropped;        /* events not counted because the table was full */
  uint64_t log;            /* target address of the send log ring */
  uint32_t log_capacity;   /* slots in the ring (MPIDBG_SEND_LOG, default 1024) */
  uint32_t reserved;
  uint64_t log_head;       /* sends logged so far; send i sits in slot i % log_capacity */
} mpidbg_traffic;

/* ======================= Monitoring: communication matrices (seed 003) =======================
 * What this process sent to whom, counted above PMPI while monitoring is active
 * (MPIDBG_MONITOR at launch, or mpidbg_monitor_start() from the application; see
 * runtime_api.h). Peers are MPI_COMM_WORLD ranks, whatever communicator carried the
 * traffic.
 *
 * Every counter set exists twice: `accumulated` (everything counted while active, since
 * monitoring first started) and `baseline` (a copy of accumulated taken by the last
 * mpidbg_monitor_reset(), zero before). The current phase is accumulated - baseline, as
 * an MPI_T performance-variable handle's value is relative to its last reset.
 * Each counter is one naturally aligned 64-bit word that only grows (relaxed atomic
 * adds under MPI_THREAD_MULTIPLE), so a reader racing the writer sees an old value,
 * never a torn one; `reset_seq` is odd while a reset copies accumulated to baseline.
 * The block and its arrays never move or go away once created. */

/* Message-size histogram: bucket 0 holds messages of 0 bytes, bucket k (1..64) those of
 * [2^(k-1), 2^k) bytes. */
#define MPIDBG_MONITOR_BUCKETS 65

/* Collective operations by data flow (seed 003's one-to-all / all-to-one / all-to-all).
 * Blocking, nonblocking and persistent forms count alike, when posted. */
enum mpidbg_coll_kind {
  MPIDBG_COLL_ONE_TO_ALL = 0, /* Bcast, Scatter, Scatterv */
  MPIDBG_COLL_ALL_TO_ONE = 1, /* Gather, Gatherv, Reduce */
  MPIDBG_COLL_ALL_TO_ALL = 2, /* Allgather(v), Allreduce, Alltoall(v,w), Reduce_scatter(_block),
                                 Scan, Exscan, neighbourhood collectives */
  MPIDBG_COLL_BARRIER = 3,    /* Barrier: synchronisation, no data */
  MPIDBG_COLL_KINDS = 4
};

/* One peer's counters, element [world rank] of a peer array. */
typedef struct mpidbg_monitor_peer {
  uint64_t sent_messages;     /* user point-to-point sends posted to the peer */
  uint64_t sent_bytes;
  uint64_t received_messages; /* user point-to-point receives completed from the peer */
  uint64_t received_bytes;
  uint64_t coll_messages;     /* collective data to the peer, as if each collective sent
                                 its data by direct messages (mpidbg/doc/monitoring.md) */
  uint64_t coll_bytes;
  uint64_t put_messages;      /* one-sided, this process the origin and the peer the target */
  uint64_t put_bytes;
  uint64_t get_messages;
  uint64_t get_bytes;
  uint64_t acc_messages;      /* Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap */
  uint64_t acc_bytes;
  uint64_t sent_histogram[MPIDBG_MONITOR_BUCKETS]; /* sent_messages by size */
  uint64_t reserved;
} mpidbg_monitor_peer;

/* One kind of collective, this process's part. */
typedef struct mpidbg_monitor_coll {
  uint64_t operations;
  uint64_t bytes_sent;     /* as if by direct messages (see above) */
  uint64_t bytes_received;
  uint64_t reserved;
} mpidbg_monitor_coll;

/* File I/O, per file name as passed to MPI_File_open (element of a file array). */
#define MPIDBG_MONITOR_FILE_EMPTY 0u
#define MPIDBG_MONITOR_FILE_CLAIMED 1u /* being filled: skip */
#define MPIDBG_MONITOR_FILE_READY 2u
typedef struct mpidbg_monitor_file {
  uint32_t state;            /* MPIDBG_MONITOR_FILE_* (accumulated array; 0 in baseline) */
  uint32_t reserved;
  uint64_t opens;            /* MPI_File_open calls that opened it */
  uint64_t read_operations;  /* read calls (blocking, nonblocking, collective, split) */
  uint64_t read_bytes;       /* bytes asked for (count x datatype size) */
  uint64_t write_operations;
  uint64_t write_bytes;
  char name[256];            /* NUL-terminated, truncated (accumulated array only) */
} mpidbg_monitor_file;

/* What the MPI library's own monitoring saw, read through MPI_T: Open MPI's pml, osc and
 * coll monitoring components (enabled at launch with --mca pml_monitoring_enable 1 or
 * 2) publish per-peer counters after collectives are broken into messages. */
enum mpidbg_monitor_mpit_state {
  MPIDBG_MONITOR_MPIT_NOT_READ = 0,    /* not read yet (read at MPI_Finalize and by
                                          mpidbg_monitor_refresh_mpit) */
  MPIDBG_MONITOR_MPIT_READ = 1,        /* mpit_* hold the values; mpit_reason lists the
                                          variables read */
  MPIDBG_MONITOR_MPIT_UNAVAILABLE = 2  /* mpit_reason says why */
};

/* One peer (MPI_COMM_WORLD rank) as the MPI's monitoring counted it. */
typedef struct mpidbg_monitor_mpit_peer {
  uint64_t pml_messages;          /* pml_monitoring_messages_count */
  uint64_t pml_bytes;             /* pml_monitoring_messages_size */
  uint64_t osc_sent_messages;     /* osc_monitoring_messages_sent_count */
  uint64_t osc_sent_bytes;
  uint64_t osc_received_messages; /* osc_monitoring_messages_recv_count */
  uint64_t osc_received_bytes;
  uint64_t coll_messages;         /* coll_monitoring_messages_count */
  uint64_t coll_bytes;
} mpidbg_monitor_mpit_peer;

typedef struct mpidbg_monitor {
  uint32_t size;           /* sizeof(mpidbg_monitor) as written */
  uint32_t peer_size;      /* sizeof(mpidbg_monitor_peer) */
  uint32_t file_size;      /* sizeof(mpidbg_monitor_file) */
  uint32_t buckets;        /* MPIDBG_MONITOR_BUCKETS */
  int32_t world_size;      /* elements of each peer array */
  int32_t active;          /* 1 while counting */
  uint32_t reset_seq;      /* odd while a reset copies accumulated to baseline */
  uint32_t file_capacity;  /* elements of each file array */
  uint64_t starts;         /* starts so far (MPIDBG_MONITOR's start at MPI_Init included) */
  uint64_t stops;
  uint64_t resets;
  int64_t first_start_time_ns; /* CLOCK_REALTIME: monitoring first started */
  int64_t reset_time_ns;       /* the current phase began (first start or last reset) */
  uint64_t accumulated_peers;  /* target address: mpidbg_monitor_peer[world_size] */
  uint64_t baseline_peers;     /* target address: mpidbg_monitor_peer[world_size] */
  uint64_t accumulated_files;  /* target address: mpidbg_monitor_file[file_capacity] */
  uint64_t baseline_files;     /* target address: mpidbg_monitor_file[file_capacity] */
  uint64_t files_dropped;      /* file I/O calls not counted: no room for their file */
  mpidbg_monitor_coll accumulated_coll[MPIDBG_COLL_KINDS];
  mpidbg_monitor_coll baseline_coll[MPIDBG_COLL_KINDS];
  /* The MPI's own monitoring (enum mpidbg_monitor_mpit_state). */
  int32_t mpit_state;
  int32_t mpit_peer_count;     /* elements at mpit_peers */
  int64_t mpit_time_ns;        /* CLOCK_REALTIME of the last read */
  uint64_t mpit_peers;         /* target address: mpidbg_monitor_mpit_peer[mpit_peer_count] */
  /* coll_monitoring_o2a/a2o/a2a _count (operations) and _size (bytes_sent); BARRIER 0 */
  mpidbg_monitor_coll mpit_coll[MPIDBG_COLL_KINDS];
  char mpit_reason[128];
  /* Where MPI_Finalize writes the job's monitoring file ("" when it writes none). */
  char output_path[256];
} mpidbg_monitor;

/* ======================= MPI-state sampling (seed 001) =======================
 * Opt-in (MPIDBG_PROFILE at launch): every thread that has called MPI gets a timer that
 * delivers a signal every period_ns; the handler reads the thread's state with
 * mpidbg_thread_mpi_state() and counts the sample by state, by MPI function and by call
 * site. Counters only grow (relaxed atomic adds, async-signal-safe). */

#define MPIDBG_PROFILE_SITE_EMPTY 0u
#define MPIDBG_PROFILE_SITE_CLAIMED 1u /* being filled: skip */
#define MPIDBG_PROFILE_SITE_READY 2u

/* One call site: where the application called MPI (open addressing by address). */
typedef struct mpidbg_profile_site {
  uint32_t state;    /* MPIDBG_PROFILE_SITE_* */
  int32_t call;      /* enum mpidbg_call_id of the outermost MPI call made from here */
  uint64_t address;  /* return address into the caller of that MPI function */
  uint64_t working;  /* samples in MPI working (MPIDBG_THREAD_IN_MPI) here */
  uint64_t blocked;  /* samples in MPI blocked (MPIDBG_THREAD_BLOCKED) here */
} mpidbg_profile_site;

/* One MPI function, element [enum mpidbg_call_id] of the function array. */
typedef struct mpidbg_profile_function {
  uint64_t working;
  uint64_t blocked;
} mpidbg_profile_function;

enum mpidbg_profile_clock {
  MPIDBG_PROFILE_WALL = 0, /* CLOCK_MONOTONIC: counts time asleep in MPI too */
  MPIDBG_PROFILE_CPU = 1   /* the thread's CPU time: busy time only */
};

typedef struct mpidbg_profile {
  uint32_t size;            /* sizeof(mpidbg_profile) as written */
  uint32_t site_size;       /* sizeof(mpidbg_profile_site) */
  uint32_t function_size;   /* sizeof(mpidbg_profile_function) */
  int32_t active;           /* 1 while samples are taken */
  int64_t period_ns;        /* between two samples of one thread */
  int32_t signal;           /* signal number the timers deliver */
  int32_t clock;            /* enum mpidbg_profile_clock */
  int64_t start_time_ns;    /* CLOCK_REALTIME when sampling started */
  int64_t stop_time_ns;     /* when it stopped, 0 while active */
  uint64_t samples[3];      /* per enum mpidbg_thread_state */
  uint64_t lost;            /* in-MPI samples whose site had no room (still counted above) */
  uint64_t threads;         /* threads that got a timer */
  uint64_t functions;       /* target address: mpidbg_profile_function[function_count] */
  uint32_t function_count;  /* MPIDBG_CALL_ID_LIMIT of the runtime (call_ids.h) */
  uint32_t site_capacity;   /* power of two */
  uint64_t sites;           /* target address: mpidbg_profile_site[site_capacity] */
  uint64_t site_count;      /* sites READY */
} mpidbg_profile;

#ifdef __cplusplus
} /* extern "C" */

/* The layout is identical for every target ABI only if these hold (every 8-byte field
 * sits at an 8-aligned offset, so i386's 4-byte alignment of int64_t changes nothing). */
static_assert(sizeof(mpidbg_slab) == 32, "mpidbg_slab layout");
static_assert(sizeof(mpidbg_record_header) == 16, "record header layout");
static_assert(sizeof(mpidbg_root) == 984, "mpidbg_root layout");
static_assert(sizeof(mpidbg_partition_record) == 72, "mpidbg_partition_record layout");
static_assert(sizeof(mpidbg_comm_record) == 264, "mpidbg_comm_record layout");
static_assert(offsetof(mpidbg_comm_record, remote_job_id) == 224 &&
                  offsetof(mpidbg_comm_record, remote_job_ranks) == 240,
              "mpidbg_comm_record: the remote job fields are appended");
static_assert(sizeof(mpidbg_operation_record) == 240, "mpidbg_operation_record layout");
static_assert(sizeof(mpidbg_thread_record) == 176 && offsetof(mpidbg_thread_record, live) == 160 &&
                  offsetof(mpidbg_thread_record, live_size) == 168,
              "mpidbg_thread_record layout");
static_assert(sizeof(mpidbg_thread_live) == 72 &&
                  offsetof(mpidbg_thread_live, op) == MPIDBG_THREAD_LIVE_SIZE_V2 &&
                  offsetof(mpidbg_thread_live, requests) == 56,
              "mpidbg_thread_live layout: op, then the requests appended after the "
              "layout-2 words");
static_assert(sizeof(mpidbg_flight_entry) == 112 && offsetof(mpidbg_flight_entry, request) == 24 &&
                  sizeof(mpidbg_flight_entry) % 8 == 0,
              "mpidbg_flight_entry layout");
static_assert(sizeof(mpidbg_object_head) == 120, "mpidbg_object_head layout");
static_assert(sizeof(mpidbg_group_record) == 192, "mpidbg_group_record layout");
static_assert(sizeof(mpidbg_datatype_record) == 272 &&
                  offsetof(mpidbg_datatype_record, contents_room) == 224,
              "mpidbg_datatype_record layout: the contents room is appended");
static_assert(sizeof(mpidbg_reduce_op_record) == 144, "mpidbg_reduce_op_record layout");
static_assert(sizeof(mpidbg_errhandler_record) == 144, "mpidbg_errhandler_record layout");
static_assert(sizeof(mpidbg_info_record) == 152, "mpidbg_info_record layout");
static_assert(sizeof(mpidbg_window_record) == 280, "mpidbg_window_record layout");
static_assert(sizeof(mpidbg_file_record) == 480, "mpidbg_file_record layout");
static_assert(sizeof(mpidbg_message_record) == 168, "mpidbg_message_record layout");
static_assert(sizeof(mpidbg_session_record) == 144, "mpidbg_session_record layout");
static_assert(sizeof(mpidbg_launch_info) == 288, "mpidbg_launch_info layout");
static_assert(sizeof(mpidbg_mpit_cvar) == 56, "mpidbg_mpit_cvar layout");
static_assert(sizeof(mpidbg_mpit_pvar) == 32, "mpidbg_mpit_pvar layout");
static_assert(sizeof(mpidbg_mpit_category) == 24, "mpidbg_mpit_category layout");
static_assert(sizeof(mpidbg_mpit_catalogue) == 112, "mpidbg_mpit_catalogue layout");
static_assert(sizeof(mpidbg_traffic_entry) == 56, "mpidbg_traffic_entry layout");
static_assert(sizeof(mpidbg_send_log_entry) == 72, "mpidbg_send_log_entry layout");
static_assert(sizeof(mpidbg_traffic) == 64, "mpidbg_traffic layout");
static_assert(sizeof(mpidbg_array) == 16, "mpidbg_array layout");
static_assert(sizeof(mpidbg_monitor_peer) == 624, "mpidbg_monitor_peer layout");
static_assert(sizeof(mpidbg_monitor_coll) == 32, "mpidbg_monitor_coll layout");
static_assert(sizeof(mpidbg_monitor_file) == 304, "mpidbg_monitor_file layout");
static_assert(sizeof(mpidbg_monitor_mpit_peer) == 64, "mpidbg_monitor_mpit_peer layout");
static_assert(sizeof(mpidbg_monitor) == 904, "mpidbg_monitor layout");
static_assert(sizeof(mpidbg_profile_site) == 32, "mpidbg_profile_site layout");
static_assert(sizeof(mpidbg_profile_function) == 16, "mpidbg_profile_function layout");
static_assert(sizeof(mpidbg_profile) == 120, "mpidbg_profile layout");
static_assert(sizeof(mpidbg_root) % 8 == 0 && sizeof(mpidbg_comm_record) % 8 == 0 &&
                  sizeof(mpidbg_operation_record) % 8 == 0 && sizeof(mpidbg_thread_record) % 8 == 0,
              "record sizes keep 8-byte alignment in slabs");
#endif

#endif /* MPIDBG_RECORDS_H */
