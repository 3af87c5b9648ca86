#!/usr/bin/env python3
"""What the runtime costs a program nobody here wrote: the HPC Challenge suite (hpcc).

usage: run_apps.py --build-dir DIR [--rounds N] [--size N] [--library NAME=PATH ...]

mpi_bench (run_bench.py) measures the calls its own loops make. A real program makes
others, in other patterns: hpcc's MPIRandomAccess waits for its messages by polling
MPI_Testany millions of times, its ring latency test runs MPI_Sendrecv, HPL and PTRANS
broadcast and exchange panels, the FFT transposes with MPI_Alltoall. This driver runs
Debian's hpcc (package `hpcc`, built against Open MPI) on 2 ranks, without the runtime
("plain"), with the build directory's runtime preloaded ("runtime") and with every
`--library NAME=PATH` (another build of the runtime), `--rounds` rounds (default 5), the
order rotating from round to round. Each run gets a directory of its own with an
hpccinf.txt made from the package's example: one 1 x 2 process grid and HPL matrix
order `--size` (default 2000; the RandomAccess table and the FFT follow from it).

Reported per component (hpcc's own summary figures): the median over the rounds of
each one's figure, and of its cost factor against the plain run of the same round —
how many times longer the component took with it: plain / with for a rate (Gflop/s,
GUP/s, GB/s), with / plain for a latency. 1.0 costs nothing; 2.0 halves a rate.

Progress lines first; the last line is one JSON object:
  {"hpcc": {COMPONENT: {"plain": x, "runtime": x, NAME: x, ...,
                        "cost": {"runtime": f, NAME: f, ...}}, ...},
   "size": N, "rounds": R}
Exits non-zero if hpcc is missing or a run fails.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench  # noqa: E402

HPCC = "/usr/bin/hpcc"
# The input the package ships (the HPL input format, then hpcc's PTRANS lines).
EXAMPLE = "/usr/share/doc/hpcc/examples/_hpccinf.txt"
FLAVOUR = "openmpi"  # what Debian builds hpcc against

# hpcc summary figures: name -> True when higher is better (a rate), False for a time.
COMPONENTS = {
    "HPL_Tflops": True,
    "PTRANS_GBs": True,
    "MPIRandomAccess_GUPs": True,
    "MPIRandomAccess_LCG_GUPs": True,
    "MPIFFT_Gflops": True,
    "StarSTREAM_Triad": True,
    "AvgPingPongLatency_usec": False,
    "RandomlyOrderedRingLatency_usec": False,
    "NaturallyOrderedRingBandwidth_GBytes": True,
}


def input_file(example_text, size):
    """The package's example input with one problem size `size` and a 1 x 2 grid. The
    HPL input format is positional: line 6 holds the sizes, lines 11 and 12 the grid."""
    lines = example_text.splitlines()
    if len(lines) < 12:
        raise ValueError("the hpcc example input is shorter than the HPL input format")

    def value(line, new):
        parts = line.split(None, 1)
        return f"{new:<12} {parts[1] if len(parts) > 1 else ''}".rstrip()

    lines[5] = value(lines[5], size)  # Ns
    lines[10] = value(lines[10], 1)   # Ps
    lines[11] = value(lines[11], 2)   # Qs
    return "\n".join(lines) + "\n"


def parse_summary(text):
    """hpcc's summary section: `name=value` lines; the figures of COMPONENTS as floats.
    Raises ValueError unless hpcc says Success=1 and every component is there."""
    values = {}
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if sep and name.strip() and " " not in name.strip():
            values[name.strip()] = value.strip()
    if values.get("Success") != "1":
        raise ValueError("hpcc did not report Success=1")
    missing = [c for c in COMPONENTS if c not in values]
    if missing:
        raise ValueError(f"hpcc's summary lacks {missing}")
    return {c: float(values[c]) for c in COMPONENTS}


def cost(component, plain, got):
    """How many times longer the component took than plain (rates inverted)."""
    if plain <= 0 or got <= 0:
        return float("nan")
    return plain / got if COMPONENTS[component] else got / plain


def run_hpcc(workdir, lib, example_text, size, timeout):
    os.makedirs(workdir)
    with open(os.path.join(workdir, "hpccinf.txt"), "w") as f:
        f.write(input_file(example_text, size))
    cmd = list(run_bench.LAUNCH[FLAVOUR])
    if lib:
        cmd += run_bench.PRELOAD[FLAVOUR](lib)
    cmd += [HPCC]
    out = subprocess.run(cmd, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=timeout, check=False)
    report = os.path.join(workdir, "hpccoutf.txt")
    if out.returncode != 0 or not os.path.exists(report):
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {out.returncode}):\n"
                           f"{out.stderr[-2000:]}")
    with open(report) as f:
        return parse_summary(f.read())


def summarise(runs, names):
    """runs: per round, {config: figures}. Medians of the figures and of the per-round
    cost factors against the round's plain run."""
    result = {}
    for c in COMPONENTS:
        entry = {name: statistics.median(r[name][c] for r in runs) for name in ["plain"] + names}
        entry["cost"] = {name: round(statistics.median(cost(c, r["plain"][c], r[name][c])
                                                       for r in runs), 4)
                         for name in names}
        result[c] = entry
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--size", type=int, default=2000)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--library", action="append", default=[], metavar="NAME=PATH")
    a = ap.parse_args()
    if not os.access(HPCC, os.X_OK) or not os.path.exists(EXAMPLE):
        sys.exit(f"run_apps.py: needs Debian's hpcc ({HPCC}, {EXAMPLE}): apt-get install hpcc")
    if a.rounds < 1 or a.size < 100:
        ap.error("rounds >= 1 and size >= 100")
    found = run_bench.built(a.build_dir, FLAVOUR)
    if found is None:
        sys.exit(f"run_apps.py: no {FLAVOUR} runtime in {a.build_dir}")
    libs = {"runtime": found[1]}
    for spec in a.library:
        name, sep, path = spec.partition("=")
        if not sep or not name or name in ("plain", "runtime", "cost") or not os.path.exists(path):
            ap.error(f"--library {spec}: NAME=PATH of an existing file, NAME not plain, "
                     "runtime or cost")
        libs[name] = os.path.abspath(path)
    with open(EXAMPLE) as f:
        example_text = f.read()
    names = list(libs)
    configs = ["plain"] + names
    runs = []
    scratch = tempfile.mkdtemp(prefix="mpidbg-apps-")
    try:
        for r in range(a.rounds):
            order = configs[r % len(configs):] + configs[:r % len(configs)]
            got = {}
            for name in order:
                got[name] = run_hpcc(os.path.join(scratch, f"{r}-{name}"), libs.get(name),
                                     example_text, a.size, a.timeout)
            runs.append(got)
            shown = " ".join(f"{name}={cost(c, got['plain'][c], got[name][c]):.2f}"
                             for name in names for c in ("MPIRandomAccess_GUPs",
                                                         "RandomlyOrderedRingLatency_usec"))
            print(f"hpcc round {r + 1}: cost (RandomAccess, ring latency) {shown}", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(json.dumps({"hpcc": summarise(runs, names), "size": a.size, "rounds": a.rounds},
                     separators=(",", ":")))


if __name__ == "__main__":
    main()
