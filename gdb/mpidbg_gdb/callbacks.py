"""Every callback of mqs_interface.h, implemented over gdb's API.

The plugin calls these from C through ctypes. A Python exception must never travel
back into C (ctypes would print it and hand C a zero it may take for success), so each
callback body runs under `_guarded`, which turns any exception into the callback's
error value.

The opaque debugger objects (mqs_image*, mqs_process*, mqs_type*) are small integers
we hand out; the tables below map them back to Python objects.
"""

import ctypes
import os
import sys

import gdb

from . import abi_mqs as A
from . import target_access

# Our own error codes for mqs_errorstring (the plugin's start at mqs_first_user_code
# in its own table; these only travel through our errorstring callback).
ERR_BAD_ARGS = 1001
ERR_READ_FAILED = 1002
ERR_INTERNAL = 1003
_ERROR_TEXT = {
    ERR_BAD_ARGS: "gdb: bad arguments to a callback",
    ERR_READ_FAILED: "gdb: target memory could not be read",
    ERR_INTERNAL: "gdb: internal error in the mpidbg extension",
}

_libc = ctypes.CDLL(None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]
_libc.free.restype = None
_libc.free.argtypes = [ctypes.c_void_p]


def libc_free(address):
    """Frees memory the plugin allocated through our mqs_malloc."""
    if address:
        _libc.free(address)


class ImageState:
    """The program image an mqs_image stands for: gdb's program space."""

    def __init__(self, progspace):
        self.progspace = progspace
        self.info = None
        self.types = {}  # type id -> gdb.Type


class ProcessState:
    """The process an mqs_process stands for: one gdb inferior."""

    def __init__(self, inferior_num, image_id):
        self.inferior_num = inferior_num
        self.image_id = image_id
        self.info = None
        self.global_rank = -1
        self.big_endian = target_access.target_is_big_endian()


def _guarded(default):
    """Runs a callback body; any exception becomes `default` and a debug note."""

    def wrap(fn):
        def run(*args):
            try:
                return fn(*args)
            except BaseException as exc:  # noqa: BLE001 - nothing may reach C
                try:
                    if os.environ.get("MPIDBG_DEBUG"):
                        sys.stderr.write("mpidbg: callback %s failed: %r\n" % (fn.__name__, exc))
                except BaseException:  # noqa: BLE001
                    pass
                return default
        run.__name__ = fn.__name__
        return run

    return wrap


def _key(ptr):
    """The integer id behind an opaque pointer argument (None for NULL)."""
    return int(ptr) if ptr else None


class Callbacks:
    """The three callback tables and the objects they refer to."""

    def __init__(self):
        self.images = {}
        self.processes = {}
        self.types = {}  # type id -> gdb.Type (ids are unique across images)
        self._next_id = 1
        self._error_buffers = {}
        self.dll_messages = []
        self.basic = A.mqs_basic_callbacks(
            A.mqs_malloc_ft(self._malloc),
            A.mqs_free_ft(self._free),
            A.mqs_dprints_ft(self._dprints),
            A.mqs_errorstring_ft(self._errorstring),
            A.mqs_put_image_info_ft(self._put_image_info),
            A.mqs_get_image_info_ft(self._get_image_info),
            A.mqs_put_process_info_ft(self._put_process_info),
            A.mqs_get_process_info_ft(self._get_process_info),
        )
        self.image = A.mqs_image_callbacks(
            A.mqs_get_type_sizes_ft(self._get_type_sizes),
            A.mqs_find_function_ft(self._find_function),
            A.mqs_find_symbol_ft(self._find_symbol),
            A.mqs_find_type_ft(self._find_type),
            A.mqs_field_offset_ft(self._field_offset),
            A.mqs_sizeof_ft(self._sizeof),
        )
        self.process = A.mqs_process_callbacks(
            A.mqs_get_global_rank_ft(self._get_global_rank),
            A.mqs_get_image_ft(self._get_image),
            A.mqs_fetch_data_ft(self._fetch_data),
            A.mqs_target_to_host_ft(self._target_to_host),
        )

    # ---- object tables -------------------------------------------------------------

    def new_id(self):
        ident = self._next_id
        self._next_id += 1
        return ident

    def add_image(self, progspace):
        ident = self.new_id()
        self.images[ident] = ImageState(progspace)
        return ident

    def add_process(self, inferior_num, image_id):
        ident = self.new_id()
        self.processes[ident] = ProcessState(inferior_num, image_id)
        return ident

    def _process(self, ptr):
        return self.processes.get(_key(ptr))

    # ---- basic ---------------------------------------------------------------------

    @_guarded(None)
    def _malloc(self, size):
        return _libc.malloc(size if size > 0 else 1)

    @_guarded(None)
    def _free(self, ptr):
        if ptr:
            _libc.free(ptr)

    @_guarded(None)
    def _dprints(self, text):
        if text is None:
            return
        message = text.decode("utf-8", "replace").rstrip("\n")
        # Kept for `mpi info`; shown at once only when asked for.
        self.dll_messages = (self.dll_messages + [message])[-50:]
        if os.environ.get("MPIDBG_DEBUG"):
            gdb.write("mpidbg: plugin: %s\n" % message, gdb.STDERR)

    @_guarded(None)
    def _errorstring(self, code):
        buf = self._error_buffers.get(code)
        if buf is None:
            text = _ERROR_TEXT.get(code, "gdb: error %d" % code)
            buf = ctypes.create_string_buffer(text.encode())
            self._error_buffers[code] = buf
        return ctypes.addressof(buf)

    @_guarded(None)
    def _put_image_info(self, image, info):
        state = self.images.get(_key(image))
        if state is not None:
            state.info = info

    @_guarded(None)
    def _get_image_info(self, image):
        state = self.images.get(_key(image))
        return state.info if state is not None else None

    @_guarded(None)
    def _put_process_info(self, process, info):
        state = self._process(process)
        if state is not None:
            state.info = info

    @_guarded(None)
    def _get_process_info(self, process):
        state = self._process(process)
        return state.info if state is not None else None

    # ---- image ---------------------------------------------------------------------

    @_guarded(None)
    def _get_type_sizes(self, process, sizes):
        if not sizes:
            return
        values = target_access.type_sizes()
        s = sizes.contents
        (s.short_size, s.int_size, s.long_size, s.long_long_size, s.pointer_size,
         s.bool_size, s.size_t_size) = values

    def _find_address(self, image, name, addr):
        if _key(image) not in self.images or name is None:
            return ERR_BAD_ARGS
        found = target_access.symbol_address(name.decode("utf-8", "replace"))
        if found is None:
            return A.MQS_NO_INFORMATION
        if addr:
            addr[0] = found
        return A.MQS_OK

    @_guarded(ERR_INTERNAL)
    def _find_function(self, image, name, _lang, addr):
        return self._find_address(image, name, addr)

    @_guarded(ERR_INTERNAL)
    def _find_symbol(self, image, name, addr):
        return self._find_address(image, name, addr)

    @_guarded(None)
    def _find_type(self, image, name, _lang):
        state = self.images.get(_key(image))
        if state is None or name is None:
            return None
        gdb_type = target_access.lookup_type(name.decode("utf-8", "replace"))
        if gdb_type is None:
            return None
        for ident, known in state.types.items():
            if known == gdb_type:
                return ident
        ident = self.new_id()
        state.types[ident] = gdb_type
        self.types[ident] = gdb_type
        return ident

    @_guarded(-1)
    def _field_offset(self, type_ptr, field):
        gdb_type = self.types.get(_key(type_ptr))
        if gdb_type is None or field is None:
            return -1
        return target_access.field_offset(gdb_type, field.decode("utf-8", "replace"))

    @_guarded(-1)
    def _sizeof(self, type_ptr):
        gdb_type = self.types.get(_key(type_ptr))
        return gdb_type.sizeof if gdb_type is not None else -1

    # ---- process -------------------------------------------------------------------

    @_guarded(-1)
    def _get_global_rank(self, process):
        state = self._process(process)
        return state.global_rank if state is not None else -1

    @_guarded(None)
    def _get_image(self, process):
        state = self._process(process)
        return state.image_id if state is not None else None

    @_guarded(ERR_INTERNAL)
    def _fetch_data(self, process, addr, size, buf):
        state = self._process(process)
        if state is None or size < 0 or (size > 0 and not buf):
            return ERR_BAD_ARGS
        if size == 0:
            return A.MQS_OK
        inferior = target_access.inferior_by_num(state.inferior_num)
        if inferior is None:
            return ERR_BAD_ARGS
        try:
            data = target_access.read_memory(inferior, addr, size)
        except (gdb.MemoryError, gdb.error, OverflowError, ValueError):
            return ERR_READ_FAILED
        if len(data) != size:
            return ERR_READ_FAILED
        ctypes.memmove(buf, data, size)
        return A.MQS_OK

    @_guarded(None)
    def _target_to_host(self, process, src, dst, size):
        if not src or not dst or size <= 0:
            return
        state = self._process(process)
        data = ctypes.string_at(src, size)
        if state is not None and state.big_endian != (sys.byteorder == "big"):
            data = data[::-1]
        ctypes.memmove(dst, data, size)
