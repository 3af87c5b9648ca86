"""`mpi threads`: what each thread of the process is doing in MPI (mpidbg_thread_get)."""

import ctypes
import time
from ctypes import byref

from . import abi_mqs as A
from . import text as T
from .report_queues import process_line
from .session import NotAvailable

MAX_THREADS = 4096
MAX_WAITED = 64


def _seconds_in_call(entry_ns, is_core):
    # A core file is read later than it was written: no duration then.
    if entry_ns <= 0 or is_core:
        return ""
    return " for %.1f s" % max(0.0, time.time() - entry_ns / 1e9)


def report(session):
    plugin, process = session.require_mqs()
    if plugin.mpidbg_thread_count is None or plugin.mpidbg_thread_get is None:
        raise NotAvailable("the plugin %s does not report threads" % plugin.path)
    plugin.mqs_update_communicator_list(process)
    count = ctypes.c_int(0)
    rc = plugin.mpidbg_thread_count(process, byref(count))
    if rc != A.MQS_OK:
        raise NotAvailable("no thread information: " + plugin.error_text(rc))
    n = max(0, min(count.value, MAX_THREADS))
    out = [process_line(session), "threads: %d" % n]
    for i in range(n):
        t = A.sized(A.mpidbg_thread_info)
        if plugin.mpidbg_thread_get(process, i, byref(t)) != A.MQS_OK:
            out.append("  thread %d: not readable" % i)
            continue
        line = "  %d  " % t.tid
        if t.state == 0 and t.recording_paused:
            # Its records say nothing of its calls: where it is, its stack says (bt).
            out.append(line + "recording paused by the program: its MPI calls are not "
                       "recorded (%d recorded so far); see its stack" % t.calls)
            continue
        if t.state == 0:
            out.append(line + "not in MPI (%d MPI calls so far)" % t.calls)
            continue
        line += "%s %s" % (T.THREAD_STATE_NAMES.get(t.state, "in"),
                           A.text(t.call_name) or "an MPI call")
        line += _seconds_in_call(t.entry_time_ns, session.is_core)
        comm = A.text(t.comm_name)
        if comm:
            line += " on " + comm
        if t.root >= 0:
            line += " (root %d)" % t.root
        if t.recording_paused:
            # A completion of requests posted before the pause, MPI_Init or MPI_Finalize.
            line += " (recording paused by the program; this call recorded despite it)"
        out.append(line)
        if t.has_operation:
            out.append("      " + T.operation(t.operation, A.text))
        if plugin.mpidbg_thread_waited_operation is not None:
            for k in range(max(0, min(t.waited_count, MAX_WAITED))):
                op = A.sized(A.mpidbg_operation_info)
                if plugin.mpidbg_thread_waited_operation(process, i, k, byref(op)) == A.MQS_OK:
                    out.append("      waits for " + T.operation(op, A.text))
    return "\n".join(out) + "\n"
