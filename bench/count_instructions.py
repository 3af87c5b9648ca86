#!/usr/bin/env python3
"""Instructions the mpidbg runtime adds per MPI call, counted with callgrind.

usage: count_instructions.py --build-dir DIR [--flavours mpich,openmpi] [--scale S]
                             [--floor SET,...]

Runs bench/mpi_bench (the program scripts/bench times) once per flavour with the runtime
LD_PRELOADed and both ranks under `valgrind --tool=callgrind`, and once without the
runtime. Instruction counts do not depend on what else the machine runs, unlike the
timings; they count work, not time (a stall on a shared cache line costs no
instructions).

For each wrapped call, what the runtime adds is the wrapper's inclusive count minus
that of the PMPI_* call it makes, per call; MPI_Waitall also per request (every request
mpi_bench makes is completed by exactly one MPI_Waitall, so the requests are the calls
that make them). `--floor` counts the same for bench/floor_interposer.c's sets of
layers (run_floor.py) in place of the runtime, for the calls the set wraps (its exported
MPI_ functions); the object churn runs only for a set that wraps its object calls
(`objects`, `log`), since no set wraps the persistent requests. Without the
runtime the same program gives what MPI's own MPI_Send/MPI_Isend/MPI_Irecv cost (a
receive's count depends on how long it polls, so it is not reported). The vDSO is not
visible under valgrind, so the clock is counted as libc's clock_gettime.

Prints one JSON object, e.g.
  {"mpich": {"runtime_per_call": {"MPI_Send": 290.0, ...},
             "runtime_per_request": {"MPI_Waitall": 70.1}, "mpi_per_call": {...}}}
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench  # noqa: E402

LAUNCH = {
    "mpich": lambda env: (["mpiexec.mpich", "-n", "2"]
                          + sum((["-env", k, v] for k, v in env.items()), [])),
    "openmpi": lambda env: (["mpiexec.openmpi", "--allow-run-as-root", "--oversubscribe", "-n", "2"]
                            + sum((["-x", f"{k}={v}"] for k, v in env.items()), [])),
}
# The _c twins (MPI-4) appear only where the MPI has them; mpi_bench makes as many calls
# of each as of its plain twin, so their counts compare directly.
CALLS = ("MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Waitall",
         "MPI_Send_c", "MPI_Recv_c", "MPI_Isend_c", "MPI_Irecv_c",
         # mpi_bench's object churn
         "MPI_Comm_dup", "MPI_Comm_free", "MPI_Type_vector", "MPI_Type_commit",
         "MPI_Type_free", "MPI_Send_init", "MPI_Recv_init", "MPI_Startall",
         "MPI_Request_free")
# The calls that make a request (each completed by one MPI_Waitall in mpi_bench).
REQUEST_MAKERS = ("MPI_Isend", "MPI_Irecv", "MPI_Isend_c", "MPI_Irecv_c", "MPI_Send_init",
                  "MPI_Recv_init")


def parse(path):
    """Self cost per function and (caller, callee) -> [calls, inclusive cost]."""
    names, self_cost = {}, collections.Counter()
    edges = collections.defaultdict(lambda: [0, 0])
    fn = cfn = None
    pending = None

    def name(text):
        m = re.match(r"\((\d+)\)(?:\s+(.*))?$", text)
        if not m:
            return text
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), text)

    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                fn = name(line[3:])
            elif line.startswith("cfn="):
                cfn = name(line[4:])
            elif line.startswith("calls="):
                pending = int(line[6:].split()[0])
            elif line[:1].isdigit() or line[:1] in "+-*":
                parts = line.split()
                cost = int(parts[-1]) if len(parts) > 1 else 0
                if pending is not None:
                    edge = edges[(fn, cfn)]
                    edge[0] += pending
                    edge[1] += cost
                    pending = None
                else:
                    self_cost[fn] += cost
    return self_cost, edges


def per_call(paths, runtime):
    """Runtime (or MPI) instructions per call, summed over the ranks' files."""
    inclusive, calls, pmpi = collections.Counter(), collections.Counter(), collections.Counter()
    for path in paths:
        self_cost, edges = parse(path)
        for f, c in self_cost.items():
            inclusive[f] += c
        for (caller, callee), (n, cost) in edges.items():
            inclusive[caller] += cost
            calls[callee] += n
            # Every call of PMPI_X, from the wrapper itself or from a part the compiler
            # split off it (MPI_X.cold): only the wrapper calls it.
            if runtime and callee.startswith("PMPI_"):
                pmpi[callee[1:]] += cost
    out = {}
    for call in CALLS:
        if runtime:
            if calls[call]:
                out[call] = round((inclusive[call] - pmpi[call]) / calls[call], 1)
            if call == "MPI_Waitall" and calls[call]:
                requests = sum(calls[m] for m in REQUEST_MAKERS)
                if requests:
                    out["per_request"] = round((inclusive[call] - pmpi[call]) / requests, 1)
        else:
            target = "P" + call
            if not call.startswith("MPI_Recv") and calls[target]:
                out[call] = round(inclusive[target] / calls[target], 1)
    return out


def run_env(lib, churn=True):
    """mpi_bench's environment for a counted run. Never paired: mpi_bench pairs its
    batches with paused ones wherever the preloaded library offers the pause (the
    runtime, the floor sets with thread state), and a paused call records nothing, so
    pairs would halve every count."""
    env = {"MPIDBG_MPIT": "0", "MPIDBG_BENCH_PAIRED": "0"}
    if not churn:
        env["MPIDBG_BENCH_CHURN"] = "0"
    if lib:
        env["LD_PRELOAD"] = lib
    return env


def run(flavour, exe, lib, scale, timeout, churn=True):
    with tempfile.TemporaryDirectory() as d:
        env = run_env(lib, churn)
        cmd = LAUNCH[flavour](env) + [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/cg.%p", exe, str(scale)]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=timeout, check=False)
        paths = glob.glob(os.path.join(d, "cg.*"))
        if p.returncode != 0 or len(paths) != 2:
            raise RuntimeError(f"{' '.join(cmd)} failed (exit {p.returncode}):\n"
                               f"{p.stderr[-2000:]}")
        return per_call(paths, lib is not None)


def wrapped_calls(lib):
    """The MPI_ functions a library defines (what a floor set wraps)."""
    out = subprocess.run(["nm", "-D", "--defined-only", lib], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, check=False).stdout
    return {line.split()[-1] for line in out.splitlines()
            if line.split() and line.split()[-1].startswith("MPI_")}


def _entry(counted, key):
    entry = {key: {k: v for k, v in counted.items() if k not in ("MPI_Waitall", "per_request")}}
    if "per_request" in counted:
        entry[key.replace("per_call", "per_request")] = {"MPI_Waitall": counted["per_request"]}
    return entry


def count(build_dir, flavours, scale=0.02, timeout=900, floor_sets=()):
    result = {}
    for flavour in flavours:
        exe, lib = run_bench.paths(build_dir, flavour)
        if not (os.path.exists(exe) and os.path.exists(lib)):
            continue
        entry = _entry(run(flavour, exe, lib, scale, timeout), "runtime_per_call")
        plain = run(flavour, exe, None, scale, timeout)
        entry["mpi_per_call"] = {k: v for k, v in plain.items()
                                 if k not in ("MPI_Waitall", "per_request")}
        for name in floor_sets:
            floor_lib = os.path.join(build_dir, "bench", f"libmpidbg_floor_{name}_{flavour}.so")
            if os.path.exists(floor_lib):
                # Only what the set wraps is its own; the churn only where the set wraps
                # the object calls (its persistent requests are MPI's alone).
                wrapped = wrapped_calls(floor_lib)
                counted = run(flavour, exe, floor_lib, scale, timeout,
                              churn="MPI_Type_vector" in wrapped)
                counted = {k: v for k, v in counted.items() if k in wrapped or k == "per_request"}
                entry.setdefault("floor", {})[name] = _entry(counted, "per_call")
        result[flavour] = entry
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--flavours", default="mpich,openmpi")
    ap.add_argument("--scale", type=float, default=0.02)
    ap.add_argument("--floor", default="", help="floor sets to count too, e.g. records,flight")
    a = ap.parse_args()
    result = count(a.build_dir, [f for f in a.flavours.split(",") if f], a.scale,
                   floor_sets=[f for f in a.floor.split(",") if f])
    print(json.dumps(result, separators=(",", ":")), flush=True)
    return 0 if result else 1


if __name__ == "__main__":
    sys.exit(main())
