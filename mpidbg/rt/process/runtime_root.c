/*
 * runtime_root.c — the one exported object a debugger looks for.
 *
 * Statically initialised, so it is valid (magic, size, layout, flavour, empty tables)
 * from the moment the library is mapped, before MPI_Init and in any core file.
 * MPIDBG_RT_FLAVOUR is set per build flavour by the build system.
 */
#include <mpi.h>

#include "mpidbg/records.h"

#ifndef MPIDBG_RT_FLAVOUR
#error "MPIDBG_RT_FLAVOUR must be defined by the build"
#endif

__attribute__((visibility("default"))) mpidbg_root mpidbg_runtime_root = {
    .magic = MPIDBG_ROOT_MAGIC,
    .size = sizeof(mpidbg_root),
    .layout_version = MPIDBG_LAYOUT_VERSION,
    .generation = 0,
    .flavour = MPIDBG_RT_FLAVOUR,
    .handle_size = sizeof(MPI_Comm),
    .process_state = MPIDBG_PROCESS_BEFORE_INIT,
    .world_rank = -1,
    .world_size = 0,
    .thread_level = MPIDBG_THREAD_SINGLE,
    .pid = 0,
    .mpi_any_source = MPI_ANY_SOURCE,
    .mpi_any_tag = MPI_ANY_TAG,
    .mpi_proc_null = MPI_PROC_NULL,
    .comm_world_handle = 0,
    .comm_self_handle = 0,
    .init_time_ns = 0,
    .post_counter = 0,
    .comms = {.first_slab = 0, .kind = MPIDBG_KIND_COMM,
              .record_size = sizeof(mpidbg_comm_record), .slab_count = 0, .live_count = 0},
    .operations = {.first_slab = 0, .kind = MPIDBG_KIND_OPERATION,
            .record_size = sizeof(mpidbg_operation_record), .slab_count = 0, .live_count = 0},
    .threads = {.first_slab = 0, .kind = MPIDBG_KIND_THREAD,
                .record_size = sizeof(mpidbg_thread_record), .slab_count = 0, .live_count = 0},
    .mpi_library = {0},
    .hostname = {0},
    .create_counter = 0,
    .free_counter = 0,
    .orphan_budget = 4096, /* MPIDBG_ORPHAN_BUDGET replaces it at MPI_Init */
    .orphan_keep_all = 0,
    .orphan_count = 0,
    .orphan_evictions = 0,
    .orphan_releases = 0,
    .groups = {.first_slab = 0, .kind = MPIDBG_KIND_GROUP,
             .record_size = sizeof(mpidbg_group_record), .slab_count = 0, .live_count = 0},
    .datatypes = {.first_slab = 0, .kind = MPIDBG_KIND_DATATYPE,
             .record_size = sizeof(mpidbg_datatype_record), .slab_count = 0, .live_count = 0},
    .reduce_ops = {.first_slab = 0, .kind = MPIDBG_KIND_REDUCE_OP,
             .record_size = sizeof(mpidbg_reduce_op_record), .slab_count = 0, .live_count = 0},
    .errhandlers = {.first_slab = 0, .kind = MPIDBG_KIND_ERRHANDLER,
             .record_size = sizeof(mpidbg_errhandler_record), .slab_count = 0, .live_count = 0},
    .infos = {.first_slab = 0, .kind = MPIDBG_KIND_INFO,
             .record_size = sizeof(mpidbg_info_record), .slab_count = 0, .live_count = 0},
    .windows = {.first_slab = 0, .kind = MPIDBG_KIND_WINDOW,
             .record_size = sizeof(mpidbg_window_record), .slab_count = 0, .live_count = 0},
    .files = {.first_slab = 0, .kind = MPIDBG_KIND_FILE,
             .record_size = sizeof(mpidbg_file_record), .slab_count = 0, .live_count = 0},
    .messages = {.first_slab = 0, .kind = MPIDBG_KIND_MESSAGE,
             .record_size = sizeof(mpidbg_message_record), .slab_count = 0, .live_count = 0},
    .sessions = {.first_slab = 0, .kind = MPIDBG_KIND_SESSION,
             .record_size = sizeof(mpidbg_session_record), .slab_count = 0, .live_count = 0},
    .launch = 0,
    .mpit = 0,
    .traffic = 0,
    .mpi_version = MPI_VERSION,
    .mpi_subversion = MPI_SUBVERSION,
    .thread_level_requested = MPIDBG_THREAD_SINGLE,
    .debug_gate_hold = 0,
    .request_bytes = sizeof(mpidbg_operation_record),
    .partitions = {.first_slab = 0, .kind = MPIDBG_KIND_PARTITIONS,
             .record_size = sizeof(mpidbg_partition_record), .slab_count = 0, .live_count = 0},
};
