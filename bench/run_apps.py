#!/usr/bin/env python3
"""What the runtime costs programs nobody here wrote: the HPC Challenge suite (hpcc) and
a LAMMPS molecular-dynamics run.

usage: run_apps.py --build-dir DIR [--apps hpcc,lammps] [--rounds N] [--size N]
                   [--steps N] [--library NAME=PATH ...]

mpi_bench (run_bench.py) measures the calls its own loops make. A real program makes
others, in other patterns: hpcc's MPIRandomAccess waits for its messages by polling
MPI_Testany millions of times, its ring latency test runs MPI_Sendrecv, HPL and PTRANS
broadcast and exchange panels, the FFT transposes with MPI_Alltoall; LAMMPS exchanges
each step's halo atoms with MPI_Irecv, MPI_Send and MPI_Wait per swap, envelopes that
alternate (a tag and a count per direction). This driver runs Debian's hpcc (package
`hpcc`) and LAMMPS (package `lammps`, `lmp`), both built against Open MPI, on 2 ranks,
without the runtime ("plain"), with the build directory's runtime preloaded ("runtime")
and with every `--library NAME=PATH` (another build of the runtime), `--rounds` rounds
(default 5), the order rotating from round to round.

hpcc: each run gets a directory of its own with an hpccinf.txt made from the package's
example: one 1 x 2 process grid and HPL matrix order `--size` (default 2000; the
RandomAccess table and the FFT follow from it). Its components are hpcc's own summary
figures.

LAMMPS: bench/lammps_melt.in, a Lennard-Jones liquid of 864 atoms, `--steps` steps
(default 4000); its components are the loop's time and the time the ranks spent in
communication on average (LAMMPS's "Loop time" and "Comm" lines).

Reported per component: the median over the rounds of each one's figure, and of its
cost factor against the plain run of the same round — how many times longer the
component took with it: plain / with for a rate (Gflop/s, GUP/s, GB/s), with / plain
for a time. 1.0 costs nothing; 2.0 halves a rate.

Progress lines first; the last line is one JSON object:
  {"hpcc": {COMPONENT: {"plain": x, "runtime": x, NAME: x, ...,
                        "cost": {"runtime": f, NAME: f, ...}}, ...},
   "lammps": {...}, "size": N, "steps": N, "rounds": R}
Exits non-zero if a program asked for is missing or a run fails.
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

import re

HPCC = "/usr/bin/hpcc"
LMP = "/usr/bin/lmp"
LAMMPS_INPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lammps_melt.in")
# The input the package ships (the HPL input format, then hpcc's PTRANS lines).
EXAMPLE = "/usr/share/doc/hpcc/examples/_hpccinf.txt"
FLAVOUR = "openmpi"  # what Debian builds hpcc and LAMMPS against

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
# LAMMPS figures (times, seconds).
LAMMPS_COMPONENTS = {"Loop_time_s": False, "Comm_time_s": False}


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


def parse_lammps(text):
    """LAMMPS's screen output: the loop's time ("Loop time of T on P procs for N steps")
    and the average time in communication (the "Comm" row of the MPI task timing
    breakdown: min, avg, max, %varavg, %total). Raises ValueError if either is missing."""
    loop = re.search(r"^Loop time of ([0-9.eE+-]+) on \d+ procs", text, re.M)
    comm = re.search(r"^Comm\s*\|\s*[0-9.eE+-]+\s*\|\s*([0-9.eE+-]+)\s*\|", text, re.M)
    if loop is None or comm is None:
        raise ValueError("LAMMPS's output lacks its loop time or its Comm timing row")
    return {"Loop_time_s": float(loop.group(1)), "Comm_time_s": float(comm.group(1))}


def cost(component, plain, got):
    """How many times longer the component took than plain (rates inverted)."""
    if plain <= 0 or got <= 0:
        return float("nan")
    higher_is_better = COMPONENTS.get(component, LAMMPS_COMPONENTS.get(component))
    return plain / got if higher_is_better else got / plain


def launch(lib):
    cmd = list(run_bench.LAUNCH[FLAVOUR])
    if lib:
        cmd += run_bench.PRELOAD[FLAVOUR](lib)
    return cmd


def run_lammps(workdir, lib, steps, timeout):
    os.makedirs(workdir)
    cmd = launch(lib) + [LMP, "-in", LAMMPS_INPUT, "-log", "none", "-var", "steps", str(steps)]
    out = subprocess.run(cmd, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=timeout, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {out.returncode}):\n"
                           f"{out.stderr[-2000:]}")
    return parse_lammps(out.stdout)


def run_hpcc(workdir, lib, example_text, size, timeout):
    os.makedirs(workdir)
    with open(os.path.join(workdir, "hpccinf.txt"), "w") as f:
        f.write(input_file(example_text, size))
    cmd = launch(lib) + [HPCC]
    out = subprocess.run(cmd, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=timeout, check=False)
    report = os.path.join(workdir, "hpccoutf.txt")
    if out.returncode != 0 or not os.path.exists(report):
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {out.returncode}):\n"
                           f"{out.stderr[-2000:]}")
    with open(report) as f:
        return parse_summary(f.read())


def summarise(runs, names, components=COMPONENTS):
    """runs: per round, {config: figures}. Medians of the figures and of the per-round
    cost factors against the round's plain run."""
    result = {}
    for c in components:
        entry = {name: statistics.median(r[name][c] for r in runs) for name in ["plain"] + names}
        entry["cost"] = {name: round(statistics.median(cost(c, r["plain"][c], r[name][c])
                                                       for r in runs), 4)
                         for name in names}
        result[c] = entry
    return result


def main():
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--apps", default="hpcc,lammps")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--size", type=int, default=2000)
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--library", action="append", default=[], metavar="NAME=PATH")
    a = ap.parse_args()
    apps = [x for x in a.apps.split(",") if x]
    if not apps or any(x not in ("hpcc", "lammps") for x in apps):
        ap.error("--apps: hpcc, lammps or both")
    if "hpcc" in apps and (not os.access(HPCC, os.X_OK) or not os.path.exists(EXAMPLE)):
        sys.exit(f"run_apps.py: needs Debian's hpcc ({HPCC}, {EXAMPLE}): apt-get install hpcc")
    if "lammps" in apps and not os.access(LMP, os.X_OK):
        sys.exit(f"run_apps.py: needs Debian's LAMMPS ({LMP}): apt-get install lammps")
    if a.rounds < 1 or a.size < 100 or a.steps < 100:
        ap.error("rounds >= 1, size >= 100 and steps >= 100")
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
    example_text = ""
    if "hpcc" in apps:
        with open(EXAMPLE) as f:
            example_text = f.read()
    names = list(libs)
    configs = ["plain"] + names
    runs = {app: [] for app in apps}
    shown = {"hpcc": ("MPIRandomAccess_GUPs", "RandomlyOrderedRingLatency_usec"),
             "lammps": ("Loop_time_s", "Comm_time_s")}
    scratch = tempfile.mkdtemp(prefix="mpidbg-apps-")
    try:
        for r in range(a.rounds):
            order = configs[r % len(configs):] + configs[:r % len(configs)]
            for app in apps:
                got = {}
                for name in order:
                    workdir = os.path.join(scratch, f"{app}-{r}-{name}")
                    if app == "hpcc":
                        got[name] = run_hpcc(workdir, libs.get(name), example_text, a.size,
                                             a.timeout)
                    else:
                        got[name] = run_lammps(workdir, libs.get(name), a.steps, a.timeout)
                runs[app].append(got)
                costs = " ".join(f"{name}={cost(c, got['plain'][c], got[name][c]):.2f}"
                                 for name in names for c in shown[app])
                print(f"{app} round {r + 1}: cost ({', '.join(shown[app])}) {costs}", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    result = {}
    for app in apps:
        result[app] = summarise(runs[app], names,
                                COMPONENTS if app == "hpcc" else LAMMPS_COMPONENTS)
    result.update({"size": a.size, "steps": a.steps, "rounds": a.rounds})
    print(json.dumps(result, separators=(",", ":")))


if __name__ == "__main__":
    main()
