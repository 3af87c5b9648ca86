/*
 * mpidbg_handles.h — the MPI handle interface: what a debugger calls to show an MPI
 * handle (MPI_Comm, MPI_Request, ...) found in a program variable.
 *
 * Part 1 is version 1 of the handle interface as drafted for the MPI Forum's tools
 * working group (names, values, structure layouts and calling rules as in the draft;
 * see docs INTERFACES.md section 2): communicators, requests, statuses, error handlers.
 * Part 2 is mpidbg's extension in the same style and under the same memory rule, for
 * the handle kinds the draft left open (datatype, group, op, info, window, file,
 * message) and for more detail on requests, statuses and communicators.
 *
 * Rules shared by every query:
 *  - The debugger calls mpidbg_init_once, then mpidbg_init_per_image for an image and
 *    mpidbg_init_per_process for each process; the query functions take the image and
 *    process with the infos the DLL attached to them. The same DLL may serve the
 *    message-queue interface for the same image and process: both share one image info
 *    and one process info.
 *  - A query allocates its result with the debugger's mqs_malloc (from the callbacks
 *    given to mpidbg_init_once). The debugger frees every non-NULL pointer member (and,
 *    for arrays of structures holding strings, each string first — see each structure),
 *    then the structure, with mqs_free.
 *  - Handles are the program's C handle values widened to mqs_taddr_t (integers for
 *    MPICH, object addresses for Open MPI). A handle the application freed still
 *    answers while the runtime keeps its record (an orphan): the *_FREED_HANDLE bit says
 *    the application freed it, *_FREED_OBJECT that MPI no longer needs the object.
 *  - Return values are the MPIDBG_* codes below, never mqs_* codes.
 *  - Results describe the process as it is at the call; the DLL caches what it decoded
 *    until the runtime's generation changes.
 */
#ifndef MPIDBG_HANDLES_H
#define MPIDBG_HANDLES_H

#include <stdint.h>

#include "mpidbg/mqs_interface.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ============================ Part 1: version 1 ============================ */

enum { MPIDBG_MAX_OBJECT_NAME = 64 };
enum { MPIDBG_MAX_FILENAME = 1024 };
enum { MPIDBG_INTERFACE_VERSION = 1 };

/* The program's types for each handle kind (mqs_find_type results, NULL when the image
 * has no such type), filled by mpidbg_init_per_image. */
struct mpidbg_handle_info_t {
  mqs_type* hi_c_aint;
  mqs_type* hi_c_comm;
  mqs_type* hi_c_datatype;
  mqs_type* hi_c_errhandler;
  mqs_type* hi_c_file;
  mqs_type* hi_c_group;
  mqs_type* hi_c_info;
  mqs_type* hi_c_offset;
  mqs_type* hi_c_op;
  mqs_type* hi_c_request;
  mqs_type* hi_c_status;
  mqs_type* hi_c_win;
  mqs_type* hi_cxx_aint;
  mqs_type* hi_cxx_comm;
  mqs_type* hi_cxx_intracomm;
  mqs_type* hi_cxx_intercomm;
  mqs_type* hi_cxx_graphcomm;
  mqs_type* hi_cxx_cartcomm;
  mqs_type* hi_cxx_datatype;
  mqs_type* hi_cxx_errhandler;
  mqs_type* hi_cxx_file;
  mqs_type* hi_cxx_group;
  mqs_type* hi_cxx_info;
  mqs_type* hi_cxx_offset;
  mqs_type* hi_cxx_op;
  mqs_type* hi_cxx_request;
  mqs_type* hi_cxx_prequest;
  mqs_type* hi_cxx_grequest;
  mqs_type* hi_cxx_status;
  mqs_type* hi_cxx_win;
};

enum mpidbg_return_codes_t {
  MPIDBG_SUCCESS = 0,
  MPIDBG_ERR_NOT_FOUND = 1,     /* no such handle (never created, or its record is gone) */
  MPIDBG_ERR_NOT_SUPPORTED = 2, /* this query or this process is not supported */
  MPIDBG_ERR_OUT_OF_RANGE = 3,
  MPIDBG_ERR_UNAVAILABLE = 4,   /* the information cannot be read now */
  MPIDBG_ERR_NO_MEM = 5,
  MPIDBG_MAX_RETURN_CODE
};

struct mpidbg_process_t {
  int mpi_comm_world_rank;
};

/* Name -> handle of a predefined object; arrays end with map_name == NULL. */
struct mpidbg_name_map_t {
  char* map_name;
  mqs_taddr_t map_handle;
};

/* keyval_name is set for predefined keyvals only; value is the attribute value as text
 * ("0x..." for the pointer-sized value the application attached). */
struct mpidbg_attribute_pair_t {
  int keyval;
  char* keyval_name;
  char* value;
};

enum mpidbg_comm_capabilities_t {
  MPIDBG_COMM_CAP_BASIC = 0x01,
  MPIDBG_COMM_CAP_STRING_NAMES = 0x02,
  MPIDBG_COMM_CAP_FREED_HANDLE = 0x04,
  MPIDBG_COMM_CAP_FREED_OBJECT = 0x08,
  MPIDBG_COMM_CAP_REQUEST_LIST = 0x10,
  MPIDBG_COMM_CAP_WINDOW_LIST = 0x20,
  MPIDBG_COMM_CAP_FILE_LIST = 0x40,
  MPIDBG_COMM_CAP_MAX
};

enum mpidbg_comm_info_bitmap_t {
  MPIDBG_COMM_INFO_PREDEFINED = 0x01,
  MPIDBG_COMM_INFO_CARTESIAN = 0x02,
  MPIDBG_COMM_INFO_GRAPH = 0x04,
  MPIDBG_COMM_INFO_TOPO_REORDERED = 0x08,
  MPIDBG_COMM_INFO_INTERCOMM = 0x10,
  MPIDBG_COMM_INFO_FREED_HANDLE = 0x20,
  MPIDBG_COMM_INFO_FREED_OBJECT = 0x40,
  MPIDBG_COMM_INFO_COMM_NULL = 0x80,
  MPIDBG_COMM_INFO_DIST_GRAPH = 0x400,
  MPIDBG_COMM_INFO_MAX
};

/* Arrays: comm_local_procs, comm_remote_procs, comm_cart_dims, comm_cart_periods,
 * comm_graph_index, comm_graph_edges, comm_attrs (free each keyval_name and value
 * first), comm_pending_requests, comm_derived_windows, comm_derived_files. */
struct mpidbg_comm_info_t {
  char comm_name[MPIDBG_MAX_OBJECT_NAME];
  enum mpidbg_comm_info_bitmap_t comm_bitflags;
  int comm_rank;
  int comm_size;
  int comm_num_local_procs;
  struct mpidbg_process_t* comm_local_procs;
  int comm_num_remote_procs;
  struct mpidbg_process_t* comm_remote_procs;
  int comm_cart_num_dims;
  int* comm_cart_dims;
  int8_t* comm_cart_periods;
  int comm_graph_num_nodes;
  int* comm_graph_index;
  int* comm_graph_edges;
  mqs_taddr_t comm_c_handle;
  /* MPI_Comm_c2f of the handle (MPICH: the C value itself), MPIDBG_ERR_UNAVAILABLE
   * when not known — as in the draft, so a real handle value 4 reads the same. */
  int comm_fortran_handle;
  int comm_num_attrs;
  struct mpidbg_attribute_pair_t* comm_attrs;
  int comm_num_pending_requests;
  mqs_taddr_t* comm_pending_requests;
  int comm_num_derived_windows;
  mqs_taddr_t* comm_derived_windows;
  int comm_num_derived_files;
  mqs_taddr_t* comm_derived_files;
};

enum mpidbg_request_capabilities_t {
  MPIDBG_REQUEST_CAP_BASIC = 0x01,
  MPIDBG_REQUEST_CAP_MAX
};

enum mpidbg_request_info_bitmap_t {
  MPIDBG_REQUEST_INFO_PREDEFINED = 0x01,
  MPIDBG_REQUEST_INFO_MAX
};

struct mpidbg_request_info_t {
  enum mpidbg_request_info_bitmap_t req_bitflags;
  mqs_taddr_t req_c_handle;
  int req_fortran_handle;
};

enum mpidbg_status_capabilities_t {
  MPIDBG_STATUS_CAP_BASIC = 0x01,
  MPIDBG_STATUS_CAP_MAX
};

enum mpidbg_status_info_bitmap_t {
  MPIDBG_STATUS_INFO_PREDEFINED = 0x01,
  MPIDBG_STATUS_INFO_MAX
};

struct mpidbg_status_info_t {
  enum mpidbg_status_info_bitmap_t status_bitflags;
};

enum mpidbg_errhandler_capabilities_t {
  MPIDBG_ERRH_CAP_BASIC = 0x01,
  MPIDBG_ERRH_CAP_STRING_NAMES = 0x02,
  MPIDBG_ERRH_CAP_FREED_HANDLE = 0x04,
  MPIDBG_ERRH_CAP_FREED_OBJECT = 0x08,
  MPIDBG_ERRH_CAP_HANDLE_LIST = 0x10,
  MPIDBG_ERRH_CAP_MAX
};

enum mpidbg_errhandler_info_bitmap_t {
  MPIDBG_ERRH_INFO_PREDEFINED = 0x01,
  MPIDBG_ERRH_INFO_COMMUNICATOR = 0x02,
  MPIDBG_ERRH_INFO_FILE = 0x04,
  MPIDBG_ERRH_INFO_WINDOW = 0x08,
  MPIDBG_ERRH_INFO_C_CALLBACK = 0x10,
  MPIDBG_ERRH_INFO_FREED_HANDLE = 0x20,
  MPIDBG_ERRH_INFO_FREED_OBJECT = 0x40,
  MPIDBG_ERRH_INFO_MAX
};

/* Array: eh_handles, eh_refcount entries: the live communicators, windows and files it
 * is attached to. */
struct mpidbg_errhandler_info_t {
  char eh_name[MPIDBG_MAX_OBJECT_NAME];
  enum mpidbg_errhandler_info_bitmap_t eh_bitflags;
  mqs_taddr_t eh_c_handle;
  int eh_fortran_handle;
  int16_t eh_refcount;
  mqs_taddr_t* eh_handles;
  mqs_taddr_t eh_callback_func;
};

/* Data in the DLL, valid after mpidbg_init_per_process (for the process set up last). */
extern char mpidbg_dll_is_big_endian;
extern char mpidbg_dll_bitness;
extern enum mpidbg_comm_capabilities_t mpidbg_comm_capabilities;
extern struct mpidbg_name_map_t* mpidbg_comm_name_map;
extern enum mpidbg_errhandler_capabilities_t mpidbg_errhandler_capabilities;
extern struct mpidbg_name_map_t* mpidbg_errhandler_name_map;

int mpidbg_init_once(const mqs_basic_callbacks* callbacks);
int mpidbg_interface_version_compatibility(void);
char* mpidbg_version_string(void);
int mpidbg_dll_taddr_width(void);
int mpidbg_init_per_image(mqs_image* image, const mqs_image_callbacks* callbacks,
                          struct mpidbg_handle_info_t* handle_types);
void mpidbg_finalize_per_image(mqs_image* image, mqs_image_info* image_info);
int mpidbg_init_per_process(mqs_process* process, const mqs_process_callbacks* callbacks,
                            struct mpidbg_handle_info_t* handle_types);
void mpidbg_finalize_per_process(mqs_process* process, mqs_process_info* process_info);

int mpidbg_comm_query(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                      mqs_process_info* process_info, mqs_taddr_t c_comm,
                      struct mpidbg_comm_info_t** info);
int mpidbg_comm_f2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                    mqs_process_info* process_info, mqs_taddr_t f77_comm, mqs_taddr_t* c_comm);
/* C++ bindings are gone from MPI and from both MPIs here: MPIDBG_ERR_NOT_SUPPORTED. */
int mpidbg_comm_cxx2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                      mqs_process_info* process_info, mqs_taddr_t cxx_comm,
                      enum mpidbg_comm_info_bitmap_t comm_type, mqs_taddr_t* c_comm);

int mpidbg_errhandler_query(mqs_image* image, mqs_image_info* image_info,
                            mqs_process* process, mqs_process_info* process_info,
                            mqs_taddr_t errhandler, struct mpidbg_errhandler_info_t** info);
int mpidbg_errhandler_f2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                          mqs_process_info* process_info, mqs_taddr_t f77_errhandler,
                          mqs_taddr_t* c_errhandler);
int mpidbg_errhandler_cxx2c(mqs_image* image, mqs_image_info* image_info,
                            mqs_process* process, mqs_process_info* process_info,
                            mqs_taddr_t cxx_errhandler, mqs_taddr_t* c_errhandler);

int mpidbg_request_query(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                         mqs_process_info* process_info, mqs_taddr_t request,
                         struct mpidbg_request_info_t** info);
int mpidbg_request_f2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                       mqs_process_info* process_info, mqs_taddr_t f77_request,
                       mqs_taddr_t* c_request);
int mpidbg_request_cxx2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                         mqs_process_info* process_info, mqs_taddr_t cxx_request,
                         enum mpidbg_request_info_bitmap_t request_type,
                         mqs_taddr_t* c_request);

/* `status` is the target address of an MPI_Status variable (statuses are values). */
int mpidbg_status_query(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                        mqs_process_info* process_info, mqs_taddr_t status,
                        struct mpidbg_status_info_t** info);
int mpidbg_status_f2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                      mqs_process_info* process_info, mqs_taddr_t f77_status,
                      mqs_taddr_t* c_status);
int mpidbg_status_cxx2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                        mqs_process_info* process_info, mqs_taddr_t cxx_status,
                        mqs_taddr_t* c_status);

/* ======================= Part 2: mpidbg's extensions ======================= */

/* 1: request, status and communicator detail; datatype, group, op, info, window, file
 *    and message queries; predefined-name maps for every kind.
 * 2: mpidbg_object_list_query (every object of a kind, live, orphaned and predefined). */
#define MPIDBG_HANDLE_EXT_VERSION 2
int mpidbg_handle_ext_version(void);

/* Bits shared by the extension structures' `*_bitflags` (values chosen to agree with
 * the version-1 communicator bits where the meaning is the same). */
#define MPIDBG_HANDLE_PREDEFINED 0x01u
#define MPIDBG_HANDLE_FREED_HANDLE 0x20u /* the application freed it; this is its orphan */
#define MPIDBG_HANDLE_FREED_OBJECT 0x40u /* and MPI no longer needs the object */
#define MPIDBG_HANDLE_NULL 0x80u         /* the kind's null handle (MPI_*_NULL) */

/* The handle kinds of the extension, also the `kind` argument of name maps. */
enum mpidbg_handle_kind {
  MPIDBG_HANDLE_COMM = 1,
  MPIDBG_HANDLE_REQUEST = 2,
  MPIDBG_HANDLE_DATATYPE = 3,
  MPIDBG_HANDLE_GROUP = 4,
  MPIDBG_HANDLE_OP = 5,
  MPIDBG_HANDLE_ERRHANDLER = 6,
  MPIDBG_HANDLE_INFO = 7,
  MPIDBG_HANDLE_WIN = 8,
  MPIDBG_HANDLE_FILE = 9,
  MPIDBG_HANDLE_MESSAGE = 10,
  MPIDBG_HANDLE_SESSION = 11
};

/* Predefined (and null) handles of one kind in this process, e.g. "MPI_INT" -> its
 * handle. *map is an mqs_malloc'd array ending with map_name == NULL; the debugger frees
 * each map_name, then the array. */
int mpidbg_name_map_query(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                          mqs_process_info* process_info, int kind,
                          struct mpidbg_name_map_t** map);

/* ---- communicator detail beyond version 1 ---- */
/* Arrays: dist_sources, dist_destinations (world ranks is in base). */
struct mpidbg_comm_ext_info_t {
  struct mpidbg_comm_info_t base; /* as mpidbg_comm_query fills it (free its arrays too) */
  uint64_t job_id;                /* the same on every member: joins processes */
  uint64_t parent_job_id;
  int creator;                    /* enum mpidbg_call_id */
  char creator_name[32];          /* "MPI_Comm_split" */
  int split_color;
  int split_key;
  mqs_taddr_t errhandler;         /* attached MPI_Errhandler, 0 if not known */
  mqs_taddr_t info;               /* MPI_Info given, 0 if none */
  int dist_num_sources;           /* distributed graph: this process's in-neighbours */
  int* dist_sources;              /* comm ranks */
  int dist_num_destinations;
  int* dist_destinations;
  int dist_weighted;
  int64_t create_time_ns;
  uint64_t create_serial;
  uint64_t free_serial;           /* order of MPI_Comm_free among all frees, 0 if live */
};
int mpidbg_comm_query_ext(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                          mqs_process_info* process_info, mqs_taddr_t c_comm,
                          struct mpidbg_comm_ext_info_t** info);

/* ---- an intercommunicator's other job ---- */
/* An intercommunicator whose remote group is another job (MPI_Comm_spawn, the child's
 * parent, MPI_Comm_accept/connect, MPI_Comm_join): that job's launcher job id and the
 * remote group's world ranks in that job's MPI_COMM_WORLD (world_ranks: mqs_malloc'd,
 * num_procs of them). *info is NULL (and the call succeeds) for every other
 * communicator, MPI_COMM_NULL, and when the runtime did not learn the other job. */
struct mpidbg_comm_remote_job_t {
  char job_id[128];               /* NUL-terminated, "" when its launcher named none */
  int num_procs;
  struct mpidbg_process_t* world_ranks;
};
int mpidbg_comm_query_remote_job(mqs_image* image, mqs_image_info* image_info,
                                 mqs_process* process, mqs_process_info* process_info,
                                 mqs_taddr_t c_comm, struct mpidbg_comm_remote_job_t** info);

/* ---- request detail ---- */
enum mpidbg_request_kind {
  MPIDBG_REQUEST_KIND_UNKNOWN = 0,
  MPIDBG_REQUEST_KIND_POINT_TO_POINT = 1,
  MPIDBG_REQUEST_KIND_COLLECTIVE = 2,
  MPIDBG_REQUEST_KIND_RMA = 3,
  MPIDBG_REQUEST_KIND_FILE = 4,
  MPIDBG_REQUEST_KIND_GENERALIZED = 5
};
/* Extension bits of req_bitflags (beyond MPIDBG_HANDLE_*). */
#define MPIDBG_REQUEST_PERSISTENT 0x02u
#define MPIDBG_REQUEST_INACTIVE 0x04u  /* persistent and not started */
#define MPIDBG_REQUEST_MATCHED 0x08u   /* matched, data still moving */
#define MPIDBG_REQUEST_COMPLETE 0x10u  /* complete, not yet collected by a wait/test */

struct mpidbg_request_ext_info_t {
  struct mpidbg_request_info_t base;
  unsigned int req_ext_bitflags; /* MPIDBG_HANDLE_* and MPIDBG_REQUEST_* bits */
  int req_kind;                  /* enum mpidbg_request_kind */
  int req_creator;               /* enum mpidbg_call_id */
  char req_creator_name[32];     /* "MPI_Isend" */
  int req_direction;             /* enum mpidbg_operation_direction (records.h) */
  int req_mode;                  /* enum mpidbg_send_mode */
  int req_peer;                  /* comm rank, or MPIDBG_RANK_* of records.h */
  int req_peer_world;
  int req_tag;                   /* MPIDBG_TAG_ANY for MPI_ANY_TAG */
  int req_actual_source;         /* when matched or complete */
  int req_actual_tag;
  int64_t req_count;
  int64_t req_bytes;
  int64_t req_actual_bytes;
  mqs_taddr_t req_buffer;
  mqs_taddr_t req_datatype;
  char req_datatype_name[32];
  mqs_taddr_t req_comm;
  uint64_t req_comm_job_id;
  char req_comm_name[MPIDBG_MAX_OBJECT_NAME];
  mqs_taddr_t req_object;        /* window (RMA) or file (file I/O), else 0 */
  int64_t req_file_offset;       /* explicit offset of *_at file I/O, -1 otherwise */
  int64_t req_target_disp;       /* RMA */
  mqs_taddr_t req_extra_state;   /* generalized requests */
  mqs_taddr_t req_query_fn;
  uint64_t req_tid;              /* posting thread */
  int64_t req_post_time_ns;
  uint64_t req_post_serial;      /* matching order within the process */
};
int mpidbg_request_query_ext(mqs_image* image, mqs_image_info* image_info,
                             mqs_process* process, mqs_process_info* process_info,
                             mqs_taddr_t request, struct mpidbg_request_ext_info_t** info);

/* ---- status contents ---- */
struct mpidbg_status_ext_info_t {
  struct mpidbg_status_info_t base;
  int status_source;             /* as stored: this MPI's encodings */
  int status_tag;
  int status_error;
  int status_cancelled;          /* -1 when this MPI's layout is not known */
  int64_t status_bytes;          /* -1 when not known */
};
int mpidbg_status_query_ext(mqs_image* image, mqs_image_info* image_info,
                            mqs_process* process, mqs_process_info* process_info,
                            mqs_taddr_t status, struct mpidbg_status_ext_info_t** info);

/* ---- datatype ---- */
#define MPIDBG_DATATYPE_COMMITTED 0x02u
#define MPIDBG_DATATYPE_HOLES 0x04u          /* true extent holds bytes no element covers */
#define MPIDBG_DATATYPE_MAP_TRUNCATED 0x08u  /* the type map was cut at the entry limit */
#define MPIDBG_DATATYPE_MAP_INCOMPLETE 0x10u /* an input type's record is missing */

/* A run of `count` consecutive elements of one basic (predefined) type, each
 * `elem_size` bytes, the first at `displacement` from the buffer start. Consecutive
 * entries of the same basic type that touch are merged into one run. */
struct mpidbg_type_map_entry_t {
  mqs_taddr_t basic_type;
  char basic_name[32];
  int64_t displacement;
  int64_t count;
  int64_t elem_size;
};

/* Arrays: dt_integers, dt_addresses, dt_datatypes (MPI_Type_get_contents order), dt_map. */
struct mpidbg_datatype_info_t {
  char dt_name[MPIDBG_MAX_OBJECT_NAME];
  unsigned int dt_bitflags;      /* MPIDBG_HANDLE_* and MPIDBG_DATATYPE_* */
  mqs_taddr_t dt_c_handle;
  int dt_fortran_handle;
  int dt_combiner;               /* enum mpidbg_combiner (records.h) */
  int dt_creator;                /* enum mpidbg_call_id of the constructor call */
  char dt_creator_name[32];      /* "MPI_Type_create_struct" */
  int64_t dt_size;
  int64_t dt_lb;
  int64_t dt_extent;
  int64_t dt_true_lb;
  int64_t dt_true_extent;
  int dt_num_integers;
  int* dt_integers;
  int dt_num_addresses;
  int64_t* dt_addresses;
  int dt_num_datatypes;
  mqs_taddr_t* dt_datatypes;
  int dt_map_length;             /* entries in dt_map */
  struct mpidbg_type_map_entry_t* dt_map;
  int64_t dt_map_elements;       /* basic elements in the whole map (before truncation);
                                    -1 when too costly to count, only the known part
                                    with MAP_INCOMPLETE */
};
/* The type map is limited to `max_map_entries` runs (0: the DLL's default, 4096). */
int mpidbg_datatype_query(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                          mqs_process_info* process_info, mqs_taddr_t datatype,
                          int max_map_entries, struct mpidbg_datatype_info_t** info);
int mpidbg_datatype_f2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                        mqs_process_info* process_info, mqs_taddr_t f77_datatype,
                        mqs_taddr_t* c_datatype);

/* ---- group ---- */
/* Arrays: group_procs, group_args. */
struct mpidbg_group_info_t {
  char group_name[MPIDBG_MAX_OBJECT_NAME]; /* predefined groups only */
  unsigned int group_bitflags;   /* MPIDBG_HANDLE_* */
  mqs_taddr_t group_c_handle;
  int group_fortran_handle;
  int group_rank;                /* this process's rank, -1 (MPI_UNDEFINED) if not a member */
  int group_size;
  struct mpidbg_process_t* group_procs; /* world rank per group rank */
  int group_creator;             /* enum mpidbg_call_id */
  char group_creator_name[32];
  mqs_taddr_t group_source;      /* communicator/window/file, or first input group */
  mqs_taddr_t group_source2;     /* second input group of union/intersection/difference */
  int group_num_args;            /* incl/excl ranks or range triplets */
  int* group_args;
};
int mpidbg_group_query(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                       mqs_process_info* process_info, mqs_taddr_t group,
                       struct mpidbg_group_info_t** info);
int mpidbg_group_f2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                     mqs_process_info* process_info, mqs_taddr_t f77_group,
                     mqs_taddr_t* c_group);

/* ---- reduction op ---- */
#define MPIDBG_OP_INFO_COMMUTATIVE 0x02u
#define MPIDBG_OP_INFO_C_CALLBACK 0x10u
struct mpidbg_op_info_t {
  char op_name[MPIDBG_MAX_OBJECT_NAME];
  unsigned int op_bitflags;      /* MPIDBG_HANDLE_* and MPIDBG_OP_INFO_* */
  mqs_taddr_t op_c_handle;
  int op_fortran_handle;
  mqs_taddr_t op_callback_func;  /* 0 for predefined ops */
};
int mpidbg_op_query(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                    mqs_process_info* process_info, mqs_taddr_t op,
                    struct mpidbg_op_info_t** info);
int mpidbg_op_f2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                  mqs_process_info* process_info, mqs_taddr_t f77_op, mqs_taddr_t* c_op);

/* ---- info ---- */
struct mpidbg_info_pair_t {
  char* key;
  char* value;
};
/* Array: info_pairs (free each key and value first). */
struct mpidbg_info_info_t {
  unsigned int info_bitflags;    /* MPIDBG_HANDLE_* */
  mqs_taddr_t info_c_handle;
  int info_fortran_handle;
  int info_num_pairs;
  struct mpidbg_info_pair_t* info_pairs;
};
int mpidbg_info_query(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                      mqs_process_info* process_info, mqs_taddr_t info_handle,
                      struct mpidbg_info_info_t** info);
int mpidbg_info_f2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                    mqs_process_info* process_info, mqs_taddr_t f77_info,
                    mqs_taddr_t* c_info);

/* ---- window ---- */
/* A region attached to a dynamic window. */
struct mpidbg_win_region_t {
  mqs_taddr_t base;
  int64_t size;
};
/* Arrays: win_target_locks (enum mpidbg_win_lock per comm rank), win_access_group and
 * win_exposure_group (comm ranks of MPI_Win_start / MPI_Win_post), win_regions,
 * win_pending_requests. */
struct mpidbg_win_info_t {
  char win_name[MPIDBG_MAX_OBJECT_NAME];
  unsigned int win_bitflags;     /* MPIDBG_HANDLE_* */
  mqs_taddr_t win_c_handle;
  int win_fortran_handle;
  int win_flavor;                /* enum mpidbg_win_flavor (records.h) */
  mqs_taddr_t win_comm;
  uint64_t win_comm_job_id;
  int win_comm_size;
  mqs_taddr_t win_base;
  int64_t win_size;
  int win_disp_unit;
  int win_access_epoch;          /* enum mpidbg_win_epoch */
  int win_exposure_epoch;
  uint64_t win_fence_count;
  uint64_t win_rma_count;
  mqs_taddr_t win_errhandler;
  mqs_taddr_t win_info;
  int win_num_target_locks;
  int* win_target_locks;
  int win_num_access_group;
  int* win_access_group;
  int win_num_exposure_group;
  int* win_exposure_group;
  int win_num_regions;
  struct mpidbg_win_region_t* win_regions;
  int win_num_pending_requests;
  mqs_taddr_t* win_pending_requests;
};
int mpidbg_win_query(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                     mqs_process_info* process_info, mqs_taddr_t win,
                     struct mpidbg_win_info_t** info);
int mpidbg_win_f2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                   mqs_process_info* process_info, mqs_taddr_t f77_win, mqs_taddr_t* c_win);

/* ---- file ---- */
/* Array: file_pending_requests. */
struct mpidbg_file_info_t {
  char file_name[MPIDBG_MAX_FILENAME];
  unsigned int file_bitflags;    /* MPIDBG_HANDLE_* */
  mqs_taddr_t file_c_handle;
  int file_fortran_handle;
  mqs_taddr_t file_comm;
  uint64_t file_comm_job_id;
  int file_amode;                /* MPI_MODE_* bits as MPI_File_open got them */
  int64_t file_view_disp;
  mqs_taddr_t file_etype;
  mqs_taddr_t file_filetype;
  char file_datarep[32];
  mqs_taddr_t file_info;
  mqs_taddr_t file_errhandler;
  int file_num_pending_requests;
  mqs_taddr_t* file_pending_requests;
};
int mpidbg_file_query(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                      mqs_process_info* process_info, mqs_taddr_t file,
                      struct mpidbg_file_info_t** info);
int mpidbg_file_f2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                    mqs_process_info* process_info, mqs_taddr_t f77_file,
                    mqs_taddr_t* c_file);

/* ---- message (MPI_Mprobe / MPI_Improbe) ---- */
#define MPIDBG_MESSAGE_INFO_NO_PROC 0x02u  /* MPI_MESSAGE_NO_PROC */
#define MPIDBG_MESSAGE_INFO_RECEIVED 0x04u /* consumed by MPI_Mrecv / MPI_Imrecv */
struct mpidbg_message_info_t {
  unsigned int msg_bitflags;     /* MPIDBG_HANDLE_* and MPIDBG_MESSAGE_INFO_* */
  mqs_taddr_t msg_c_handle;
  int msg_fortran_handle;
  mqs_taddr_t msg_comm;
  uint64_t msg_comm_job_id;
  int msg_source;                /* comm rank */
  int msg_source_world;
  int msg_tag;
  int64_t msg_bytes;
  int msg_creator;               /* MPI_Mprobe or MPI_Improbe */
  char msg_creator_name[32];
};
int mpidbg_message_query(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                         mqs_process_info* process_info, mqs_taddr_t message,
                         struct mpidbg_message_info_t** info);
int mpidbg_message_f2c(mqs_image* image, mqs_image_info* image_info, mqs_process* process,
                       mqs_process_info* process_info, mqs_taddr_t f77_message,
                       mqs_taddr_t* c_message);

/* ---- listing every object ---- */
/* One object the runtime keeps a record of: live, freed and kept as an orphan
 * (MPIDBG_HANDLE_FREED_HANDLE), or predefined (MPIDBG_HANDLE_PREDEFINED). Requests are
 * the operation records that carry a request (blocking calls have none). No pointer
 * members: the debugger frees the array alone. */
struct mpidbg_object_entry_t {
  int kind;                      /* enum mpidbg_handle_kind */
  unsigned int bitflags;         /* MPIDBG_HANDLE_*; requests add MPIDBG_REQUEST_* */
  mqs_taddr_t c_handle;
  int fortran_handle;            /* MPIDBG_ERR_UNAVAILABLE when not known */
  int creator;                   /* enum mpidbg_call_id of the creating (posting) call */
  char creator_name[32];         /* "MPI_Comm_dup", "" when not known and for
                                    predefined objects */
  char name[MPIDBG_MAX_OBJECT_NAME]; /* set name or predefined name, "" if none */
  int64_t create_time_ns;        /* CLOCK_REALTIME at creation (posting), 0 if predefined */
  uint64_t create_serial;        /* creation order within its table (requests: posting) */
  uint64_t free_serial;          /* order of the application's free, 0 while live */
  mqs_taddr_t create_pc;         /* return address into the program of the creating
                                    call, 0 when the runtime did not record one */
  mqs_taddr_t record;            /* target address of the runtime's record */
};
/* Every object of `kind` (an enum mpidbg_handle_kind, or 0 for every kind) in the
 * process, kinds in enum order, each kind in creation order. *entries is an mqs_malloc'd
 * array of *count entries (NULL when *count is 0); the debugger frees it. The listing is
 * as complete as the runtime's tables are readable: damaged records are left out.
 * MPIDBG_ERR_OUT_OF_RANGE for an unknown kind. */
int mpidbg_object_list_query(mqs_image* image, mqs_image_info* image_info,
                             mqs_process* process, mqs_process_info* process_info, int kind,
                             int* count, struct mpidbg_object_entry_t** entries);
/* The newest CLOCK_REALTIME timestamp the runtime recorded in the process (creations,
 * postings, call entries): "now" for the ages of objects of a core. 0 when none. */
int mpidbg_latest_time_query(mqs_image* image, mqs_image_info* image_info,
                             mqs_process* process, mqs_process_info* process_info,
                             int64_t* latest_ns);

#ifdef __cplusplus
}
#endif

#endif /* MPIDBG_HANDLES_H */
