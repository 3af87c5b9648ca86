#!/usr/bin/env python3
"""What monitoring and MPI-state sampling cost: mpi_bench under four configurations.

usage: run_cost.py --build-dir DIR [--flavours mpich,openmpi] [--rounds N] [--scale S]
                   [--profile-hz HZ]

For each flavour and round the same 2-rank program (bench/mpi_bench.c: 0 B and 1 KiB
ping-pong latency, message rate) runs four times, in an order that rotates between
rounds: without the runtime ("plain"), with the runtime ("runtime"), with the runtime
and monitoring on (MPIDBG_MONITOR, the job file written to a temporary folder:
"monitor"), and with the runtime and MPI-state sampling on (MPIDBG_PROFILE at HZ,
default 100: "profile"). A round's ratio compares two of them; the result is the median
of the rounds' ratios.

Progress goes to stdout; the last line is one JSON object:
  monitoring  {flavour: {"vs_runtime": R, "vs_plain": R}}   monitor / runtime, monitor / plain
  profiling   {flavour: {"vs_off": R, "vs_plain": R}}       profile / runtime, profile / plain
  runtime     {flavour: R}                                   runtime / plain
  paired_ratio
              {flavour: {config: {metric: ratio}}}: the median over a configuration's
              runs of mpi_bench's <metric>_paired_ratio, its batches recording against
              batches paused in the same process (run_bench.py). A pause stops recording
              and monitoring's counting alike, so "monitor" is what both cost together;
              sampling goes on in paused batches, so "profile" is what recording costs
              beside it.
where each R is {"latency_ratio", "latency_0_ratio", "latency_1024_ratio",
"message_rate_ratio"} (latency: lower is better, 1.0 = no cost; message rate: higher is
better). Open MPI's own monitoring components are not enabled here: this measures what
the runtime adds.
"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench  # noqa: E402

CONFIGS = ("plain", "runtime", "monitor", "profile")
PAIRS = {  # result key -> (numerator, denominator)
    ("runtime", None): ("runtime", "plain"),
    ("monitoring", "vs_runtime"): ("monitor", "runtime"),
    ("monitoring", "vs_plain"): ("monitor", "plain"),
    ("profiling", "vs_off"): ("profile", "runtime"),
    ("profiling", "vs_plain"): ("profile", "plain"),
}


def ratios_of(num, den):
    return {m: num[m] / den[m] for m in run_bench.METRICS}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    run_bench.add_common_arguments(ap)
    ap.add_argument("--profile-hz", type=int, default=100)
    a = ap.parse_args()

    result = {"monitoring": {}, "profiling": {}, "runtime": {}, "paired_ratio": {}}
    with tempfile.TemporaryDirectory(prefix="mpidbg-cost-") as tmp:
        for flavour in [f for f in a.flavours.split(",") if f]:
            found = run_bench.built(a.build_dir, flavour)
            if found is None:
                continue
            exe, lib = found
            setups = {
                "plain": (None, {}),
                "runtime": (lib, {}),
                "monitor": (lib, {"MPIDBG_MONITOR": os.path.join(tmp, f"monitor-{flavour}.json")}),
                "profile": (lib, {"MPIDBG_PROFILE": str(a.profile_hz),
                                  "MPIDBG_PROFILE_OUT": os.path.join(tmp, f"profile-{flavour}.json")}),
            }
            rounds = {key: [] for key in PAIRS}
            runs = {config: [] for config in CONFIGS}
            for r in range(a.rounds):
                order = CONFIGS[r % len(CONFIGS):] + CONFIGS[:r % len(CONFIGS)]
                got = {}
                for config in order:
                    runtime, env = setups[config]
                    got[config] = run_bench.run_once(flavour, exe, runtime, a.scale, a.timeout, env)
                    runs[config].append(got[config])
                for key, (num, den) in PAIRS.items():
                    rounds[key].append(ratios_of(got[num], got[den]))
                print(f"{flavour} round {r + 1}/{a.rounds}: " + "; ".join(
                    f"{c} " + ", ".join(f"{m} {got[c][m]:.4g}" for m in run_bench.METRICS)
                    for c in CONFIGS), flush=True)
            paired = run_bench.paired_by_label(runs, run_bench.METRICS)
            if paired:
                result["paired_ratio"][flavour] = paired
            for (group, name), per_round in rounds.items():
                if name is None:
                    result[group][flavour] = run_bench.summarise(per_round)
                else:
                    result[group].setdefault(flavour, {})[name] = run_bench.summarise(per_round)
    print(json.dumps(result, separators=(",", ":")), flush=True)
    return 0 if result["runtime"] else 1


if __name__ == "__main__":
    sys.exit(main())
