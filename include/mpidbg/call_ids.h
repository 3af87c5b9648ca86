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
  X(MPI_Comm_idup_with_info, 482, OTHER)      \
  X(MPI_Intercomm_create_from_groups, 483, COLL)\
  X(MPI_Comm_spawn, 484, COLL)                \
  X(MPI_Comm_spawn_multiple, 485, COLL)       \
  X(MPI_Comm_accept, 486, COLL)               \
  X(MPI_Comm_connect, 487, COLL)              \
  X(MPI_Comm_join, 488, COLL)                 \
  X(MPI_Comm_get_parent, 489, OTHER)          \
  X(MPI_Open_port, 490, OTHER)                \
  X(MPI_Close_port, 491, OTHER)               \
  X(MPI_Publish_name, 492, OTHER)             \
  X(MPI_Unpublish_name, 493, OTHER)           \
  X(MPI_Lookup_name, 494, OTHER)              \
  X(MPI_Comm_create_keyval, 495, OTHER)       \
  X(MPI_Comm_free_keyval, 496, OTHER)         \
  X(MPI_Keyval_create, 497, OTHER)            \
  X(MPI_Keyval_free, 498, OTHER)              \
  X(MPI_Attr_put, 499, OTHER)                 \
  X(MPI_Attr_delete, 500, OTHER)              \
  X(MPI_Comm_get_errhandler, 501, OTHER)      \
  X(MPI_Comm_get_info, 502, OTHER)            \
  X(MPI_Type_match_size, 503, OTHER)          \
  X(MPI_Type_create_keyval, 504, OTHER)       \
  X(MPI_Type_free_keyval, 505, OTHER)         \
  X(MPI_Type_set_attr, 506, OTHER)            \
  X(MPI_Type_delete_attr, 507, OTHER)         \
  X(MPI_Type_hvector, 508, OTHER)             \
  X(MPI_Type_hindexed, 509, OTHER)            \
  X(MPI_Type_struct, 510, OTHER)              \
  X(MPI_File_iread_all, 511, OTHER)           \
  X(MPI_File_iwrite_all, 512, OTHER)          \
  X(MPI_File_iread_at_all, 513, OTHER)        \
  X(MPI_File_iwrite_at_all, 514, OTHER)       \
  X(MPI_File_iread_shared, 515, OTHER)        \
  X(MPI_File_iwrite_shared, 516, OTHER)       \
  X(MPI_File_read_shared, 517, OTHER)         \
  X(MPI_File_write_shared, 518, OTHER)        \
  X(MPI_File_read_ordered, 519, COLL)         \
  X(MPI_File_write_ordered, 520, COLL)        \
  X(MPI_File_seek_shared, 521, COLL)          \
  X(MPI_File_read_all_begin, 522, COLL)       \
  X(MPI_File_read_all_end, 523, COLL)         \
  X(MPI_File_write_all_begin, 524, COLL)      \
  X(MPI_File_write_all_end, 525, COLL)        \
  X(MPI_File_read_at_all_begin, 526, COLL)    \
  X(MPI_File_read_at_all_end, 527, COLL)      \
  X(MPI_File_write_at_all_begin, 528, COLL)   \
  X(MPI_File_write_at_all_end, 529, COLL)     \
  X(MPI_File_read_ordered_begin, 530, COLL)   \
  X(MPI_File_read_ordered_end, 531, COLL)     \
  X(MPI_File_write_ordered_begin, 532, COLL)  \
  X(MPI_File_write_ordered_end, 533, COLL)    \
  X(MPI_File_set_size, 534, COLL)             \
  X(MPI_File_preallocate, 535, COLL)          \
  X(MPI_File_set_atomicity, 536, COLL)        \
  X(MPI_File_get_info, 537, OTHER)            \
  X(MPI_File_get_view, 538, OTHER)            \
  X(MPI_File_get_errhandler, 539, OTHER)      \
  X(MPI_Register_datarep, 540, OTHER)         \
  X(MPI_Session_create_errhandler, 541, OTHER)\
  X(MPI_Session_set_errhandler, 542, OTHER)   \
  X(MPI_Session_get_errhandler, 543, OTHER)   \
  X(MPI_Session_get_info, 544, OTHER)         \
  X(MPI_Session_get_pset_info, 545, OTHER)    \
  X(MPI_Info_create_env, 546, OTHER)          \
  X(MPI_Errhandler_create, 547, OTHER)        \
  X(MPI_Errhandler_get, 548, OTHER)           \
  X(MPI_Errhandler_set, 549, OTHER)           \
  X(MPI_Add_error_class, 550, OTHER)          \
  X(MPI_Add_error_code, 551, OTHER)           \
  X(MPI_Add_error_string, 552, OTHER)         \
  X(MPI_Alloc_mem, 553, OTHER)                \
  X(MPI_Free_mem, 554, OTHER)                 \
  X(MPI_Win_create_keyval, 555, OTHER)        \
  X(MPI_Win_free_keyval, 556, OTHER)          \
  X(MPI_Win_set_attr, 557, OTHER)             \
  X(MPI_Win_delete_attr, 558, OTHER)          \
  X(MPI_Win_set_info, 559, OTHER)             \
  X(MPI_Win_get_info, 560, OTHER)             \
  X(MPI_Win_get_errhandler, 561, OTHER)       \
  X(MPI_Igatherv, 562, COLL)                  \
  X(MPI_Iscatterv, 563, COLL)                 \
  X(MPI_Iallgatherv, 564, COLL)               \
  X(MPI_Ialltoallv, 565, COLL)                \
  X(MPI_Ialltoallw, 566, COLL)                \
  X(MPI_Ireduce_scatter, 567, COLL)           \
  X(MPI_Ireduce_scatter_block, 568, COLL)     \
  X(MPI_Iscan, 569, COLL)                     \
  X(MPI_Iexscan, 570, COLL)                   \
  X(MPI_Alltoallw, 571, COLL)                 \
  X(MPI_Neighbor_allgather, 572, COLL)        \
  X(MPI_Neighbor_allgatherv, 573, COLL)       \
  X(MPI_Neighbor_alltoall, 574, COLL)         \
  X(MPI_Neighbor_alltoallv, 575, COLL)        \
  X(MPI_Neighbor_alltoallw, 576, COLL)        \
  X(MPI_Ineighbor_allgather, 577, COLL)       \
  X(MPI_Ineighbor_allgatherv, 578, COLL)      \
  X(MPI_Ineighbor_alltoall, 579, COLL)        \
  X(MPI_Ineighbor_alltoallv, 580, COLL)       \
  X(MPI_Ineighbor_alltoallw, 581, COLL)       \
  X(MPI_Barrier_init, 582, COLL)              \
  X(MPI_Bcast_init, 583, COLL)                \
  X(MPI_Reduce_init, 584, COLL)               \
  X(MPI_Allreduce_init, 585, COLL)            \
  X(MPI_Gather_init, 586, COLL)               \
  X(MPI_Gatherv_init, 587, COLL)              \
  X(MPI_Scatter_init, 588, COLL)              \
  X(MPI_Scatterv_init, 589, COLL)             \
  X(MPI_Allgather_init, 590, COLL)            \
  X(MPI_Allgatherv_init, 591, COLL)           \
  X(MPI_Alltoall_init, 592, COLL)             \
  X(MPI_Alltoallv_init, 593, COLL)            \
  X(MPI_Alltoallw_init, 594, COLL)            \
  X(MPI_Reduce_scatter_init, 595, COLL)       \
  X(MPI_Reduce_scatter_block_init, 596, COLL) \
  X(MPI_Scan_init, 597, COLL)                 \
  X(MPI_Exscan_init, 598, COLL)               \
  X(MPI_Neighbor_allgather_init, 599, COLL)   \
  X(MPI_Neighbor_allgatherv_init, 600, COLL)  \
  X(MPI_Neighbor_alltoall_init, 601, COLL)    \
  X(MPI_Neighbor_alltoallv_init, 602, COLL)   \
  X(MPI_Neighbor_alltoallw_init, 603, COLL)   \
  X(MPI_Psend_init, 604, P2P)                 \
  X(MPI_Precv_init, 605, P2P)                 \
  X(MPI_Pready, 606, OTHER)                   \
  X(MPI_Pready_range, 607, OTHER)             \
  X(MPI_Pready_list, 608, OTHER)              \
  X(MPI_Parrived, 609, OTHER)                 \
  X(MPI_Buffer_attach, 610, OTHER)            \
  X(MPI_Buffer_detach, 611, OTHER)            \
  X(MPI_Type_contiguous_c, 612, OTHER)        \
  X(MPI_Type_vector_c, 613, OTHER)            \
  X(MPI_Type_create_hvector_c, 614, OTHER)    \
  X(MPI_Type_indexed_c, 615, OTHER)           \
  X(MPI_Type_create_hindexed_c, 616, OTHER)   \
  X(MPI_Type_create_indexed_block_c, 617, OTHER)\
  X(MPI_Type_create_hindexed_block_c, 618, OTHER)\
  X(MPI_Type_create_struct_c, 619, OTHER)     \
  X(MPI_Type_create_subarray_c, 620, OTHER)   \
  X(MPI_Type_create_darray_c, 621, OTHER)     \
  X(MPI_Type_create_resized_c, 622, OTHER)    \
  X(MPI_Type_get_contents_c, 623, OTHER)      \
  X(MPI_File_read_c, 624, OTHER)              \
  X(MPI_File_write_c, 625, OTHER)             \
  X(MPI_File_read_at_c, 626, OTHER)           \
  X(MPI_File_write_at_c, 627, OTHER)          \
  X(MPI_File_read_all_c, 628, COLL)           \
  X(MPI_File_write_all_c, 629, COLL)          \
  X(MPI_File_read_at_all_c, 630, COLL)        \
  X(MPI_File_write_at_all_c, 631, COLL)       \
  X(MPI_File_iread_c, 632, OTHER)             \
  X(MPI_File_iwrite_c, 633, OTHER)            \
  X(MPI_File_iread_at_c, 634, OTHER)          \
  X(MPI_File_iwrite_at_c, 635, OTHER)         \
  X(MPI_File_iread_all_c, 636, OTHER)         \
  X(MPI_File_iwrite_all_c, 637, OTHER)        \
  X(MPI_File_iread_at_all_c, 638, OTHER)      \
  X(MPI_File_iwrite_at_all_c, 639, OTHER)     \
  X(MPI_File_iread_shared_c, 640, OTHER)      \
  X(MPI_File_iwrite_shared_c, 641, OTHER)     \
  X(MPI_File_read_shared_c, 642, OTHER)       \
  X(MPI_File_write_shared_c, 643, OTHER)      \
  X(MPI_File_read_ordered_c, 644, COLL)       \
  X(MPI_File_write_ordered_c, 645, COLL)      \
  X(MPI_File_read_all_begin_c, 646, COLL)     \
  X(MPI_File_write_all_begin_c, 647, COLL)    \
  X(MPI_File_read_at_all_begin_c, 648, COLL)  \
  X(MPI_File_write_at_all_begin_c, 649, COLL) \
  X(MPI_File_read_ordered_begin_c, 650, COLL) \
  X(MPI_File_write_ordered_begin_c, 651, COLL)\
  X(MPI_Register_datarep_c, 652, OTHER)       \
  X(MPI_Op_create_c, 653, OTHER)              \
  X(MPI_Win_create_c, 654, COLL)              \
  X(MPI_Win_allocate_c, 655, COLL)            \
  X(MPI_Win_allocate_shared_c, 656, COLL)     \
  X(MPI_Put_c, 657, OTHER)                    \
  X(MPI_Get_c, 658, OTHER)                    \
  X(MPI_Accumulate_c, 659, OTHER)             \
  X(MPI_Get_accumulate_c, 660, OTHER)         \
  X(MPI_Rput_c, 661, OTHER)                   \
  X(MPI_Rget_c, 662, OTHER)                   \
  X(MPI_Raccumulate_c, 663, OTHER)            \
  X(MPI_Rget_accumulate_c, 664, OTHER)        \
  X(MPI_Send_c, 665, P2P)                     \
  X(MPI_Ssend_c, 666, P2P)                    \
  X(MPI_Bsend_c, 667, P2P)                    \
  X(MPI_Rsend_c, 668, P2P)                    \
  X(MPI_Recv_c, 669, P2P)                     \
  X(MPI_Mrecv_c, 670, P2P)                    \
  X(MPI_Sendrecv_c, 671, P2P)                 \
  X(MPI_Sendrecv_replace_c, 672, P2P)         \
  X(MPI_Isend_c, 673, P2P)                    \
  X(MPI_Issend_c, 674, P2P)                   \
  X(MPI_Ibsend_c, 675, P2P)                   \
  X(MPI_Irsend_c, 676, P2P)                   \
  X(MPI_Irecv_c, 677, P2P)                    \
  X(MPI_Imrecv_c, 678, P2P)                   \
  X(MPI_Isendrecv_c, 679, P2P)                \
  X(MPI_Isendrecv_replace_c, 680, P2P)        \
  X(MPI_Send_init_c, 681, P2P)                \
  X(MPI_Ssend_init_c, 682, P2P)               \
  X(MPI_Bsend_init_c, 683, P2P)               \
  X(MPI_Rsend_init_c, 684, P2P)               \
  X(MPI_Recv_init_c, 685, P2P)                \
  X(MPI_Bcast_c, 686, COLL)                   \
  X(MPI_Reduce_c, 687, COLL)                  \
  X(MPI_Allreduce_c, 688, COLL)               \
  X(MPI_Gather_c, 689, COLL)                  \
  X(MPI_Gatherv_c, 690, COLL)                 \
  X(MPI_Scatter_c, 691, COLL)                 \
  X(MPI_Scatterv_c, 692, COLL)                \
  X(MPI_Allgather_c, 693, COLL)               \
  X(MPI_Allgatherv_c, 694, COLL)              \
  X(MPI_Alltoall_c, 695, COLL)                \
  X(MPI_Alltoallv_c, 696, COLL)               \
  X(MPI_Reduce_scatter_c, 697, COLL)          \
  X(MPI_Reduce_scatter_block_c, 698, COLL)    \
  X(MPI_Scan_c, 699, COLL)                    \
  X(MPI_Exscan_c, 700, COLL)                  \
  X(MPI_Ibcast_c, 701, COLL)                  \
  X(MPI_Ireduce_c, 702, COLL)                 \
  X(MPI_Iallreduce_c, 703, COLL)              \
  X(MPI_Igather_c, 704, COLL)                 \
  X(MPI_Iscatter_c, 705, COLL)                \
  X(MPI_Iallgather_c, 706, COLL)              \
  X(MPI_Ialltoall_c, 707, COLL)               \
  X(MPI_Igatherv_c, 708, COLL)                \
  X(MPI_Iscatterv_c, 709, COLL)               \
  X(MPI_Iallgatherv_c, 710, COLL)             \
  X(MPI_Ialltoallv_c, 711, COLL)              \
  X(MPI_Ialltoallw_c, 712, COLL)              \
  X(MPI_Ireduce_scatter_c, 713, COLL)         \
  X(MPI_Ireduce_scatter_block_c, 714, COLL)   \
  X(MPI_Iscan_c, 715, COLL)                   \
  X(MPI_Iexscan_c, 716, COLL)                 \
  X(MPI_Alltoallw_c, 717, COLL)               \
  X(MPI_Neighbor_allgather_c, 718, COLL)      \
  X(MPI_Neighbor_allgatherv_c, 719, COLL)     \
  X(MPI_Neighbor_alltoall_c, 720, COLL)       \
  X(MPI_Neighbor_alltoallv_c, 721, COLL)      \
  X(MPI_Neighbor_alltoallw_c, 722, COLL)      \
  X(MPI_Ineighbor_allgather_c, 723, COLL)     \
  X(MPI_Ineighbor_allgatherv_c, 724, COLL)    \
  X(MPI_Ineighbor_alltoall_c, 725, COLL)      \
  X(MPI_Ineighbor_alltoallv_c, 726, COLL)     \
  X(MPI_Ineighbor_alltoallw_c, 727, COLL)     \
  X(MPI_Bcast_init_c, 728, COLL)              \
  X(MPI_Reduce_init_c, 729, COLL)             \
  X(MPI_Allreduce_init_c, 730, COLL)          \
  X(MPI_Gather_init_c, 731, COLL)             \
  X(MPI_Gatherv_init_c, 732, COLL)            \
  X(MPI_Scatter_init_c, 733, COLL)            \
  X(MPI_Scatterv_init_c, 734, COLL)           \
  X(MPI_Allgather_init_c, 735, COLL)          \
  X(MPI_Allgatherv_init_c, 736, COLL)         \
  X(MPI_Alltoall_init_c, 737, COLL)           \
  X(MPI_Alltoallv_init_c, 738, COLL)          \
  X(MPI_Alltoallw_init_c, 739, COLL)          \
  X(MPI_Reduce_scatter_init_c, 740, COLL)     \
  X(MPI_Reduce_scatter_block_init_c, 741, COLL)\
  X(MPI_Scan_init_c, 742, COLL)               \
  X(MPI_Exscan_init_c, 743, COLL)             \
  X(MPI_Neighbor_allgather_init_c, 744, COLL) \
  X(MPI_Neighbor_allgatherv_init_c, 745, COLL)\
  X(MPI_Neighbor_alltoall_init_c, 746, COLL)  \
  X(MPI_Neighbor_alltoallv_init_c, 747, COLL) \
  X(MPI_Neighbor_alltoallw_init_c, 748, COLL) \
  X(MPI_Buffer_attach_c, 749, OTHER)          \
  X(MPI_Buffer_detach_c, 750, OTHER)          \
  X(MPI_Type_c2f, 751, OTHER)                 \
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
#define MPIDBG_CALL_ID_LIMIT 1024
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
