"""`mpi orphans`: the runtime's orphan counters and the freed handles it keeps, per kind."""

from ctypes import byref

import gdb

from . import abi_mqs as A
from . import describer, handle_query, orphan_walk, release_request
from . import text as T
from .report_queues import process_line
from .session import NotAvailable


def counters(plugin, process):
    if plugin.mpidbg_process_get_launch is None:
        return "orphans: counters not reported by this plugin"
    l = A.sized(A.mpidbg_launch_summary)
    rc = plugin.mpidbg_process_get_launch(process, byref(l))
    if rc != A.MQS_OK:
        return "orphans: counters not known (%s)" % plugin.error_text(rc)
    return "orphans: %d kept (budget %d%s), %d evicted, %d released" % (
        l.orphan_count, l.orphan_budget, ", keep all" if l.orphan_keep_all else "",
        l.orphan_evictions, l.orphan_releases)


def _describe(session, orphan):
    """The describer's summary of an orphan (as `mpidbg handle` says it), or its handle and
    name when it cannot say."""
    try:
        return describer.describe(session, orphan.kind, orphan.handle).summary
    except (handle_query.QueryError, NotAvailable):
        return T.hexa(orphan.handle) + (' "%s"' % orphan.name if orphan.name else "")


def _release_state(inferior, big_endian):
    """", release asked (request N), pending" while the runtime has not acted on it."""
    try:
        asked, done = release_request.state(inferior, big_endian)
    except (release_request.Unavailable, gdb.MemoryError, gdb.error):
        return ""
    return ", release asked (request %d), pending" % asked if asked != done else ""


def _listed_orphans(session):
    """{kind: [Orphan]} of every kind from the handle interface's listing (kinds with
    none map to []), None when the plugin has no listing query."""
    plugin, _, _ = session.require_handles()
    if plugin.mpidbg_object_list_query is None:
        return None
    per_kind = {kind: [] for kind, *_ in orphan_walk.TABLES}
    for o in handle_query.object_list(session, 0):
        if o.freed and o.kind in per_kind:
            per_kind[o.kind].append(orphan_walk.Orphan(o.kind, o.handle, o.name, o.free_serial))
    for found in per_kind.values():
        found.sort(key=lambda o: o.free_serial)  # the order the application freed them
    return per_kind


def report(session):
    plugin, process = session.require_mqs()
    plugin.mqs_update_communicator_list(process)
    inferior = gdb.selected_inferior()
    big_endian = session.d.callbacks.processes[process].big_endian
    out = [process_line(session), counters(plugin, process) + _release_state(inferior, big_endian)]
    try:
        per_kind = _listed_orphans(session)
        if per_kind is None:  # a plugin older than the listing query
            per_kind = orphan_walk.orphans(inferior, big_endian)
    except (LookupError, gdb.MemoryError, gdb.error, handle_query.QueryError) as exc:
        out.append("freed handles: not readable (%s)" % exc)
        return "\n".join(out) + "\n"
    for kind, *_ in orphan_walk.TABLES:
        found = per_kind.get(kind)
        if found is None:
            continue
        out.append("  %s: %s" % (kind, len(found) if found else "none"))
        for o in found:
            out.append("    " + _describe(session, o))
    return "\n".join(out) + "\n"
