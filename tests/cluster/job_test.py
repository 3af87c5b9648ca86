#!/usr/bin/env python3
"""job_test.py — one hung MPI job across the emulated cluster, read node by node.

Brings up the cluster, starts PROGRAM with RANKS ranks over NODES nodes through srun with
the runtime preloaded, reads it with `mpidbg job --slurm JOBID` (a reader on every node
through `srun --overlap`, merged by the front end), and checks the verdict against what
the program is written to do and against the same program run on this machine alone.
With --cut-node NODE the readers run through a wrapper that cuts NODE's reader midway
(its output stops after a few frames and the reader dies of SIGPIPE): the verdict must
be incomplete and name NODE, with every other node's ranks read. With --hang as well,
NODE's reader sends half its record and hangs: the front end stops the readers at its
--timeout and names NODE as timed out (and the job's processes, readers included, are
checked to be gone as always). With --views the ranks also count their messages and
sample their MPI state (MPIDBG_MONITOR, MPIDBG_PROFILE), and `mpidbg matrix --slurm` and
`mpidbg profile --slurm` must give every rank, the same message counts as the program run
on this machine alone, and the blocked call as the job's top function. Then kills the job and
checks that neither the job nor the cluster left anything behind. With --without-runtime
the job runs without the runtime, as a job nobody started under mpidbg: each node's
reader finds its ranks by the allocation in their environment and reads their stacks, and
the job must be hung in MPI_Ssend on every rank (the reduced view claims no deadlock).
Exit 0 pass, 1 fail, 77 skipped (not root, or no Slurm/munge)."""
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


HANG_TIMEOUT = 5   # --timeout of the run whose node hangs
PROFILE_HZ = "50"
VIEW_ENV = {"MPIDBG_MONITOR": "1", "MPIDBG_PROFILE": PROFILE_HZ}


def wrapped_reader(directory, mpidbg, node, hang):
    """A reader for --remote-mpidbg: the real mpidbg, except on `node`, where its output
    is cut after 2000 bytes (mid-frame) so the reader dies of SIGPIPE, or (`hang`) where
    it sends half its record and then hangs."""
    path = f"{directory}/wrapped-reader.sh"
    odd = ('"{m}" "$@" | head -n 3\n  exec sleep 300' if hang else
           '"{m}" "$@" | head -c 2000\n  exit 1').format(m=mpidbg)
    with open(path, "w") as f:
        f.write(f"""#!/bin/sh
if [ "$(hostname)" = "{node}" ]; then
  {odd}
fi
exec "{mpidbg}" "$@"
""")
    os.chmod(path, 0o755)
    return path


def check_cut(doc, status, args):
    """The verdict of a job whose `args.cut_node` reader was cut: incomplete (exit status
    4), that node named with why, every other node's ranks read."""
    failures = []
    if doc.get("incomplete") is not True or doc.get("complete") is not False:
        failures.append("the verdict is not marked incomplete")
    if status != 4:
        failures.append(f"exit status {status} for an incomplete verdict, not 4")
    named = [u for u in doc.get("unreadable_inputs") or [] if u.get("hostname") == args.cut_node]
    if len(named) != 1 or not named[0].get("error"):
        failures.append(f"unreadable_inputs does not name {args.cut_node} with why: "
                        f"{doc.get('unreadable_inputs')}")
    elif args.hang and "no answer within" not in named[0]["error"]:
        failures.append(f"{args.cut_node} is not named as timed out: {named[0]['error']}")
    others = [u for u in doc.get("unreadable_inputs") or [] if u.get("hostname") != args.cut_node]
    if others:
        failures.append(f"other nodes named unreadable: {others}")
    readable = [r for r in doc["ranks"] if r.get("state") != "unreadable"]
    per_node = args.ranks // args.nodes
    cut_read = named[0].get("ranks_read", 0) if named else 0
    if len(readable) < args.ranks - per_node + cut_read:
        failures.append(f"{len(readable)} ranks read, expected every rank of the other nodes")
    return failures


def top_function(profile_doc):
    functions = profile_doc["job"]["functions"]
    return functions[0]["call"] if functions else None


def read_views(job, args):
    """matrix and profile across nodes: {command: document}, phases printed."""
    docs = {}
    for command in ("matrix", "profile"):
        t = time.monotonic()
        docs[command], err = job.read(args.mpidbg, command=command)
        print(f"{command}_slurm_s={time.monotonic() - t:.1f}", flush=True)
        for line in err.splitlines():
            if line.startswith("mpidbg: phase "):
                print("  " + line, flush=True)
    return docs


def check_views(docs, reference, args):
    failures = []
    matrix, profile = docs["matrix"], docs["profile"]
    present = [r["rank"] for r in matrix.get("ranks", []) if r.get("present")]
    if matrix.get("world_size") != args.ranks or len(present) != args.ranks:
        failures.append(f"matrix --slurm read ranks {present} of {matrix.get('world_size')}")
    if matrix.get("p2p_messages") != reference["matrix"].get("p2p_messages"):
        failures.append(f"matrix --slurm p2p messages {matrix.get('p2p_messages')}, on one "
                        f"machine {reference['matrix'].get('p2p_messages')}")
    print("cluster p2p messages:", matrix.get("p2p_messages"), flush=True)
    sampled = [r["rank"] for r in profile.get("ranks", []) if sum(r["samples"].values()) > 0]
    if profile["job"].get("world_size") != args.ranks or len(sampled) != args.ranks:
        failures.append(f"profile --slurm has samples of ranks {sampled} of "
                        f"{profile['job'].get('world_size')}")
    top, want = top_function(profile), top_function(reference["profile"])
    print(f"cluster top function: {top}, on one machine: {want}", flush=True)
    if top != want or top is None:
        failures.append(f"profile --slurm top function {top}, on one machine {want}")
    return failures


def run(args):
    t_test = time.monotonic()
    failures = []
    with cluster_mod.Cluster(nodes=args.nodes) as c:
        print(f"bringup_s={c.bringup_s:.1f}", flush=True)
        runtime = None if args.without_runtime else args.runtime
        job = slurm_job.SlurmJob(c, args.flavour, args.program, runtime,
                                 args.ranks, args.nodes, VIEW_ENV if args.views else None)
        try:
            t = time.monotonic()
            job_id = job.wait_ready()
            print(f"job_start_s={time.monotonic() - t:.1f} job={job_id}", flush=True)

            extra = []
            if args.cut_node:
                extra = ["--remote-mpidbg",
                         wrapped_reader(c.names.dir, args.mpidbg, args.cut_node, args.hang)]
            if args.hang:
                extra += ["--timeout", str(HANG_TIMEOUT)]
            t = time.monotonic()
            doc, err = job.read(args.mpidbg, *extra)
            print(f"job_slurm_s={time.monotonic() - t:.1f}", flush=True)
            for line in err.splitlines():
                if line.startswith("mpidbg: phase ") or args.cut_node:
                    print("  " + line, flush=True)
            if args.without_runtime:
                failures += verdict.stacks_view_failures(doc, args.ranks, "MPI_Ssend")
                print("cluster view:", doc.get("view"), "hung:",
                      (doc.get("stacks") or {}).get("hung"), flush=True)
            else:
                across = verdict.of(doc)
                print("cluster verdict:", across, flush=True)
            if args.cut_node:
                failures += check_cut(doc, job.status, args)
            elif job.status != 0:
                failures.append(f"exit status {job.status} for a job read in full, not 0")
            views = read_views(job, args) if args.views else None
        finally:
            left = job.kill()
        if left:
            failures.append("the job left: " + "; ".join(left))

    leftovers = state.leftovers(c.names)
    if leftovers:
        failures.append("the cluster left: " + "; ".join(leftovers))

    if args.cut_node or args.without_runtime:
        print(f"test_s={time.monotonic() - t_test:.1f}", flush=True)
        for f in failures:
            print("FAIL:", f, flush=True)
        return 1 if failures else 0

    want = verdict.expected(args.app, args.ranks)
    if across != want:
        failures.append(f"verdict across nodes {across}, the program makes {want}")

    t = time.monotonic()
    commands = ["job", "matrix", "profile"] if args.views else ["job"]
    options = ["--monitor", f"--profile={PROFILE_HZ}"] if args.views else []
    reference = local_reference.documents(args.mpidbg, args.flavour, args.program, args.ranks,
                                          commands, options)
    alone = verdict.of(reference["job"])
    print(f"local_reference_s={time.monotonic() - t:.1f} local verdict: {alone}", flush=True)
    if args.views:
        failures += check_views(views, reference, args)
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
    p.add_argument("--cut-node", help="cut this node's reader midway (e.g. node2)")
    p.add_argument("--hang", action="store_true",
                   help="with --cut-node: the node's reader hangs after half its record "
                        f"instead; read with --timeout {HANG_TIMEOUT}")
    p.add_argument("--views", action="store_true",
                   help="also read matrix and profile across the nodes")
    p.add_argument("--without-runtime", action="store_true",
                   help="start the job without the runtime (as nobody started it under "
                        "mpidbg): read from its stacks, it must be hung in MPI_Ssend")
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
