"""ctypes mirrors of include/mpidbg/mqs_interface.h and include/mpidbg/mpidbg_ext.h.

Field order and types follow the C headers exactly: the plugin writes these structures
through the pointers we pass, so a wrong field here would corrupt gdb's memory. Enums
are C ints; mqs_taddr_t is unsigned long and mqs_tword_t long (LP64 Linux).
"""

import ctypes
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_double, c_int,
                    c_int32, c_int64, c_long, c_size_t, c_uint32, c_uint64, c_ulong,
                    c_void_p)

mqs_taddr_t = c_ulong
mqs_tword_t = c_long

# Result codes.
MQS_OK = 0
MQS_NO_INFORMATION = 1
MQS_END_OF_LIST = 2
MQS_FIRST_USER_CODE = 100

MQS_INTERFACE_COMPATIBILITY = 2

# Operation classes and statuses.
MQS_PENDING_SENDS = 0
MQS_PENDING_RECEIVES = 1
MQS_UNEXPECTED_MESSAGES = 2
MQS_STATUS_NAMES = {0: "pending", 1: "matched", 2: "complete"}


class mqs_target_type_sizes(Structure):
    _fields_ = [
        ("short_size", c_int),
        ("int_size", c_int),
        ("long_size", c_int),
        ("long_long_size", c_int),
        ("pointer_size", c_int),
        ("bool_size", c_int),
        ("size_t_size", c_int),
    ]


class mqs_communicator(Structure):
    _fields_ = [
        ("unique_id", mqs_taddr_t),
        ("local_rank", mqs_tword_t),
        ("size", mqs_tword_t),
        ("name", c_char * 64),
    ]


class mqs_pending_operation(Structure):
    _fields_ = [
        ("status", c_int),
        ("desired_local_rank", mqs_tword_t),
        ("desired_global_rank", mqs_tword_t),
        ("tag_wild", c_int),
        ("desired_tag", mqs_tword_t),
        ("desired_length", mqs_tword_t),
        ("system_buffer", c_int),
        ("buffer", mqs_taddr_t),
        ("actual_local_rank", mqs_tword_t),
        ("actual_global_rank", mqs_tword_t),
        ("actual_tag", mqs_tword_t),
        ("actual_length", mqs_tword_t),
        ("extra_text", (c_char * 64) * 5),
    ]


# Opaque debugger objects travel as void*: we hand the plugin small integer ids.
mqs_image_p = c_void_p
mqs_process_p = c_void_p
mqs_type_p = c_void_p
mqs_info_p = c_void_p

# Basic callbacks.
mqs_malloc_ft = CFUNCTYPE(c_void_p, c_size_t)
mqs_free_ft = CFUNCTYPE(None, c_void_p)
mqs_dprints_ft = CFUNCTYPE(None, c_char_p)
# Returns char*; declared c_void_p so the address of a buffer we keep alive is returned.
mqs_errorstring_ft = CFUNCTYPE(c_void_p, c_int)
mqs_put_image_info_ft = CFUNCTYPE(None, mqs_image_p, mqs_info_p)
mqs_get_image_info_ft = CFUNCTYPE(mqs_info_p, mqs_image_p)
mqs_put_process_info_ft = CFUNCTYPE(None, mqs_process_p, mqs_info_p)
mqs_get_process_info_ft = CFUNCTYPE(mqs_info_p, mqs_process_p)


class mqs_basic_callbacks(Structure):
    _fields_ = [
        ("mqs_malloc_fp", mqs_malloc_ft),
        ("mqs_free_fp", mqs_free_ft),
        ("mqs_dprints_fp", mqs_dprints_ft),
        ("mqs_errorstring_fp", mqs_errorstring_ft),
        ("mqs_put_image_info_fp", mqs_put_image_info_ft),
        ("mqs_get_image_info_fp", mqs_get_image_info_ft),
        ("mqs_put_process_info_fp", mqs_put_process_info_ft),
        ("mqs_get_process_info_fp", mqs_get_process_info_ft),
    ]


# Image callbacks.
mqs_get_type_sizes_ft = CFUNCTYPE(None, mqs_process_p, POINTER(mqs_target_type_sizes))
mqs_find_function_ft = CFUNCTYPE(c_int, mqs_image_p, c_char_p, c_int, POINTER(mqs_taddr_t))
mqs_find_symbol_ft = CFUNCTYPE(c_int, mqs_image_p, c_char_p, POINTER(mqs_taddr_t))
mqs_find_type_ft = CFUNCTYPE(mqs_type_p, mqs_image_p, c_char_p, c_int)
mqs_field_offset_ft = CFUNCTYPE(c_int, mqs_type_p, c_char_p)
mqs_sizeof_ft = CFUNCTYPE(c_int, mqs_type_p)


class mqs_image_callbacks(Structure):
    _fields_ = [
        ("mqs_get_type_sizes_fp", mqs_get_type_sizes_ft),
        ("mqs_find_function_fp", mqs_find_function_ft),
        ("mqs_find_symbol_fp", mqs_find_symbol_ft),
        ("mqs_find_type_fp", mqs_find_type_ft),
        ("mqs_field_offset_fp", mqs_field_offset_ft),
        ("mqs_sizeof_fp", mqs_sizeof_ft),
    ]


# Process callbacks.
mqs_get_global_rank_ft = CFUNCTYPE(c_int, mqs_process_p)
mqs_get_image_ft = CFUNCTYPE(mqs_image_p, mqs_process_p)
mqs_fetch_data_ft = CFUNCTYPE(c_int, mqs_process_p, mqs_taddr_t, c_int, c_void_p)
mqs_target_to_host_ft = CFUNCTYPE(None, mqs_process_p, c_void_p, c_void_p, c_int)


class mqs_process_callbacks(Structure):
    _fields_ = [
        ("mqs_get_global_rank_fp", mqs_get_global_rank_ft),
        ("mqs_get_image_fp", mqs_get_image_ft),
        ("mqs_fetch_data_fp", mqs_fetch_data_ft),
        ("mqs_target_to_host_fp", mqs_target_to_host_ft),
    ]


# ---- mpidbg_ext.h ----

class mpidbg_process_summary(Structure):
    _fields_ = [
        ("size", c_uint32),
        ("flavour", c_int32),
        ("process_state", c_int32),
        ("world_rank", c_int32),
        ("world_size", c_int32),
        ("thread_level", c_int32),
        ("pid", c_int32),
        ("thread_count", c_int32),
        ("generation", c_uint64),
        ("init_time_ns", c_int64),
        ("mpi_library", c_char * 256),
        ("hostname", c_char * 64),
        # version 5: what the plugin's walk of the runtime's records left out
        ("records_torn", c_uint32),
        ("records_bad", c_uint32),
        ("tables_damaged", c_uint32),
        ("rings_damaged", c_uint32),
        ("live_unreadable", c_uint32),
        ("reserved5", c_uint32),
    ]


class mpidbg_operation_info(Structure):
    _fields_ = [
        ("size", c_uint32),
        ("call", c_int32),
        ("request", c_uint64),
        ("comm_id", c_uint64),
        ("comm_handle", c_uint64),
        ("buffer", c_uint64),
        ("datatype", c_uint64),
        ("tid", c_uint64),
        ("post_serial", c_uint64),
        ("count", c_int64),
        ("bytes", c_int64),
        ("actual_bytes", c_int64),
        ("post_time_ns", c_int64),
        ("direction", c_int32),
        ("mode", c_int32),
        ("status", c_int32),
        ("blocking", c_int32),
        ("peer", c_int32),
        ("peer_world", c_int32),
        ("tag", c_int32),
        ("actual_source", c_int32),
        ("actual_tag", c_int32),
        ("persistent", c_int32),
        ("call_name", c_char * 32),
        ("datatype_name", c_char * 32),
        ("comm_name", c_char * 64),
        ("partitions", c_int32),       # version 4: partitioned requests
        ("partitions_done", c_int32),
    ]


class mpidbg_thread_info(Structure):
    _fields_ = [
        ("size", c_uint32),
        ("state", c_int32),
        ("tid", c_uint64),
        ("entry_time_ns", c_int64),
        ("calls", c_uint64),
        ("comm_id", c_uint64),
        ("comm_handle", c_uint64),
        ("count", c_int64),
        ("call", c_int32),
        ("call_class", c_int32),
        ("root", c_int32),
        ("has_operation", c_int32),
        ("waited_count", c_int32),
        ("recording_paused", c_int32),
        ("call_name", c_char * 32),
        ("comm_name", c_char * 64),
        ("datatype_name", c_char * 32),
        ("operation", mpidbg_operation_info),
    ]


class mpidbg_comm_detail(Structure):
    _fields_ = [
        ("size", c_uint32),
        ("creator", c_int32),
        ("handle", c_uint64),
        ("job_id", c_uint64),
        ("parent_job_id", c_uint64),
        ("inter", c_int32),
        ("remote_size", c_int32),
        ("predefined", c_int32),
        ("freed", c_int32),
        ("topology", c_int32),
        ("split_color", c_int32),
        ("creator_name", c_char * 32),
        # version 4: an intercommunicator to another job (spawn, accept, connect, join)
        ("remote_job", c_int32),
        ("reserved", c_int32),
        ("remote_job_id", c_char * 128),
    ]


class mpidbg_launch_summary(Structure):
    _fields_ = [
        ("size", c_uint32),
        ("launcher", c_uint32),
        ("sources", c_uint32),
        ("rank", c_int32),
        ("world_size", c_int32),
        ("local_rank", c_int32),
        ("local_size", c_int32),
        ("node_rank", c_int32),
        ("appnum", c_int32),
        ("universe_size", c_int32),
        ("pid", c_int32),
        ("mpi_rank", c_int32),
        ("mpi_version", c_int32),
        ("mpi_subversion", c_int32),
        ("thread_level_requested", c_int32),
        ("debug_gate_hold", c_int32),
        ("orphan_budget", c_uint32),
        ("orphan_keep_all", c_uint32),
        ("orphan_count", c_uint64),
        ("orphan_evictions", c_uint64),
        ("orphan_releases", c_uint64),
        ("job_id", c_char * 128),
        ("host", c_char * 64),
        ("launcher_name", c_char * 32),
        ("pmi_interface", c_char * 16),
    ]


class mpidbg_mpit_summary(Structure):
    _fields_ = [
        ("size", c_uint32),
        ("available", c_int32),
        ("cvars", c_int32),
        ("pvars", c_int32),
        ("categories", c_int32),
        ("reserved", c_int32),
        ("refreshes", c_uint64),
        ("captured_time_ns", c_int64),
    ]


class mpidbg_mpit_variable(Structure):
    _fields_ = [
        ("size", c_uint32),
        ("performance", c_int32),
        ("verbosity", c_int32),
        ("datatype", c_int32),
        ("bind", c_int32),
        ("count", c_int32),
        ("scope", c_int32),
        ("var_class", c_int32),
        ("flags", c_uint32),
        ("value_valid", c_int32),
        ("value_int", c_int64),
        ("value_double", c_double),
        ("name", c_char * 128),
        ("value_text", c_char * 256),
        ("description", c_char * 512),
    ]


class mpidbg_mpit_category_info(Structure):
    _fields_ = [
        ("size", c_uint32),
        ("num_cvars", c_int32),
        ("num_pvars", c_int32),
        ("num_categories", c_int32),
        ("name", c_char * 128),
        ("description", c_char * 512),
    ]


# Sizes the C compiler gives these structures on LP64 Linux (checked by the tests).
EXPECTED_SIZES = {
    "mqs_communicator": 88,
    "mqs_pending_operation": 416,
}


def text(field):
    """A char array field as str (bytes up to the first NUL, decoded leniently)."""
    raw = bytes(field)
    end = raw.find(b"\0")
    if end >= 0:
        raw = raw[:end]
    return raw.decode("utf-8", "replace")


def sized(struct_type):
    """A zeroed structure of the extension API with its leading `size` set."""
    s = struct_type()
    s.size = ctypes.sizeof(struct_type)
    return s
