#!/usr/bin/env python3
"""How long `mpidbg handles` takes to list 100,000 objects from a core (and live).

usage: run_objects.py --build-dir DIR [--flavours mpich,openmpi] [--count N] [--rounds R]

For each flavour: bench/many_objects.c (1 rank, under `mpidbg run`) creates N objects
(default 100000: half derived datatypes, half info objects) and waits; gcore dumps it;
`mpidbg handles --core CORE --json` and `mpidbg handles --pid PID --json` run R times
(default 3) each. Prints the objects listed and the median wall-clock seconds of each;
the last line is one JSON object {flavour: {"objects", "core_s", "live_s"}}. A
benchmark: it prints the figures, it does not pass or fail (the goal is core_s <= 0.5).
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

LAUNCHERS = {
    "mpich": ["mpiexec.mpich", "-n", "1"],
    "openmpi": ["mpiexec.openmpi", "--allow-run-as-root", "--oversubscribe", "-n", "1"],
}


def timed(argv):
    start = time.monotonic()
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    seconds = time.monotonic() - start
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(argv), r.returncode, r.stderr.decode()))
    return seconds, json.loads(r.stdout)


def one_flavour(build, flavour, count, rounds, tmp):
    mpidbg = os.path.join(build, "host", "mpidbg")
    prog = os.path.join(build, "bench", "many_objects_" + flavour)
    job = subprocess.Popen([mpidbg, "run", "--flavour", flavour, "--"] + LAUNCHERS[flavour] +
                           [prog, str(count)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           start_new_session=True)
    try:
        line = job.stdout.readline().decode().split()
        if len(line) < 4 or line[0] != "ready":
            raise RuntimeError("many_objects did not start: %r %s" % (line, job.stderr.read(2000)))
        pid = int(line[3])
        prefix = os.path.join(tmp, "core_" + flavour)
        subprocess.run(["gcore", "-o", prefix, str(pid)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True, timeout=300)
        core = "%s.%d" % (prefix, pid)
        core_times, live_times, listed = [], [], 0
        for _ in range(rounds):
            s, doc = timed([mpidbg, "handles", "--core", core, "--json"])
            core_times.append(s)
            listed = len(doc["handles"])
            s, _ = timed([mpidbg, "handles", "--pid", str(pid), "--json"])
            live_times.append(s)
        os.unlink(core)
        return {"objects": listed, "core_s": round(statistics.median(core_times), 3),
                "live_s": round(statistics.median(live_times), 3)}
    finally:
        os.killpg(job.pid, signal.SIGKILL)  # the launcher's session: ours alone
        job.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--flavours", default="mpich,openmpi")
    ap.add_argument("--count", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for flavour in args.flavours.split(","):
            r = one_flavour(args.build_dir, flavour, args.count, args.rounds, tmp)
            print("%s: %d objects listed; from the core %.3f s, live %.3f s (median of %d)" % (
                flavour, r["objects"], r["core_s"], r["live_s"], args.rounds), flush=True)
            out[flavour] = r
    print(json.dumps(out))


if __name__ == "__main__":
    sys.exit(main())
