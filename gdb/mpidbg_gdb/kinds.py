"""Which MPI handle kind a gdb value is, from its type, and the handle value it holds.

MPICH's handles are typedefs of int (`typedef int MPI_Comm`); Open MPI's are
typedefs of pointers (`typedef struct ompi_communicator_t *MPI_Comm`). We match the
typedef names for both, and for Open MPI also pointers to the library's structures, so
a value whose typedef was lost (`struct ompi_communicator_t *`) is still recognised.
MPI_Status is a structure in both and is queried by its address.
"""

import gdb

TYPEDEF_KINDS = {
    "MPI_Comm": "comm",
    "MPI_Request": "request",
    "MPI_Datatype": "datatype",
    "MPI_Group": "group",
    "MPI_Win": "win",
    "MPI_Op": "op",
    "MPI_Errhandler": "errhandler",
    "MPI_Info": "info",
    "MPI_File": "file",
    "MPI_Message": "message",
    "MPI_Status": "status",
}

# Open MPI's structures behind its pointer handles.
OMPI_STRUCT_KINDS = {
    "ompi_communicator_t": "comm",
    "ompi_request_t": "request",
    "ompi_datatype_t": "datatype",
    "ompi_group_t": "group",
    "ompi_win_t": "win",
    "ompi_op_t": "op",
    "ompi_errhandler_t": "errhandler",
    "ompi_info_t": "info",
    "ompi_file_t": "file",
    "ompi_message_t": "message",
}

# Structure tags of MPI_Status (MPICH, Open MPI).
STATUS_STRUCTS = ("MPI_Status", "ompi_status_public_t")

KIND_TYPE_NAMES = {kind: name for name, kind in TYPEDEF_KINDS.items()}

_MAX_TYPEDEF_DEPTH = 8


def kind_of_type(gdb_type):
    """'comm', 'request', ..., 'status' or None."""
    t = gdb_type
    for _ in range(_MAX_TYPEDEF_DEPTH):
        t = t.unqualified()
        code = t.code
        if code == gdb.TYPE_CODE_TYPEDEF:
            kind = TYPEDEF_KINDS.get(t.name)
            if kind is not None:
                return kind
            t = t.target()
            continue
        if code == gdb.TYPE_CODE_PTR:
            target = t.target().unqualified()
            if target.code == gdb.TYPE_CODE_STRUCT:
                return OMPI_STRUCT_KINDS.get(target.tag)
            if target.code == gdb.TYPE_CODE_TYPEDEF:
                stripped = target.strip_typedefs()
                if stripped.code == gdb.TYPE_CODE_STRUCT:
                    return OMPI_STRUCT_KINDS.get(stripped.tag)
            return None
        if code == gdb.TYPE_CODE_STRUCT:
            return "status" if t.tag in STATUS_STRUCTS else None
        return None
    return None


def handle_of(value, kind):
    """The handle as the handle interface takes it: the int zero-extended, the pointer's
    address, or for a status the address of the variable. None if not available."""
    if kind == "status":
        address = value.address
        return int(address) if address is not None else None
    t = value.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_PTR:
        return int(value) & 0xFFFFFFFFFFFFFFFF
    if t.code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_ENUM):
        bits = 8 * t.sizeof
        return int(value) & ((1 << bits) - 1)
    return None
