"""`mpi queues`: communicators and their queues through the message-queue interface,
with the mpidbg_ext.h detail of each communicator and operation."""

import ctypes
from ctypes import byref

from . import abi_mqs as A
from . import text as T

_CLASSES = [(A.MQS_PENDING_SENDS, "pending sends"),
            (A.MQS_PENDING_RECEIVES, "pending receives"),
            (A.MQS_UNEXPECTED_MESSAGES, "unexpected messages")]

# A bound on every walk, whatever the plugin returns.
MAX_COMMUNICATORS = 100000
MAX_OPERATIONS = 100000


def _mqs_operation_line(op):
    """An operation from the Forum fields alone (plugins without our extension)."""
    peer = op.desired_local_rank if op.status == 0 else op.actual_local_rank
    out = "source/dest=%s, tag=%s, %d bytes, %s" % (
        T.rank(peer), "ANY_TAG" if op.tag_wild else str(op.desired_tag),
        op.desired_length, A.MQS_STATUS_NAMES.get(op.status, "?"))
    extra = [A.text(line) for line in op.extra_text if A.text(line)]
    if extra:
        out += " (" + "; ".join(extra) + ")"
    return out


def communicators(plugin, process):
    """Yields (mqs_communicator, world ranks, mpidbg_comm_detail or None, remote world
    ranks) for every communicator; the mqs iterator stands on that communicator while
    the caller runs."""
    rc = plugin.mqs_update_communicator_list(process)
    if rc != A.MQS_OK:
        raise RuntimeError(plugin.error_text(rc))
    rc = plugin.mqs_setup_communicator_iterator(process)
    count = 0
    while rc == A.MQS_OK and count < MAX_COMMUNICATORS:
        count += 1
        comm = A.mqs_communicator()
        if plugin.mqs_get_communicator(process, byref(comm)) != A.MQS_OK:
            break
        size = max(0, min(int(comm.size), 1 << 24))
        group = (ctypes.c_int * max(size, 1))()
        ranks = list(group[:size]) if plugin.mqs_get_comm_group(process, group) == A.MQS_OK \
            else []
        detail = None
        if plugin.mpidbg_comm_get_detail is not None:
            d = A.sized(A.mpidbg_comm_detail)
            if plugin.mpidbg_comm_get_detail(process, byref(d)) == A.MQS_OK:
                detail = d
        remote = []
        if detail is not None and detail.inter and plugin.mpidbg_comm_get_remote_group:
            n = max(0, min(int(detail.remote_size), 1 << 24))
            group = (ctypes.c_int * max(n, 1))()
            if plugin.mpidbg_comm_get_remote_group(process, group) == A.MQS_OK:
                remote = list(group[:n])
            # Another job's ranks (spawn, accept, connect, join): named in that job.
            if detail.remote_job and plugin.mpidbg_comm_get_remote_job_group and \
                    plugin.mpidbg_comm_get_remote_job_group(process, group) == A.MQS_OK:
                remote = RemoteJob(A.text(detail.remote_job_id), list(group[:n]))
        yield comm, ranks, detail, remote
        rc = plugin.mqs_next_communicator(process)


def operations(plugin, process, op_class):
    """(known, [line, ...]) for one queue of the current communicator."""
    rc = plugin.mqs_setup_operation_iterator(process, op_class)
    if rc != A.MQS_OK:
        return False, []
    lines = []
    while len(lines) < MAX_OPERATIONS:
        op = A.mqs_pending_operation()
        if plugin.mqs_next_operation(process, byref(op)) != A.MQS_OK:
            break
        line = None
        if plugin.mpidbg_operation_get_detail is not None:
            info = A.sized(A.mpidbg_operation_info)
            if plugin.mpidbg_operation_get_detail(process, byref(info)) == A.MQS_OK:
                line = T.operation(info, A.text)
        lines.append(line or _mqs_operation_line(op))
    return True, lines


class RemoteJob(list):
    """The remote group's world ranks in another job, with that job's launcher id."""

    def __init__(self, job_id, ranks):
        super().__init__(ranks)
        self.job_id = job_id


def comm_header(comm, ranks, detail, remote):
    name = A.text(comm.name) or "(unnamed)"
    out = 'communicator "%s" size=%d rank=%s' % (name, comm.size, T.rank(comm.local_rank))
    if ranks:
        out += " [world %s]" % T.rank_list(ranks)
    if isinstance(remote, RemoteJob):
        out += " remote [job %s world %s]" % (remote.job_id or "(unnamed)", T.rank_list(remote))
    elif remote:
        out += " remote [world %s]" % T.rank_list(remote)
    if detail is not None:
        notes = []
        if detail.inter:
            notes.append("inter, remote size %d" % detail.remote_size)
        creator = A.text(detail.creator_name)
        if detail.predefined:
            notes.append("predefined")
        elif creator:
            notes.append("from " + creator)
        notes.append("id %s" % T.hexa(detail.job_id))
        notes.append("handle %s" % T.hexa(detail.handle))
        if detail.freed:
            notes.append("freed")
        out += " (" + ", ".join(notes) + ")"
    return out


def report(session):
    plugin, process = session.require_mqs()
    out = [process_line(session)]
    for comm, ranks, detail, remote in communicators(plugin, process):
        out.append(comm_header(comm, ranks, detail, remote))
        for op_class, title in _CLASSES:
            known, lines = operations(plugin, process, op_class)
            if not known:
                out.append("  %s: not known" % title)
            elif not lines:
                out.append("  %s: none" % title)
            else:
                out.append("  %s: %d" % (title, len(lines)))
                out.extend("    " + line for line in lines)
    return "\n".join(out) + "\n"


def process_line(session):
    s = session.summary()
    where = "core file" if session.is_core else "live"
    if s is None:
        return "process (%s)" % where
    return "process %d, rank %d of %d, %s, %s (%s)" % (
        s.pid, s.world_rank, s.world_size, A.text(s.hostname) or "?",
        T.PROCESS_STATE_NAMES.get(s.process_state, "?"), where)
