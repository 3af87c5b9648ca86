"""One-line summaries and child lists of decoded handles (handle_query results).

Summaries read like `MPI_Comm "odds" size=2 rank=0 [world 1,3]` or
`MPI_Request Isend to 3 tag 200 40 B pending`; children are named (name, value) pairs
of Python ints, strings, Address, Ranks (a list of ranks) and Texts (a list of strings)
that carry what the summary says, so an IDE's variable view (gdb/MI shows any value
with children as "{...}") loses nothing when it expands a handle.
"""

from . import abi_handles as H
from .handle_query import Address
from . import text as T


class Ranks(list):
    """A child that is a list of ranks: an int array an IDE expands."""


class Texts(list):
    """A child that is a list of strings (a type map): a string array an IDE expands."""


def _short_call(name):
    return name[4:] if name.startswith("MPI_") else name


def _object_state(bits, null_word):
    """Trailing words for the bits every kind shares."""
    words = []
    if bits & H.HANDLE_NULL:
        words.append(null_word)
    # As `mpidbg handle` says it: the record is still kept (an orphan), whether or not
    # MPI's own object is gone.
    if bits & H.HANDLE_FREED_HANDLE:
        words.append("freed (handle and object)" if bits & H.HANDLE_FREED_OBJECT
                     else "freed by the application (a stale handle)")
    return words


def _join(*parts):
    return " ".join(p for p in parts if p)


def _ranks(procs):
    return [p.mpi_comm_world_rank for p in procs or []]


def _quoted(name):
    return '"%s"' % name if name else ""


# ---- communicator ------------------------------------------------------------------

def _comm_base(r):
    return r.base if hasattr(r, "base") else r


def comm_summary(r):
    b = _comm_base(r)
    bits = b.comm_bitflags
    if bits & H.COMM_INFO_COMM_NULL:
        return "MPI_Comm MPI_COMM_NULL"
    out = _join("MPI_Comm", _quoted(b.comm_name), "size=%d" % b.comm_size,
                "rank=%s" % T.rank(b.comm_rank))
    ranks = _ranks(b.comm_local_procs)
    if ranks:
        out += " [world %s]" % T.plain_list(ranks)
    if bits & H.COMM_INFO_INTERCOMM:
        out += " inter remote [world %s]" % T.plain_list(_ranks(b.comm_remote_procs))
    topo = [w for bit, w in ((H.COMM_INFO_CARTESIAN, "cart"), (H.COMM_INFO_GRAPH, "graph"),
                             (H.COMM_INFO_DIST_GRAPH, "dist_graph")) if bits & bit]
    words = topo + _object_state(bits, "null")
    return _join(out, *words)


def comm_children(r):
    b = _comm_base(r)
    bits = b.comm_bitflags
    yield "name", b.comm_name
    yield "kind", "inter" if bits & H.COMM_INFO_INTERCOMM else "intra"
    yield "size", b.comm_size
    yield "rank", b.comm_rank
    yield "world_ranks", Ranks(_ranks(b.comm_local_procs))
    if bits & H.COMM_INFO_INTERCOMM:
        yield "remote_world_ranks", Ranks(_ranks(b.comm_remote_procs))
    topo = [w for bit, w in ((H.COMM_INFO_CARTESIAN, "cart"), (H.COMM_INFO_GRAPH, "graph"),
                             (H.COMM_INFO_DIST_GRAPH, "dist_graph")) if bits & bit]
    yield "topology", topo[0] if topo else "none"
    if hasattr(r, "creator_name"):
        yield "creator", r.creator_name
    yield "predefined", int(bool(bits & H.HANDLE_PREDEFINED))
    yield "freed", int(bool(bits & H.COMM_INFO_FREED_HANDLE))


# ---- request -----------------------------------------------------------------------

def _request_state(bits):
    if bits & H.REQUEST_INACTIVE:
        return "inactive"
    if bits & H.REQUEST_COMPLETE:
        return "complete"
    if bits & H.REQUEST_MATCHED:
        return "matched"
    return "pending"


def request_summary(r):
    if not hasattr(r, "req_ext_bitflags"):
        bits = r.req_bitflags
        return _join("MPI_Request", "predefined" if bits & H.HANDLE_PREDEFINED else "",
                     T.hexa(r.req_c_handle))
    bits = r.req_ext_bitflags
    if bits & H.HANDLE_NULL:
        return "MPI_Request MPI_REQUEST_NULL"
    words = ["MPI_Request", _short_call(r.req_creator_name) or
             H.REQUEST_KIND_NAMES.get(r.req_kind, "request")]
    if r.req_direction == 1:
        words.append("to %s" % T.rank(r.req_peer))
    elif r.req_direction in (2, 3):
        words.append("from %s" % T.rank(r.req_peer))
    if r.req_direction in (1, 2, 3):
        if r.req_peer_world >= 0 and r.req_peer_world != r.req_peer:
            words.append("[world %d]" % r.req_peer_world)
        words.append("tag %s" % T.tag(r.req_tag))
    if r.req_bytes >= 0 and r.req_direction in (1, 2, 3, 6):
        words.append("%d B" % r.req_bytes)
    words.append(_request_state(bits))
    if bits & H.REQUEST_PERSISTENT:
        words.append("persistent")
    if r.req_comm_name:
        words.append("on " + r.req_comm_name)
    words += _object_state(bits & ~H.HANDLE_NULL, "")
    return _join(*words)


def request_children(r):
    if not hasattr(r, "req_ext_bitflags"):
        yield "handle", Address(r.req_c_handle)
        return
    yield "call", r.req_creator_name
    yield "kind", H.REQUEST_KIND_NAMES.get(r.req_kind, "unknown")
    yield "state", _request_state(r.req_ext_bitflags)
    yield "peer", r.req_peer
    yield "peer_world", r.req_peer_world
    yield "tag", r.req_tag
    yield "count", r.req_count
    yield "datatype", r.req_datatype_name
    yield "bytes", r.req_bytes
    yield "buffer", Address(r.req_buffer)
    yield "comm", r.req_comm_name
    if r.req_ext_bitflags & (H.REQUEST_MATCHED | H.REQUEST_COMPLETE):
        yield "actual_source", r.req_actual_source
        yield "actual_tag", r.req_actual_tag
        yield "actual_bytes", r.req_actual_bytes
    yield "freed", int(bool(r.req_ext_bitflags & H.HANDLE_FREED_HANDLE))


# ---- status ------------------------------------------------------------------------

def status_summary(r):
    if not hasattr(r, "status_source"):
        return "MPI_Status"
    out = "MPI_Status source=%s tag=%s error=%d" % (T.rank(r.status_source),
                                                   T.tag(r.status_tag), r.status_error)
    if r.status_bytes >= 0:
        out += " %d B" % r.status_bytes
    if r.status_cancelled == 1:
        out += " cancelled"
    return out


def status_children(r):
    if not hasattr(r, "status_source"):
        return
    yield "source", r.status_source
    yield "tag", r.status_tag
    yield "error", r.status_error
    yield "bytes", r.status_bytes
    yield "cancelled", r.status_cancelled


# ---- datatype ----------------------------------------------------------------------

def map_entry_text(e):
    return "%s x%d @%d" % (e.basic_name or T.hexa(e.basic_type), e.count, e.displacement)


def datatype_summary(r):
    bits = r.dt_bitflags
    if bits & H.HANDLE_NULL:
        return "MPI_Datatype MPI_DATATYPE_NULL"
    combiner = T.COMBINER_NAMES.get(r.dt_combiner, "")
    if bits & H.HANDLE_PREDEFINED or combiner == "named":
        combiner = ""
    out = _join("MPI_Datatype", _quoted(r.dt_name), combiner,
                "size=%d extent=%d" % (r.dt_size, r.dt_extent))
    kinds = {}
    for e in r.dt_map or []:
        kinds[e.basic_name] = kinds.get(e.basic_name, 0) + e.count
    if kinds and not bits & H.HANDLE_PREDEFINED:
        out += " [%s]" % ", ".join("%d x %s" % (n, name) for name, n in kinds.items())
    words = []
    if not bits & H.HANDLE_PREDEFINED and not bits & H.DATATYPE_COMMITTED:
        words.append("uncommitted")
    if bits & H.DATATYPE_MAP_TRUNCATED:
        words.append("map truncated")
    return _join(out, *(words + _object_state(bits, "")))


def datatype_children(r):
    bits = r.dt_bitflags
    yield "name", r.dt_name
    yield "combiner", T.COMBINER_NAMES.get(r.dt_combiner, "?")
    yield "creator", r.dt_creator_name
    yield "size", r.dt_size
    yield "extent", r.dt_extent
    yield "committed", int(bool(bits & (H.DATATYPE_COMMITTED | H.HANDLE_PREDEFINED)))
    # One entry per run of basic elements.
    yield "type_map", Texts(map_entry_text(e) for e in r.dt_map or [])
    if bits & H.DATATYPE_MAP_TRUNCATED:
        yield "type_map_truncated", 1
    yield "freed", int(bool(bits & H.HANDLE_FREED_HANDLE))


# ---- group -------------------------------------------------------------------------

def group_summary(r):
    bits = r.group_bitflags
    if bits & H.HANDLE_NULL:
        return "MPI_Group MPI_GROUP_NULL"
    out = _join("MPI_Group", _quoted(r.group_name), "size=%d" % r.group_size,
                "rank=%s" % ("none" if r.group_rank < 0 else r.group_rank))
    ranks = _ranks(r.group_procs)
    if ranks:
        out += " [world %s]" % T.plain_list(ranks)
    return _join(out, *_object_state(bits, ""))


def group_children(r):
    yield "name", r.group_name
    yield "size", r.group_size
    yield "rank", r.group_rank
    yield "world_ranks", Ranks(_ranks(r.group_procs))
    yield "creator", r.group_creator_name
    yield "freed", int(bool(r.group_bitflags & H.HANDLE_FREED_HANDLE))


# ---- op, errhandler ----------------------------------------------------------------

def op_summary(r):
    bits = r.op_bitflags
    if bits & H.HANDLE_NULL:
        return "MPI_Op MPI_OP_NULL"
    words = ["MPI_Op", r.op_name or "user"]
    if not bits & H.HANDLE_PREDEFINED:
        words.append("commutative" if bits & H.OP_INFO_COMMUTATIVE else "non-commutative")
        if r.op_callback_func:
            words.append("fn=" + T.hexa(r.op_callback_func))
    return _join(*(words + _object_state(bits, "")))


def op_children(r):
    yield "name", r.op_name
    yield "commutative", int(bool(r.op_bitflags & H.OP_INFO_COMMUTATIVE))
    yield "function", Address(r.op_callback_func)
    yield "freed", int(bool(r.op_bitflags & H.HANDLE_FREED_HANDLE))


def errhandler_summary(r):
    bits = r.eh_bitflags
    words = ["MPI_Errhandler", r.eh_name or "user"]
    for bit, word in ((H.ERRH_INFO_COMMUNICATOR, "comm"), (H.ERRH_INFO_WINDOW, "win"),
                      (H.ERRH_INFO_FILE, "file")):
        if bits & bit and not bits & H.ERRH_INFO_PREDEFINED:
            words.append(word)
    if r.eh_callback_func and not bits & H.ERRH_INFO_PREDEFINED:
        words.append("fn=" + T.hexa(r.eh_callback_func))
    if bits & H.ERRH_INFO_FREED_HANDLE:
        words.append("freed")
    return _join(*words)


def errhandler_children(r):
    yield "name", r.eh_name
    yield "function", Address(r.eh_callback_func)
    yield "attached_to", len(r.eh_handles or [])
    yield "freed", int(bool(r.eh_bitflags & H.ERRH_INFO_FREED_HANDLE))


# ---- info --------------------------------------------------------------------------

def info_summary(r):
    bits = r.info_bitflags
    if bits & H.HANDLE_NULL:
        return "MPI_Info MPI_INFO_NULL"
    pairs = r.info_pairs or []
    shown = ", ".join("%s=%s" % (p.key, p.value) for p in pairs[:8])
    out = "MPI_Info %d key%s {%s%s}" % (r.info_num_pairs, "" if r.info_num_pairs == 1 else "s",
                                        shown, ", ..." if len(pairs) > 8 else "")
    return _join(out, *_object_state(bits, ""))


def info_children(r):
    """One child per key, named by it."""
    yield "keys", r.info_num_pairs
    for p in r.info_pairs or []:
        yield p.key or "(empty key)", p.value or ""
    yield "freed", int(bool(r.info_bitflags & H.HANDLE_FREED_HANDLE))


# ---- window, file, message ---------------------------------------------------------

def win_summary(r):
    bits = r.win_bitflags
    if bits & H.HANDLE_NULL:
        return "MPI_Win MPI_WIN_NULL"
    words = ["MPI_Win", _quoted(r.win_name), T.WIN_FLAVOR_NAMES.get(r.win_flavor, ""),
             "size=%d disp_unit=%d" % (r.win_size, r.win_disp_unit),
             "comm size %d" % r.win_comm_size]
    epochs = [T.WIN_EPOCH_NAMES.get(e, "?") for e in (r.win_access_epoch, r.win_exposure_epoch)
              if e]
    words.append("epoch " + "/".join(epochs) if epochs else "no epoch")
    return _join(*(words + _object_state(bits, "")))


def win_children(r):
    yield "name", r.win_name
    yield "flavor", T.WIN_FLAVOR_NAMES.get(r.win_flavor, "?")
    yield "base", Address(r.win_base)
    yield "size", r.win_size
    yield "disp_unit", r.win_disp_unit
    yield "comm_size", r.win_comm_size
    yield "access_epoch", T.WIN_EPOCH_NAMES.get(r.win_access_epoch, "?")
    yield "exposure_epoch", T.WIN_EPOCH_NAMES.get(r.win_exposure_epoch, "?")
    yield "fences", r.win_fence_count
    yield "rma_operations", r.win_rma_count
    yield "freed", int(bool(r.win_bitflags & H.HANDLE_FREED_HANDLE))


def file_summary(r):
    bits = r.file_bitflags
    if bits & H.HANDLE_NULL:
        return "MPI_File MPI_FILE_NULL"
    words = ["MPI_File", _quoted(r.file_name), "amode=0x%x" % r.file_amode]
    if r.file_datarep:
        words.append("datarep " + r.file_datarep)
    return _join(*(words + _object_state(bits, "")))


def file_children(r):
    yield "name", r.file_name
    yield "amode", r.file_amode
    yield "view_disp", r.file_view_disp
    yield "datarep", r.file_datarep
    yield "pending_requests", len(r.file_pending_requests or [])


def message_summary(r):
    bits = r.msg_bitflags
    if bits & H.HANDLE_NULL:
        return "MPI_Message MPI_MESSAGE_NULL"
    if bits & H.MESSAGE_INFO_NO_PROC:
        return "MPI_Message MPI_MESSAGE_NO_PROC"
    words = ["MPI_Message", "from %s" % T.rank(r.msg_source), "tag %s" % T.tag(r.msg_tag),
             "%d B" % r.msg_bytes]
    if bits & H.MESSAGE_INFO_RECEIVED:
        words.append("received")
    return _join(*(words + _object_state(bits, "")))


def message_children(r):
    yield "source", r.msg_source
    yield "source_world", r.msg_source_world
    yield "tag", r.msg_tag
    yield "bytes", r.msg_bytes
    yield "received", int(bool(r.msg_bitflags & H.MESSAGE_INFO_RECEIVED))


# kind -> (summary, children, display hint)
KINDS = {
    "comm": (comm_summary, comm_children, None),
    "request": (request_summary, request_children, None),
    "status": (status_summary, status_children, None),
    "datatype": (datatype_summary, datatype_children, None),
    "group": (group_summary, group_children, None),
    "op": (op_summary, op_children, None),
    "errhandler": (errhandler_summary, errhandler_children, None),
    "info": (info_summary, info_children, None),
    "win": (win_summary, win_children, None),
    "file": (file_summary, file_children, None),
    "message": (message_summary, message_children, None),
}


def freed(kind, r):
    """True when the application freed the handle (the result describes its orphan)."""
    if kind == "comm":
        return bool(_comm_base(r).comm_bitflags & H.COMM_INFO_FREED_HANDLE)
    if kind == "errhandler":
        return bool(r.eh_bitflags & H.ERRH_INFO_FREED_HANDLE)
    for field in ("req_ext_bitflags", "dt_bitflags", "group_bitflags", "op_bitflags",
                  "info_bitflags", "win_bitflags", "file_bitflags", "msg_bitflags"):
        if hasattr(r, field):
            return bool(getattr(r, field) & H.HANDLE_FREED_HANDLE)
    return False


def is_null(kind, r):
    """True for the kind's null handle (MPI_COMM_NULL, MPI_REQUEST_NULL, ...)."""
    if kind == "comm":
        return bool(_comm_base(r).comm_bitflags & H.COMM_INFO_COMM_NULL)
    for field in ("req_ext_bitflags", "dt_bitflags", "group_bitflags", "op_bitflags",
                  "info_bitflags", "win_bitflags", "file_bitflags", "msg_bitflags"):
        if hasattr(r, field):
            return bool(getattr(r, field) & H.HANDLE_NULL)
    return False
