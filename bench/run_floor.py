#!/usr/bin/env python3
"""What the least possible recording costs: mpi_bench under the floor interposers.

usage: run_floor.py --build-dir DIR [--flavours mpich,openmpi] [--rounds N] [--scale S]
                    [--no-runtime]

bench/floor_interposer.c, built once per set of recording layers (bench/CMakeLists.txt),
wraps only the calls mpi_bench times and does in each only what that set of layers
needs: a lower bound for a recording runtime, not the runtime (nothing it writes is
read). The sets, each LD_PRELOADed in place of the runtime:
  pass     the wrappers only call PMPI: the price of interposing at all
  state    + per-thread nesting flag, call, state and call site, set and cleared
  args     + the raw arguments in a sequence window, a call counter
  clock    + one CLOCK_REALTIME_COARSE reading per outermost call
  records  state + args + per-request ring entries found by handle, Waitall's handles
           resolved before the call, per-(comm, peer, tag) message counters
  all      every layer
  flight   state + the flight recorder: per post one ring entry (also the call's
           arguments), completion found through a direct-mapped table and marked done,
           per-peer message counters in flat arrays, still-pending requests carried
           before the ring overwrites them
  lean     flight's entries alone: no direct table, no counts, a Waitall's handles logged
           before the call, no fold as the ring comes round: the floor of recording each
           call, below any design that keeps what it records
  join     lean + what it leaves out, as the ring comes round: the oldest entries joined
           in order with the completed handles, counted per peer, pending ones carried
  objects  state on the object calls of mpi_bench's churn too (MPI_Type_vector,
           MPI_Type_commit, MPI_Type_free, MPI_Comm_dup, MPI_Comm_free); the sets above
           pass those straight to MPI
  log      flight + objects + a log of object constructor calls: one ring entry per
           new object (handle, input, integers, a type's sizes asked of MPI), found
           again by handle for commit and free, freed ones orphans where they stand
  runtime  libmpidbg_rt_<flavour>.so itself, for comparison (unless --no-runtime)

For each flavour and round the program runs under each set, then the runtime, each
run between two plain runs of its own (run_bench.run_beside_plain: run again when the
two plain runs disagree, the machine having switched speed), the order of the sets
reversed every other round (run_bench.compare_rounds). A ratio is the set's figure over
the mean of its plain runs; the result is the median of the rounds' ratios. The churn
ratios compare the set's runs with its own plain runs by run_bench.py's rule
(run_bench.churn_ratios): a churn loop can settle, per process, at one of two speeds.

Progress goes to stdout; the last line is one JSON object:
  floor   {flavour: {set: {"latency_ratio", "latency_0_ratio", "latency_1024_ratio",
           "message_rate_ratio", "object_churn_ratio", "churn": {"churn_comm",
           "churn_type", "churn_requests"}}}}   (latency and churn: lower is better,
           1.0 = no cost; message rate: higher is better; object_churn_ratio is the
           mean of the three churn ratios, as in run_bench.py)
  paired_ratio
          {flavour: {set: {metric: ratio}}}: the median over the set's runs of mpi_bench's
           <metric>_paired_ratio, its batches recording against batches paused in the
           same process (sets with the state layer, and the runtime; run_bench.py)
  target  {"latency_0_ratio": 1.05, "message_rate_ratio": 0.90,
           "object_churn_ratio": 1.10}, the runtime's goal
  plain   {flavour: the plain program's medians (us, msg/s)}, for the record
Exits non-zero if nothing ran.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench  # noqa: E402

SETS = ("pass", "state", "args", "clock", "records", "all", "flight", "lean", "join", "objects", "log")
TARGET = {"latency_0_ratio": 1.05, "message_rate_ratio": 0.90, "object_churn_ratio": 1.10}


def churn_summary(plain_runs, runs):
    """Each churn ratio by mode, and their mean (run_bench.py's rule)."""
    churn, _ = run_bench.churn_ratios(plain_runs, runs)
    return {"object_churn_ratio": round(statistics.mean(churn.values()), 4), "churn": churn}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    run_bench.add_common_arguments(ap)
    ap.add_argument("--no-runtime", action="store_true",
                    help="leave out the runtime's column")
    a = ap.parse_args()

    result = {"floor": {}, "paired_ratio": {}, "target": TARGET, "plain": {}}
    for flavour in [f for f in a.flavours.split(",") if f]:
        exe, runtime = run_bench.paths(a.build_dir, flavour)
        if not os.path.exists(exe):
            print(f"{flavour}: not built ({exe}); skipped", flush=True)
            continue
        libs = {}
        for name in SETS:
            lib = os.path.join(a.build_dir, "bench", f"libmpidbg_floor_{name}_{flavour}.so")
            if os.path.exists(lib):
                libs[name] = lib
            else:
                print(f"{flavour}: {lib} not built; {name} skipped", flush=True)
        if not a.no_runtime:
            if os.path.exists(runtime):
                libs["runtime"] = runtime
            else:
                print(f"{flavour}: {runtime} not built; runtime skipped", flush=True)
        if not libs:
            print(f"{flavour}: no floor library built; skipped", flush=True)
            continue

        shown = run_bench.METRICS + run_bench.CHURN_METRICS
        configs = [(name, lib, {}) for name, lib in libs.items()]
        ratios, runs, plain_runs = run_bench.compare_rounds(flavour, exe, configs, a.rounds,
                                                            a.scale, a.timeout, shown)
        result["floor"][flavour] = {
            name: {**run_bench.summarise(ratios[name]),
                   **churn_summary(plain_runs[name], runs[name])}
            for name in libs}
        paired = run_bench.paired_by_label(runs, shown)
        if paired:
            result["paired_ratio"][flavour] = paired
        result["plain"][flavour] = run_bench.medians(sum(plain_runs.values(), []), shown)
    print(json.dumps(result, separators=(",", ":")), flush=True)
    return 0 if result["floor"] else 1


if __name__ == "__main__":
    sys.exit(main())
