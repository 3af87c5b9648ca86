"""The `mpi` commands: queues, threads, info, orphans, handle, release."""

import ctypes

import gdb

from . import (handle_query, release_request, report_handle, report_info, report_objects,
               report_orphans,
               report_queues, report_threads, target_access)
from .session import NotAvailable, current



def _run(report, *args):
    """Runs a report for the selected inferior; every failure is one gdb error line."""
    try:
        gdb.write(report(current(), *args))
    except (NotAvailable, handle_query.QueryError, RuntimeError, LookupError) as exc:
        raise gdb.GdbError("mpi: %s" % exc)
    except ctypes.ArgumentError as exc:
        raise gdb.GdbError("mpi: bad call into the plugin: %s" % exc)


class MpiPrefix(gdb.Command):
    """MPI state of the program, read through the mpidbg plugin.

mpi queues          communicators with their pending sends, receives, unexpected messages
mpi threads         what each thread is doing in MPI
mpi info [mpit]     the process, the launcher/PMI view, the MPI_T catalogue
mpi objects         every MPI object (live, freed, predefined) and where it was created
mpi orphans         the runtime's orphan counters and the freed handles it keeps
mpi handle EXPR     one MPI handle (MPI_Comm, MPI_Request, ...) decoded in full
mpi release         ask the runtime to drop its orphans (live processes only)

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


class MpiObjects(gdb.Command):
    """Every MPI object the process holds, freed and still kept, or predefined.

Usage: mpi objects [KIND] [-freed]
KIND: comm, request, datatype, group, op, errhandler, info, win, file, message, session.
Each object with its handle, name, state, the call and source line that created it and
its age (of a core: to the newest time the process recorded)."""

    def __init__(self):
        super().__init__("mpi objects", gdb.COMMAND_DATA, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        _run(report_objects.report, arg)


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
    """Asks the mpidbg runtime to release every orphan it keeps, by writing a request
into its memory: nothing is called in the process. The runtime's clock thread carries it
out once the process runs again (within 250 ms), also while its threads are blocked in
MPI; `mpi orphans` then shows them released. Live processes only.

Usage: mpi release"""

    def __init__(self):
        super().__init__("mpi release", gdb.COMMAND_DATA, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        inferior = gdb.selected_inferior()
        if target_access.is_core_target(inferior):
            raise gdb.GdbError("mpi release: a core file does not run, so its orphans "
                               "cannot be released.")
        if inferior.pid == 0:
            raise gdb.GdbError("mpi release: there is no live process.")
        try:
            request, pending = release_request.ask(inferior, _big_endian())
        except release_request.Unavailable as exc:
            raise gdb.GdbError("mpi release: %s" % exc)
        except gdb.MemoryError as exc:
            raise gdb.GdbError("mpi release: cannot write the request: %s" % exc)
        if pending:
            gdb.write("a release is already asked (request %d): the runtime carries it out "
                      "once the process runs\n" % request)
        else:
            gdb.write("release asked (request %d): the runtime carries it out once the "
                      "process runs (its clock thread, within 250 ms)\n" % request)


def _big_endian():
    """The target's byte order, as gdb has it."""
    return "big endian" in gdb.execute("show endian", to_string=True)


def register():
    MpiPrefix()
    MpiQueues()
    MpiThreads()
    MpiInfo()
    MpiOrphans()
    MpiObjects()
    MpiHandle()
    MpiRelease()
