"""processes.py — the processes a cluster starts, remembered by pid and start time.

A pid alone may be reused once its process is gone; the start time (field 22 of
/proc/PID/stat) tells the process we started from a later one with the same pid, so a
clean-up never kills anything it did not start."""
import os
import signal
import time


def start_time(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    return int(stat[stat.rindex(")") + 2:].split()[19])


def is_zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] in "ZX"


def same_process(pid, started):
    """Whether pid is still the live process that started at `started` (a zombie has
    ended: only its parent's wait is missing)."""
    return started is not None and start_time(pid) == started and not is_zombie(pid)


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def descendants(pid):
    """(pid, start time) of every process below pid, nearest first."""
    out, queue = [], children(pid)
    while queue:
        p = queue.pop(0)
        out.append((p, start_time(p)))
        queue += children(p)
    return out


def kill(pid, started, sig=signal.SIGKILL):
    if same_process(pid, started):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def wait_gone(pids_and_starts, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(same_process(p, s) for p, s in pids_and_starts):
            return True
        time.sleep(0.05)
    return False


def environ(pid):
    """The environment a process started with, as a dict ({} when unreadable)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            raw = f.read()
    except OSError:
        return {}
    out = {}
    for item in raw.split(b"\0"):
        key, eq, value = item.partition(b"=")
        if eq:
            out[key.decode(errors="replace")] = value.decode(errors="replace")
    return out


def cmdline(pid):
    """A process's arguments ([] when unreadable)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [w.decode(errors="replace") for w in f.read().split(b"\0")[:-1]]
    except OSError:
        return []


def exe(pid):
    try:
        return os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return None


def pid_namespace(pid):
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def all_pids():
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]
