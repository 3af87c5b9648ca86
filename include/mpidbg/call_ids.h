/*
 * call_ids.h — stable numeric identities of the MPI calls the runtime records.
 *
 * Records store a call as one of these numbers; the plugin turns it back into a name.
 * The numbers are part of the runtime<->plugin contract: append new calls with new
 * numbers, never renumber or reuse. The PMPI wrapper generator (mpidbg/gen/) refuses a
 * wrapped function that has no identity here.
 *
 * X(name, id, class) — class says how a host should read a thread blocked in the call:
 *   P2P   point-to-point (the thread's operation record has the envelope)
 *   WAIT  completion of requests (the thread record points at the request array)
 *   COLL  collective over a communicator (the thread record has comm and root)
 *   OTHER anything else (creation, queries, init/finalize)
 */
#ifndef MPIDBG_CALL_IDS_H
#define MPIDBG_CALL_IDS_H

#define MPIDBG_CALL_LIST(X)                     \
  X(MPI_Init, 1, OTHER)                         \
  X(MPI_Init_thread, 2, OTHER)                  \
  X(MPI_Finalize, 3, COLL)                      \
  X(MPI_Abort, 4, OTHER)                        \
  X(MPI_Send, 10, P2P)                          \
  X(MPI_Ssend, 11, P2P)                         \
  X(MPI_Bsend, 12, P2P)                         \
  X(MPI_Rsend, 13, P2P)                         \
  X(MPI_Isend, 14, P2P)                         \
  X(MPI_Issend, 15, P2P)                        \
  X(MPI_Ibsend, 16, P2P)                        \
  X(MPI_Irsend, 17, P2P)                        \
  X(MPI_Recv, 18, P2P)                          \
  X(MPI_Irecv, 19, P2P)                         \
  X(MPI_Sendrecv, 20, P2P)                      \
  X(MPI_Sendrecv_replace, 21, P2P)              \
  X(MPI_Probe, 22, P2P)                         \
  X(MPI_Iprobe, 23, P2P)                        \
  X(MPI_Mprobe, 24, P2P)                        \
  X(MPI_Improbe, 25, P2P)                       \
  X(MPI_Mrecv, 26, P2P)                         \
  X(MPI_Imrecv, 27, P2P)                        \
  X(MPI_Send_init, 28, P2P)                     \
  X(MPI_Ssend_init, 29, P2P)                    \
  X(MPI_Bsend_init, 30, P2P)                    \
  X(MPI_Rsend_init, 31, P2P)                    \
  X(MPI_Recv_init, 32, P2P)                     \
  X(MPI_Start, 33, OTHER)                       \
  X(MPI_Startall, 34, OTHER)                    \
  X(MPI_Wait, 40, WAIT)                         \
  X(MPI_Waitall, 41, WAIT)                      \
  X(MPI_Waitany, 42, WAIT)                      \
  X(MPI_Waitsome, 43, WAIT)                     \
  X(MPI_Test, 44, WAIT)                         \
  X(MPI_Testall, 45, WAIT)                      \
  X(MPI_Testany, 46, WAIT)                      \
  X(MPI_Testsome, 47, WAIT)                     \
  X(MPI_Request_free, 48, OTHER)                \
  X(MPI_Cancel, 49, OTHER)                      \
  X(MPI_Barrier, 60, COLL)                      \
  X(MPI_Bcast, 61, COLL)                        \
  X(MPI_Reduce, 62, COLL)                       \
  X(MPI_Allreduce, 63, COLL)                    \
  X(MPI_Gather, 64, COLL)                       \
  X(MPI_Gatherv, 65, COLL)                      \
  X(MPI_Scatter, 66, COLL)                      \
  X(MPI_Scatterv, 67, COLL)                     \
  X(MPI_Allgather, 68, COLL)                    \
  X(MPI_Allgatherv, 69, COLL)                   \
  X(MPI_Alltoall, 70, COLL)                     \
  X(MPI_Alltoallv, 71, COLL)                    \
  X(MPI_Reduce_scatter, 72, COLL)               \
  X(MPI_Reduce_scatter_block, 73, COLL)         \
  X(MPI_Scan, 74, COLL)                         \
  X(MPI_Exscan, 75, COLL)                       \
  X(MPI_Ibarrier, 80, COLL)                     \
  X(MPI_Ibcast, 81, COLL)                       \
  X(MPI_Ireduce, 82, COLL)                      \
  X(MPI_Iallreduce, 83, COLL)                   \
  X(MPI_Igather, 84, COLL)                      \
  X(MPI_Iscatter, 85, COLL)                     \
  X(MPI_Iallgather, 86, COLL)                   \
  X(MPI_Ialltoall, 87, COLL)                    \
  X(MPI_Comm_dup, 100, COLL)                    \
  X(MPI_Comm_split, 101, COLL)                  \
  X(MPI_Comm_split_type, 102, COLL)             \
  X(MPI_Comm_create, 103, COLL)                 \
  X(MPI_Comm_create_group, 104, COLL)           \
  X(MPI_Comm_free, 105, OTHER)                  \
  X(MPI_Comm_set_name, 106, OTHER)              \
  X(MPI_Intercomm_create, 107, COLL)            \
  X(MPI_Intercomm_merge, 108, COLL)             \
  X(MPI_Cart_create, 109, COLL)                 \
  X(MPI_Comm_idup, 110, COLL)                   \
  X(MPI_Comm_dup_with_info, 111, COLL)          \
  X(MPI_Graph_create, 120, COLL)              \
  X(MPI_Dist_graph_create, 121, COLL)         \
  X(MPI_Dist_graph_create_adjacent, 122, COLL)\
  X(MPI_Cart_sub, 123, COLL)                  \
  X(MPI_Comm_set_attr, 124, OTHER)            \
  X(MPI_Comm_delete_attr, 125, OTHER)         \
  X(MPI_Comm_set_errhandler, 126, OTHER)      \
  X(MPI_Comm_set_info, 127, OTHER)            \
  X(MPI_Comm_disconnect, 128, COLL)           \
  X(MPI_Comm_group, 300, OTHER)               \
  X(MPI_Comm_remote_group, 301, OTHER)        \
  X(MPI_Group_incl, 302, OTHER)               \
  X(MPI_Group_excl, 303, OTHER)               \
  X(MPI_Group_range_incl, 304, OTHER)         \
  X(MPI_Group_range_excl, 305, OTHER)         \
  X(MPI_Group_union, 306, OTHER)              \
  X(MPI_Group_intersection, 307, OTHER)       \
  X(MPI_Group_difference, 308, OTHER)         \
  X(MPI_Group_free, 309, OTHER)               \
  X(MPI_Win_get_group, 310, OTHER)            \
  X(MPI_File_get_group, 311, OTHER)           \
  X(MPI_Type_contiguous, 320, OTHER)          \
  X(MPI_Type_vector, 321, OTHER)              \
  X(MPI_Type_create_hvector, 322, OTHER)      \
  X(MPI_Type_indexed, 323, OTHER)             \
  X(MPI_Type_create_hindexed, 324, OTHER)     \
  X(MPI_Type_create_indexed_block, 325, OTHER)\
  X(MPI_Type_create_hindexed_block, 326, OTHER)\
  X(MPI_Type_create_struct, 327, OTHER)       \
  X(MPI_Type_create_subarray, 328, OTHER)     \
  X(MPI_Type_create_darray, 329, OTHER)       \
  X(MPI_Type_create_resized, 330, OTHER)      \
  X(MPI_Type_dup, 331, OTHER)                 \
  X(MPI_Type_commit, 332, OTHER)              \
  X(MPI_Type_free, 333, OTHER)                \
  X(MPI_Type_set_name, 334, OTHER)            \
  X(MPI_Type_create_f90_real, 335, OTHER)     \
  X(MPI_Type_create_f90_complex, 336, OTHER)  \
  X(MPI_Type_create_f90_integer, 337, OTHER)  \
  X(MPI_Op_create, 350, OTHER)                \
  X(MPI_Op_free, 351, OTHER)                  \
  X(MPI_Comm_create_errhandler, 355, OTHER)   \
  X(MPI_Win_create_errhandler, 356, OTHER)    \
  X(MPI_File_create_errhandler, 357, OTHER)   \
  X(MPI_Errhandler_free, 358, OTHER)          \
  X(MPI_Win_set_errhandler, 359, OTHER)       \
  X(MPI_File_set_errhandler, 360, OTHER)      \
  X(MPI_Info_create, 365, OTHER)              \
  X(MPI_Info_dup, 366, OTHER)                 \
  X(MPI_Info_set, 367, OTHER)                 \
  X(MPI_Info_delete, 368, OTHER)              \
  X(MPI_Info_free, 369, OTHER)                \
  X(MPI_Win_create, 375, COLL)                \
  X(MPI_Win_allocate, 376, COLL)              \
  X(MPI_Win_allocate_shared, 377, COLL)       \
  X(MPI_Win_create_dynamic, 378, COLL)        \
  X(MPI_Win_attach, 379, OTHER)               \
  X(MPI_Win_detach, 380, OTHER)               \
  X(MPI_Win_free, 381, COLL)                  \
  X(MPI_Win_set_name, 382, OTHER)             \
  X(MPI_Win_fence, 383, COLL)                 \
  X(MPI_Win_lock, 384, OTHER)                 \
  X(MPI_Win_unlock, 385, OTHER)               \
  X(MPI_Win_lock_all, 386, OTHER)             \
  X(MPI_Win_unlock_all, 387, OTHER)           \
  X(MPI_Win_post, 388, OTHER)                 \
  X(MPI_Win_start, 389, OTHER)                \
  X(MPI_Win_complete, 390, OTHER)             \
  X(MPI_Win_wait, 391, OTHER)                 \
  X(MPI_Win_test, 392, OTHER)                 \
  X(MPI_Win_flush, 393, OTHER)                \
  X(MPI_Win_flush_all, 394, OTHER)            \
  X(MPI_Win_flush_local, 395, OTHER)          \
  X(MPI_Win_flush_local_all, 396, OTHER)      \
  X(MPI_Win_sync, 397, OTHER)                 \
  X(MPI_Put, 398, OTHER)                      \
  X(MPI_Get, 399, OTHER)                      \
  X(MPI_Accumulate, 400, OTHER)               \
  X(MPI_Get_accumulate, 401, OTHER)           \
  X(MPI_Fetch_and_op, 402, OTHER)             \
  X(MPI_Compare_and_swap, 403, OTHER)         \
  X(MPI_Rput, 404, OTHER)                     \
  X(MPI_Rget, 405, OTHER)                     \
  X(MPI_Raccumulate, 406, OTHER)              \
  X(MPI_Rget_accumulate, 407, OTHER)          \
  X(MPI_File_open, 420, COLL)                 \
  X(MPI_File_close, 421, COLL)                \
  X(MPI_File_set_view, 422, COLL)             \
  X(MPI_File_set_info, 423, OTHER)            \
  X(MPI_File_read, 424, OTHER)                \
  X(MPI_File_write, 425, OTHER)               \
  X(MPI_File_read_at, 426, OTHER)             \
  X(MPI_File_write_at, 427, OTHER)            \
  X(MPI_File_read_all, 428, COLL)             \
  X(MPI_File_write_all, 429, COLL)            \
  X(MPI_File_read_at_all, 430, COLL)          \
  X(MPI_File_write_at_all, 431, COLL)         \
  X(MPI_File_iread, 432, OTHER)               \
  X(MPI_File_iwrite, 433, OTHER)              \
  X(MPI_File_iread_at, 434, OTHER)            \
  X(MPI_File_iwrite_at, 435, OTHER)           \
  X(MPI_File_sync, 436, COLL)                 \
  X(MPI_File_delete, 437, OTHER)              \
  X(MPI_Grequest_start, 450, OTHER)           \
  X(MPI_Grequest_complete, 451, OTHER)        \
  X(MPI_Session_init, 460, OTHER)             \
  X(MPI_Session_finalize, 461, OTHER)         \
  X(MPI_Group_from_session_pset, 462, OTHER)  \
  X(MPI_Comm_create_from_group, 463, COLL)    \
  X(MPI_Isendrecv, 480, P2P)                  \
  X(MPI_Isendrecv_replace, 481, P2P)          \
  X(MPI_Type_get_contents, 338, OTHER)        \
  X(MPIDBG_PREDEFINED, 200, OTHER)

enum mpidbg_call_class {
  MPIDBG_CLASS_OTHER = 0,
  MPIDBG_CLASS_P2P = 1,
  MPIDBG_CLASS_WAIT = 2,
  MPIDBG_CLASS_COLL = 3
};

enum mpidbg_call_id {
  MPIDBG_CALL_NONE = 0,
#define MPIDBG_X_ENUM(name, id, cls) MPIDBG_CALL_##name = id,
  MPIDBG_CALL_LIST(MPIDBG_X_ENUM)
#undef MPIDBG_X_ENUM
  MPIDBG_CALL_END_
};

/* Every call id is below this: arrays indexed by call id (the sampling profile's
 * functions) have this many elements. */
#define MPIDBG_CALL_ID_LIMIT 512
#ifdef __cplusplus
#define MPIDBG_X_BELOW(name, id, cls) \
  static_assert((id) < MPIDBG_CALL_ID_LIMIT, #name " has an id below MPIDBG_CALL_ID_LIMIT");
MPIDBG_CALL_LIST(MPIDBG_X_BELOW)
#undef MPIDBG_X_BELOW
#endif

/* The name of a call id ("MPI_Irecv"); NULL for MPIDBG_CALL_NONE and unknown ids. The
 * one name table every side (runtime reports, plugin, host) uses. */
static inline const char* mpidbg_call_name(int id) {
  switch (id) {
#define MPIDBG_X_NAME(name, id_, cls) \
  case id_:                          \
    return #name;
    MPIDBG_CALL_LIST(MPIDBG_X_NAME)
#undef MPIDBG_X_NAME
    default:
      return 0;
  }
}

#endif /* MPIDBG_CALL_IDS_H */
