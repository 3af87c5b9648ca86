#!/usr/bin/env python3
"""rank_reader.py — run on each node as one task of `srun --overlap --jobid=J
--ntasks-per-node=1`: finds the node's ranks of job J and prints one JSON line per rank
with its `mpidbg snapshot --json` (or why it could not be read).

A rank is a process whose environment has SLURM_JOB_ID=J and whose executable is the
job's program; the node's own /proc shows only the node's processes, with node-local
pids. Usage: rank_reader.py JOBID PROGRAM MPIDBG

srun passes a task's output on in pieces of about a kilobyte and may interleave pieces of
different nodes, so a record (a JSON object, compressed, base64) goes out in short lines,
each written at once: "<node> <pid> <part> <parts> <text>"; reader_stream.py joins them.
The last record of a node has pid "-" and says how many ranks the node holds."""
import base64
import json
import os
import socket
import subprocess
import sys
import zlib

SNAPSHOT_SECONDS = 60
PART_CHARS = 700


def emit(node, pid, record):
    text = base64.b64encode(zlib.compress(json.dumps(record).encode())).decode()
    parts = [text[i:i + PART_CHARS] for i in range(0, len(text), PART_CHARS)] or [""]
    for i, part in enumerate(parts):
        sys.stdout.write(f"{node} {pid} {i} {len(parts)} {part}\n")
        sys.stdout.flush()


def environ_has(pid, entry):
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return entry.encode() in f.read().split(b"\0")
    except OSError:
        return False


def ranks_of(job, program):
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            if os.readlink(f"/proc/{name}/exe") != program:
                continue
        except OSError:
            continue
        if environ_has(name, f"SLURM_JOB_ID={job}"):
            found.append(int(name))
    return sorted(found)


def main(job, program, mpidbg):
    node = socket.gethostname()
    pids = ranks_of(job, os.path.realpath(program))
    for pid in pids:
        line = {}
        try:
            r = subprocess.run([mpidbg, "snapshot", "--pid", str(pid), "--json"],
                               capture_output=True, text=True, timeout=SNAPSHOT_SECONDS)
            if r.returncode == 0:
                line["snapshot"] = json.loads(r.stdout)
            else:
                line["error"] = f"exit {r.returncode}: {r.stderr.strip()}"
        except (subprocess.TimeoutExpired, ValueError) as e:
            line["error"] = str(e)
        emit(node, pid, line)
    emit(node, "-", {"ranks_found": len(pids)})


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
