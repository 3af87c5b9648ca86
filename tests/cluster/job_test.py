#!/usr/bin/env python3
"""job_test.py — one hung MPI job across the emulated cluster, read node by node.

Brings up the cluster, starts PROGRAM with RANKS ranks over NODES nodes through srun with
the runtime preloaded, reads every rank on its node (rank_reader.py through `srun
--overlap`), joins the snapshots with `mpidbg job --snapshots`, and checks the verdict
against what the program is written to do and against the same program run on this
machine alone. Then kills the job and checks that neither the job nor the cluster left
anything behind. Exit 0 pass, 1 fail, 77 skipped (not root, or no Slurm/munge)."""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time

# The helpers sit beside this file; no bytecode is written into the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster as cluster_mod   # noqa: E402
import local_reference          # noqa: E402
import slurm_job                # noqa: E402
import state                    # noqa: E402
import verdict                  # noqa: E402

SKIP = 77
WATCHDOG_SECONDS = 150   # below the CTest timeout, so the clean-up still runs
NEEDED = ["slurmctld", "slurmd", "srun", "squeue", "scancel", "sinfo", "munged", "munge",
          "nsenter", "unshare", "setpriv", "ip"]


def skip_reason():
    if os.geteuid() != 0:
        return "needs root (namespaces, a bridge and the Slurm daemons)"
    missing = [c for c in NEEDED if not shutil.which(c)]
    if missing:
        return ("missing " + " ".join(missing) +
                ": install slurmctld slurmd slurm-client munge (scripts/setup does)")
    return None


def on_alarm(signum, frame):
    raise TimeoutError(f"the test took more than {WATCHDOG_SECONDS} s")


def run(args):
    t_test = time.monotonic()
    failures = []
    with cluster_mod.Cluster(nodes=args.nodes) as c:
        print(f"bringup_s={c.bringup_s:.1f}", flush=True)
        job = slurm_job.SlurmJob(c, args.flavour, args.program, args.runtime,
                                 args.ranks, args.nodes)
        try:
            t = time.monotonic()
            job_id = job.wait_ready()
            print(f"job_start_s={time.monotonic() - t:.1f} job={job_id}", flush=True)

            t = time.monotonic()
            into = f"{c.names.dir}/snapshots"
            os.makedirs(into)
            found = job.read_ranks(args.mpidbg, into)
            print(f"collect_s={time.monotonic() - t:.1f} ranks_per_node={found}", flush=True)
            per_node = args.ranks // args.nodes
            if sorted(found.values()) != [per_node] * args.nodes:
                failures.append(f"expected {per_node} ranks on each of {args.nodes} nodes, "
                                f"the readers found {found}")

            r = subprocess.run([args.mpidbg, "job", "--snapshots", into, "--json"],
                               capture_output=True, text=True, timeout=60)
            across = verdict.of(json.loads(r.stdout))
            print("cluster verdict:", across, flush=True)
        finally:
            left = job.kill()
        if left:
            failures.append("the job left: " + "; ".join(left))

    leftovers = state.leftovers(c.names)
    if leftovers:
        failures.append("the cluster left: " + "; ".join(leftovers))

    want = verdict.expected(args.app, args.ranks)
    if across != want:
        failures.append(f"verdict across nodes {across}, the program makes {want}")

    t = time.monotonic()
    alone = verdict.of(local_reference.verdict_json(args.mpidbg, args.flavour, args.program,
                                                    args.ranks))
    print(f"local_reference_s={time.monotonic() - t:.1f} local verdict: {alone}", flush=True)
    if across != alone:
        failures.append(f"verdict across nodes {across}, on one machine {alone}")

    print(f"test_s={time.monotonic() - t_test:.1f}", flush=True)
    for f in failures:
        print("FAIL:", f, flush=True)
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--flavour", choices=["mpich", "openmpi"], required=True)
    p.add_argument("--app", required=True, help="test program name (verdict.expected)")
    p.add_argument("--program", required=True, help="path of the built test program")
    p.add_argument("--runtime", required=True, help="libmpidbg_rt_<flavour>.so")
    p.add_argument("--mpidbg", required=True, help="the mpidbg command")
    p.add_argument("--ranks", type=int, default=8)
    p.add_argument("--nodes", type=int, default=4)
    args = p.parse_args()
    reason = skip_reason()
    if reason:
        print("SKIPPED:", reason)
        return SKIP
    for path in (args.program, args.runtime, args.mpidbg):
        if not os.path.exists(path):
            print(f"FAIL: {path} is not built")
            return 1
    args.program = os.path.realpath(args.program)
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(WATCHDOG_SECONDS)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
