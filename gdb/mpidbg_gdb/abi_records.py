"""ctypes mirror of the part of include/mpidbg/records.h that `mpi orphans` reads.

records.h fixes every field's width and pads explicitly, so natural alignment here gives
the C layout on every ABI; the gdb.abi test compares these offsets with the C compiler's.
"""

import ctypes

ROOT_SYMBOL = "mpidbg_runtime_root"
ROOT_MAGIC = 0x5452474244495043
SLAB_MAGIC = 0x42414C5344495043
REC_FREED = 0x2

MAX_SLABS = 4096
MAX_SLOTS_PER_SLAB = 1 << 16
MAX_RECORDS = 1 << 20
MAX_RECORD_SIZE = 1 << 16


class mpidbg_table(ctypes.Structure):
    _fields_ = [("first_slab", ctypes.c_uint64), ("kind", ctypes.c_uint32),
                ("record_size", ctypes.c_uint32), ("slab_count", ctypes.c_uint32),
                ("live_count", ctypes.c_uint32)]


class mpidbg_root_head(ctypes.Structure):
    """mpidbg_root up to the last table (the part this walk reads)."""
    _fields_ = [
        ("magic", ctypes.c_uint64), ("size", ctypes.c_uint32),
        ("layout_version", ctypes.c_uint32), ("generation", ctypes.c_uint64),
        ("flavour", ctypes.c_uint32), ("handle_size", ctypes.c_uint32),
        ("process_state", ctypes.c_int32), ("world_rank", ctypes.c_int32),
        ("world_size", ctypes.c_int32), ("thread_level", ctypes.c_int32),
        ("pid", ctypes.c_int32), ("mpi_any_source", ctypes.c_int32),
        ("mpi_any_tag", ctypes.c_int32), ("mpi_proc_null", ctypes.c_int32),
        ("comm_world_handle", ctypes.c_uint64), ("comm_self_handle", ctypes.c_uint64),
        ("init_time_ns", ctypes.c_int64), ("post_counter", ctypes.c_uint64),
        ("comms", mpidbg_table), ("operations", mpidbg_table), ("threads", mpidbg_table),
        ("mpi_library", ctypes.c_char * 256), ("hostname", ctypes.c_char * 64),
        ("create_counter", ctypes.c_uint64), ("free_counter", ctypes.c_uint64),
        ("orphan_budget", ctypes.c_uint32), ("orphan_keep_all", ctypes.c_uint32),
        ("orphan_count", ctypes.c_uint64), ("orphan_evictions", ctypes.c_uint64),
        ("orphan_releases", ctypes.c_uint64),
        ("groups", mpidbg_table), ("datatypes", mpidbg_table), ("reduce_ops", mpidbg_table),
        ("errhandlers", mpidbg_table), ("infos", mpidbg_table), ("windows", mpidbg_table),
        ("files", mpidbg_table), ("messages", mpidbg_table), ("sessions", mpidbg_table),
    ]


# Root fields past the mirrored head, by their offsets in mpidbg_root (gdb.abi checks
# them against the C compiler): the release request a debugger writes (records.h).
ROOT_FIELDS = {"orphan_release_asked": 944, "orphan_release_done": 952}


# Handle kind -> (root table, C record type, handle field and offset, name offset or
# None, free_serial offset). The kinds after comm/op share mpidbg_object_head.
_OBJECT_HEAD = ("mpidbg_object_head", "handle", 16, 56, 32)
TABLES = [
    ("comm", "comms", "mpidbg_comm_record", "handle", 16, 88, 152),
    ("request", "operations", "mpidbg_operation_record", "request", 16, None, 184),
    ("group", "groups") + _OBJECT_HEAD,
    ("datatype", "datatypes") + _OBJECT_HEAD,
    ("op", "reduce_ops") + _OBJECT_HEAD,
    ("errhandler", "errhandlers") + _OBJECT_HEAD,
    ("info", "infos") + _OBJECT_HEAD,
    ("win", "windows") + _OBJECT_HEAD,
    ("file", "files") + _OBJECT_HEAD,
    ("message", "messages") + _OBJECT_HEAD,
]


