"""`mpi info`: the process, the launcher/PMI view and the MPI_T catalogue."""

from ctypes import byref

from . import abi_mqs as A
from . import text as T
from .report_queues import process_line

MAX_VARIABLES = 100000
SOURCE_NAMES = [(0x1, "PMI"), (0x2, "PMIx"), (0x4, "Open MPI"), (0x8, "Slurm"), (0x10, "MPI")]


def _known(value):
    return "?" if value < 0 else str(value)


DAMAGE_PARTS = [("records_torn", "record torn", "records torn"),
                ("records_bad", "record malformed", "records malformed"),
                ("tables_damaged", "table cut short", "tables cut short"),
                ("rings_damaged", "flight ring unreadable", "flight rings unreadable"),
                ("live_unreadable", "thread's live state unreadable",
                 "threads' live state unreadable")]


def damage_line(s):
    """What the plugin's walk left out, as the host says it; None for a whole view (or a
    plugin that does not count it)."""
    if s.size < A.mpidbg_process_summary.reserved5.offset:
        return None
    parts = []
    for field, one, many in DAMAGE_PARTS:
        n = getattr(s, field)
        if n:
            parts.append("%d %s" % (n, one if n == 1 else many))
    if not parts:
        return None
    return ("  PARTIAL VIEW: the runtime's records could not all be read (%s); operations, "
            "threads or objects may be missing" % ", ".join(parts))


def process_section(session):
    out = [process_line(session)]
    s = session.summary()
    if s is not None:
        out.append("  MPI library: %s (%s)" % (A.text(s.mpi_library) or "?",
                                               T.FLAVOUR_NAMES.get(s.flavour, "?")))
        out.append("  thread level: %s, %d thread record(s)" % (
            T.THREAD_LEVEL_NAMES.get(s.thread_level, "?"), s.thread_count))
        damage = damage_line(s)
        if damage:
            out.append(damage)
    out.append("  plugin: %s" % session.plugin.path)
    return out


def launch_section(plugin, process):
    if plugin.mpidbg_process_get_launch is None:
        return ["launcher: not reported by this plugin"]
    l = A.sized(A.mpidbg_launch_summary)
    rc = plugin.mpidbg_process_get_launch(process, byref(l))
    if rc != A.MQS_OK:
        return ["launcher: not known (%s)" % plugin.error_text(rc)]
    sources = [name for bit, name in SOURCE_NAMES if l.sources & bit]
    out = ["launcher: %s%s" % (A.text(l.launcher_name) or T.LAUNCHER_NAMES.get(l.launcher, "?"),
                               " (from %s)" % ", ".join(sources) if sources else "")]
    out.append("  rank %s of %s (MPI rank %s), local rank %s of %s, node %s" % (
        _known(l.rank), _known(l.world_size), _known(l.mpi_rank), _known(l.local_rank),
        _known(l.local_size), _known(l.node_rank)))
    out.append("  job %s, appnum %s, universe size %s, host %s, pid %s" % (
        A.text(l.job_id) or "?", _known(l.appnum), _known(l.universe_size),
        A.text(l.host) or "?", _known(l.pid)))
    if A.text(l.pmi_interface):
        out.append("  PMI interface: %s" % A.text(l.pmi_interface))
    out.append("  MPI %d.%d, thread level requested %s" % (
        l.mpi_version, l.mpi_subversion,
        T.THREAD_LEVEL_NAMES.get(l.thread_level_requested, "?")))
    if l.debug_gate_hold:
        out.append("  held in MPI_Init until a debugger sets MPIR_debug_gate")
    return out


MPIT_DOUBLE = 7  # enum mpidbg_mpit_type


def _variable_line(v):
    name = A.text(v.name)
    if v.performance:
        return "    %s" % name
    if not v.value_valid:
        return "    %s = (no value captured)" % name
    value = A.text(v.value_text)
    if not value:
        value = repr(v.value_double) if v.datatype == MPIT_DOUBLE else str(v.value_int)
    return "    %s = %s" % (name, value)


def mpit_section(plugin, process, list_variables):
    if plugin.mpidbg_mpit_read is None:
        return ["MPI_T: not reported by this plugin"]
    m = A.sized(A.mpidbg_mpit_summary)
    rc = plugin.mpidbg_mpit_read(process, byref(m))
    if rc != A.MQS_OK:
        return ["MPI_T: not captured (%s)" % plugin.error_text(rc)]
    if not m.available:
        return ["MPI_T: not available in this MPI"]
    out = ["MPI_T: %d control variables, %d performance variables, %d categories "
           "(captured %d time(s))" % (m.cvars, m.pvars, m.categories, m.refreshes)]
    if not list_variables:
        out.append("  `mpi info mpit` lists them")
        return out
    for title, count, getter in (("control variables", m.cvars, plugin.mpidbg_mpit_cvar_get),
                                 ("performance variables", m.pvars,
                                  plugin.mpidbg_mpit_pvar_get)):
        if getter is None:
            continue
        out.append("  %s:" % title)
        for i in range(max(0, min(count, MAX_VARIABLES))):
            v = A.sized(A.mpidbg_mpit_variable)
            if getter(process, i, byref(v)) == A.MQS_OK:
                out.append(_variable_line(v))
    if plugin.mpidbg_mpit_category_get is not None:
        out.append("  categories:")
        for i in range(max(0, min(m.categories, MAX_VARIABLES))):
            c = A.sized(A.mpidbg_mpit_category_info)
            if plugin.mpidbg_mpit_category_get(process, i, byref(c)) == A.MQS_OK:
                out.append("    %s (%d cvars, %d pvars, %d subcategories)" % (
                    A.text(c.name), c.num_cvars, c.num_pvars, c.num_categories))
    return out


def report(session, arg=""):
    plugin, process = session.require_mqs()
    plugin.mqs_update_communicator_list(process)
    out = process_section(session)
    out += launch_section(plugin, process)
    out += mpit_section(plugin, process, arg.strip() == "mpit")
    return "\n".join(out) + "\n"
