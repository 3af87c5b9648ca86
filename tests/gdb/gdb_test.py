#!/usr/bin/env python3
"""Tests of the gdb extension: gdb in batch mode (and gdb/MI) on a real MPI job of
testapps/gdb_handles.c, live and from a core file, for one MPI flavour.

  gdb_test.py abi  --cc CC --include DIR --package DIR
  gdb_test.py live|core|mi|noruntime|gdbserver --flavour F --gdb GDB --mpidbg EXE
                           --app PATH --loader PATH --runtime-dir DIR [--gdbserver EXE]

Each check prints PASS or FAIL; the last line is 'N passed, N failed'.
"""

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import abi_check  # noqa: E402
import expectations  # noqa: E402
from mpi_job import Job  # noqa: E402

RANKS = 4
RANK = 1  # odd: its split is "odds" = world ranks 1 and 3
GDB_SECONDS = 120
# `mpi release` writes a request into the runtime's memory and never calls a function in
# the target (gdb 13 cannot restore registers after an inferior call on CPUs with large
# extended register state, AMX): its effect shows in a second gdb, once the process has
# run for the runtime's clock thread to act.
RELEASE_SETTLE_SECONDS = 1.0


class Checker:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print("PASS: " + what)
        else:
            self.failed += 1
            print("FAIL: " + what + (("\n" + detail) if detail else ""))

    def sections(self, sections, expected):
        """expected: {section: [regex, ...]}; each regex must match in its section."""
        for name, patterns in expected.items():
            text = sections.get(name)
            if text is None:
                self.check(False, "%s: section missing" % name)
                continue
            for pattern in patterns:
                ok = re.search(pattern, text, re.MULTILINE) is not None
                self.check(ok, "%s: /%s/" % (name, pattern), "" if ok else text)

    def skip(self, what, why):
        print("SKIP: %s (%s)" % (what, why))

    def finish(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 0 if self.failed == 0 and self.passed > 0 else 1


def split_sections(output):
    """gdb output cut at the `echo @@ NAME` markers the scripts print."""
    out = {}
    name = None
    for line in output.splitlines():
        m = re.match(r"^@@ (\S+)$", line)
        if m:
            name = m.group(1)
            out[name] = ""
        elif name is not None:
            out[name] += line + "\n"
    return out


def gdb_commands(steps):
    """-ex arguments for [(section, command), ...]."""
    args = []
    for section, command in steps:
        args += ["-ex", "echo @@ %s\\n" % section, "-ex", command]
    args += ["-ex", "echo @@ end\\n"]
    return args


def show(transcript):
    """The whole gdb session, for whoever reads the test log."""
    print("---- gdb transcript ----\n%s---- end of transcript ----" % transcript)


def run_gdb(argv):
    # One pipe for both streams keeps error messages inside their section.
    r = subprocess.run(["timeout", "-s", "KILL", str(GDB_SECONDS)] + argv,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return r.stdout


def live(opts, checker):
    with Job(opts.mpidbg, opts.app, opts.flavour, RANKS) as job:
        job.start()
        pid = job.rank_pids[RANK]
        # No -x: the extension must arrive by auto-load, from the script the build put
        # beside the runtime library (allowed by the safe-path below).
        argv = [opts.gdb, "-nx", "-batch", "-iex",
                "add-auto-load-safe-path " + opts.runtime_dir, "-p", str(pid)]
        steps = expectations.common_steps(opts.flavour) + [("release", "mpi release"),
                                                           ("pending", "mpi orphans")]
        out = run_gdb(argv + gdb_commands(steps))
        show(out)
        sections = split_sections(out)
        checker.check("end" in sections, "gdb ran every step", out[-3000:])
        checker.sections(sections, expectations.common(opts.flavour, "live"))

        # The README's way: the loader given with -ix, before gdb attaches and meets the
        # runtime's own auto-load script. Not a word about auto-load safety.
        quiet = run_gdb([opts.gdb, "-nx", "-batch", "-ix", opts.loader, "-p", str(pid)] +
                        gdb_commands([("queues", "mpi queues")]))
        show(quiet)
        checker.check("auto-load" not in quiet and "declined" not in quiet,
                      "loading with -ix says nothing about auto-load", quiet[-3000:])
        checker.check("MPI_COMM_WORLD" in split_sections(quiet).get("queues", ""),
                      "the extension loaded with -ix answers", quiet[-3000:])
        checker.sections(sections, expectations.release())
        # gdb detached: the rank runs, and its clock thread carries the request out.
        time.sleep(RELEASE_SETTLE_SECONDS)
        out = run_gdb(argv + gdb_commands([("after_release", "mpi orphans")]))
        show(out)
        checker.sections(split_sections(out), expectations.after_release())
        checker.check(os.path.exists("/proc/%d" % pid), "the rank survived attach and detach")


def core(opts, checker):
    with Job(opts.mpidbg, opts.app, opts.flavour, RANKS) as job:
        job.start()
        pid = job.rank_pids[RANK]
        with tempfile.TemporaryDirectory(prefix="mpidbg-gdbcore-", dir="/tmp") as tmp:
            prefix = os.path.join(tmp, "core")
            subprocess.run(["timeout", "-s", "KILL", "120", "gcore", "-o", prefix, str(pid)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            core_file = "%s.%d" % (prefix, pid)
            checker.check(os.path.exists(core_file), "gcore wrote %s" % core_file)
            if not os.path.exists(core_file):
                return
            job.kill()  # the core alone must do
            # Loaded by hand this time, as `gdb -x "$(mpidbg gdb-script)"` would.
            argv = [opts.gdb, "-nx", "-batch", "-x", opts.loader, opts.app, core_file]
            steps = expectations.common_steps(opts.flavour) + [("release", "mpi release")]
            out = run_gdb(argv + gdb_commands(steps))
        show(out)
        sections = split_sections(out)
        checker.check("end" in sections, "gdb ran every step", out[-3000:])
        checker.sections(sections, expectations.common(opts.flavour, "core file"))
        checker.sections(sections, {"release": [r"mpi release: a core file does not run, so its orphans cannot be released"]})


MI_SCRIPT = [
    "-enable-pretty-printing",
    "-var-create comm * split_comm",
    "-var-list-children --all-values comm",
    "-var-list-children --all-values comm.world_ranks",
    "-data-evaluate-expression split_comm",
    "-var-create dtype * vector_type",
    "-var-list-children --all-values dtype",
    "-var-list-children --all-values dtype.type_map",
    "-var-create info * win_info",
    "-var-list-children --all-values info",
    "-var-create req * pending_recv",
    "-var-list-children --all-values req",
    "-var-create group * split_group",
    "-var-list-children --all-values group",
    "-var-create op * sum_op",
    "-var-list-children --all-values op",
    "-var-create errh * comm_errhandler",
    "-var-list-children --all-values errh",
    "-var-create win * window",
    "-var-list-children --all-values win",
    "-gdb-exit",
]


def mi_transcript(opts, target_args):
    """gdb driven through MI as an IDE does, on a process or a core."""
    script = "\n".join(MI_SCRIPT[:1] + ['-interpreter-exec console "source %s"' % opts.loader] +
                       MI_SCRIPT[1:]) + "\n"
    r = subprocess.run(["timeout", "-s", "KILL", str(GDB_SECONDS), opts.gdb,
                        "--interpreter=mi", "-nx", "-q"] + target_args,
                       input=script, capture_output=True, text=True)
    return r.stdout + r.stderr


def mi(opts, checker):
    with Job(opts.mpidbg, opts.app, opts.flavour, RANKS) as job:
        job.start()
        pid = job.rank_pids[RANK]
        transcripts = [("live", mi_transcript(opts, ["-p", str(pid)]))]
        with tempfile.TemporaryDirectory(prefix="mpidbg-gdbmi-", dir="/tmp") as tmp:
            prefix = os.path.join(tmp, "core")
            subprocess.run(["timeout", "-s", "KILL", "120", "gcore", "-o", prefix, str(pid)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            core_file = "%s.%d" % (prefix, pid)
            checker.check(os.path.exists(core_file), "gcore wrote %s" % core_file)
            job.kill()  # the core alone must do
            if os.path.exists(core_file):
                transcripts.append(("core", mi_transcript(opts, [opts.app, core_file])))
    for source, out in transcripts:
        show(out)
        for pattern in expectations.mi():
            ok = re.search(pattern, out) is not None
            checker.check(ok, "mi (%s): /%s/" % (source, pattern), "" if ok else out[-4000:])


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def gdbserver(opts, checker):
    """The rank through gdbserver on the loopback interface: only gdb's remote protocol
    between the extension and the process."""
    with Job(opts.mpidbg, opts.app, opts.flavour, RANKS) as job:
        job.start()
        pid = job.rank_pids[RANK]
        port = _free_port()
        server = subprocess.Popen(["timeout", "-s", "KILL", str(GDB_SECONDS), opts.gdbserver,
                                   "--attach", "127.0.0.1:%d" % port, str(pid)],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        try:
            listening = False
            for line in server.stdout:
                if "Listening on port" in line:
                    listening = True
                    break
            checker.check(listening, "gdbserver listens on port %d" % port)
            if not listening:
                return
            argv = [opts.gdb, "-nx", "-batch", "-x", opts.loader, opts.app,
                    "-ex", "target remote 127.0.0.1:%d" % port]
            out = run_gdb(argv + gdb_commands(expectations.common_steps(opts.flavour)) +
                          ["-ex", "detach"])
        finally:
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        show(out)
        sections = split_sections(out)
        checker.check("end" in sections, "gdb ran every step", out[-3000:])
        checker.sections(sections, expectations.common(opts.flavour, "live"))


def no_runtime(opts, checker):
    """The same program without the runtime: one-sentence errors, plain values."""
    with Job(opts.mpidbg, opts.app, opts.flavour, RANKS, under_runtime=False) as job:
        job.start()
        pid = job.rank_pids[RANK]
        argv = [opts.gdb, "-nx", "-batch", "-x", opts.loader, "-p", str(pid)]
        steps = [("queues", "mpi queues"), ("handle", "mpi handle split_comm"),
                 ("p_split", "print split_comm"), ("p_status", "print self_status"),
                 ("release", "mpi release")]
        out = run_gdb(argv + gdb_commands(steps))
        show(out)
        sections = split_sections(out)
        checker.check("end" in sections, "gdb ran every step", out[-3000:])
        checker.sections(sections, expectations.no_runtime())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["abi", "live", "core", "mi", "noruntime", "gdbserver"])
    for option in ("--cc", "--include", "--package", "--flavour", "--gdb", "--mpidbg",
                   "--app", "--loader", "--runtime-dir", "--gdbserver"):
        parser.add_argument(option)
    opts = parser.parse_args()
    checker = Checker()
    if opts.mode == "abi":
        passed, failed = abi_check.run(opts.cc, opts.include, opts.package)
        checker.passed, checker.failed = passed, failed
    else:
        modes = {"live": live, "core": core, "mi": mi, "noruntime": no_runtime,
                 "gdbserver": gdbserver}
        modes[opts.mode](opts, checker)
    return checker.finish()


if __name__ == "__main__":
    sys.exit(main())
