#!/usr/bin/env python3
"""Run one MPI program without and with the runtime and compare what the user sees.

usage: run_transparency.py --mpiexec PATH --flavour mpich|openmpi --runtime LIB
                           [--ranks N] [--timeout S] [--expect-status N] [--status-only]
                           -- PROGRAM [ARGS...]

The program is started twice by the MPI launcher: plain, and with the runtime
LD_PRELOADed into every rank. The two runs must agree on standard output and exit
status; the plain run must exit with --expect-status (0 by default), so that a
program that failed in both runs is not taken for a transparent one. The program
reports on stderr whether the runtime was loaded and saw MPI initialised
("tp-runtime: loaded=L initialised=I"); the plain run must say loaded=0, the
preloaded run loaded=1 initialised=1. With --status-only (a program that aborts,
whose launcher prints pids) standard output is not compared.

Each run is bounded: `timeout -k` ends the launcher, and every process left in the
run's own session (ranks, launcher helpers) is then killed by pid.

Exit status: 0 transparent, 1 a difference (printed as a unified diff), 2 usage.
"""
import argparse
import difflib
import os
import signal
import subprocess
import sys
import time


def session_members(sid):
    """Pids of the processes whose session id is `sid` (the run's own session)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        # Fields after the command name (which may contain spaces and parentheses).
        fields = stat[stat.rfind(")") + 2:].split()
        # fields[0] is the state (a zombie is already gone), fields[3] the session id.
        if len(fields) > 3 and fields[0] != "Z" and int(fields[3]) == sid:
            pids.append(int(entry))
    return pids


def kill_session(sid):
    """Kills every process left in session `sid`, by pid; returns how many there were."""
    left = session_members(sid)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return len(left)


def run(cmd, timeout, env):
    """Runs cmd in a session of its own; returns (status, stdout, stderr, leftovers)."""
    bounded = ["timeout", "-k", "5", str(timeout)] + cmd
    proc = subprocess.Popen(bounded, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout + 20)
    except subprocess.TimeoutExpired:
        kill_session(proc.pid)
        out, err = proc.communicate()
    # The session id is the pid of the process that started it (timeout).
    time.sleep(0.2)
    leftovers = kill_session(proc.pid)
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"), leftovers


def launcher_command(args, preload):
    cmd = [args.mpiexec]
    if args.flavour == "openmpi":
        # Open MPI refuses root without this; the machine may have fewer cores than ranks.
        # Its treematch topology component can hang MPI_Dist_graph_create when ranks
        # share cores with other jobs (tests/runtime/CMakeLists.txt); plain and
        # preloaded runs both go without it.
        cmd += ["--allow-run-as-root", "--oversubscribe", "--mca", "topo", "^treematch"]
        if preload:
            cmd += ["-x", "LD_PRELOAD=" + args.runtime]
    elif preload:
        cmd += ["-env", "LD_PRELOAD", args.runtime]
    cmd += ["-n", str(args.ranks)]
    return cmd + args.program


def tail(text, lines=40):
    return "\n".join(text.splitlines()[-lines:])


def runtime_report(stderr):
    for line in stderr.splitlines():
        if line.startswith("tp-runtime:"):
            return line.split(":", 1)[1].strip()
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--flavour", required=True, choices=["mpich", "openmpi"])
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--expect-status", type=int, default=0)
    parser.add_argument("--status-only", action="store_true")
    parser.add_argument("program", nargs="+")
    args = parser.parse_args()
    if not os.path.exists(args.runtime):
        print(f"runtime library {args.runtime} does not exist (build mpidbg_rt_{args.flavour})")
        return 2

    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    name = os.path.basename(args.program[0])

    plain = run(launcher_command(args, False), args.timeout, env)
    with_rt = run(launcher_command(args, True), args.timeout, env)

    problems = []
    for label, result in (("plain", plain), ("with runtime", with_rt)):
        if result[3]:
            problems.append(f"{label}: {result[3]} processes were left behind and killed")
        if result[0] == 124 or result[0] == 137:
            problems.append(f"{label}: timed out after {args.timeout} s")
    if plain[0] != args.expect_status:
        problems.append(f"plain run exited with {plain[0]}, expected {args.expect_status}")
    if plain[0] != with_rt[0]:
        problems.append(f"exit status differs: plain {plain[0]}, with runtime {with_rt[0]}")
    plain_report, rt_report = runtime_report(plain[2]), runtime_report(with_rt[2])
    if plain_report != "loaded=0 initialised=0":
        problems.append(f"plain run: runtime report '{plain_report}', expected it absent")
    if rt_report != "loaded=1 initialised=1":
        problems.append(f"with runtime: runtime report '{rt_report}', expected loaded "
                        "and initialised")
    if not args.status_only:
        if plain[1] != with_rt[1]:
            diff = difflib.unified_diff(plain[1].splitlines(), with_rt[1].splitlines(),
                                        "plain", "with runtime", lineterm="")
            problems.append("standard output differs:\n" + "\n".join(diff))
        if not plain[1].strip():
            problems.append("the program printed nothing (nothing was compared)")

    if problems:
        print(f"{name} ({args.flavour}): NOT TRANSPARENT")
        for p in problems:
            print("  " + p)
        for label, result in (("plain", plain), ("with runtime", with_rt)):
            print(f"--- {label}: exit {result[0]}; stderr (last lines):\n{tail(result[2])}")
            print(f"--- {label}: stdout (last lines):\n{tail(result[1])}")
        return 1
    lines = len(plain[1].splitlines())
    print(f"{name} ({args.flavour}): transparent ({lines} lines of output, exit {plain[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
