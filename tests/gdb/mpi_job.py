"""One MPI test application run under `mpidbg run` for the gdb tests: started in its own
session, its ranks found by a marker in their environment, killed by pid at the end."""

import os
import signal
import subprocess
import tempfile
import time

JOB_SECONDS = 300  # the job dies by itself even if the test does not clean up


def launcher(flavour, ranks):
    if flavour == "mpich":
        return ["mpiexec.mpich", "-n", str(ranks)]
    return ["mpiexec.openmpi", "--allow-run-as-root", "--oversubscribe", "-n", str(ranks)]


def _environ(pid):
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            raw = f.read()
    except OSError:
        return {}
    out = {}
    for item in raw.split(b"\0"):
        key, sep, value = item.partition(b"=")
        if sep:
            out[key.decode(errors="replace")] = value.decode(errors="replace")
    return out


def _exe(pid):
    try:
        return os.path.realpath("/proc/%d/exe" % pid)
    except OSError:
        return ""


class Job:
    def __init__(self, mpidbg, app, flavour, ranks, under_runtime=True):
        self.mpidbg = mpidbg
        self.app = os.path.realpath(app)
        self.flavour = flavour
        self.ranks = ranks
        self.under_runtime = under_runtime
        self.dir = tempfile.mkdtemp(prefix="mpidbg-gdbtest-")
        self.marker = ("MPIDBG_GDB_TEST_JOB", self.dir)
        self.log_path = os.path.join(self.dir, "job.log")
        self.leader = None
        self.rank_pids = {}

    def log(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def marked_pids(self):
        out = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            if _environ(int(entry)).get(self.marker[0]) == self.marker[1]:
                out.append(int(entry))
        return out

    def start(self, timeout=60):
        env = dict(os.environ)
        env[self.marker[0]] = self.marker[1]
        argv = ["timeout", "-s", "KILL", str(JOB_SECONDS)]
        if self.under_runtime:
            argv += [self.mpidbg, "run", "--"]
        argv += launcher(self.flavour, self.ranks) + [self.app]
        with open(self.log_path, "w") as log:
            self.leader = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                           stdin=subprocess.DEVNULL, env=env,
                                           start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.log().count(" ready\n") == self.ranks:
                self._find_ranks()
                if len(self.rank_pids) == self.ranks:
                    return
            if self.leader.poll() is not None:
                raise RuntimeError("the job ended early:\n" + self.log())
            time.sleep(0.1)
        raise RuntimeError("the job did not get ready in %d s:\n%s" % (timeout, self.log()))

    def _find_ranks(self):
        self.rank_pids = {}
        for pid in self.marked_pids():
            if _exe(pid) != self.app:
                continue
            env = _environ(pid)
            rank = env.get("PMI_RANK", env.get("OMPI_COMM_WORLD_RANK"))
            if rank is not None and rank.isdigit():
                self.rank_pids[int(rank)] = pid

    def kill(self):
        for pid in self.marked_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if self.leader is not None:
            try:
                os.killpg(self.leader.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self.leader.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            self.leader = None
        if not os.path.isdir(self.dir):
            return
        for name in os.listdir(self.dir):
            try:
                os.unlink(os.path.join(self.dir, name))
            except OSError:
                pass
        try:
            os.rmdir(self.dir)
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
        return False
