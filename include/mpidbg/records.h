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
 *    released (thread records change on every MPI call), so a reader may cache a
 *    decoded snapshot until it changes.
 *  - Records live in slabs that never move or get freed; a slot is reused after release.
 *
 * Ranks and tags are normalised by the runtime to the constants below, whatever the
 * MPI library's own encoding of the wildcards.
 */
#ifndef MPIDBG_RECORDS_H
#define MPIDBG_RECORDS_H

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
#define MPIDBG_LAYOUT_VERSION 1

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
  MPIDBG_KIND_OP = 2,
  MPIDBG_KIND_THREAD = 3
};

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
  mpidbg_table ops;
  mpidbg_table threads;
  char mpi_library[256];   /* MPI_Get_library_version, first line */
  char hostname[64];
} mpidbg_root;

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

/* Communicator flags. */
#define MPIDBG_COMM_INTER 0x100u     /* an intercommunicator */
#define MPIDBG_COMM_CART 0x200u      /* cartesian topology attached */

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
} mpidbg_comm_record;

enum mpidbg_op_direction {
  MPIDBG_OP_SEND = 1,
  MPIDBG_OP_RECV = 2,
  MPIDBG_OP_PROBE = 3,     /* a blocking probe: waits for a message like a receive */
  MPIDBG_OP_COLLECTIVE = 4 /* a nonblocking collective's request; peer = root or -1 */
};

enum mpidbg_send_mode {
  MPIDBG_MODE_NONE = 0, /* receives */
  MPIDBG_MODE_STANDARD = 1,
  MPIDBG_MODE_SYNCHRONOUS = 2,
  MPIDBG_MODE_BUFFERED = 3,
  MPIDBG_MODE_READY = 4
};

enum mpidbg_op_status {
  MPIDBG_OP_PENDING = 0,  /* posted, not known to be matched */
  MPIDBG_OP_MATCHED = 1,  /* matched, data still moving */
  MPIDBG_OP_COMPLETE = 2  /* complete, not yet collected by a wait/test */
};

/* Operation flags. */
#define MPIDBG_OP_BLOCKING 0x100u   /* a blocking call in progress (no request) */
#define MPIDBG_OP_PERSISTENT 0x200u /* a persistent request */
#define MPIDBG_OP_INACTIVE 0x400u   /* persistent request not started */

/* A pending point-to-point operation: a nonblocking or persistent request, or the
 * envelope of a blocking call while a thread is inside it. */
typedef struct mpidbg_op_record {
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
  int32_t direction;     /* enum mpidbg_op_direction */
  int32_t mode;          /* enum mpidbg_send_mode */
  int32_t status;        /* enum mpidbg_op_status */
  int32_t peer;          /* rank in the communicator (normalised) */
  int32_t peer_world;    /* MPI_COMM_WORLD rank of the peer, or a normalised wildcard */
  int32_t tag;           /* normalised */
  int32_t actual_source; /* for matched/complete receives */
  int32_t actual_tag;
  int32_t reserved;
  char datatype_name[32];
} mpidbg_op_record;

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
  uint64_t op;             /* target address of the op record of a blocking p2p call */
  uint64_t requests;       /* target address of the caller's MPI_Request array (WAIT) */
  uint64_t calls;          /* MPI calls made by this thread */
  int64_t count;           /* collective count argument */
  uint64_t datatype;       /* collective datatype */
  int32_t state;           /* enum mpidbg_thread_state */
  int32_t call;            /* enum mpidbg_call_id, MPIDBG_CALL_NONE when outside MPI */
  int32_t request_count;   /* handles at `requests` (root.handle_size bytes each) */
  int32_t root;            /* collective root (comm rank), or -1 */
  char datatype_name[32];
} mpidbg_thread_record;

#ifdef __cplusplus
} /* extern "C" */

/* The layout is identical for every target ABI only if these hold. */
static_assert(sizeof(mpidbg_table) == 24, "mpidbg_table layout");
static_assert(sizeof(mpidbg_slab) == 32, "mpidbg_slab layout");
static_assert(sizeof(mpidbg_record_header) == 16, "record header layout");
static_assert(sizeof(mpidbg_root) == 488, "mpidbg_root layout");
static_assert(sizeof(mpidbg_comm_record) == 152, "comm record layout");
static_assert(sizeof(mpidbg_op_record) == 176, "op record layout");
static_assert(sizeof(mpidbg_thread_record) == 136, "thread record layout");
static_assert(sizeof(mpidbg_root) % 8 == 0 && sizeof(mpidbg_comm_record) % 8 == 0 &&
                  sizeof(mpidbg_op_record) % 8 == 0 && sizeof(mpidbg_thread_record) % 8 == 0,
              "record sizes keep 8-byte alignment in slabs");
#endif

#endif /* MPIDBG_RECORDS_H */
