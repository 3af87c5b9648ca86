#!/usr/bin/env python3
"""Runs the overhead benchmark: mpi_bench with and without the mpidbg runtime.

usage: run_bench.py --build-dir DIR [--flavours mpich,openmpi] [--rounds N] [--scale S]
                    [--instructions]

For each flavour and round, the same 2-rank program runs with the runtime LD_PRELOADed
between two plain runs of its own (run_beside_plain: when the two plain runs disagree,
the machine switched speed, and the three are run again). Each run reports the median
of several batches; a round's ratio is with / the mean of its plain runs, and the result
is the median of the rounds' ratios; the churn figures are compared by mode
(churn_ratios).

Both flavours bind each rank to its own core (LAUNCH): Open MPI does so by default for 2
ranks, MPICH's hydra does not bind at all unless told (-bind-to core), and an unbound
rank the scheduler moves between cores adds noise to every mode that launches through
here (run_cost.py and run_floor.py too).

Progress goes to stdout line by line; the last line is one JSON object:
  latency_ratio        mean of the 0 B and 1 KiB one-way latency ratios (lower is better)
  latency_0_ratio, latency_1024_ratio
  message_rate_ratio   messages per second with / without (higher is better)
  object_churn_ratio   mean of the churn ratios (time with / without, lower is better):
  churn                churn_comm (MPI_Comm_dup + free), churn_type (a vector type
                       created, committed, freed), churn_requests (per request of a loop of
                       nonblocking and persistent requests made, completed and freed),
                       each the median of the runtime's runs over the median of the plain
                       runs, of the lower modes where both sides show two (churn_ratios)
  churn_runs_used      for each churn figure, how many runs of each side the ratio used:
                       {"plain": [k, n], "runtime": [k, n]}
  large_count          where the MPI has MPI_Send_c & co.: latency_0_c_ratio and
                       message_rate_c_ratio (with / without, as above), and their
                       quotients by latency_0_ratio and message_rate_ratio: 1.0 when a
                       large-count call costs the runtime what its plain twin costs
  paired_ratio         per metric, the median over the runtime's runs of mpi_bench's
                       <metric>_paired_ratio: its batches with recording on against
                       batches paired with them in the same process with recording
                       paused (mpidbg_pause_recording): what recording itself costs,
                       measured within one mode of the machine; beside the ratios above,
                       which compare processes and so the machine's modes too
  request_bytes        runtime memory per live request (root.request_bytes)
  orphan_budget        records of freed handles kept (root.orphan_budget)
  plain, runtime       the medians themselves (us, msg/s), for the record
  instructions         with --instructions: what the runtime adds per call, and MPI's own
                       sends, counted with callgrind (count_instructions.py), a figure
                       that does not depend on the machine's load
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

LAUNCH = {
    "mpich": ["mpiexec.mpich", "-bind-to", "core", "-n", "2"],
    "openmpi": ["mpiexec.openmpi", "--allow-run-as-root", "-n", "2"],
}
PRELOAD = {
    "mpich": lambda lib: ["-env", "LD_PRELOAD", lib],
    "openmpi": lambda lib: ["-x", "LD_PRELOAD=" + lib],
}
METRICS = ("latency_0", "latency_1024", "message_rate")
# Object churn (mpi_bench.c): microseconds per iteration, lower is better.
CHURN_METRICS = ("churn_comm", "churn_type", "churn_requests")
# The same through the MPI-4 large-count twins, where the MPI has them (mpi_bench.c).
LARGE_COUNT_METRICS = ("latency_0_c", "message_rate_c")


# Passing one more environment variable to the ranks.
ENV = {
    "mpich": lambda name, value: ["-env", name, value],
    "openmpi": lambda name, value: ["-x", f"{name}={value}"],
}


def run_once(flavour, exe, runtime, scale, timeout, env=None, required=METRICS + CHURN_METRICS,
             ranks=None):
    """One run of the program; `env` adds variables to the ranks' environment, and the
    run fails unless it printed every metric in `required`. `ranks`: the ranks (of the
    two) that get `runtime` preloaded, every one when None; a subset launches each rank
    as an application context of its own (MPMD), its environment set by env(1)."""
    if ranks is None:
        cmd = list(LAUNCH[flavour])
        if runtime:
            cmd += PRELOAD[flavour](runtime)
        for name, value in (env or {}).items():
            cmd += ENV[flavour](name, value)
        cmd += [exe, str(scale)]
    else:
        launch = LAUNCH[flavour]
        cmd = launch[:launch.index("-n")]
        for rank in (0, 1):
            variables = [f"{name}={value}" for name, value in (env or {}).items()]
            if runtime and rank in ranks:
                variables.append(f"LD_PRELOAD={runtime}")
            cmd += ([":"] if rank else []) + ["-n", "1", "env"] + variables + [exe, str(scale)]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         timeout=timeout, check=False)
    values = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            try:
                values[parts[0]] = float(parts[1])
            except ValueError:
                pass
    missing = [m for m in required if m not in values]
    if out.returncode != 0 or missing:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {out.returncode}, missing "
                           f"{missing}):\n{out.stderr[-2000:]}")
    return values


def run_beside_plain(flavour, exe, lib, scale, timeout, lib_env=None, program_env=None,
                     required=METRICS + CHURN_METRICS, tolerance=0.25, tries=3, ranks=None):
    """One run with `lib` preloaded between two plain runs: (plain, with, beside), `plain`
    the mean of the two, `beside` the two themselves (before, after). `lib_env` goes to
    the preloaded run only, `program_env` to all three; `ranks` says which ranks get
    `lib` (run_once). A driver that compares many configurations gives each plain runs
    of its own: this kind of machine switches between a fast and a slow mode within
    minutes (MPICH's 0-byte latency 0.15 or 0.65 us), more often than a round of many
    configurations lasts. When the two plain runs' 0-byte latency or message rate differ
    by more than `tolerance`, the machine switched during the three runs and they are
    run again, up to `tries` times in all; the last try stands, with a warning. (A
    switch changes them by a factor of 2 to 4; two plain runs in one mode differ by up
    to 18 %.)"""
    plain_env = dict(program_env or {})
    lib_run_env = {**plain_env, **(lib_env or {})}
    for attempt in range(tries):
        before = run_once(flavour, exe, None, scale, timeout, env=plain_env, required=required)
        got = run_once(flavour, exe, lib, scale, timeout, env=lib_run_env, required=required,
                       ranks=ranks)
        after = run_once(flavour, exe, None, scale, timeout, env=plain_env, required=required)
        drift = max(abs(before[m] - after[m]) / min(before[m], after[m])
                    for m in ("latency_0", "message_rate") if m in before and m in after)
        if drift <= tolerance:
            break
        print(f"  (the plain runs around {os.path.basename(lib)} differ by {drift:.0%}: "
              + ("run again)" if attempt + 1 < tries else "kept)"), flush=True)
    plain = {m: (before[m] + after[m]) / 2 for m in before if m in after}
    return plain, got, (before, after)


def compare_rounds(flavour, exe, configs, rounds, scale, timeout, shown, rotate=False):
    """The round loop of the drivers that compare configurations, each beside plain runs
    of its own (run_beside_plain). `configs`: (label, library, keyword arguments of
    run_beside_plain) each; a round runs every configuration once, in an order reversed
    every other round, or rotated by one each round (`rotate`), and prints each one's
    ratios for the metrics in `shown` that the runs reported. Returns (ratios, runs,
    plain_runs), each by label: its rounds' {metric: figure / mean of its plain runs},
    its runs, and its plain runs one by one."""
    ratios = {label: [] for label, _, _ in configs}
    runs = {label: [] for label, _, _ in configs}
    plain_runs = {label: [] for label, _, _ in configs}
    for r in range(rounds):
        if rotate:
            order = configs[r % len(configs):] + configs[:r % len(configs)]
        else:
            order = configs if r % 2 == 0 else configs[::-1]
        line, reported = [], []
        for label, lib, keywords in order:
            plain, got, beside = run_beside_plain(flavour, exe, lib, scale, timeout, **keywords)
            plain_runs[label].extend(beside)
            runs[label].append(got)
            reported = [m for m in shown if m in got and m in plain]
            ratios[label].append({m: got[m] / plain[m] for m in reported})
            line.append(f"{label} " + "/".join(f"{got[m] / plain[m]:.3f}" for m in reported))
        print(f"{flavour} round {r + 1}/{rounds} ratios " + "/".join(reported) + ": "
              + "; ".join(line), flush=True)
    return ratios, runs, plain_runs


def paths(build_dir, flavour):
    """The benchmark program and the runtime library of `flavour` in a build directory."""
    return (os.path.join(build_dir, "bench", f"mpi_bench_{flavour}"),
            os.path.join(build_dir, "mpidbg", f"libmpidbg_rt_{flavour}.so"))


def built(build_dir, flavour):
    """paths() if both are built, else None after saying which flavour is skipped."""
    exe, lib = paths(build_dir, flavour)
    if os.path.exists(exe) and os.path.exists(lib):
        return exe, lib
    print(f"{flavour}: not built ({exe}, {lib}); skipped", flush=True)
    return None


def add_common_arguments(ap):
    """The options every benchmark driver takes (this one, run_cost.py, run_floor.py)."""
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--flavours", default="mpich,openmpi")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--timeout", type=int, default=300)


def median_ratios(per_round, metrics):
    """{"<metric>_ratio": median over the rounds' ratios}, as the drivers print them."""
    return {f"{m}_ratio": round(statistics.median(r[m] for r in per_round), 4) for m in metrics}


def medians(runs, metrics):
    """The median of each metric's figures over runs (us, msg/s): a driver's "plain"."""
    return {m: statistics.median(r[m] for r in runs) for m in metrics}


# A run whose churn figure is above its mode's lowest by more than this factor is in
# another, upper mode (split_modes).
MODE_GAP = 1.3


def split_modes(values, gap=MODE_GAP):
    """(lower, upper_exists): the runs of the lowest mode of `values` and whether runs
    above it exist. A mode is two runs or more within `gap` of its lowest: a lone run
    below the rest (a process that ran while the machine was in a faster mode) is passed
    over, not taken for a mode."""
    ordered = sorted(values)
    for i, low in enumerate(ordered):
        mode = [v for v in ordered[i:] if v <= low * gap]
        if len(mode) >= 2:
            return mode, i + len(mode) < len(ordered)
    return ordered, False


def churn_ratios(plain_runs, runtime_runs, metrics=CHURN_METRICS):
    """({metric: ratio}, {metric: {"plain": [k, n], "runtime": [k, n]}}) over the metrics
    both sides reported. A churn loop can settle, for a whole process, at one of two
    speeds that differ by a factor of 2 or more, whether the runtime is there or not:
    MPICH 4.0's datatype loop (churn_type) runs 0.15 or 0.36 us per cycle plain, 0.25
    or 0.48 with the runtime, about as often each, and always the fast one with
    address-space randomisation off (setarch -R). A ratio of two runs then measures which
    speed each process drew. So where both sides show two modes, the ratio is of the
    medians of their lower modes; otherwise of the medians of all their runs (a single
    mode, or two on one side only: that is the runtime's doing, or the machine's, and
    stays in the figure). The counts say how many runs of each side the ratio used."""
    ratios, counts = {}, {}
    for m in metrics:
        plain = [r[m] for r in plain_runs if m in r]
        runtime = [r[m] for r in runtime_runs if m in r]
        if not plain or not runtime:
            continue
        (lp, plain_upper), (lr, runtime_upper) = split_modes(plain), split_modes(runtime)
        if not (plain_upper and runtime_upper):
            lp, lr = plain, runtime
        ratios[m] = round(statistics.median(lr) / statistics.median(lp), 4)
        counts[m] = {"plain": [len(lp), len(plain)], "runtime": [len(lr), len(runtime)]}
    return ratios, counts


def paired_ratios(runs, metrics):
    """Median over runs of each metric's <metric>_paired_ratio (mpi_bench.c), for the
    metrics the runs paired."""
    out = {}
    for m in metrics:
        values = [r[f"{m}_paired_ratio"] for r in runs if f"{m}_paired_ratio" in r]
        if values:
            out[m] = round(statistics.median(values), 4)
    return out


def paired_by_label(runs, metrics):
    """{label: paired_ratios of its runs} for the labels (configurations, floor sets)
    whose runs paired at all; `runs`: {label: its runs}."""
    out = {}
    for label, label_runs in runs.items():
        figures = paired_ratios(label_runs, metrics)
        if figures:
            out[label] = figures
    return out


def summarise(per_round):
    """Median over rounds of per-metric ratios, as the JSON keys the drivers print."""
    med = {m: statistics.median(r[m] for r in per_round) for m in METRICS}
    return {"latency_ratio": round((med["latency_0"] + med["latency_1024"]) / 2, 4),
            "latency_0_ratio": round(med["latency_0"], 4),
            "latency_1024_ratio": round(med["latency_1024"], 4),
            "message_rate_ratio": round(med["message_rate"], 4)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(ap)
    ap.add_argument("--instructions", action="store_true")
    a = ap.parse_args()

    result = {"latency_ratio": {}, "latency_0_ratio": {}, "latency_1024_ratio": {},
              "message_rate_ratio": {}, "object_churn_ratio": {}, "churn": {},
              "churn_runs_used": {},
              "large_count": {}, "paired_ratio": {}, "request_bytes": {}, "orphan_budget": {},
              "plain": {}, "runtime": {}}
    for flavour in [f for f in a.flavours.split(",") if f]:
        found = built(a.build_dir, flavour)
        if found is None:
            continue
        exe, lib = found
        # The runtime between two plain runs of its own each round (run_beside_plain).
        by_round, runs, plains = compare_rounds(flavour, exe, [("runtime", lib, {})],
                                                a.rounds, a.scale, a.timeout,
                                                METRICS + CHURN_METRICS + LARGE_COUNT_METRICS)
        per_round = by_round["runtime"]
        runtime_runs, plain_runs = runs["runtime"], plains["runtime"]
        extra = runtime_runs[-1]
        for key, value in summarise(per_round).items():
            result[key][flavour] = value
        churn, counts = churn_ratios(plain_runs, runtime_runs)
        result["churn"][flavour] = churn
        result["churn_runs_used"][flavour] = counts
        result["object_churn_ratio"][flavour] = round(statistics.mean(churn.values()), 4)
        if all(any(m in r for r in per_round) for m in LARGE_COUNT_METRICS):
            med = {m: statistics.median(r[m] for r in per_round if m in r)
                   for m in ("latency_0", "message_rate") + LARGE_COUNT_METRICS}
            result["large_count"][flavour] = {
                "latency_0_c_ratio": round(med["latency_0_c"], 4),
                "message_rate_c_ratio": round(med["message_rate_c"], 4),
                "latency_0_c_vs_plain": round(med["latency_0_c"] / med["latency_0"], 4),
                "message_rate_c_vs_plain": round(med["message_rate_c"] / med["message_rate"], 4)}
        paired = paired_ratios(runtime_runs, METRICS + LARGE_COUNT_METRICS + CHURN_METRICS)
        if paired:
            result["paired_ratio"][flavour] = paired
        result["plain"][flavour] = medians(plain_runs, METRICS + CHURN_METRICS)
        result["runtime"][flavour] = medians(runtime_runs, METRICS + CHURN_METRICS)
        if "request_bytes" in extra:
            result["request_bytes"][flavour] = int(extra["request_bytes"])
        if "orphan_budget" in extra:
            result["orphan_budget"][flavour] = int(extra["orphan_budget"])
    if a.instructions:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import count_instructions
        print("counting instructions under callgrind", flush=True)
        result["instructions"] = count_instructions.count(
            a.build_dir, [f for f in a.flavours.split(",") if f])
    print(json.dumps(result, sort_keys=False, separators=(",", ":")), flush=True)
    return 0 if result["latency_ratio"] else 1


if __name__ == "__main__":
    sys.exit(main())
