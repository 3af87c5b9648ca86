#!/usr/bin/env python3
"""Check that the runtime wraps every MPI function that matters, per installed MPI.

usage: check_coverage.py --nm nm --flavour mpich=mpicc.mpich:libmpidbg_rt_mpich.so
                         [--flavour openmpi=mpicc.openmpi:libmpidbg_rt_openmpi.so ...]

For each flavour: the functions its own mpi.h declares (preprocessed by its compiler
wrapper, mpi_functions.py), each classified by classify.py, against the MPI_* functions
the built runtime library really defines (`nm -D --defined-only`: what the tables and
their @if blocks produced for this MPI, not what they list). Fails (exit status 1, one
line per problem) when
  - a function that blocks, carries a request or operation, or makes an object is not
    wrapped;
  - a function classified as a query is neither wrapped nor in local_queries.txt (a
    new function must be read and placed, never skipped by default);
  - local_queries.txt lists a function of another class, or one neither MPI declares.
Prints the coverage figure per flavour: `wrapped N of M (mpich)`.

With --fortran flavour=mpif90.<flavour>, also the Fortran entry points that MPI's
libraries export (fortran_entries.py): each one whose C function is of the first three
classes must be defined by the runtime too (mpidbg/gen/fortran/ generates them), unless
its C function is in fortran_unwrapped.txt, the one commented list of calls whose Fortran
binding the runtime does not wrap, with the reason. Fails on an entry point neither
wrapped nor listed, and on a listed call that is wrapped after all. Prints
`Fortran: wrapped N of M entry points (mpich)`.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from classify import CLASSES, classify  # noqa: E402
from fortran_entries import read_fortran_entries  # noqa: E402
from mpi_functions import read_mpi_functions  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def read_skip_list(path):
    names = []
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            names.append(line)
    return names


def wrapped_functions(nm, library):
    out = subprocess.run([nm, "-D", "--defined-only", library], capture_output=True,
                         text=True, check=True).stdout
    return {m.group(1) for m in re.finditer(r"\s[TtWi]\s+(MPI_\w+)$", out, re.M)}


def needed_functions(functions):
    """The functions of the classes that must be wrapped (all but the queries)."""
    return {n for n, params in functions.items() if classify(n, params) != "query"}


def fortran_defined(nm, library):
    out = subprocess.run([nm, "-D", "--defined-only", library], capture_output=True,
                         text=True, check=True).stdout
    return {m.group(1) for m in re.finditer(r"\sT\s+(\S+)$", out, re.M)}


def check_fortran(flavour, entries, needed, defined, unwrapped):
    """Problems and the figure for one MPI's Fortran entry points."""
    problems, covered, required, listed = [], 0, 0, set()
    for entry, name in sorted(entries.items()):
        if name not in needed:
            continue
        if name in unwrapped:
            listed.add(name)
            if entry in defined:
                problems.append(f"{flavour}: {entry} is wrapped but fortran_unwrapped.txt "
                                f"lists {name}")
            continue
        required += 1
        if entry in defined:
            covered += 1
        else:
            problems.append(f"{flavour}: Fortran entry point {entry} ({name}) is not wrapped")
    summary = (f"Fortran: wrapped {covered} of {required} entry points ({flavour}); "
               f"{len(listed)} calls listed in fortran_unwrapped.txt")
    return problems, summary, {n for n in entries.values() if n in needed}


def check_flavour(flavour, functions, wrapped, skip):
    problems = []
    by_class = {c: [] for c in CLASSES}
    for name, params in sorted(functions.items()):
        by_class[classify(name, params)].append(name)
    needed = [n for c in CLASSES[:-1] for n in by_class[c]]
    covered = [n for n in needed if n in wrapped]
    for c in CLASSES[:-1]:
        for name in by_class[c]:
            if name not in wrapped:
                problems.append(f"{flavour}: {name} ({c}) is not wrapped")
    for name in by_class["query"]:
        if name not in wrapped and name not in skip and not name.startswith("MPI_T_"):
            problems.append(f"{flavour}: {name} (query) is neither wrapped nor in "
                            "local_queries.txt")
        if name in skip and name in wrapped:
            problems.append(f"{flavour}: {name} is wrapped and in local_queries.txt")
    for name in skip:
        if name in functions and classify(name, functions[name]) != "query":
            problems.append(f"{flavour}: local_queries.txt lists {name}, classified "
                            f"{classify(name, functions[name])}")
    counts = ", ".join(f"{c} {len([n for n in by_class[c] if n in wrapped])}/{len(by_class[c])}"
                       for c in CLASSES[:-1])
    summary = (f"wrapped {len(covered)} of {len(needed)} ({flavour}): {counts}; "
               f"{len(by_class['query'])} local queries")
    return problems, summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--skip-list", default=os.path.join(HERE, "local_queries.txt"))
    ap.add_argument("--flavour", action="append", required=True,
                    help="name=compiler:runtime library")
    ap.add_argument("--fortran", action="append", default=[],
                    help="name=Fortran compiler wrapper (checks that MPI's Fortran entry points)")
    ap.add_argument("--fortran-unwrapped", default=os.path.join(HERE, "fortran_unwrapped.txt"))
    a = ap.parse_args()
    skip = read_skip_list(a.skip_list)
    unwrapped = read_skip_list(a.fortran_unwrapped)
    fortran = dict(spec.partition("=")[::2] for spec in a.fortran)
    problems, summaries, declared, bound = [], [], set(), set()
    for spec in a.flavour:
        flavour, _, rest = spec.partition("=")
        compiler, _, library = rest.partition(":")
        functions = read_mpi_functions(compiler)
        declared |= set(functions)
        p, s = check_flavour(flavour, functions, wrapped_functions(a.nm, library), skip)
        problems += p
        summaries.append(s)
        if flavour in fortran:
            p, s, b = check_fortran(flavour, read_fortran_entries(fortran[flavour], a.nm),
                                    needed_functions(functions), fortran_defined(a.nm, library),
                                    set(unwrapped))
            problems += p
            summaries.append(s)
            bound |= b
    if len(a.flavour) > 1:  # a stale entry shows only against every MPI
        problems += [f"local_queries.txt: {n} is declared by no installed MPI"
                     for n in skip if n not in declared]
    if fortran and len(fortran) == len(a.flavour):
        problems += [f"fortran_unwrapped.txt: {n} has no Fortran entry point of the checked "
                     "classes in any installed MPI" for n in unwrapped if n not in bound]
    for p in problems:
        print(p)
    for s in summaries:
        print(s)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
