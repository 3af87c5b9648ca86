"""ctypes mirrors of include/mpidbg/mpidbg_describe.h (libmpidbg_describe.so).

Strings the library returns are c_void_p, so their addresses stay available for
mpidbg_describe_clear / mpidbg_describe_release.
"""

from ctypes import Structure, c_char_p, c_void_p

from .abi_mqs import mqs_free_ft

MPIDBG_DESCRIBE_VERSION = 1


class mpidbg_describe_target_t(Structure):
    _fields_ = [("dll_path", c_char_p), ("image", c_void_p), ("image_info", c_void_p),
                ("process", c_void_p), ("process_info", c_void_p), ("mqs_free", mqs_free_ft)]


class mpidbg_description_t(Structure):
    _fields_ = [("summary", c_void_p), ("text", c_void_p), ("json", c_void_p),
                ("fields", c_void_p)]
