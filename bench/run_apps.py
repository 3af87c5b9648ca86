#!/usr/bin/env python3
"""What the runtime costs programs nobody here wrote: the HPC Challenge suite (hpcc), a
LAMMPS molecular-dynamics run and NetPIPE's ping-pong.

usage: run_apps.py --build-dir DIR [--apps hpcc,lammps,netpipe] [--rounds N] [--size N]
                   [--steps N] [--repeats N] [--library NAME=PATH ...]

mpi_bench (run_bench.py) measures the calls its own loops make. A real program makes
others, in other patterns: hpcc's MPIRandomAccess waits for its messages by polling
MPI_Testany millions of times, its ring latency test runs MPI_Sendrecv, HPL and PTRANS
broadcast and exchange panels, the FFT transposes with MPI_Alltoall; LAMMPS exchanges
each step's halo atoms with MPI_Irecv, MPI_Send and MPI_Wait per swap, envelopes that
alternate (a tag and a count per direction); NetPIPE times a ping-pong over a range of
message sizes, with MPI_Send and MPI_Recv or with a receive posted ahead (MPI_Irecv,
MPI_Wait). This driver runs Debian's builds of them on 2 ranks — hpcc (package `hpcc`)
and LAMMPS (`lammps`, `lmp`) are built against Open MPI, NetPIPE's `NPmpich2`
(`netpipe-mpich2`) against MPICH — without the runtime ("plain"), with the build
directory's runtime of the program's MPI preloaded ("runtime") and with every
`--library NAME=PATH` (another build of the runtime; `{flavour}` in PATH is replaced by
the program's MPI, openmpi or mpich), `--rounds` rounds (default 5), the order rotating
from round to round.

hpcc: each run gets a directory of its own with an hpccinf.txt made from the package's
example: one 1 x 2 process grid and HPL matrix order `--size` (default 2000; the
RandomAccess table and the FFT follow from it). Its components are hpcc's own summary
figures.

LAMMPS: bench/lammps_melt.in, a Lennard-Jones liquid of 864 atoms, `--steps` steps
(default 4000); its components are the loop's time and the time the ranks spent in
communication on average (LAMMPS's "Loop time" and "Comm" lines).

NetPIPE: message sizes 1 B to 1 KiB without perturbation, `--repeats` ping-pongs per
size (default 50000), once with blocking receives and once with receives posted ahead
(`-a`). Its components are the median one-way time over the sizes up to 64 B ("small")
and over 96 B to 1 KiB ("mid") of each mode: a median over sizes, because this machine
switches between a fast and a slow mode within one run.

Reported per component: the median over the rounds of each one's figure, and of its
cost factor against the plain run of the same round — how many times longer the
component took with it: plain / with for a rate (Gflop/s, GUP/s, GB/s), with / plain
for a time. 1.0 costs nothing; 2.0 halves a rate.

Progress lines first; the last line is one JSON object:
  {"hpcc": {COMPONENT: {"plain": x, "runtime": x, NAME: x, ...,
                        "cost": {"runtime": f, NAME: f, ...}}, ...},
   "lammps": {...}, "netpipe": {...}, "size": N, "steps": N, "repeats": N, "rounds": R}
Exits non-zero if a program asked for is missing or a run fails.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LAMMPS_INPUT = os.path.join(HERE, "lammps_melt.in")
# The input the package ships (the HPL input format, then hpcc's PTRANS lines).
EXAMPLE = "/usr/share/doc/hpcc/examples/_hpccinf.txt"

# Components: name -> True when higher is better (a rate), False for a time.
# hpcc's summary figures.
HPCC_COMPONENTS = {
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
# LAMMPS figures (seconds).
LAMMPS_COMPONENTS = {"Loop_time_s": False, "Comm_time_s": False}
# NetPIPE's one-way times (microseconds): the mode, then the band of message sizes.
NETPIPE_MODES = {"Blocking": [], "Preposted": ["-a"]}
NETPIPE_BANDS = {"small": (1, 64), "mid": (96, 1024)}
NETPIPE_COMPONENTS = {f"{mode}_{band}_usec": False
                      for mode in NETPIPE_MODES for band in NETPIPE_BANDS}


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
    """hpcc's summary section: `name=value` lines; the figures of HPCC_COMPONENTS as floats.
    Raises ValueError unless hpcc says Success=1 and every component is there."""
    values = {}
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if sep and name.strip() and " " not in name.strip():
            values[name.strip()] = value.strip()
    if values.get("Success") != "1":
        raise ValueError("hpcc did not report Success=1")
    missing = [c for c in HPCC_COMPONENTS if c not in values]
    if missing:
        raise ValueError(f"hpcc's summary lacks {missing}")
    return {c: float(values[c]) for c in HPCC_COMPONENTS}


def parse_lammps(text):
    """LAMMPS's screen output: the loop's time ("Loop time of T on P procs for N steps")
    and the average time in communication (the "Comm" row of the MPI task timing
    breakdown: min, avg, max, %varavg, %total). Raises ValueError if either is missing."""
    loop = re.search(r"^Loop time of ([0-9.eE+-]+) on \d+ procs", text, re.M)
    comm = re.search(r"^Comm\s*\|\s*[0-9.eE+-]+\s*\|\s*([0-9.eE+-]+)\s*\|", text, re.M)
    if loop is None or comm is None:
        raise ValueError("LAMMPS's output lacks its loop time or its Comm timing row")
    return {"Loop_time_s": float(loop.group(1)), "Comm_time_s": float(comm.group(1))}


def parse_netpipe(text, mode):
    """NetPIPE's output file (-o): per message size a line "bytes Mbps seconds", the
    seconds one way. The median one-way time in microseconds over each band of sizes,
    named NETPIPE_COMPONENTS' way for `mode`. Raises ValueError if a band has no size."""
    times = {band: [] for band in NETPIPE_BANDS}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        try:
            size, seconds = int(parts[0]), float(parts[2])
        except ValueError:
            continue
        for band, (low, high) in NETPIPE_BANDS.items():
            if low <= size <= high:
                times[band].append(seconds * 1e6)
    empty = [band for band, values in times.items() if not values]
    if empty:
        raise ValueError(f"NetPIPE's output has no message size in the band(s) {empty}")
    return {f"{mode}_{band}_usec": statistics.median(values) for band, values in times.items()}


def cost(component, plain, got):
    """How many times longer the component took than plain (rates inverted)."""
    if plain <= 0 or got <= 0:
        return float("nan")
    return plain / got if HIGHER_IS_BETTER[component] else got / plain


def launch(flavour, lib):
    cmd = list(run_bench.LAUNCH[flavour])
    if lib:
        cmd += run_bench.PRELOAD[flavour](lib)
    return cmd


def run_command(cmd, workdir, timeout):
    """Runs a program's command in its directory; its standard output, or RuntimeError
    with the end of its standard error when it fails."""
    out = subprocess.run(cmd, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=timeout, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {out.returncode}):\n"
                           f"{out.stderr[-2000:]}")
    return out.stdout


def run_hpcc(program, workdir, lib, a):
    with open(EXAMPLE) as f:
        example_text = f.read()
    with open(os.path.join(workdir, "hpccinf.txt"), "w") as f:
        f.write(input_file(example_text, a.size))
    run_command(launch(program.flavour, lib) + [program.binary], workdir, a.timeout)
    report = os.path.join(workdir, "hpccoutf.txt")
    if not os.path.exists(report):
        raise RuntimeError(f"{program.binary} wrote no {report}")
    with open(report) as f:
        return parse_summary(f.read())


def run_lammps(program, workdir, lib, a):
    cmd = launch(program.flavour, lib) + [program.binary, "-in", LAMMPS_INPUT, "-log", "none",
                                          "-var", "steps", str(a.steps)]
    return parse_lammps(run_command(cmd, workdir, a.timeout))


def run_netpipe(program, workdir, lib, a):
    figures = {}
    for mode, flags in NETPIPE_MODES.items():
        report = os.path.join(workdir, f"{mode}.out")
        cmd = launch(program.flavour, lib) + [program.binary] + flags + [
            "-u", "1024", "-p", "0", "-n", str(a.repeats), "-o", report]
        run_command(cmd, workdir, a.timeout)
        with open(report) as f:
            figures.update(parse_netpipe(f.read(), mode))
    return figures


@dataclass(frozen=True)
class Program:
    """A program nobody here wrote: its Debian package and binary, the MPI Debian builds
    it against (the runtime preloaded is that flavour's), its components, the two the
    progress lines show, how one run of it is made (in a directory of its own), and the
    files of its package a run reads besides the binary."""
    binary: str
    package: str
    flavour: str
    components: dict
    shown: tuple
    run: Callable
    needs: tuple = ()


PROGRAMS = {
    "hpcc": Program("/usr/bin/hpcc", "hpcc", "openmpi", HPCC_COMPONENTS,
                    ("MPIRandomAccess_GUPs", "RandomlyOrderedRingLatency_usec"), run_hpcc,
                    needs=(EXAMPLE,)),
    "lammps": Program("/usr/bin/lmp", "lammps", "openmpi", LAMMPS_COMPONENTS,
                      ("Loop_time_s", "Comm_time_s"), run_lammps),
    "netpipe": Program("/usr/bin/NPmpich2", "netpipe-mpich2", "mpich", NETPIPE_COMPONENTS,
                       ("Blocking_small_usec", "Preposted_small_usec"), run_netpipe),
}
HIGHER_IS_BETTER = {c: rate for p in PROGRAMS.values() for c, rate in p.components.items()}


def summarise(runs, names, components):
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


def libraries(a, ap, flavour):
    """NAME -> runtime library for one MPI flavour: the build directory's, then each
    --library (None when the build directory has no runtime of that flavour)."""
    found = run_bench.built(a.build_dir, flavour)
    if found is None:
        return None
    libs = {"runtime": found[1]}
    for spec in a.library:
        name, sep, path = spec.partition("=")
        path = path.replace("{flavour}", flavour)
        if not sep or not name or name in ("plain", "runtime", "cost") or not os.path.exists(path):
            ap.error(f"--library {spec}: NAME=PATH of an existing file ({{flavour}} replaced "
                     "by the MPI), NAME not plain, runtime or cost")
        libs[name] = os.path.abspath(path)
    return libs


def main():
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--apps", default=",".join(PROGRAMS))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--size", type=int, default=2000)
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--repeats", type=int, default=50000)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--library", action="append", default=[], metavar="NAME=PATH")
    a = ap.parse_args()
    apps = [x for x in a.apps.split(",") if x]
    if not apps or any(x not in PROGRAMS for x in apps):
        ap.error(f"--apps: one or more of {', '.join(PROGRAMS)}")
    if a.rounds < 1 or a.size < 100 or a.steps < 100 or a.repeats < 100:
        ap.error("rounds >= 1, size >= 100, steps >= 100 and repeats >= 100")
    libs = {}
    for app in apps:
        program = PROGRAMS[app]
        if not os.access(program.binary, os.X_OK) or not all(map(os.path.exists, program.needs)):
            sys.exit(f"run_apps.py: needs Debian's {app} ({program.binary}): "
                     f"apt-get install {program.package}")
        libs[app] = libraries(a, ap, program.flavour)
        if libs[app] is None:
            sys.exit(f"run_apps.py: no {program.flavour} runtime in {a.build_dir}")
    names = list(next(iter(libs.values())))
    configs = ["plain"] + names
    runs = {app: [] for app in apps}
    scratch = tempfile.mkdtemp(prefix="mpidbg-apps-")
    try:
        for r in range(a.rounds):
            order = configs[r % len(configs):] + configs[:r % len(configs)]
            for app in apps:
                program = PROGRAMS[app]
                got = {}
                for name in order:
                    workdir = os.path.join(scratch, f"{app}-{r}-{name}")
                    os.makedirs(workdir)
                    got[name] = program.run(program, workdir, libs[app].get(name), a)
                runs[app].append(got)
                costs = " ".join(f"{name}={cost(c, got['plain'][c], got[name][c]):.2f}"
                                 for name in names for c in program.shown)
                print(f"{app} round {r + 1}: cost ({', '.join(program.shown)}) {costs}",
                      flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    result = {app: summarise(runs[app], names, PROGRAMS[app].components) for app in apps}
    result.update({"size": a.size, "steps": a.steps, "repeats": a.repeats, "rounds": a.rounds})
    print(json.dumps(result, separators=(",", ":")))


if __name__ == "__main__":
    main()
