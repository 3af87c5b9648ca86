#!/usr/bin/env python3
"""Checks of mpidbg/gen/gen_wrappers.py: the real table generates, and bad tables fail
the build with a message naming the problem.

usage: gen_wrappers_test.py <gen_wrappers.py> <categories.def> <mpi_calls.def> <call_ids.h>
"""
import os
import subprocess
import sys
import tempfile

GEN, CATS, DEF, IDS = sys.argv[1:5]
failures = []


def run(def_text=None, def_path=None):
    with tempfile.TemporaryDirectory() as d:
        if def_text is not None:
            def_path = os.path.join(d, "calls.def")
            with open(def_path, "w") as f:
                f.write(def_text)
        out = os.path.join(d, "out.cc")
        p = subprocess.run([sys.executable, GEN, "--def", CATS, "--def", def_path,
                            "--call-ids", IDS, "--out", out],
                           capture_output=True, text=True)
        text = open(out).read() if os.path.exists(out) else ""
        return p.returncode, p.stderr, text


def expect(cond, what):
    if not cond:
        failures.append(what)


rc, err, text = run(def_path=DEF)
expect(rc == 0, f"real table fails: {err}")
expect('extern "C" MPIDBG_EXPORT int MPI_Send(const void *buf' in text, "MPI_Send wrapper missing")
expect("PMPI_Waitall(count, array_of_requests, array_of_statuses)" in text, "Waitall forwarding")
expect(text.count("scope_.Publish();") == text.count('extern "C"'), "every wrapper publishes")

# The completion calls a paused thread records when they name a request pending at its
# pause (drains): their requests and count, or one; no other call tests for it.
for call, args in (("MPI_Waitall", "array_of_requests, count"), ("MPI_Wait", "request, 1"),
                   ("MPI_Waitsome", "array_of_requests, incount"),
                   ("MPI_Request_free", "request, 1"), ("MPI_Cancel", "request, 1")):
    start = text.find(f" {call}(")
    body = text[start:text.find("\n}\n", start)]
    expect(f"RecordsWhilePaused(__builtin_return_address(0), {args})" in body,
           f"{call} does not record while paused: {body[:400]}")
expect(text.count("RecordsWhilePaused(") == 10, "drains in other wrappers than completion's")
# MPI_Init, MPI_Init_thread and MPI_Finalize record whether paused or not (unpaused).
for call in ("MPI_Init", "MPI_Init_thread", "MPI_Finalize"):
    start = text.find(f" {call}(")
    expect("RecordsDespitePause(__builtin_return_address(0))" in text[start:start + 600],
           f"{call} is hidden by a pause")
expect(text.count("RecordsDespitePause(") == 3, "unpaused in other wrappers than init's")

GOOD = "int | MPI_Barrier | MPI_Comm comm | coll_blocking | BLOCKED | comm=comm\n"
rc, err, _ = run(GOOD)
expect(rc == 0, f"minimal table fails: {err}")

# A category declared next to its calls, an extra include, a conditional call.
EXTRA = ("@include rt/hooks_extra.h\n"
         "@category extra | Extra | ExtraArgs | thing\n"
         "@if MPI_VERSION >= 4\n"
         "int | MPI_Isendrecv | int thing | extra | IN_MPI | thing=thing\n"
         "@endif\n")
rc, err, text = run(EXTRA)
expect(rc == 0, f"directive table fails: {err}")
expect('#include "rt/hooks_extra.h"' in text, "@include not emitted")
expect("#if MPI_VERSION >= 4" in text and "#endif" in text, "@if not emitted")
expect("PreExtra(scope_, args_)" in text, "declared category not used")

cases = {
    "int | MPI_Not_a_call | MPI_Comm comm | plain | IN_MPI | comm=comm\n": "no id in call_ids.h",
    "int | MPI_Barrier | MPI_Comm comm | no_such_category | BLOCKED |\n": "unknown category",
    "int | MPI_Barrier | MPI_Comm comm | coll_blocking | ASLEEP |\n": "unknown state",
    "int | MPI_Barrier | MPI_Comm comm | coll_blocking | BLOCKED | peer=comm\n": "has no field 'peer'",
    "int | MPI_Barrier | MPI_Comm comm | coll_blocking\n": "expected 6",
    GOOD + GOOD: "listed twice",
    "@if MPI_VERSION >= 4\n" + GOOD: "@if without @endif",
    "@endif\n" + GOOD: "@endif without @if",
    "@category coll_blocking | X | Y | a\n" + GOOD: "declared twice",
    "@frobnicate\n" + GOOD: "unknown directive",
    "@category odd | X | Y | a | facts sometimes\n" + GOOD: "@category needs",
    "@category odd | X | Y | a | drains drains\n" + GOOD: "@category needs",
    "@category odd | X | Y | a | drains\n" + GOOD: "needs a requests or request field",
    "@category odd | X | Y | request | drains unpaused\n" + GOOD: "@category needs",
}
for text_in, message in cases.items():
    rc, err, _ = run(text_in)
    expect(rc != 0, f"accepted a bad table ({message})")
    expect(message in err, f"message '{message}' not in: {err.strip()}")

for f in failures:
    print("FAIL:", f)
print("gen_wrappers_test:", "FAIL" if failures else "PASS")
sys.exit(1 if failures else 0)
