#!/usr/bin/env python3
"""Checks of mpidbg/gen/fortran/gen_fortran.py: the real tables generate wrappers of every
Fortran name with the C view the hooks read, and bad fact tables fail the build with a
message naming the problem.

usage: gen_fortran_test.py <mpidbg/gen> <call_ids.h>

(the generator, its fact table and every call table are found in mpidbg/gen, as the
build finds them: categories.def first, then the other *.def files)
"""
import glob
import os
import subprocess
import sys
import tempfile

GEN_DIR, IDS = sys.argv[1:3]
GEN = os.path.join(GEN_DIR, "fortran", "gen_fortran.py")
ARGS = os.path.join(GEN_DIR, "fortran", "fortran_args.tab")
CATS = os.path.join(GEN_DIR, "categories.def")
TABLES = sorted(t for t in glob.glob(os.path.join(GEN_DIR, "*.def")) if t != CATS)
failures = []


def run(args_text=None, def_text=None):
    with tempfile.TemporaryDirectory() as d:
        args_path, tables = ARGS, TABLES
        if args_text is not None:
            args_path = os.path.join(d, "args.tab")
            open(args_path, "w").write(args_text)
        if def_text is not None:
            tables = [os.path.join(d, "calls.def")]
            open(tables[0], "w").write(def_text)
        out, names = os.path.join(d, "out.cc"), os.path.join(d, "names.txt")
        defs = [a for t in [CATS] + tables for a in ("--def", t)]
        p = subprocess.run([sys.executable, GEN, *defs, "--args", args_path, "--call-ids", IDS, "--out", out,
                            "--names", names], capture_output=True, text=True)
        read = lambda f: open(f).read() if os.path.exists(f) else ""  # noqa: E731
        return p.returncode, p.stderr, read(out), read(names)


def expect(cond, what):
    if not cond:
        failures.append(what)


rc, err, text, names = run()
expect(rc == 0, f"real tables fail: {err}")
for sym in ("mpi_send_", "mpi_send__", "mpi_send", "MPI_SEND", "mpi_send_f08_", "mpi_send_f08ts_",
            "mpi_waitall_f08_", "mpi_barrier_f08_"):
    expect(f'extern "C" MPIDBG_EXPORT void {sym}(' in text, f"{sym} not generated")
expect('MPIDBG_EXPORT void mpi_barrier_f08ts_(' not in text, "a ts form for a call without a buffer")
# The library's own entry point of the same name, resolved lazily.
expect('entry_mpi_send_{"mpi_send_"}' in text, "mpi_send_ does not call the library's mpi_send_")
# C views: handles by f2c, the f08ts buffer from its descriptor, Fortran indices, statuses.
expect("PMPI_Comm_f2c(*comm_f)" in text, "no f2c of a communicator")
expect("rt::FortranBuffer(rt::DescriptorBase(buf_f))" in text, "f08ts buffer not from its descriptor")
expect("rt::FortranIndexToC(*index_f)" in text and "rt::F08IndexToC(*index_f)" in text,
       "Waitany indices not converted per binding")
expect("rt::FortranStatuses array_of_statuses_s(array_of_statuses_f, count)" in text,
       "Waitall statuses not converted")
# MPI_Comm_idup's new communicator is read by the hooks at completion: not a stack local.
expect("MPI_Comm* newcomm = rt::FortranLaterComm(newcomm_f);" in text, "idup's newcomm view")
# MPI_Init has no argc/argv in Fortran: the signature is (ierr) only.
expect('void mpi_init_(MPI_Fint* ierr_f)' in text, "mpi_init_ signature")
# A CHARACTER argument's hidden length goes last.
expect('void mpi_comm_set_name_(MPI_Fint* comm_f, const char* comm_name_f, MPI_Fint* ierr_f, '
       'size_t comm_name_len_f)' in text, "hidden string length")
expect(text.count("scope_.Publish();") == text.count("static void Fortran_"), "every body publishes")
# A paused thread's completion calls test their Fortran handles against the pause's notes.
for body, args in (("Fortran_MPI_Waitall_legacy", "array_of_requests_f, *count_f"),
                   ("Fortran_MPI_Wait_f08", "request_f, 1"),
                   ("Fortran_MPI_Request_free_legacy", "request_f, 1")):
    start = text.find(f"static void {body}(")
    expect(start >= 0 and f"RecordsWhilePausedFortran(site_, {args})" in text[start:start + 600],
           f"{body} does not record while paused")
expect("RecordsDespitePause(site_)" in text[text.find("static void Fortran_MPI_Finalize_legacy("):]
       .split("\n}\n")[0], "a pause hides the Fortran MPI_Finalize")
expect("RecordsWhilePausedFortran" not in text[text.find("static void Fortran_MPI_Isend_legacy("):]
       .split("\n}\n")[0], "a post records while paused")
expect(not [l for l in names.splitlines() if l.startswith("-")],
       f"calls left without Fortran wrappers: {[l for l in names.splitlines() if l.startswith('-')]}")

cases = {
    "MPI_No_such_call | comm | index\n": "is in no call table",
    "MPI_Waitany | no_such_param | index\n": "has no parameter 'no_such_param'",
    "MPI_Waitany | index | sideways\n": "unknown fact 'sideways'",
    "MPI_Waitany | index\n": "expected 'call | parameters | facts'",
}
for table, message in cases.items():
    rc, err, _, _ = run(args_text=table)
    expect(rc != 0 and message in err, f"fact table {table.strip()!r}: rc={rc}, stderr={err!r}")

# A call whose roles read a parameter of a kind with no conversion gets no wrapper and is
# named, with the reason, in the names file.
ODD = "int | MPI_Barrier | MPI_Comm comm, double odd | coll_blocking | BLOCKED | comm=comm; count=odd\n"
rc, err, text, names = run(args_text="", def_text=ODD)
expect(rc == 0, f"odd table fails: {err}")
expect("- MPI_Barrier: parameter 'double odd'" in names and "mpi_barrier_(" not in text,
       f"unconvertible parameter not reported: {names!r}")
# ... and one no role reads is only forwarded.
rc, err, text, names = run(args_text="", def_text=ODD.replace("; count=odd", ""))
expect(rc == 0 and "mpi_barrier_(MPI_Fint* comm_f, void* odd_f, MPI_Fint* ierr_f)" in text,
       "unread parameter not forwarded")

for f in failures:
    print("FAIL:", f)
print(f"gen_fortran_test: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
