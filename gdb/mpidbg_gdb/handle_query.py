"""Handle queries through the handle interface, results copied into Python objects.

A query's result is allocated with our mqs_malloc (libc malloc). The memory rule: free
every non-NULL pointer member (for arrays of structures holding strings, each string
first), then the structure. `_release` does that by walking the ctypes type, so no
member can be forgotten when a structure grows.
"""

import ctypes
from types import SimpleNamespace

from . import abi_handles as H
from .callbacks import libc_free

# Query functions per kind: the richest first.
KIND_QUERIES = {
    "comm": ("mpidbg_comm_query_ext", "mpidbg_comm_query"),
    "request": ("mpidbg_request_query_ext", "mpidbg_request_query"),
    "status": ("mpidbg_status_query_ext", "mpidbg_status_query"),
    "datatype": ("mpidbg_datatype_query",),
    "group": ("mpidbg_group_query",),
    "op": ("mpidbg_op_query",),
    "errhandler": ("mpidbg_errhandler_query",),
    "info": ("mpidbg_info_query",),
    "win": ("mpidbg_win_query",),
    "file": ("mpidbg_file_query",),
    "message": ("mpidbg_message_query",),
}

KIND_NUMBERS = {"comm": H.KIND_COMM, "request": H.KIND_REQUEST, "datatype": H.KIND_DATATYPE,
                "group": H.KIND_GROUP, "op": H.KIND_OP, "errhandler": H.KIND_ERRHANDLER,
                "info": H.KIND_INFO, "win": H.KIND_WIN, "file": H.KIND_FILE,
                "message": H.KIND_MESSAGE}

# Array member -> the member of the same structure holding its length.
ARRAY_COUNTS = {
    "comm_local_procs": "comm_num_local_procs",
    "comm_remote_procs": "comm_num_remote_procs",
    "comm_cart_dims": "comm_cart_num_dims",
    "comm_cart_periods": "comm_cart_num_dims",
    "comm_graph_index": "comm_graph_num_nodes",
    "comm_attrs": "comm_num_attrs",
    "comm_pending_requests": "comm_num_pending_requests",
    "comm_derived_windows": "comm_num_derived_windows",
    "comm_derived_files": "comm_num_derived_files",
    "eh_handles": "eh_refcount",
    "dist_sources": "dist_num_sources",
    "dist_destinations": "dist_num_destinations",
    "dt_integers": "dt_num_integers",
    "dt_addresses": "dt_num_addresses",
    "dt_datatypes": "dt_num_datatypes",
    "dt_map": "dt_map_length",
    "group_procs": "group_size",
    "group_args": "group_num_args",
    "info_pairs": "info_num_pairs",
    "win_target_locks": "win_num_target_locks",
    "win_access_group": "win_num_access_group",
    "win_exposure_group": "win_num_exposure_group",
    "win_regions": "win_num_regions",
    "win_pending_requests": "win_num_pending_requests",
    "file_pending_requests": "file_num_pending_requests",
}

# No array is believed longer than this, whatever its count says.
MAX_ELEMENTS = 1 << 20


class QueryError(Exception):
    """A query that did not answer: `code` is the MPIDBG_* code or None."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


def _count(struct, field):
    """Elements of array member `field` of `struct`, None when the header gives none."""
    if field == "comm_graph_edges":
        # MPI graph convention: edges = index[nnodes - 1].
        nodes = struct.comm_graph_num_nodes
        if nodes <= 0 or not struct.comm_graph_index:
            return 0
        return struct.comm_graph_index[nodes - 1]
    name = ARRAY_COUNTS.get(field)
    if name is None:
        return None
    return max(0, min(int(getattr(struct, name)), MAX_ELEMENTS))


def _is_char_array(ctype):
    return issubclass(ctype, ctypes.Array) and ctype._type_ is ctypes.c_char


def _is_pointer(ctype):
    return issubclass(ctype, ctypes._Pointer)


def _string_at(address):
    return ctypes.string_at(address).decode("utf-8", "replace") if address else None


class Address(int):
    """An mqs_taddr_t value (a target address or handle): shown in hex."""


def _element(value, is_address):
    if isinstance(value, ctypes.Structure):
        return to_python(value)
    return Address(value) if is_address else value


def to_python(struct):
    """A ctypes result structure as a SimpleNamespace of Python values (arrays as
    lists, char arrays and string pointers as str)."""
    out = SimpleNamespace()
    for name, ctype in struct._fields_:
        value = getattr(struct, name)
        if _is_char_array(ctype):
            raw = bytes(value)
            cut = raw.find(b"\0")
            value = (raw if cut < 0 else raw[:cut]).decode("utf-8", "replace")
        elif issubclass(ctype, ctypes.Structure):
            value = to_python(value)
        elif _is_pointer(ctype):
            n = _count(struct, name)
            if not value or n is None:
                value = [] if n is not None else None
            else:
                address = name in H.TADDR_FIELDS
                value = [_element(value[i], address) for i in range(n)]
        elif name in H.TADDR_FIELDS:
            value = Address(value)
        elif ctype is ctypes.c_void_p:
            # Only the pair structures hold c_void_p: they are strings.
            value = _string_at(value)
        setattr(out, name, value)
    return out


def _release_members(struct):
    for name, ctype in struct._fields_:
        value = getattr(struct, name)
        if issubclass(ctype, ctypes.Structure):
            _release_members(value)
        elif _is_pointer(ctype) and value:
            element = ctype._type_
            if issubclass(element, ctypes.Structure) and any(
                    t is ctypes.c_void_p for _, t in element._fields_):
                for i in range(_count(struct, name) or 0):
                    for member, t in element._fields_:
                        if t is ctypes.c_void_p:
                            libc_free(getattr(value[i], member))
            libc_free(ctypes.cast(value, ctypes.c_void_p).value)


def _release(pointer):
    """Frees a result the way the interface's memory rule says."""
    if not pointer:
        return
    _release_members(pointer.contents)
    libc_free(ctypes.cast(pointer, ctypes.c_void_p).value)


def query(session, kind, handle, max_map_entries=0):
    """The decoded result of the richest query available for `kind`, as a namespace
    with `query` set to the function's name. Raises QueryError."""
    plugin, image, process = session.require_handles()
    names = KIND_QUERIES.get(kind)
    if names is None:
        raise QueryError("no query for handle kind '%s'" % kind)
    available = [n for n in names if n in plugin.queries]
    if not available:
        raise QueryError("the plugin has no %s" % names[-1], H.MPIDBG_ERR_NOT_SUPPORTED)
    name = available[0]
    fn, struct = plugin.queries[name]
    out = ctypes.POINTER(struct)()
    args = [image, session.image_info(), process, session.process_info(),
            handle & 0xFFFFFFFFFFFFFFFF]
    if name == "mpidbg_datatype_query":
        args.append(max_map_entries)
    rc = fn(*args, ctypes.byref(out))
    if rc != H.MPIDBG_SUCCESS:
        _release(out)
        raise QueryError("%s: %s" % (name, H.RETURN_CODE_TEXT.get(rc, "error %d" % rc)), rc)
    if not out:
        raise QueryError("%s returned no result" % name, H.MPIDBG_ERR_UNAVAILABLE)
    try:
        result = to_python(out.contents)
    finally:
        _release(out)
    result.query = name
    return result


def name_map(session, kind):
    """{handle: name} of the predefined handles of one kind ({} when not available)."""
    plugin, image, process = session.require_handles()
    if plugin.mpidbg_name_map_query is None or kind not in KIND_NUMBERS:
        return {}
    out = ctypes.POINTER(H.mpidbg_name_map_t)()
    rc = plugin.mpidbg_name_map_query(image, session.image_info(), process,
                                      session.process_info(), KIND_NUMBERS[kind],
                                      ctypes.byref(out))
    names = {}
    if rc != H.MPIDBG_SUCCESS or not out:
        return names
    i = 0
    while i < MAX_ELEMENTS and out[i].map_name:
        names[out[i].map_handle] = _string_at(out[i].map_name)
        libc_free(out[i].map_name)
        i += 1
    libc_free(ctypes.cast(out, ctypes.c_void_p).value)
    return names


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
