#!/usr/bin/env python3
"""Where in a call added time costs latency or message rate: mpi_bench under a fixed wait.

usage: run_critical.py --build-dir DIR [--flavours mpich,openmpi] [--rounds N]
                       [--scale S] [--points P,...] [--delays NS,...]

bench/delay_interposer.c (libmpidbg_delay_<flavour>.so) waits a set number of
nanoseconds at one point of one call — before its PMPI call is entered (send_entry,
recv_entry, isend_entry, irecv_entry, waitall_entry) or after it returns (send_return,
...) — and does nothing else. mpi_bench (its latency and message-rate parts;
MPIDBG_BENCH_CHURN=0) runs plain, interposed with no wait ("none"), and with each wait
at each point. The ping-pong's latency answers the MPI_Send and MPI_Recv points, the
message rate the MPI_Isend, MPI_Irecv and MPI_Waitall ones. A recording layer's work
before a send and after a receive is on a ping-pong's critical path: the peer waits
for it. Work after a send returns or before a receive is entered overlaps the
message's flight. How the ratios answer a few nanoseconds at each point also shows
whether they follow the added time or move in steps (a progress loop's poll period):
mpidbg/doc/hot_path.md, "Where a call's time counts".

Each round runs every configuration once, each between two plain runs of its own
(run_bench.run_beside_plain: run again when the two plain runs disagree, the machine
having switched speed), the order of configurations reversed every other round; a
ratio is the configuration's figure over the mean of its plain runs; the result is the
median of the rounds' ratios.

Progress goes to stdout; the last line is one JSON object:
  critical  {flavour: {"none": {"latency_0_ratio", "latency_1024_ratio",
             "message_rate_ratio"}, point: {ns: {the same}}}}
  plain     {flavour: {"latency_0", "latency_1024", "message_rate"}}: the medians of
            the plain runs (us, msg/s)
Exits non-zero if nothing ran.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench  # noqa: E402

POINTS = tuple(f"{call}_{where}" for call in ("send", "recv", "isend", "irecv", "waitall")
               for where in ("entry", "return"))
MEASURED = ("latency_0", "latency_1024", "message_rate")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    run_bench.add_common_arguments(ap)
    ap.set_defaults(scale=0.3)
    ap.add_argument("--points", default=",".join(POINTS))
    ap.add_argument("--delays", default="5,40", help="waits in nanoseconds")
    a = ap.parse_args()
    points = [p for p in a.points.split(",") if p]
    unknown = [p for p in points if p not in POINTS]
    if unknown:
        ap.error(f"unknown points {unknown}; known: {', '.join(POINTS)}")
    delays = [int(d) for d in a.delays.split(",") if d]
    if any(d <= 0 for d in delays):
        ap.error("--delays are positive nanoseconds")

    result = {"critical": {}, "plain": {}}
    for flavour in [f for f in a.flavours.split(",") if f]:
        exe, _ = run_bench.paths(a.build_dir, flavour)
        lib = os.path.join(a.build_dir, "bench", f"libmpidbg_delay_{flavour}.so")
        if not (os.path.exists(exe) and os.path.exists(lib)):
            print(f"{flavour}: not built ({exe}, {lib}); skipped", flush=True)
            continue
        # Each interposed run: no wait, then every point and wait.
        keywords = {"program_env": {"MPIDBG_BENCH_CHURN": "0"}, "required": MEASURED}
        configs = [("none", lib, keywords)]
        configs += [(f"{p}+{d}", lib,
                     {**keywords, "lib_env": {"MPIDBG_DELAY_AT": p, "MPIDBG_DELAY_NS": str(d)}})
                    for p in points for d in delays]
        ratios, _, plain_runs = run_bench.compare_rounds(flavour, exe, configs, a.rounds,
                                                         a.scale, a.timeout, MEASURED)

        out = {"none": run_bench.median_ratios(ratios["none"], MEASURED)}
        for p in points:
            out[p] = {str(d): run_bench.median_ratios(ratios[f"{p}+{d}"], MEASURED)
                      for d in delays}
        result["critical"][flavour] = out
        result["plain"][flavour] = run_bench.medians(sum(plain_runs.values(), []), MEASURED)
    print(json.dumps(result, separators=(",", ":")), flush=True)
    return 0 if result["critical"] else 1


if __name__ == "__main__":
    sys.exit(main())
