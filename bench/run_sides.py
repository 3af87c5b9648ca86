#!/usr/bin/env python3
"""Which rank's recording costs latency or message rate: the runtime on one rank only.

usage: run_sides.py --build-dir DIR [--flavours mpich,openmpi] [--rounds N] [--scale S]

mpi_bench (its latency and message-rate parts; MPIDBG_BENCH_CHURN=0) runs with the
runtime preloaded into both ranks ("both"), into rank 0 only ("rank0") and into rank 1
only ("rank1"), each rank of a one-sided run launched as an application context of its
own (run_bench.run_once, `ranks`). In the message-rate loop rank 0 posts the
nonblocking sends and rank 1 the receives; the ping-pong is symmetric. A rate that
follows "rank0" and not "rank1" is set by the sender's time per message, and then
nothing the receiver records can cost it, nor recording less there gain it.

Each round runs the three configurations, each between two plain runs of its own
(run_bench.run_beside_plain), in an order that rotates between rounds; a ratio is the
configuration's figure over the mean of its plain runs; the result is the median of
the rounds' ratios.

Progress goes to stdout; the last line is one JSON object:
  sides  {flavour: {"both"|"rank0"|"rank1": {"latency_0_ratio", "latency_1024_ratio",
         "message_rate_ratio"}}}
  plain  {flavour: {"latency_0", "latency_1024", "message_rate"}}: the medians of the
         plain runs (us, msg/s)
Exits non-zero if nothing ran.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench  # noqa: E402

SIDES = (("both", None), ("rank0", {0}), ("rank1", {1}))
MEASURED = ("latency_0", "latency_1024", "message_rate")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    run_bench.add_common_arguments(ap)
    ap.set_defaults(scale=0.5)
    a = ap.parse_args()

    result = {"sides": {}, "plain": {}}
    for flavour in [f for f in a.flavours.split(",") if f]:
        found = run_bench.built(a.build_dir, flavour)
        if found is None:
            continue
        exe, lib = found
        keywords = {"program_env": {"MPIDBG_BENCH_CHURN": "0"}, "required": MEASURED}
        configs = [(label, lib, {**keywords, "ranks": ranks}) for label, ranks in SIDES]
        ratios, _, plain_runs = run_bench.compare_rounds(flavour, exe, configs, a.rounds,
                                                         a.scale, a.timeout, MEASURED,
                                                         rotate=True)
        result["sides"][flavour] = {label: run_bench.median_ratios(ratios[label], MEASURED)
                                    for label, _ in SIDES}
        result["plain"][flavour] = run_bench.medians(sum(plain_runs.values(), []), MEASURED)
    print(json.dumps(result, separators=(",", ":")), flush=True)
    return 0 if result["sides"] else 1


if __name__ == "__main__":
    sys.exit(main())
