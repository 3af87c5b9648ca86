#!/usr/bin/env python3
"""Run a Fortran probe with the runtime preloaded and compare with expected.txt.

usage: check_fortran_probe.py --mpiexec PATH --flavour mpich|openmpi --runtime LIB
                              --binding mpifh|mpi|f08 --expected expected.txt
                              [--timeout S] -- PROBE

The probe (probe_legacy.F90 / probe_f08.f90 with probe_helper.c) prints, for each MPI
call it makes, whether the runtime counted it ("seen") and whether the runtime defines
that C function ("wrapped"), the runtime's process state after MPI_Init and after
MPI_Finalize, how many operation and communicator records it holds then, and whether
the Fortran handles of new objects appear as Fortran indices in the records. expected.txt says which calls a flavour/binding pair lets the runtime
see; everything else follows from that. Any mismatch fails the test, so the
documentation (mpidbg/doc/fortran.md) cannot silently go stale.

The job is bounded by `timeout -k`; processes left in the job's session are killed by
pid. Exit status 0 when the measurement matches, 1 otherwise.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time

# The probe's calls that create an object whose Fortran index is then looked up.
CREATORS = {"comm": "MPI_Comm_split", "group": "MPI_Group_incl", "datatype": "MPI_Type_vector"}


def expected_seen(path, flavour, binding):
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].split()
        if len(line) >= 3 and line[0] == flavour and line[1] == binding:
            return line[2:]
    return None


def kill_session(sid):
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 3 and fields[0] != "Z" and int(fields[3]) == sid:
            try:
                os.kill(int(entry), signal.SIGKILL)
            except ProcessLookupError:
                pass


def run(args):
    cmd = ["timeout", "-k", "5", str(args.timeout), args.mpiexec]
    if args.flavour == "openmpi":
        cmd += ["--allow-run-as-root", "--oversubscribe", "-x", "LD_PRELOAD=" + args.runtime]
    else:
        cmd += ["-env", "LD_PRELOAD", args.runtime]
    cmd += ["-n", "2", args.probe[0]]
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=args.timeout + 20)
    except subprocess.TimeoutExpired:
        kill_session(proc.pid)
        out, err = proc.communicate()
    time.sleep(0.2)
    kill_session(proc.pid)
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--flavour", required=True, choices=["mpich", "openmpi"])
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--binding", required=True, choices=["mpifh", "mpi", "f08"])
    parser.add_argument("--expected", required=True)
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("probe", nargs=1)
    args = parser.parse_args()
    rule = expected_seen(args.expected, args.flavour, args.binding)
    if rule is None:
        print(f"{args.expected} has no line for {args.flavour} {args.binding}")
        return 1

    status, out, err = run(args)
    calls = re.findall(r"^probe: call (\S+) seen=(\d) wrapped=(\d)$", out, re.M)
    states = re.findall(r"^probe: runtime state (.+)$", out, re.M)
    f2c = dict(re.findall(r"^probe: f2c (\S+) recorded=(\d)$", out, re.M))
    counts = [(int(o), int(c)) for o, c in re.findall(
        r"^probe: live operation records (\d+), communicator records (\d+)$", out, re.M)]
    problems = []
    if status != 0:
        problems.append(f"the probe exited with {status}")
    if len(calls) < 20 or len(states) != 2 or len(counts) != 2 or len(f2c) != len(CREATORS):
        problems.append("the probe's report is incomplete")

    wrapped = {name for name, _, w in calls if w == "1"}
    if rule == ["ALL"]:
        should_see = wrapped
    elif rule == ["NONE"]:
        should_see = set()
    else:
        should_see = set(rule) & wrapped
        unknown = set(rule) - {name for name, _, _ in calls}
        if unknown:
            problems.append(f"expected.txt names calls the probe does not make: {sorted(unknown)}")
    for name, seen, _ in calls:
        want = "1" if name in should_see else "0"
        if seen != want:
            problems.append(f"{name}: seen={seen}, expected {want}")
    init_seen = "MPI_Init" in should_see
    want_states = ["running" if init_seen else "before init",
                   "finalized" if "MPI_Finalize" in should_see
                   else ("running" if init_seen else "before init")]
    if states and states != want_states:
        problems.append(f"runtime states {states}, expected {want_states}")
    # Communicator records exist once the runtime's MPI_Init step ran; requests whose
    # posting was seen but whose completion was not stay behind as operation records.
    if len(counts) == 2:
        if (counts[0][1] > 0) != init_seen:
            problems.append(f"{counts[0][1]} communicator records after MPI_Init")
        stale = "MPI_Isend" in should_see and "MPI_Waitall" not in should_see
        if (counts[1][0] > 0) != stale:
            problems.append(f"{counts[1][0]} operation records left at the end, expected "
                            f"{'some' if stale else 'none'}")
    for kind, creator in CREATORS.items():
        want = "1" if creator in should_see else "0"
        if f2c.get(kind) != want:
            problems.append(f"Fortran index of the new {kind}: recorded={f2c.get(kind)}, "
                            f"expected {want}")

    seen = sorted(name for name, s, _ in calls if s == "1")
    label = f"{os.path.basename(args.probe[0])} ({args.flavour}, {args.binding})"
    if problems:
        print(f"{label}: DIFFERS FROM expected.txt (update mpidbg/doc/fortran.md with it)")
        for p in problems:
            print("  " + p)
        print(f"--- stdout:\n{out}\n--- stderr:\n{err[-3000:]}")
        return 1
    print(f"{label}: as documented; {len(seen)} of {len(calls)} probed calls seen: "
          f"{' '.join(seen) if seen else '(none)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
