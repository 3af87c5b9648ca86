"""slurm_job.py — an MPI job started with srun across the emulated nodes with the mpidbg
runtime preloaded, read on every node by `mpidbg job --slurm`, and killed.

The runtime reaches the ranks only (`--export=ALL,LD_PRELOAD=...`), not srun itself, as
`mpidbg run` does for a launcher: the runtime links libmpi. Without one (runtime None)
the job is one nobody started under mpidbg. srun's --export splits at
commas, so variables whose values hold commas (UCX_TLS, OMPI_MCA_btl) go through the
environment, which --export=ALL passes on."""
import json
import os
import time

import processes

READY_SECONDS = 60
GONE_SECONDS = 20
READ_SECONDS = 120


def mpi_settings(flavour, interface):
    """srun's MPI plugin and the variables that keep each MPI on TCP over the node's
    interface: shared memory does not work between namespaces."""
    if flavour == "mpich":
        return "pmi2", {"UCX_TLS": "tcp,self", "UCX_NET_DEVICES": interface}
    return "pmix", {"OMPI_MCA_btl": "self,tcp", "OMPI_MCA_pml": "ob1",
                    "OMPI_MCA_btl_tcp_if_include": interface}


class SlurmJob:
    def __init__(self, cluster, flavour, program, runtime, ranks, nodes, rank_env=None):
        self.cluster, self.program, self.ranks = cluster, program, ranks
        self.name = f"mpidbg-{flavour}-{os.path.basename(program)}"
        plugin, env = mpi_settings(flavour, cluster.node_interface())
        env.update(rank_env or {})
        self.srun = cluster.popen(
            ["srun", f"--mpi={plugin}", f"--job-name={self.name}", "--time=5",
             f"--nodes={nodes}", f"--ntasks={ranks}", f"--ntasks-per-node={ranks // nodes}",
             "--export=ALL" + (f",LD_PRELOAD={runtime}" if runtime else ""), program],
            log="job.out", env=env)
        self.id = None
        self.status = None  # of the last read()

    def wait_ready(self):
        """Waits for every rank's "ready" line; returns the job id."""
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            out = self.cluster.log("job.out")
            if out.count(" ready\n") == self.ranks:
                r = self.cluster.run(["squeue", "-h", "-n", self.name, "-o", "%i"])
                self.id = r.stdout.split()[0]
                return self.id
            if self.srun.poll() is not None:
                raise RuntimeError("the job ended early:\n" + out)
            time.sleep(0.1)
        raise RuntimeError("the job did not get ready:\n" + self.cluster.log("job.out"))

    def read(self, mpidbg, *extra, command="job"):
        """`mpidbg COMMAND --slurm <job> --json` from the host, as a user on a login node
        runs it: returns (the document, its stderr). Exit status 4 (a job verdict on part
        of the job: a node not read) is a document too; `self.status` keeps it."""
        r = self.cluster.run([mpidbg, command, "--slurm", self.id, "--json", *extra],
                             check=False, timeout=READ_SECONDS)
        self.status = r.returncode
        if r.returncode not in (0, 4) or not r.stdout.strip():
            raise RuntimeError(f"mpidbg {command} --slurm exited {r.returncode}:\n{r.stderr}")
        return json.loads(r.stdout), r.stderr

    def nodes(self):
        r = self.cluster.run(["squeue", "-h", "-j", self.id, "-o", "%D"])
        return r.stdout.split()[0]

    def ranks_left(self):
        """Host pids of processes on the nodes that still belong to the job."""
        return [p for p in self.cluster.processes_on_nodes()
                if processes.environ(p).get("SLURM_JOB_ID") == self.id]

    def kill(self):
        """scancel, then by pid whatever is left; returns what remains afterwards."""
        if self.id:
            self.cluster.run(["scancel", self.id], check=False)
        try:
            self.srun.wait(timeout=GONE_SECONDS)
        except Exception:
            self.srun.kill()
            self.srun.wait()
        for pid in self.ranks_left() if self.id else []:
            processes.kill(pid, processes.start_time(pid))
        deadline = time.monotonic() + GONE_SECONDS
        left = []
        while time.monotonic() < deadline:
            left = self.ranks_left() if self.id else []
            queued = self.cluster.run(["squeue", "-h", "-o", "%i %T"]).stdout.strip()
            if not left and not queued:
                return []
            time.sleep(0.2)
        return [f"process {p}" for p in left] + ([f"queued: {queued}"] if queued else [])
