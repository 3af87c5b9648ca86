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

#endif /* MPIDBG_CALL_IDS_H */
