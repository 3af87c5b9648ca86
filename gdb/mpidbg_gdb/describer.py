"""Handles described by libmpidbg_describe.so, the describer `mpidbg handle` uses.

gdb shows a handle in the same words as the command line: `mpi handle` prints the
command's text, a printer shows its summary line, and an IDE's variable view expands the
fields the library derives from the same description. The library lies beside the
plugin (built and installed); it runs the plugin's queries with this session's objects
and releases their results with our mqs_free.
"""

import ctypes
import json
import os
from ctypes import POINTER, byref, c_char_p, c_int, c_uint64, c_void_p

from . import abi_describe as D
from . import plugin as plugin_mod
from .handle_query import QueryError

LIBRARY_FILE = "libmpidbg_describe.so"


class Description:
    """One handle: `summary` (one line), `text` (`mpidbg handle`'s lines), `handle` (the
    mpidbg.handle/1 object as a dict) and `fields` ([(name, value)] for children)."""

    def __init__(self, summary, text, handle, fields):
        self.summary = summary
        self.text = text
        self.handle = handle
        self.fields = fields

    @property
    def is_null(self):
        return bool(self.handle.get("null"))


def _candidates(plugin_path):
    out = []
    env = os.environ.get("MPIDBG_DESCRIBE")
    if env:
        out.append(env)
    for p in [plugin_path] + plugin_mod.candidate_paths():
        if p:
            out.append(os.path.join(os.path.dirname(p), LIBRARY_FILE))
    return out


def _load(path):
    """The describer library at `path` with its prototypes; OSError when it is not one."""
    lib = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
    if lib.mpidbg_describe_version() != D.MPIDBG_DESCRIBE_VERSION:
        raise OSError("it speaks another describer version")
    lib.mpidbg_describe_handle.restype = c_int
    lib.mpidbg_describe_handle.argtypes = [POINTER(D.mpidbg_describe_target_t), c_char_p,
                                           c_uint64, c_int, POINTER(D.mpidbg_description_t),
                                           POINTER(c_void_p)]
    lib.mpidbg_describe_fortran_to_c.restype = c_int
    lib.mpidbg_describe_fortran_to_c.argtypes = [POINTER(D.mpidbg_describe_target_t), c_char_p,
                                                 c_uint64, POINTER(c_uint64), POINTER(c_void_p)]
    lib.mpidbg_describe_release.restype = None
    lib.mpidbg_describe_release.argtypes = [c_void_p]
    lib.mpidbg_describe_clear.restype = None
    lib.mpidbg_describe_clear.argtypes = [POINTER(D.mpidbg_description_t)]
    return lib


class _Library:
    def __init__(self, plugin_path):
        self.lib, tried, errors = plugin_mod.load_first(_candidates(plugin_path), _load)
        self.error = None
        if self.lib is None:
            self.error = ("cannot load the describer (%s)" % "; ".join(errors) if errors else
                          "the describer %s was not found (tried %s; set MPIDBG_DESCRIBE to "
                          "its path)" % (LIBRARY_FILE, ", ".join(tried)))


_library = None


def _require(session):
    global _library
    plugin, image, process = session.require_handles()
    if _library is None:
        _library = _Library(plugin.path)
    if _library.lib is None:
        raise QueryError(_library.error)
    target = D.mpidbg_describe_target_t(plugin.path.encode(), image, session.image_info(), process,
                     session.process_info(), session.d.callbacks.basic.mqs_free_fp)
    return _library.lib, target


def _text(lib, address):
    return ctypes.string_at(address).decode("utf-8", "replace") if address else ""


def _fail(lib, rc, error):
    message = _text(lib, error.value) or "the describer failed (code %d)" % rc
    lib.mpidbg_describe_release(error.value)
    raise QueryError(message, rc)


def describe(session, kind, handle, max_map_entries=0):
    """The Description of `handle` of `kind`; raises QueryError with the describer's
    sentence (the one `mpidbg handle` prints) when it cannot say."""
    lib, target = _require(session)
    out = D.mpidbg_description_t()
    error = c_void_p()
    rc = lib.mpidbg_describe_handle(byref(target), kind.encode(), handle & 0xFFFFFFFFFFFFFFFF,
                                    max_map_entries, byref(out), byref(error))
    if rc != 0:
        _fail(lib, rc, error)
    try:
        return Description(_text(lib, out.summary), _text(lib, out.text),
                           json.loads(_text(lib, out.json)),
                           [tuple(f) for f in json.loads(_text(lib, out.fields))])
    finally:
        lib.mpidbg_describe_clear(byref(out))


def fortran_to_c(session, kind, fortran_value):
    """The C handle of a Fortran INTEGER handle, through the plugin's *_f2c."""
    lib, target = _require(session)
    c_value = c_uint64(0)
    error = c_void_p()
    rc = lib.mpidbg_describe_fortran_to_c(byref(target), kind.encode(),
                                          fortran_value & 0xFFFFFFFFFFFFFFFF, byref(c_value),
                                          byref(error))
    if rc != 0:
        _fail(lib, rc, error)
    return c_value.value
