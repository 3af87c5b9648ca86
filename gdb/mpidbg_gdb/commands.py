"""The `mpi` commands: queues, threads, info, orphans, handle, release."""

import ctypes

import gdb

from . import (abi_mqs, handle_query, report_handle, report_info, report_orphans,
               report_queues, report_threads, target_access)
from .session import NotAvailable, current

RELEASE_FUNCTION = "mpidbg_release_orphans"


def _run(report, *args):
    """Runs a report for the selected inferior; every failure is one gdb error line."""
    try:
        gdb.write(report(current(), *args))
    except (NotAvailable, handle_query.QueryError, RuntimeError, LookupError) as exc:
        raise gdb.GdbError("mpi: %s" % exc)
    except ctypes.ArgumentError as exc:
        raise gdb.GdbError("mpi: bad call into the plugin: %s" % exc)


def _threads_in_mpi():
    """Thread ids the runtime reports inside an MPI call ([] when it cannot tell)."""
    try:
        session = current()
        plugin, process = session.require_mqs()
    except NotAvailable:
        return []
    if plugin.mpidbg_thread_count is None or plugin.mpidbg_thread_get is None:
        return []
    plugin.mqs_update_communicator_list(process)
    count = ctypes.c_int(0)
    if plugin.mpidbg_thread_count(process, ctypes.byref(count)) != abi_mqs.MQS_OK:
        return []
    busy = []
    for i in range(max(0, min(count.value, report_threads.MAX_THREADS))):
        t = abi_mqs.sized(abi_mqs.mpidbg_thread_info)
        if plugin.mpidbg_thread_get(process, i, ctypes.byref(t)) == abi_mqs.MQS_OK and t.state:
            busy.append(t.tid)
    return busy


class MpiPrefix(gdb.Command):
    """MPI state of the program, read through the mpidbg plugin.

mpi queues          communicators with their pending sends, receives, unexpected messages
mpi threads         what each thread is doing in MPI
mpi info [mpit]     the process, the launcher/PMI view, the MPI_T catalogue
mpi orphans         the runtime's orphan counters and the freed handles it keeps
mpi handle EXPR     one MPI handle (MPI_Comm, MPI_Request, ...) decoded in full
mpi release         drop the runtime's orphans (live processes only)

Works on live processes, core files and gdbserver targets of programs running under
the mpidbg runtime."""

    def __init__(self):
        super().__init__("mpi", gdb.COMMAND_DATA, gdb.COMPLETE_NONE, True)


class MpiQueues(gdb.Command):
    """Communicators with their pending sends, pending receives and unexpected messages.

Usage: mpi queues"""

    def __init__(self):
        super().__init__("mpi queues", gdb.COMMAND_DATA, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        _run(report_queues.report)


class MpiThreads(gdb.Command):
    """What each thread of the process is doing in MPI, with the operation it waits for.

Usage: mpi threads"""

    def __init__(self):
        super().__init__("mpi threads", gdb.COMMAND_DATA, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        _run(report_threads.report)


class MpiInfo(gdb.Command):
    """The process, its launcher/PMI view and the MPI_T catalogue.

Usage: mpi info [mpit]
With `mpit`, every control variable (with its captured value), performance variable
and category is listed."""

    def __init__(self):
        super().__init__("mpi info", gdb.COMMAND_DATA, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        if arg.strip() not in ("", "mpit"):
            raise gdb.GdbError("usage: mpi info [mpit]")
        _run(report_info.report, arg)


class MpiOrphans(gdb.Command):
    """The runtime's orphan counters and the freed handles it still keeps, per kind.

Usage: mpi orphans"""

    def __init__(self):
        super().__init__("mpi orphans", gdb.COMMAND_DATA, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        _run(report_orphans.report)


class MpiHandle(gdb.Command):
    """One MPI handle decoded in full by the handle interface.

Usage: mpi handle [-kind KIND] EXPR
The kind comes from EXPR's type (MPI_Comm, MPI_Request, MPI_Datatype, MPI_Group,
MPI_Win, MPI_Op, MPI_Errhandler, MPI_Info, MPI_File, MPI_Message, MPI_Status, or Open
MPI's ompi_*_t pointers); -kind names it for a plain integer or address."""

    def __init__(self):
        super().__init__("mpi handle", gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        _run(report_handle.report, arg)


class MpiRelease(gdb.Command):
    """Drops every orphan the runtime keeps, by calling mpidbg_release_orphans() in the
process. Only for a live process stopped outside MPI.

Usage: mpi release"""

    def __init__(self):
        super().__init__("mpi release", gdb.COMMAND_DATA, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        inferior = gdb.selected_inferior()
        if target_access.is_core_target(inferior):
            raise gdb.GdbError("mpi release: a core file cannot run code, so its orphans "
                               "cannot be released.")
        if inferior.pid == 0:
            raise gdb.GdbError("mpi release: there is no live process.")
        busy = _threads_in_mpi()
        if busy:
            raise gdb.GdbError("mpi release: thread(s) %s are inside MPI calls, where the "
                               "runtime may be updating its records; stop the process "
                               "outside MPI first." % ", ".join(str(t) for t in busy))
        if target_access.symbol_address(RELEASE_FUNCTION) is None:
            raise gdb.GdbError("mpi release: the process has no %s (is the mpidbg runtime "
                               "loaded?)" % RELEASE_FUNCTION)
        try:
            released = int(gdb.parse_and_eval("((int (*)(void))%s)()" % RELEASE_FUNCTION))
        except gdb.error as exc:
            raise gdb.GdbError("mpi release: calling %s failed: %s" % (RELEASE_FUNCTION, exc))
        gdb.write("released %d orphan(s)\n" % released)


def register():
    MpiPrefix()
    MpiQueues()
    MpiThreads()
    MpiInfo()
    MpiOrphans()
    MpiHandle()
    MpiRelease()
