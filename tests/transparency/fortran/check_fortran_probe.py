#!/usr/bin/env python3
"""Run a Fortran probe with the runtime preloaded and compare with expected.txt.

usage: check_fortran_probe.py --mpiexec PATH --flavour mpich|openmpi --runtime LIB
                              --binding mpifh|mpi|f08 --expected expected.txt
                              [--nm NM] [--timeout S] -- PROBE

The probe (probe_legacy.F90 / probe_f08.f90 with probe_helper.c) prints, for each MPI
call it makes, whether the runtime counted it ("seen"), how many calls it counted (a
call recorded twice, by a Fortran wrapper and by the C wrapper the library's Fortran
layer lands on, would count 2) and whether the runtime defines that C function
("wrapped"), the runtime's process state after MPI_Init and after MPI_Finalize, how many
operation and communicator records it holds then, and whether the Fortran handles of
new objects appear as Fortran indices in the records. expected.txt says which calls a
flavour/binding pair lets the runtime see; everything else follows from that. With
--nm, the Fortran entry points the probe references (`nm -u`) are compared with those
the runtime defines: all of them when every call is expected to be seen. Any mismatch
fails the test, so the documentation (mpidbg/doc/fortran.md) cannot silently go stale.

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

# How a Fortran entry point names its C function: the coverage check's own mapping.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "mpidbg", "gen", "coverage"))
from fortran_entries import c_name  # noqa: E402

# The probe's calls that create an object whose Fortran index is then looked up.
CREATORS = {"comm": "MPI_Comm_split", "group": "MPI_Group_incl", "datatype": "MPI_Type_vector",
            "comm_idup": "MPI_Comm_idup"}
# Calls watched from another thread while blocked: (state, blocking op record linked,
# request count, count argument) the thread record must show; None: not compared. The
# gather is rooted here with MPI_IN_PLACE: its count is the receive count.
WATCHED = {"MPI_Recv": ("BLOCKED", 1, 0, None), "MPI_Waitall": ("BLOCKED", 0, 2, None),
           "MPI_Gather": ("BLOCKED", 0, 0, 4)}
# MPI calls between the probe's tp_rt_begin and tp_rt_end, when not one.
BRACKET_CALLS = {"MPI_Ibarrier": 2}
# The probe's calls, at least (probe_legacy.F90 and probe_f08.f90 make the same ones).
MIN_CALLS = 36


def expected_seen(path, flavour, binding):
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].split()
        if len(line) >= 3 and line[0] == flavour and line[1] == binding:
            return line[2:]
    return None


def entry_points(nm, probe, runtime):
    """The MPI Fortran entry points the probe references whose C function the runtime
    wraps, and those of them the runtime does not define."""
    def names(*cmd):
        out = subprocess.run([nm, *cmd], capture_output=True, text=True, check=True).stdout
        return {line.split()[-1] for line in out.splitlines() if line.strip()}
    defined = names("-D", "--defined-only", runtime)
    used = {n for n in names("-u", probe) if c_name(n, {}) in defined}
    return used, sorted(used - defined)


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


def parse_report(out):
    """The probe's report lines, by kind."""
    return {
        "calls": re.findall(r"^probe: call (\S+) seen=(\d) wrapped=(\d) calls=(\d+)$", out, re.M),
        "states": re.findall(r"^probe: runtime state (.+)$", out, re.M),
        "f2c": dict(re.findall(r"^probe: f2c (\S+) recorded=(\d)$", out, re.M)),
        "watched": re.findall(r"^probe: watched (\S+) state=(\S+) op=(\d) requests=(\d+) "
                              r"count=(-?\d+)$", out, re.M),
        "received": re.findall(r"^probe: received tag (\d+) from 1: (\d+)$", out, re.M),
        "live_after": re.findall(r"^probe: live after (\S+) (\d+)$", out, re.M),
        "pending": re.findall(r"^probe: pending tag (\d+): (\d+)$", out, re.M),
        "counts": [(int(o), int(c)) for o, c in re.findall(
            r"^probe: live operation records (\d+), communicator records (\d+)$", out, re.M)],
    }


def calls_to_see(rule, calls, problems):
    """The probed calls expected.txt says the runtime sees (only those it wraps in C)."""
    wrapped = {name for name, _, w, _ in calls if w == "1"}
    if rule == ["ALL"]:
        return wrapped
    if rule == ["NONE"]:
        return set()
    unknown = set(rule) - {name for name, _, _, _ in calls}
    if unknown:
        problems.append(f"expected.txt names calls the probe does not make: {sorted(unknown)}")
    return set(rule) & wrapped


def check_calls(calls, should_see, problems):
    """Each call seen or not as expected, and a seen one counted exactly once."""
    for name, seen, _, n in calls:
        want = "1" if name in should_see else "0"
        if seen != want:
            problems.append(f"{name}: seen={seen}, expected {want}")
        if seen == "1" and int(n) != BRACKET_CALLS.get(name, 1):
            problems.append(f"{name}: the runtime counted {n} calls, the probe made "
                            f"{BRACKET_CALLS.get(name, 1)}")


def check_process(r, should_see, problems):
    """Process state, communicator records, and operation records left live."""
    init_seen = "MPI_Init" in should_see
    want_states = ["running" if init_seen else "before init",
                   "finalized" if "MPI_Finalize" in should_see
                   else ("running" if init_seen else "before init")]
    if r["states"] and r["states"] != want_states:
        problems.append(f"runtime states {r['states']}, expected {want_states}")
    # Communicator records exist once the runtime's MPI_Init step ran; requests whose
    # posting was seen but whose completion was not stay behind as operation records.
    counts = r["counts"]
    if len(counts) == 2:
        if (counts[0][1] > 0) != init_seen:
            problems.append(f"{counts[0][1]} communicator records after MPI_Init")
        stale = "MPI_Isend" in should_see and "MPI_Waitall" not in should_see
        if (counts[1][0] > 0) != stale:
            problems.append(f"{counts[1][0]} operation records left at the end, expected "
                            f"{'some' if stale else 'none'}")
    # Requests completed by index (MPI_Waitany, MPI_Waitsome: a Fortran index is one
    # higher than C's) leave no live record behind when the completion call was seen.
    if len(r["live_after"]) != 2:
        problems.append("the probe's report of live records after completion is incomplete")
    for name, live in r["live_after"]:
        if name in should_see and live != "0":
            problems.append(f"{live} operation records still live after {name}")


def check_received(received, should_see, problems):
    """Wildcard receives from rank 1 (tag 13: MPI_Recv with MPI_STATUS_IGNORE, 14:
    MPI_Waitall with MPI_STATUSES_IGNORE, 16: MPI_Recv with a status) counted once each
    from the status, when the receives and their completion are seen."""
    if len(received) != 3:
        problems.append("the probe's report of received messages is incomplete")
    for tag, n in received:
        want = 1 if {"MPI_Recv", "MPI_Waitall"} <= should_see else 0
        if int(n) != want:
            problems.append(f"tag {tag}: the runtime counted {n} receives from rank 1, "
                            f"expected {want}")


def check_paused(pending, should_see, problems):
    """Tag 17: a receive posted before a pause and collected by MPI_Wait while paused
    (runtime_api.h): not pending afterwards when the receive and the wait are seen (the
    paused wait still recorded: rt/hot/pause_drain.h)."""
    if len(pending) != 1:
        problems.append("the probe's report of a request collected while paused is incomplete")
    for tag, n in pending:
        if {"MPI_Irecv", "MPI_Wait"} <= should_see and n != "0":
            problems.append(f"tag {tag}: {n} requests pending after a paused MPI_Wait collected them")


def check_watched(watched, rule, problems):
    """Calls watched from another thread while the peer was late: a seen blocking call
    shows as BLOCKED with what WATCHED says."""
    if len(watched) != len(WATCHED):
        problems.append("the probe's report of watched blocked calls is incomplete")
    for name, state, op, requests, count in watched:
        want = WATCHED.get(name)
        # Seen when every call is, or when expected.txt names it.
        if want is None or not (rule == ["ALL"] or name in rule):
            if state != "none":
                problems.append(f"{name}: the record showed it ({state}) although it is not seen")
            continue
        got = (state, int(op), int(requests), int(count) if want[3] is not None else None)
        if got != want:
            problems.append(f"{name} watched while blocked: state={state} op={op} "
                            f"requests={requests} count={count}, expected state={want[0]} "
                            f"op={want[1]} requests={want[2]} count={want[3]}")


def check_fortran_indices(f2c, should_see, problems):
    """New objects made in Fortran have records with the program's Fortran handle."""
    for kind, creator in CREATORS.items():
        want = "1" if creator in should_see else "0"
        if f2c.get(kind) != want:
            problems.append(f"Fortran index of the new {kind}: recorded={f2c.get(kind)}, "
                            f"expected {want}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--flavour", required=True, choices=["mpich", "openmpi"])
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--binding", required=True, choices=["mpifh", "mpi", "f08"])
    parser.add_argument("--expected", required=True)
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--nm", help="check the probe's Fortran entry points against the runtime")
    parser.add_argument("probe", nargs=1)
    args = parser.parse_args()
    rule = expected_seen(args.expected, args.flavour, args.binding)
    if rule is None:
        print(f"{args.expected} has no line for {args.flavour} {args.binding}")
        return 1

    status, out, err = run(args)
    r = parse_report(out)
    problems = []
    if status != 0:
        problems.append(f"the probe exited with {status}")
    if (len(r["calls"]) < MIN_CALLS or len(r["states"]) != 2 or len(r["counts"]) != 2
            or len(r["f2c"]) != len(CREATORS)):
        problems.append("the probe's report is incomplete")
    should_see = calls_to_see(rule, r["calls"], problems)
    check_calls(r["calls"], should_see, problems)
    check_process(r, should_see, problems)
    check_received(r["received"], should_see, problems)
    check_paused(r["pending"], should_see, problems)
    check_watched(r["watched"], rule, problems)
    check_fortran_indices(r["f2c"], should_see, problems)
    used, missing = [], []
    if args.nm:
        used, missing = entry_points(args.nm, args.probe[0], args.runtime)
        if rule == ["ALL"] and (missing or not used):
            problems.append(f"Fortran entry points the probe calls that the runtime does not "
                            f"define: {missing or '(the probe references none)'}")

    seen = sorted(name for name, s, _, _ in r["calls"] if s == "1")
    label = f"{os.path.basename(args.probe[0])} ({args.flavour}, {args.binding})"
    if problems:
        print(f"{label}: DIFFERS FROM expected.txt (update mpidbg/doc/fortran.md with it)")
        for p in problems:
            print("  " + p)
        print(f"--- stdout:\n{out}\n--- stderr:\n{err[-3000:]}")
        return 1
    print(f"{label}: as documented; {len(seen)} of {len(r['calls'])} probed calls seen: "
          f"{' '.join(seen) if seen else '(none)'}")
    if args.nm:
        print(f"{label}: the probe calls {len(used)} Fortran entry points, "
              f"{len(used) - len(missing)} of them defined by the runtime")
    return 0


if __name__ == "__main__":
    sys.exit(main())
