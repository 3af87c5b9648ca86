#!/usr/bin/env python3
"""What the runtime adds to one object or request cycle, on one rank: timed, or counted.

usage: run_cycles.py --build-dir DIR [--flavours mpich,openmpi] [--loops type,comm,...]
                     [--rounds N] [--cycles N] [--instructions [--functions K]]
                     [--library NAME=PATH ...]

bench/cycle_bench.c repeats one cycle (`type`: a vector type made, committed and freed;
`comm`: MPI_Comm_dup + MPI_Comm_free; `persistent`: MPI_Startall + MPI_Waitall of a
persistent pair; `persistent_churn`: the pair made, started, completed and freed;
`test_poll`, `testany_poll`, `iprobe_poll`: a poll that finds nothing, as programs that
wait by testing make millions of; `sendrecv`: MPI_Sendrecv to itself). One
rank, so no other process's timing enters the cycle; the 2-rank churn of scripts/bench
(mpi_bench.c) is what the goal is set on.

Timed (the default): for each flavour and loop, `--rounds` rounds (default 5) of the
plain program, the runtime (LD_PRELOAD) and every `--library NAME=PATH` (another build
of the runtime, or a floor interposer), alternating the order every other round; each
run prints its best of 5 passes of `--cycles` cycles (default 200000), in microseconds
per cycle. Reported: each one's median over the rounds and the median of its per-round
ratios to plain.

`--instructions`: the same programs under valgrind's callgrind instead, each run twice
(`--cycles` / 10 and twice that, one pass, untimed): the difference of the two runs'
totals over the difference of their lengths is what one cycle costs, with MPI_Init,
MPI_Finalize and the runtime's set-up cancelled (the default 200000 gives 20000 and
40000 cycles: both past the default orphan budget of 4096, so every counted cycle is
the steady state in which a new record takes an evicted orphan's slot). Reported per
cycle: plain, each
library, and what each adds (its count minus plain's). With `--functions K`, also the
K functions whose self cost per cycle differs most from plain's (the runtime's own
functions, and MPI's or libc's that it makes run longer, e.g. malloc on a heap the
runtime's allocations rearranged). Valgrind has no vDSO: the runtime's clock fallback
counts as libc's clock_gettime.

Progress lines first; the last line is one JSON object:
  timed         {flavour: {loop: {"plain": us, NAME: us, ..., "ratio": {NAME: r, ...}}}}
  instructions  {flavour: {loop: {"plain": n, NAME: n, ..., "adds": {NAME: n, ...},
                 "functions": {NAME: [[per_cycle, function], ...]}}}}
(NAME "runtime" is the build directory's libmpidbg_rt_<flavour>.so.)
Exits non-zero if nothing ran.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import count_instructions  # noqa: E402
import run_bench  # noqa: E402

LOOPS = ("type", "comm", "persistent", "persistent_churn", "test_poll", "testany_poll",
         "sendrecv", "iprobe_poll", "halo")
# The keys of a loop's JSON entry beside the libraries' names.
RESERVED = ("plain", "runtime", "ratio", "adds", "functions")
# run_bench.py's launch (each rank bound to a core), for one rank.
LAUNCH = {flavour: cmd[:cmd.index("-n")] + ["-n", "1"] for flavour, cmd in run_bench.LAUNCH.items()}
PRELOAD = run_bench.PRELOAD


def command(flavour, exe, lib, args, tool=()):
    cmd = list(LAUNCH[flavour])
    if lib:
        cmd += PRELOAD[flavour](lib)
    return cmd + list(tool) + [exe] + [str(a) for a in args]


def timed(flavour, exe, lib, loop, cycles, timeout):
    """Best pass of one run, microseconds per cycle."""
    cmd = command(flavour, exe, lib, [loop, cycles, 5])
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=timeout, check=False)
    try:
        return float(p.stdout.split()[-1])
    except (IndexError, ValueError):
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {p.returncode}):\n"
                           f"{p.stderr[-2000:]}") from None


def counted(flavour, exe, lib, loop, cycles, timeout):
    """Total instructions and self cost per function of one untimed run under callgrind."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        cmd = command(flavour, exe, lib, [loop, cycles, 0],
                      tool=("valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"))
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=timeout, check=False)
        if p.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"{' '.join(cmd)} failed (exit {p.returncode}):\n"
                               f"{p.stderr[-2000:]}")
        self_cost, _ = count_instructions.parse(out)
        return sum(self_cost.values()), self_cost


def per_cycle(flavour, exe, lib, loop, cycles, timeout):
    """Instructions per cycle, and per function, by the difference of two run lengths."""
    short = max(cycles // 10, 1)
    total_a, fn_a = counted(flavour, exe, lib, loop, short, timeout)
    total_b, fn_b = counted(flavour, exe, lib, loop, 2 * short, timeout)
    fns = {f: (fn_b.get(f, 0) - fn_a.get(f, 0)) / short for f in set(fn_a) | set(fn_b)}
    return (total_b - total_a) / short, fns


def time_loops(a, flavour, exe, libraries):
    result = {}
    for loop in a.loops:
        per_round = []
        for r in range(a.rounds):
            names = ["plain"] + list(libraries)
            if r % 2:
                names.reverse()
            row = {n: timed(flavour, exe, libraries.get(n), loop, a.cycles, a.timeout)
                   for n in names}
            per_round.append(row)
            print(f"{flavour} {loop} round {r + 1}: "
                  + " ".join(f"{n}={row[n]:.4f}" for n in ["plain"] + list(libraries)),
                  flush=True)
        entry = {n: round(statistics.median(row[n] for row in per_round), 4)
                 for n in ["plain"] + list(libraries)}
        entry["ratio"] = {n: round(statistics.median(row[n] / row["plain"] for row in per_round), 4)
                          for n in libraries}
        result[loop] = entry
    return result


def count_loops(a, flavour, exe, libraries):
    result = {}
    for loop in a.loops:
        plain, plain_fns = per_cycle(flavour, exe, None, loop, a.cycles, a.timeout)
        entry = {"plain": round(plain, 1), "adds": {}, "functions": {}}
        for name, lib in libraries.items():
            n, fns = per_cycle(flavour, exe, lib, loop, a.cycles, a.timeout)
            entry[name] = round(n, 1)
            entry["adds"][name] = round(n - plain, 1)
            if a.functions:
                diff = {f: fns.get(f, 0) - plain_fns.get(f, 0) for f in set(fns) | set(plain_fns)}
                top = sorted(diff.items(), key=lambda kv: -abs(kv[1]))[:a.functions]
                entry["functions"][name] = [[round(v, 1), f] for f, v in top]
        if not a.functions:
            del entry["functions"]
        print(f"{flavour} {loop}: plain {entry['plain']} "
              + " ".join(f"{n} +{entry['adds'][n]}" for n in libraries), flush=True)
        result[loop] = entry
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--flavours", default="mpich,openmpi")
    ap.add_argument("--loops", default=",".join(LOOPS))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cycles", type=int, default=200000)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("--functions", type=int, default=0)
    ap.add_argument("--library", action="append", default=[],
                    help="NAME=PATH: another library to preload in its own runs ({flavour} "
                         "in PATH is replaced by each flavour)")
    a = ap.parse_args()
    a.loops = [loop for loop in a.loops.split(",") if loop]
    unknown = [loop for loop in a.loops if loop not in LOOPS]
    if unknown or a.rounds < 1 or a.cycles < 10:
        ap.error(f"loops are {', '.join(LOOPS)}; rounds >= 1; cycles >= 10")
    result = {}
    for flavour in [f for f in a.flavours.split(",") if f]:
        exe = os.path.join(a.build_dir, "bench", f"cycle_bench_{flavour}")
        runtime = os.path.join(a.build_dir, "mpidbg", f"libmpidbg_rt_{flavour}.so")
        if not (os.path.exists(exe) and os.path.exists(runtime)):
            print(f"{flavour}: not built ({exe}, {runtime}); skipped", flush=True)
            continue
        libraries = {"runtime": runtime}
        for spec in a.library:
            name, _, path = spec.partition("=")
            if not name or not path or name in RESERVED:
                ap.error(f"--library NAME=PATH, NAME not {'/'.join(RESERVED)}: {spec}")
            path = path.replace("{flavour}", flavour)
            if not os.path.exists(path):
                # A preload the loader cannot find is skipped with a warning, and the run
                # would pass for that library's.
                ap.error(f"--library {name}: no such file: {path}")
            libraries[name] = path
        run = count_loops if a.instructions else time_loops
        result[flavour] = run(a, flavour, exe, libraries)
    print(json.dumps(result, separators=(",", ":")), flush=True)
    return 0 if result else 1


if __name__ == "__main__":
    sys.exit(main())
