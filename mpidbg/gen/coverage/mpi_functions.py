"""The C functions an installed MPI declares, read from its own preprocessed mpi.h.

The MPI's compiler wrapper preprocesses `#include <mpi.h>` with the MPI's own flags
(`mpicc.mpich -E`, `mpicc.openmpi -E`), so what counts is what a program compiled against
that MPI sees: mpio.h included or not, MPI_VERSION blocks, deprecated calls configured
in or out. Every declaration `<type> MPI_<name>(<parameters>);` is kept, with its
parameter text; PMPI_*, MPIX_* and typedefs are not functions of the standard.
"""
import re
import subprocess


def _strip_attributes(text):
    """Removes every __attribute__((...)) (balanced parentheses) from `text`."""
    out, i = [], 0
    while True:
        j = text.find("__attribute__", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        k = text.index("(", j)
        depth = 0
        while True:
            if text[k] == "(":
                depth += 1
            elif text[k] == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1


def parse_declarations(preprocessed):
    """{name: parameter text} of every MPI_* function declared in preprocessed C."""
    text = re.sub(r"\s+", " ", _strip_attributes(preprocessed))
    functions = {}
    for chunk in re.split(r"[;{}]", text):
        m = re.match(r"^\s*(?:extern\s+)?([\w\s\*]*?)\b(MPI_[A-Za-z0-9_]+)\s*\((.*)\)\s*$", chunk)
        if m and "typedef" not in m.group(1):
            functions[m.group(2)] = m.group(3).strip()
    return functions


def read_mpi_functions(compiler, extra_flags=()):
    """{name: parameter text} of the functions the MPI behind `compiler` declares."""
    source = "#include <mpi.h>\n"
    # Both MPIs' C++ bindings stay out, as in the runtime's own build.
    cmd = [compiler, "-E", "-P", "-DMPICH_SKIP_MPICXX", "-DOMPI_SKIP_MPICXX", *extra_flags,
           "-x", "c", "-"]
    result = subprocess.run(cmd, input=source, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{result.stderr}")
    functions = parse_declarations(result.stdout)
    if not functions:
        raise RuntimeError(f"{' '.join(cmd)}: no MPI_* declarations found")
    return functions
