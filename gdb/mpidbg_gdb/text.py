"""Words for the numbers the plugin returns: ranks, tags, modes, states, rank lists."""

RANK_ANY_SOURCE = -1
RANK_PROC_NULL = -2
RANK_UNKNOWN = -3
TAG_ANY = -1

MODE_NAMES = {0: None, 1: "standard", 2: "synchronous", 3: "buffered", 4: "ready"}
OP_STATUS_NAMES = {0: "pending", 1: "matched", 2: "complete"}
DIRECTION_NAMES = {1: "send", 2: "recv", 3: "probe", 4: "collective", 5: "RMA", 6: "file",
                   7: "generalized"}
THREAD_STATE_NAMES = {0: "not in MPI", 1: "in", 2: "blocked in"}
THREAD_LEVEL_NAMES = {0: "MPI_THREAD_SINGLE", 1: "MPI_THREAD_FUNNELED",
                      2: "MPI_THREAD_SERIALIZED", 3: "MPI_THREAD_MULTIPLE"}
PROCESS_STATE_NAMES = {0: "before MPI_Init", 1: "running", 2: "finalized"}
FLAVOUR_NAMES = {0: "unknown", 1: "MPICH", 2: "Open MPI"}
LAUNCHER_NAMES = {0: "unknown", 1: "singleton", 2: "hydra", 3: "orte", 4: "prrte", 5: "slurm"}
WIN_FLAVOR_NAMES = {1: "create", 2: "allocate", 3: "shared", 4: "dynamic"}
WIN_EPOCH_NAMES = {0: "none", 1: "fence", 2: "lock", 3: "lock_all", 4: "start", 5: "post"}
COMBINER_NAMES = {0: "unknown", 1: "named", 2: "dup", 3: "contiguous", 4: "vector",
                  5: "hvector", 6: "indexed", 7: "hindexed", 8: "indexed_block",
                  9: "hindexed_block", 10: "struct", 11: "subarray", 12: "darray",
                  13: "f90_real", 14: "f90_complex", 15: "f90_integer", 16: "resized"}


def rank(value):
    if value == RANK_ANY_SOURCE:
        return "ANY_SOURCE"
    if value == RANK_PROC_NULL:
        return "PROC_NULL"
    if value == RANK_UNKNOWN or value < 0:
        return "?"
    return str(value)


def tag(value):
    return "ANY_TAG" if value == TAG_ANY else str(value)


def hexa(value):
    return "0x%x" % (value & 0xFFFFFFFFFFFFFFFF)


def rank_list(ranks):
    """[0,1,2,5] -> '0-2,5'."""
    out = []
    i = 0
    ranks = list(ranks)
    while i < len(ranks):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] == ranks[j] + 1:
            j += 1
        out.append(str(ranks[i]) if j == i else "%d-%d" % (ranks[i], ranks[j]))
        i = j + 1
    return ",".join(out)


def plain_list(values, limit=16):
    """[1,3] -> '1,3', cut after `limit` entries."""
    values = list(values)
    shown = ",".join(str(v) for v in values[:limit])
    return shown + (",..." if len(values) > limit else "")


def operation(op, text_of):
    """One mpidbg_operation_info as a line (text_of decodes char arrays)."""
    is_send = op.direction == 1
    out = "%s(%s=%s" % (text_of(op.call_name) or "?", "dest" if is_send else "source",
                        rank(op.peer))
    if op.peer_world >= 0 and op.peer_world != op.peer:
        out += " [world %d]" % op.peer_world
    out += ", tag=%s" % tag(op.tag)
    comm = text_of(op.comm_name)
    if comm:
        out += ", comm=%s" % comm
    out += ") %d bytes" % op.bytes
    dtype = text_of(op.datatype_name)
    if dtype:
        out += " %s x%d" % (dtype, op.count)
    out += ", " + OP_STATUS_NAMES.get(op.status, "?")
    mode = MODE_NAMES.get(op.mode)
    if mode and mode != "standard":
        out += ", " + mode
    if op.request:
        out += ", request " + hexa(op.request)
    if op.blocking:
        out += ", blocking"
    return out
