#!/usr/bin/env python3
"""launcher_test.py — a hung job started by an MPI launcher across the emulated nodes, not
by srun, read by mpidbg as a user would:

--launch mpirun   Open MPI's mpirun on the host (a login node: the bridge's address, the
                  cluster's hosts file) starts its daemons on the nodes through a remote
                  shell (node_shell.py's node-exec as plm_rsh_agent); `mpidbg job
                  --launcher PID` takes each rank's host from the process table and reads
                  the other hosts' ranks through --remote-shell "node-exec {host}";
                  `matrix --launcher` goes through the pdsh form ("node-pdsh -w {hosts}"),
                  `profile --launcher` through node-exec again. With --without-runtime the
                  ranks carry no runtime and are read from their stacks (hung).
--launch hydra    MPICH's mpiexec run inside `salloc -N4` on a node of the allocation
                  (Hydra starts its proxies with srun); `mpidbg job --slurm JOBID` finds
                  the ranks by the allocation in their environment, though their launch
                  record names Hydra's job; `job --launcher` at that mpiexec says so
                  (exit 1, naming --slurm JOBID). With --without-runtime the ranks are
                  found by the allocation alone and read from their stacks (hung).
--launch hydra-ssh  MPICH's mpiexec on the host (a login node), its proxies started on
                  the nodes through OpenSSH (ssh_nodes.py: an sshd per node), so the ranks
                  hang below the nodes' sshd, out of the launcher's sight; `mpidbg job
                  --launcher PID` finds the hosts and Hydra's job from the launcher's ssh
                  children and reads each host's ranks by that job through
                  --remote-shell "node-ssh {host}"; `matrix` and `profile` the same.
                  With --without-runtime the ranks carry no runtime (a job nobody started
                  under mpidbg): each node's reader finds them below the proxy of that
                  job and reads their stacks, and the job must be hung in MPI_Ssend.

The verdict must be what the program is written to make; with mpirun and hydra-ssh every
rank's counts and samples must come back too. Then the job is killed and nothing may be left. Exit 0
pass, 1 fail, 77 skipped."""
import argparse
import json
import os
import signal
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster as cluster_mod   # noqa: E402
import job_test                 # noqa: E402
import node_shell               # noqa: E402
import processes                # noqa: E402
import ssh_nodes                # noqa: E402
import state                    # noqa: E402
import verdict                  # noqa: E402

READY_SECONDS = 60
READ_SECONDS = 120
PROFILE_HZ = "50"


def wait_ready(cluster, launcher, ranks):
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        out = cluster.log("launcher.out")
        if out.count(" ready\n") == ranks:
            return
        if launcher.poll() is not None:
            raise RuntimeError("the job ended early:\n" + out)
        time.sleep(0.1)
    raise RuntimeError("the job did not get ready:\n" + cluster.log("launcher.out"))


def read(cluster, mpidbg, command, *args):
    """`mpidbg COMMAND ARGS --json` on the host: (document, stderr)."""
    r = cluster.run([mpidbg, command, *args, "--json"], check=False, timeout=READ_SECONDS)
    for line in r.stderr.splitlines():
        if line.startswith("mpidbg: phase "):
            print("  " + line, flush=True)
    if r.returncode != 0 or not r.stdout.strip():
        raise RuntimeError(f"mpidbg {command} exited {r.returncode}:\n{r.stderr}")
    return json.loads(r.stdout), r.stderr


def start_mpirun(cluster, args, node_exec):
    """mpirun on the host, its daemons on the nodes through node-exec; TCP on the bridge's
    subnet, which the host's and the nodes' interfaces share."""
    n = cluster.names
    subnet = f"169.254.{cluster.addresses.subnet}.0/24"
    per_node = args.ranks // args.nodes
    mpirun = ["mpirun.openmpi", "--allow-run-as-root", "--oversubscribe",
              "--mca", "plm_rsh_agent", node_exec, "--mca", "plm_rsh_no_tree_spawn", "1",
              "--mca", "oob_tcp_if_include", subnet, "--mca", "btl_tcp_if_include", subnet,
              "--mca", "btl", "self,tcp", "--mca", "pml", "ob1"]
    if not args.without_runtime:
        mpirun += ["-x", f"LD_PRELOAD={args.runtime}", "-x", "MPIDBG_MONITOR=1",
                   "-x", f"MPIDBG_PROFILE={PROFILE_HZ}"]
    mpirun += ["--host", ",".join(f"{n.node(i)}:{per_node}" for i in range(1, args.nodes + 1)),
              "-n", str(args.ranks), args.program]
    # Its own mount namespace, for the cluster's hosts file; the host's network and pids.
    script = 'mount --bind "$1" /etc/hosts && shift && exec "$@"'
    return cluster.popen(["unshare", "--mount", "--propagation", "private", "sh", "-c", script,
                          "sh", cluster.hosts, *mpirun], log="launcher.out")


def start_hydra(cluster, args, node_exec):
    """`salloc ... mpiexec.mpich` on the first node, as a user logged in there runs it."""
    n = cluster.names
    preload = [] if args.without_runtime else ["-genv", "LD_PRELOAD", args.runtime]
    inner = " ".join([
        "salloc", f"-N{args.nodes}", f"-n{args.ranks}", "--time=5", "mpiexec.mpich",
        "-genv", "UCX_TLS", "tcp,self", "-genv", "UCX_NET_DEVICES", cluster.node_interface(),
        *preload, "-n", str(args.ranks), args.program])
    return cluster.popen([node_exec, n.node(1), inner], log="launcher.out")


def start_hydra_ssh(cluster, args, node_ssh):
    """mpiexec on the host under the hostname the cluster's hosts file gives the bridge's
    address (the proxies connect back to it by that name), ssh to each node."""
    n = cluster.names
    mpiexec = ["mpiexec.mpich", "-launcher", "ssh", "-launcher-exec", node_ssh,
               "-hosts", ",".join(n.all_nodes()), "-ppn", str(args.ranks // args.nodes),
               "-genv", "UCX_TLS", "tcp,self", "-genv", "UCX_NET_DEVICES",
               cluster.node_interface()]
    if not args.without_runtime:
        mpiexec += ["-genv", "LD_PRELOAD", args.runtime, "-genv", "MPIDBG_MONITOR", "1",
                    "-genv", "MPIDBG_PROFILE", PROFILE_HZ]
    mpiexec += ["-n", str(args.ranks), args.program]
    script = 'hostname "$1" && mount --bind "$2" /etc/hosts && shift 2 && exec "$@"'
    return cluster.popen(["unshare", "--uts", "--mount", "--propagation", "private", "sh", "-c",
                          script, "sh", n.controller, cluster.hosts, *mpiexec],
                         log="launcher.out")


def stop_launcher(launcher):
    """SIGINT first (Hydra then stops its proxies and its ssh children end), then SIGKILL
    to whatever of it is left."""
    below = processes.descendants(launcher.pid)
    launcher.send_signal(signal.SIGINT)
    try:
        launcher.wait(timeout=10)
    except Exception:
        launcher.kill()
        launcher.wait()
    for pid, start in below:
        processes.kill(pid, start)


def check_views(matrix, profile, ranks):
    failures = []
    present = [r["rank"] for r in matrix.get("ranks", []) if r.get("present")]
    if matrix.get("world_size") != ranks or len(present) != ranks:
        failures.append(f"matrix --launcher read ranks {present} of {matrix.get('world_size')}")
    ring = [[1 if to == (frm + 1) % ranks else 0 for to in range(ranks)] for frm in range(ranks)]
    if matrix.get("p2p_messages") != ring:
        failures.append(f"matrix --launcher p2p messages {matrix.get('p2p_messages')}, "
                        f"the cycle sends {ring}")
    sampled = [r["rank"] for r in profile.get("ranks", []) if sum(r["samples"].values()) > 0]
    if len(sampled) != ranks:
        failures.append(f"profile --launcher has samples of ranks {sampled}")
    functions = profile["job"]["functions"]
    top = functions[0]["call"] if functions else None
    print(f"top function: {top}", flush=True)
    if top != "MPI_Ssend":
        failures.append(f"profile --launcher top function {top}, not MPI_Ssend")
    return failures


def check_launcher_points_to_slurm(cluster, args, job_id):
    """`job --launcher` at an mpiexec whose proxies srun started: exit 1, naming --slurm."""
    mpiexec = [p for p in cluster.processes_on_nodes()
               if processes.cmdline(p)[:1] == ["mpiexec.mpich"]]
    if len(mpiexec) != 1:
        return [f"found {len(mpiexec)} mpiexec processes on the nodes"]
    r = cluster.run([args.mpidbg, "job", "--launcher", str(mpiexec[0])], check=False,
                    timeout=READ_SECONDS)
    want = f"through slurm, not a remote shell: read the job with --slurm {job_id}"
    if r.returncode != 1 or want not in r.stderr:
        return [f"job --launcher at mpiexec in salloc exited {r.returncode}, not 1 naming "
                f"--slurm {job_id}:\n{r.stderr}"]
    return []


def check_hydra_ssh(doc, err, args):
    """Every rank read on its node, none here, and stderr saying how they were found."""
    failures = []
    hosts = ", ".join(f"node{i}" for i in range(1, args.nodes + 1))
    said = f"and those of Hydra job ctl:"
    if said not in err or f"on the {args.nodes} other hosts it started proxies on ({hosts})" not in err:
        failures.append("stderr does not say where the ranks were found:\n" + err)
    ranks = sorted(r.get("rank") for r in doc.get("ranks", []))
    if ranks != list(range(args.ranks)) or not doc.get("complete"):
        failures.append(f"ranks read {ranks}, complete {doc.get('complete')}")
    if doc.get("unreadable_inputs"):
        failures.append(f"unreadable inputs: {doc.get('unreadable_inputs')}")
    return failures


def run(args):
    failures = []
    with cluster_mod.Cluster(nodes=args.nodes) as c:
        node_exec, node_pdsh = node_shell.write(c)
        if args.launch == "hydra-ssh":
            node_ssh = ssh_nodes.start(c, node_exec)
            launcher = start_hydra_ssh(c, args, node_ssh)
        else:
            start = start_mpirun if args.launch == "mpirun" else start_hydra
            launcher = start(c, args, node_exec)
        job_id = None
        try:
            wait_ready(c, launcher, args.ranks)
            if args.launch == "mpirun":
                pid = str(launcher.pid)
                doc, _ = read(c, args.mpidbg, "job", "--launcher", pid,
                              "--remote-shell", f"{node_exec} {{host}}")
                if args.without_runtime:
                    failures += verdict.stacks_view_failures(doc, args.ranks, "MPI_Ssend")
                else:
                    matrix, _ = read(c, args.mpidbg, "matrix", "--launcher", pid,
                                     "--remote-shell", f"{node_pdsh} -w {{hosts}}")
                    profile, _ = read(c, args.mpidbg, "profile", "--launcher", pid,
                                      "--remote-shell", f"{node_exec} {{host}}")
                    failures += check_views(matrix, profile, args.ranks)
            elif args.launch == "hydra-ssh":
                shell = ["--remote-shell", f"{node_ssh} {{host}}"]
                pid = str(launcher.pid)
                doc, err = read(c, args.mpidbg, "job", "--launcher", pid, *shell)
                failures += check_hydra_ssh(doc, err, args)
                if args.without_runtime:
                    failures += verdict.stacks_view_failures(doc, args.ranks, "MPI_Ssend")
                    print("view:", doc.get("view"), "hung:", (doc.get("stacks") or {}).get("hung"),
                          flush=True)
                else:
                    matrix, _ = read(c, args.mpidbg, "matrix", "--launcher", pid, *shell)
                    profile, _ = read(c, args.mpidbg, "profile", "--launcher", pid, *shell)
                    failures += check_views(matrix, profile, args.ranks)
            else:
                job_id = c.run(["squeue", "-h", "-o", "%i"]).stdout.split()[0]
                failures += check_launcher_points_to_slurm(c, args, job_id)
                doc, _ = read(c, args.mpidbg, "job", "--slurm", job_id)
                if args.without_runtime:
                    failures += verdict.stacks_view_failures(doc, args.ranks, "MPI_Ssend")
            if not args.without_runtime:
                got = verdict.of(doc)
                print("verdict:", got, flush=True)
                want = verdict.expected(args.app, args.ranks)
                if got != want:
                    failures.append(f"verdict {got}, the program makes {want}")
        finally:
            if job_id:
                c.run(["scancel", job_id], check=False)
            stop_launcher(launcher)
    leftovers = state.leftovers(c.names)
    leftovers += [f"rank {p}" for p in processes.all_pids()
                  if processes.exe(p) == args.program]
    if leftovers:
        failures.append("left behind: " + "; ".join(leftovers))
    for f in failures:
        print("FAIL:", f, flush=True)
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--launch", choices=["mpirun", "hydra", "hydra-ssh"], required=True)
    p.add_argument("--app", default="ssend_cycle")
    p.add_argument("--program", required=True)
    p.add_argument("--runtime", required=True)
    p.add_argument("--mpidbg", required=True)
    p.add_argument("--ranks", type=int, default=8)
    p.add_argument("--nodes", type=int, default=4)
    p.add_argument("--without-runtime", action="store_true",
                   help="the ranks without the runtime, read from their stacks")
    args = p.parse_args()
    reason = job_test.skip_reason()
    if not reason and args.launch == "hydra-ssh":
        reason = ssh_nodes.available()
    if reason:
        print("SKIPPED:", reason)
        return job_test.SKIP
    for path in (args.program, args.runtime, args.mpidbg):
        if not os.path.exists(path):
            print(f"FAIL: {path} is not built")
            return 1
    args.program = os.path.realpath(args.program)
    signal.signal(signal.SIGALRM, job_test.on_alarm)
    signal.alarm(job_test.WATCHDOG_SECONDS)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
