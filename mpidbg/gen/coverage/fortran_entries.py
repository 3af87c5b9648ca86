"""The Fortran entry points an installed MPI exports, each with the C function it binds.

read_fortran_entries(compiler, nm) asks the MPI's Fortran compiler wrapper for its link
line (`mpif90.mpich -show`, `mpif90.openmpi --showme:link`), finds each library it links
(in its -L directories, then the compiler's own search path; the libraries named
lib*mpi*, not the system libraries the line also names) and reads the functions the
libraries define (`nm -D --defined-only`). Of those, the names of the gfortran manglings
that a program's calls reference — measured with `nm -u` on programs built against
`mpif.h`, `use mpi` and `use mpi_f08` of both MPIs —

    mpi_send_  mpi_send__  mpi_send  MPI_SEND       mpif.h, use mpi
    mpi_send_f08_  mpi_send_f08ts_                  use mpi_f08
    mpi_send_f08ts_large_  mpi_type_size_f08_large_ use mpi_f08, MPI_*_c (large counts)

map to their C function (MPI_Send, MPI_Type_size_c). Left out on purpose: the profiling
names (pmpi_*, PMPI_*), and Open MPI's mixed-case C aliases of its Fortran layer
(MPI_Send_f, MPI_Send_f08: weak aliases of the internal ompi_send_f that no binding
references; its mpi_f08 module calls ompi_send_f directly, below the entry point the
runtime wraps).
"""
import os
import re
import subprocess

ENTRY = re.compile(r"^(?:mpi_([a-z0-9_]+?)(_f08ts_large_|_f08_large_|_f08ts_|_f08_|__|_)?"
                   r"|MPI_([A-Z0-9_]+))$")


def link_line(compiler):
    for flag in ("-show", "--showme:link"):
        r = subprocess.run([compiler, flag], capture_output=True, text=True)
        if r.returncode == 0 and "-l" in r.stdout:
            return r.stdout.split()
    raise RuntimeError(f"{compiler}: cannot read its link line (-show, --showme:link)")


def search_dirs(compiler_words):
    dirs = [w[2:] for w in compiler_words if w.startswith("-L")]
    r = subprocess.run(["gfortran", "-print-search-dirs"], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if line.startswith("libraries: ="):
            dirs += line[len("libraries: ="):].split(":")
    return dirs


def libraries(compiler):
    words = link_line(compiler)
    dirs = search_dirs(words)
    found = []
    # The MPI's own libraries only (libmpichfort, libmpich; libmpi_usempif08,
    # libmpi_usempi_ignore_tkr, libmpi_mpifh, libmpi): the system libraries the line
    # also names define no MPI entry point.
    for lib in (w[2:] for w in words if w.startswith("-lmpi")):
        for d in dirs:
            path = os.path.join(d, f"lib{lib}.so")
            if os.path.exists(path):
                found.append(os.path.realpath(path))
                break
    return found


def c_name(symbol, upper_names):
    """The C function a Fortran entry point binds, or None for a name of no binding."""
    m = ENTRY.match(symbol)
    if not m:
        return None
    if m.group(3):  # MPI_SEND: the upper-case mangling; its C name comes from the lower
        return upper_names.get(m.group(3))
    base, suffix = m.group(1), m.group(2) or ""
    name = "MPI_" + base[0].upper() + base[1:]
    return name + "_c" if suffix.endswith("_large_") else name


def read_fortran_entries(compiler, nm):
    """{entry point: C function name} for every Fortran entry point of this MPI."""
    symbols = set()
    for lib in libraries(compiler):
        out = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True,
                             text=True, check=True).stdout
        symbols |= {m.group(2) for m in re.finditer(r"\s([TtWi])\s+(\S+)$", out, re.M)}
    lower = {s for s in symbols if s.startswith("mpi_")}
    upper_names = {}
    for s in lower:
        name = c_name(s, {})
        if name and not s.endswith(("_f08_", "_f08ts_", "_large_")):
            upper_names[name[4:].upper()] = name
    entries = {}
    for s in symbols:
        if s.startswith(("pmpi_", "PMPI_")):
            continue
        name = c_name(s, upper_names)
        if name:
            entries[s] = name
    return entries
