"""The handle interface's listing questions (every object, the newest recorded time),
results copied into Python objects and freed with libc free (our mqs_malloc is libc
malloc). One handle is described by describer.py, not here."""

import ctypes
from types import SimpleNamespace

from . import abi_handles as H
from .callbacks import libc_free

# The kinds of handle a question can name; "status" is asked at an MPI_Status's address.
KINDS = ("comm", "request", "status", "datatype", "group", "op", "errhandler", "info", "win",
         "file", "message")

KIND_NUMBERS = {"comm": H.KIND_COMM, "request": H.KIND_REQUEST, "datatype": H.KIND_DATATYPE,
                "group": H.KIND_GROUP, "op": H.KIND_OP, "errhandler": H.KIND_ERRHANDLER,
                "info": H.KIND_INFO, "win": H.KIND_WIN, "file": H.KIND_FILE,
                "message": H.KIND_MESSAGE}


# No listing is believed longer than this, whatever its count says.
MAX_ELEMENTS = 1 << 20


class QueryError(Exception):
    """A query that did not answer: `code` is the MPIDBG_* code or None."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


KIND_NAMES = {number: name for name, number in KIND_NUMBERS.items()}
KIND_NAMES[H.KIND_SESSION] = "session"


def _field_text(raw):
    """A fixed char field (ctypes gives bytes up to the first NUL)."""
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)


def object_list(session, kind=0):
    """Every object of `kind` (an enum mpidbg_handle_kind number, 0: all) as namespaces
    (kind name, handle, name, bitflags, creator, create_time_ns, free_serial, create_pc,
    ...), through mpidbg_object_list_query. Raises QueryError when the plugin has no
    listing (older than extension version 2) or the call fails."""
    plugin, image, process = session.require_handles()
    if plugin.mpidbg_object_list_query is None:
        raise QueryError("the plugin cannot list objects (mpidbg_object_list_query)",
                         H.MPIDBG_ERR_NOT_SUPPORTED)
    count = ctypes.c_int(0)
    out = ctypes.POINTER(H.mpidbg_object_entry_t)()
    rc = plugin.mpidbg_object_list_query(image, session.image_info(), process,
                                         session.process_info(), kind, ctypes.byref(count),
                                         ctypes.byref(out))
    if rc != H.MPIDBG_SUCCESS:
        libc_free(ctypes.cast(out, ctypes.c_void_p).value)
        raise QueryError("mpidbg_object_list_query: %s" %
                         H.RETURN_CODE_TEXT.get(rc, "error %d" % rc), rc)
    entries = []
    try:
        for i in range(min(max(count.value, 0), MAX_ELEMENTS)):
            e = out[i]
            entries.append(SimpleNamespace(
                kind=KIND_NAMES.get(e.kind, "unknown"), handle=e.c_handle,
                name=_field_text(e.name), bitflags=e.bitflags,
                creator=_field_text(e.creator_name), create_time_ns=e.create_time_ns,
                create_serial=e.create_serial, free_serial=e.free_serial,
                create_pc=e.create_pc, record=e.record,
                predefined=bool(e.bitflags & H.HANDLE_PREDEFINED),
                freed=bool(e.bitflags & H.HANDLE_FREED_HANDLE),
                released=bool(e.bitflags & H.HANDLE_FREED_OBJECT)))
    finally:
        libc_free(ctypes.cast(out, ctypes.c_void_p).value)
    return entries


def latest_time(session):
    """The newest CLOCK_REALTIME the process recorded (ns), 0 when not known."""
    plugin, image, process = session.require_handles()
    if plugin.mpidbg_latest_time_query is None:
        return 0
    latest = ctypes.c_int64(0)
    rc = plugin.mpidbg_latest_time_query(image, session.image_info(), process,
                                         session.process_info(), ctypes.byref(latest))
    return latest.value if rc == H.MPIDBG_SUCCESS else 0
