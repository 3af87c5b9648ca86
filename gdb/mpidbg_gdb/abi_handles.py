"""ctypes mirrors of include/mpidbg/mpidbg_handles.h (the handle interface).

Field order and types follow the header exactly; C enums are ints. Strings inside
arrays of structures (attribute and info pairs, name maps) are c_void_p, not
c_char_p, so their addresses stay available for freeing (see handle_query.py).
"""

from ctypes import (POINTER, Structure, c_char, c_int, c_int8, c_int16,
                    c_int64, c_uint, c_uint64, c_void_p)

from .abi_mqs import mqs_taddr_t

# Members holding mqs_taddr_t values (handles, addresses), alone or in arrays: shown in
# hex. ctypes cannot tell them from other 64-bit unsigned members by type alone.
TADDR_FIELDS = set()


def _taddr(name, array=False):
    TADDR_FIELDS.add(name)
    return (name, POINTER(mqs_taddr_t) if array else mqs_taddr_t)


MPIDBG_MAX_OBJECT_NAME = 64
MPIDBG_MAX_FILENAME = 1024

# Return codes.
MPIDBG_SUCCESS = 0
MPIDBG_ERR_NOT_FOUND = 1
MPIDBG_ERR_NOT_SUPPORTED = 2
MPIDBG_ERR_OUT_OF_RANGE = 3
MPIDBG_ERR_UNAVAILABLE = 4
MPIDBG_ERR_NO_MEM = 5
RETURN_CODE_TEXT = {
    MPIDBG_SUCCESS: "success",
    MPIDBG_ERR_NOT_FOUND: "no such handle",
    MPIDBG_ERR_NOT_SUPPORTED: "not supported",
    MPIDBG_ERR_OUT_OF_RANGE: "out of range",
    MPIDBG_ERR_UNAVAILABLE: "unavailable now",
    MPIDBG_ERR_NO_MEM: "out of memory",
}

# Communicator bits (version 1).
COMM_INFO_PREDEFINED = 0x01
COMM_INFO_CARTESIAN = 0x02
COMM_INFO_GRAPH = 0x04
COMM_INFO_TOPO_REORDERED = 0x08
COMM_INFO_INTERCOMM = 0x10
COMM_INFO_FREED_HANDLE = 0x20
COMM_INFO_FREED_OBJECT = 0x40
COMM_INFO_COMM_NULL = 0x80
COMM_INFO_DIST_GRAPH = 0x400

# Errhandler bits.
ERRH_INFO_PREDEFINED = 0x01
ERRH_INFO_COMMUNICATOR = 0x02
ERRH_INFO_FILE = 0x04
ERRH_INFO_WINDOW = 0x08
ERRH_INFO_C_CALLBACK = 0x10
ERRH_INFO_FREED_HANDLE = 0x20
ERRH_INFO_FREED_OBJECT = 0x40

# Extension bits shared by every kind.
HANDLE_PREDEFINED = 0x01
HANDLE_FREED_HANDLE = 0x20
HANDLE_FREED_OBJECT = 0x40
HANDLE_NULL = 0x80

REQUEST_PERSISTENT = 0x02
REQUEST_INACTIVE = 0x04
REQUEST_MATCHED = 0x08
REQUEST_COMPLETE = 0x10

DATATYPE_COMMITTED = 0x02
DATATYPE_HOLES = 0x04
DATATYPE_MAP_TRUNCATED = 0x08
DATATYPE_MAP_INCOMPLETE = 0x10

OP_INFO_COMMUTATIVE = 0x02
OP_INFO_C_CALLBACK = 0x10

MESSAGE_INFO_NO_PROC = 0x02
MESSAGE_INFO_RECEIVED = 0x04

# enum mpidbg_handle_kind
KIND_COMM = 1
KIND_REQUEST = 2
KIND_DATATYPE = 3
KIND_GROUP = 4
KIND_OP = 5
KIND_ERRHANDLER = 6
KIND_INFO = 7
KIND_WIN = 8
KIND_FILE = 9
KIND_MESSAGE = 10
KIND_SESSION = 11

# enum mpidbg_request_kind
REQUEST_KIND_NAMES = {0: "unknown", 1: "point-to-point", 2: "collective", 3: "RMA",
                      4: "file", 5: "generalized"}


class mpidbg_handle_info_t(Structure):
    _fields_ = [(name, c_void_p) for name in (
        "hi_c_aint", "hi_c_comm", "hi_c_datatype", "hi_c_errhandler", "hi_c_file",
        "hi_c_group", "hi_c_info", "hi_c_offset", "hi_c_op", "hi_c_request",
        "hi_c_status", "hi_c_win", "hi_cxx_aint", "hi_cxx_comm", "hi_cxx_intracomm",
        "hi_cxx_intercomm", "hi_cxx_graphcomm", "hi_cxx_cartcomm", "hi_cxx_datatype",
        "hi_cxx_errhandler", "hi_cxx_file", "hi_cxx_group", "hi_cxx_info",
        "hi_cxx_offset", "hi_cxx_op", "hi_cxx_request", "hi_cxx_prequest",
        "hi_cxx_grequest", "hi_cxx_status", "hi_cxx_win")]


class mpidbg_process_t(Structure):
    _fields_ = [("mpi_comm_world_rank", c_int)]


class mpidbg_name_map_t(Structure):
    _fields_ = [("map_name", c_void_p), _taddr("map_handle")]


class mpidbg_attribute_pair_t(Structure):
    _fields_ = [("keyval", c_int), ("keyval_name", c_void_p), ("value", c_void_p)]


class mpidbg_comm_info_t(Structure):
    _fields_ = [
        ("comm_name", c_char * MPIDBG_MAX_OBJECT_NAME),
        ("comm_bitflags", c_int),
        ("comm_rank", c_int),
        ("comm_size", c_int),
        ("comm_num_local_procs", c_int),
        ("comm_local_procs", POINTER(mpidbg_process_t)),
        ("comm_num_remote_procs", c_int),
        ("comm_remote_procs", POINTER(mpidbg_process_t)),
        ("comm_cart_num_dims", c_int),
        ("comm_cart_dims", POINTER(c_int)),
        ("comm_cart_periods", POINTER(c_int8)),
        ("comm_graph_num_nodes", c_int),
        ("comm_graph_index", POINTER(c_int)),
        ("comm_graph_edges", POINTER(c_int)),
        _taddr("comm_c_handle"),
        ("comm_fortran_handle", c_int),
        ("comm_num_attrs", c_int),
        ("comm_attrs", POINTER(mpidbg_attribute_pair_t)),
        ("comm_num_pending_requests", c_int),
        _taddr("comm_pending_requests", array=True),
        ("comm_num_derived_windows", c_int),
        _taddr("comm_derived_windows", array=True),
        ("comm_num_derived_files", c_int),
        _taddr("comm_derived_files", array=True),
    ]


class mpidbg_request_info_t(Structure):
    _fields_ = [
        ("req_bitflags", c_int),
        _taddr("req_c_handle"),
        ("req_fortran_handle", c_int),
    ]


class mpidbg_status_info_t(Structure):
    _fields_ = [("status_bitflags", c_int)]


class mpidbg_errhandler_info_t(Structure):
    _fields_ = [
        ("eh_name", c_char * MPIDBG_MAX_OBJECT_NAME),
        ("eh_bitflags", c_int),
        _taddr("eh_c_handle"),
        ("eh_fortran_handle", c_int),
        ("eh_refcount", c_int16),
        _taddr("eh_handles", array=True),
        _taddr("eh_callback_func"),
    ]


class mpidbg_comm_ext_info_t(Structure):
    _fields_ = [
        ("base", mpidbg_comm_info_t),
        ("job_id", c_uint64),
        ("parent_job_id", c_uint64),
        ("creator", c_int),
        ("creator_name", c_char * 32),
        ("split_color", c_int),
        ("split_key", c_int),
        _taddr("errhandler"),
        _taddr("info"),
        ("dist_num_sources", c_int),
        ("dist_sources", POINTER(c_int)),
        ("dist_num_destinations", c_int),
        ("dist_destinations", POINTER(c_int)),
        ("dist_weighted", c_int),
        ("create_time_ns", c_int64),
        ("create_serial", c_uint64),
        ("free_serial", c_uint64),
    ]


class mpidbg_request_ext_info_t(Structure):
    _fields_ = [
        ("base", mpidbg_request_info_t),
        ("req_ext_bitflags", c_uint),
        ("req_kind", c_int),
        ("req_creator", c_int),
        ("req_creator_name", c_char * 32),
        ("req_direction", c_int),
        ("req_mode", c_int),
        ("req_peer", c_int),
        ("req_peer_world", c_int),
        ("req_tag", c_int),
        ("req_actual_source", c_int),
        ("req_actual_tag", c_int),
        ("req_count", c_int64),
        ("req_bytes", c_int64),
        ("req_actual_bytes", c_int64),
        _taddr("req_buffer"),
        _taddr("req_datatype"),
        ("req_datatype_name", c_char * 32),
        _taddr("req_comm"),
        ("req_comm_job_id", c_uint64),
        ("req_comm_name", c_char * MPIDBG_MAX_OBJECT_NAME),
        _taddr("req_object"),
        ("req_file_offset", c_int64),
        ("req_target_disp", c_int64),
        _taddr("req_extra_state"),
        _taddr("req_query_fn"),
        ("req_tid", c_uint64),
        ("req_post_time_ns", c_int64),
        ("req_post_serial", c_uint64),
    ]


class mpidbg_status_ext_info_t(Structure):
    _fields_ = [
        ("base", mpidbg_status_info_t),
        ("status_source", c_int),
        ("status_tag", c_int),
        ("status_error", c_int),
        ("status_cancelled", c_int),
        ("status_bytes", c_int64),
    ]


class mpidbg_type_map_entry_t(Structure):
    _fields_ = [
        _taddr("basic_type"),
        ("basic_name", c_char * 32),
        ("displacement", c_int64),
        ("count", c_int64),
        ("elem_size", c_int64),
    ]


class mpidbg_datatype_info_t(Structure):
    _fields_ = [
        ("dt_name", c_char * MPIDBG_MAX_OBJECT_NAME),
        ("dt_bitflags", c_uint),
        _taddr("dt_c_handle"),
        ("dt_fortran_handle", c_int),
        ("dt_combiner", c_int),
        ("dt_creator", c_int),
        ("dt_creator_name", c_char * 32),
        ("dt_size", c_int64),
        ("dt_lb", c_int64),
        ("dt_extent", c_int64),
        ("dt_true_lb", c_int64),
        ("dt_true_extent", c_int64),
        ("dt_num_integers", c_int),
        ("dt_integers", POINTER(c_int)),
        ("dt_num_addresses", c_int),
        ("dt_addresses", POINTER(c_int64)),
        ("dt_num_datatypes", c_int),
        _taddr("dt_datatypes", array=True),
        ("dt_map_length", c_int),
        ("dt_map", POINTER(mpidbg_type_map_entry_t)),
        ("dt_map_elements", c_int64),
    ]


class mpidbg_group_info_t(Structure):
    _fields_ = [
        ("group_name", c_char * MPIDBG_MAX_OBJECT_NAME),
        ("group_bitflags", c_uint),
        _taddr("group_c_handle"),
        ("group_fortran_handle", c_int),
        ("group_rank", c_int),
        ("group_size", c_int),
        ("group_procs", POINTER(mpidbg_process_t)),
        ("group_creator", c_int),
        ("group_creator_name", c_char * 32),
        _taddr("group_source"),
        _taddr("group_source2"),
        ("group_num_args", c_int),
        ("group_args", POINTER(c_int)),
    ]


class mpidbg_op_info_t(Structure):
    _fields_ = [
        ("op_name", c_char * MPIDBG_MAX_OBJECT_NAME),
        ("op_bitflags", c_uint),
        _taddr("op_c_handle"),
        ("op_fortran_handle", c_int),
        _taddr("op_callback_func"),
    ]


class mpidbg_info_pair_t(Structure):
    _fields_ = [("key", c_void_p), ("value", c_void_p)]


class mpidbg_info_info_t(Structure):
    _fields_ = [
        ("info_bitflags", c_uint),
        _taddr("info_c_handle"),
        ("info_fortran_handle", c_int),
        ("info_num_pairs", c_int),
        ("info_pairs", POINTER(mpidbg_info_pair_t)),
    ]


class mpidbg_win_region_t(Structure):
    _fields_ = [_taddr("base"), ("size", c_int64)]


class mpidbg_win_info_t(Structure):
    _fields_ = [
        ("win_name", c_char * MPIDBG_MAX_OBJECT_NAME),
        ("win_bitflags", c_uint),
        _taddr("win_c_handle"),
        ("win_fortran_handle", c_int),
        ("win_flavor", c_int),
        _taddr("win_comm"),
        ("win_comm_job_id", c_uint64),
        ("win_comm_size", c_int),
        _taddr("win_base"),
        ("win_size", c_int64),
        ("win_disp_unit", c_int),
        ("win_access_epoch", c_int),
        ("win_exposure_epoch", c_int),
        ("win_fence_count", c_uint64),
        ("win_rma_count", c_uint64),
        _taddr("win_errhandler"),
        _taddr("win_info"),
        ("win_num_target_locks", c_int),
        ("win_target_locks", POINTER(c_int)),
        ("win_num_access_group", c_int),
        ("win_access_group", POINTER(c_int)),
        ("win_num_exposure_group", c_int),
        ("win_exposure_group", POINTER(c_int)),
        ("win_num_regions", c_int),
        ("win_regions", POINTER(mpidbg_win_region_t)),
        ("win_num_pending_requests", c_int),
        _taddr("win_pending_requests", array=True),
    ]


class mpidbg_file_info_t(Structure):
    _fields_ = [
        ("file_name", c_char * MPIDBG_MAX_FILENAME),
        ("file_bitflags", c_uint),
        _taddr("file_c_handle"),
        ("file_fortran_handle", c_int),
        _taddr("file_comm"),
        ("file_comm_job_id", c_uint64),
        ("file_amode", c_int),
        ("file_view_disp", c_int64),
        _taddr("file_etype"),
        _taddr("file_filetype"),
        ("file_datarep", c_char * 32),
        _taddr("file_info"),
        _taddr("file_errhandler"),
        ("file_num_pending_requests", c_int),
        _taddr("file_pending_requests", array=True),
    ]


class mpidbg_message_info_t(Structure):
    _fields_ = [
        ("msg_bitflags", c_uint),
        _taddr("msg_c_handle"),
        ("msg_fortran_handle", c_int),
        _taddr("msg_comm"),
        ("msg_comm_job_id", c_uint64),
        ("msg_source", c_int),
        ("msg_source_world", c_int),
        ("msg_tag", c_int),
        ("msg_bytes", c_int64),
        ("msg_creator", c_int),
        ("msg_creator_name", c_char * 32),
    ]


class mpidbg_object_entry_t(Structure):
    """One object of mpidbg_object_list_query (extension version 2): no pointers, the
    debugger frees the array alone."""
    _fields_ = [
        ("kind", c_int),
        ("bitflags", c_uint),
        _taddr("c_handle"),
        ("fortran_handle", c_int),
        ("creator", c_int),
        ("creator_name", c_char * 32),
        ("name", c_char * MPIDBG_MAX_OBJECT_NAME),
        ("create_time_ns", c_int64),
        ("create_serial", c_uint64),
        ("free_serial", c_uint64),
        _taddr("create_pc"),
        _taddr("record"),
    ]
