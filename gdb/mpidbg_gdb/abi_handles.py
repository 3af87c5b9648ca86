"""ctypes mirrors of what the extension itself calls in include/mpidbg/mpidbg_handles.h
(set-up, the object listing); describing one handle is libmpidbg_describe's
(describer.py), whose queries and results the extension never touches.

Field order and types follow the header exactly; C enums are ints.
"""

from ctypes import Structure, c_char, c_int, c_int64, c_uint, c_uint64, c_void_p

from .abi_mqs import mqs_taddr_t


def _taddr(name):
    """A member holding an mqs_taddr_t (a handle or an address)."""
    return (name, mqs_taddr_t)


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

# Extension bits shared by every kind.
HANDLE_PREDEFINED = 0x01
HANDLE_FREED_HANDLE = 0x20
HANDLE_FREED_OBJECT = 0x40

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


class mpidbg_handle_info_t(Structure):
    _fields_ = [(name, c_void_p) for name in (
        "hi_c_aint", "hi_c_comm", "hi_c_datatype", "hi_c_errhandler", "hi_c_file",
        "hi_c_group", "hi_c_info", "hi_c_offset", "hi_c_op", "hi_c_request",
        "hi_c_status", "hi_c_win", "hi_cxx_aint", "hi_cxx_comm", "hi_cxx_intracomm",
        "hi_cxx_intercomm", "hi_cxx_graphcomm", "hi_cxx_cartcomm", "hi_cxx_datatype",
        "hi_cxx_errhandler", "hi_cxx_file", "hi_cxx_group", "hi_cxx_info",
        "hi_cxx_offset", "hi_cxx_op", "hi_cxx_request", "hi_cxx_prequest",
        "hi_cxx_grequest", "hi_cxx_status", "hi_cxx_win")]


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
