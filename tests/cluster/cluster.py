#!/usr/bin/env python3
"""cluster.py — a Slurm cluster of N nodes emulated on this machine with namespaces.

Each node is a network namespace on a bridge of its own plus UTS, PID and mount
namespaces: its own hostname, its own /proc (a node sees only its processes), its own
/etc/hosts and /tmp. slurmctld runs in the host's network namespace (reached through the
bridge) under its own hostname; one munged serves every node. Everything lives in a fresh
/var/tmp/mpidbg-cluster-<id> and is torn down on leaving the `with` block, at exit, on
SIGTERM/SIGINT/SIGHUP, and, after a SIGKILL, by the next run's start-up.

By hand, as root:  cluster.py up      (prints SLURM_CONF, waits for Ctrl-C)
                   cluster.py clean   (removes leftovers of killed runs)"""
import atexit
import os
import signal
import socket
import subprocess
import sys
import time

# The helpers sit beside this file; no bytecode is written into the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import munge          # noqa: E402
import names as names_mod  # noqa: E402
import network        # noqa: E402
import processes      # noqa: E402
import slurm_config   # noqa: E402
import state          # noqa: E402

READY_SECONDS = 60


def free_port():
    """A TCP port nothing listens on now, for slurmctld in the host's namespace."""
    with socket.socket() as s:
        s.bind(("", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, nodes=4):
        self.names = names_mod.Names(nodes=nodes)
        self.started = []          # (pid, start time) of every process we started
        self.node_inits = []       # host pid of each node's first process
        self.closed = False
        self.bringup_s = None

    # -- bring-up ---------------------------------------------------------------------
    def __enter__(self):
        t0 = time.monotonic()
        state.clean_stale()
        _install_exit_handlers(self)
        try:
            self._bring_up()
        except BaseException:
            self.close()
            raise
        self.bringup_s = time.monotonic() - t0
        return self

    def _bring_up(self):
        n = self.names
        os.makedirs(f"{n.dir}/log")
        os.makedirs(f"{n.dir}/ctld/state")
        state.write(n, os.getpid(), self.started)
        self.addresses = network.Addresses(network.pick_subnet())
        network.create_bridge(n, self.addresses)
        for i in range(1, n.nodes + 1):
            network.create_node_network(n, self.addresses, i)
            for sub in ("spool", "tmp"):
                os.makedirs(f"{n.dir}/nodes/{n.node(i)}/{sub}")
            os.chmod(f"{n.dir}/nodes/{n.node(i)}/tmp", 0o1777)
        self.munge_socket = munge.prepare(f"{n.dir}/munge")
        self.conf = f"{n.dir}/slurm.conf"
        self.hosts = f"{n.dir}/hosts"
        with open(self.conf, "w") as f:
            f.write(slurm_config.slurm_conf(n, self.addresses, free_port(), self.munge_socket))
        with open(self.hosts, "w") as f:
            f.write(slurm_config.hosts_file(n, self.addresses))

        self.popen(munge.command(f"{n.dir}/munge"), log="munged.console")
        munge.wait_ready(self.munge_socket)
        self._start_controller()
        for i in range(1, n.nodes + 1):
            self._start_node(i)
        self._wait_nodes_idle()

    def _start_controller(self):
        # Its own UTS namespace so its hostname is SlurmctldHost; its own mount namespace
        # for the cluster's hosts file. The network stays the host's: srun reaches it.
        script = 'hostname "$1" && mount --bind "$2" /etc/hosts && exec slurmctld -D -f "$3"'
        self.popen(["unshare", "--uts", "--mount", "--propagation", "private",
                    "sh", "-c", script, "sh", self.names.controller, self.hosts, self.conf],
                   log="slurmctld.console")

    def _start_node(self, i):
        # nsenter, not `ip netns exec`: the latter remounts /sys, hiding /sys/fs/cgroup,
        # and slurmd then fails to start. sh stays the node's first process (no exec) and
        # reaps orphans; killing it ends every process of the node at once.
        n = self.names
        script = ('hostname "$1" && mount --bind "$2" /etc/hosts && mount --bind "$3" /tmp '
                  '&& slurmd -D -N "$1" -f "$4"; exit $?')
        p = self.popen(["nsenter", f"--net=/run/netns/{n.netns(i)}",
                        "unshare", "--uts", "--pid", "--mount", "--fork", "--mount-proc",
                        "sh", "-c", script, "sh", n.node(i), self.hosts,
                        f"{n.dir}/nodes/{n.node(i)}/tmp", self.conf],
                       log=f"{n.node(i)}.console")
        deadline = time.monotonic() + 10
        while not processes.children(p.pid):
            if time.monotonic() > deadline or p.poll() is not None:
                raise RuntimeError(f"{n.node(i)} did not start: {self.log(n.node(i) + '.console')}")
            time.sleep(0.02)
        init = processes.children(p.pid)[0]
        self.node_inits.append(init)
        self._remember(init)

    def _wait_nodes_idle(self):
        deadline = time.monotonic() + READY_SECONDS
        want = set(self.names.all_nodes())
        while time.monotonic() < deadline:
            r = self.run(["sinfo", "-h", "-N", "-o", "%N %t"], check=False)
            idle = {l.split()[0] for l in r.stdout.splitlines() if l.split()[1:] == ["idle"]}
            if idle == want:
                return
            time.sleep(0.2)
        raise RuntimeError("nodes not idle in time:\n" + self.run(
            ["sinfo", "-N"], check=False).stdout + self.log("slurmctld.log"))

    # -- use --------------------------------------------------------------------------
    def env(self, extra=None):
        env = dict(os.environ, SLURM_CONF=self.conf)
        env.update(extra or {})
        return env

    def run(self, args, check=True, timeout=60, env=None):
        return subprocess.run(args, check=check, capture_output=True, text=True,
                              timeout=timeout, env=self.env(env))

    def popen(self, args, log, env=None):
        """Starts a process we own (killed by pid at tear-down), output into log/<log>."""
        out = open(f"{self.names.dir}/log/{log}", "ab")
        p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=out,
                             stderr=subprocess.STDOUT, env=self.env(env))
        out.close()
        self._remember(p.pid)
        return p

    def log(self, name):
        try:
            with open(f"{self.names.dir}/log/{name}", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def node_interface(self):
        return network.NODE_INTERFACE

    def processes_on_nodes(self):
        """Host pids of every process inside the nodes' PID namespaces."""
        spaces = {processes.pid_namespace(p) for p in self.node_inits} - {None}
        return [p for p in processes.all_pids() if processes.pid_namespace(p) in spaces]

    def _remember(self, pid):
        self.started.append((pid, processes.start_time(pid)))
        state.write(self.names, os.getpid(), self.started)

    # -- tear-down --------------------------------------------------------------------
    def close(self):
        if self.closed:
            return
        self.closed = True
        # The nodes first (their jobs die with them), then the controller and munged.
        nodes = [(p, s) for p, s in self.started if p in self.node_inits]
        daemons = [(p, s) for p, s in self.started if p not in self.node_inits]
        for pid, start in nodes:
            processes.kill(pid, start)
        for pid, start in daemons:
            processes.kill(pid, start, signal.SIGTERM)
        if not processes.wait_gone(daemons, 5):
            for pid, start in daemons:
                processes.kill(pid, start)
        state.tear_down(self.names, self.started)

    def __exit__(self, *exc):
        self.close()
        return False


def _install_exit_handlers(cluster):
    atexit.register(cluster.close)

    def on_signal(signum, frame):
        # Unwinds through `with`, so the cluster is torn down before the exit.
        raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)


def main(argv):
    if os.geteuid() != 0:
        sys.exit("cluster.py needs root (namespaces, a bridge, Slurm daemons)")
    if argv[1:] == ["clean"]:
        print("cleaned:", " ".join(state.clean_stale()) or "nothing")
        return
    if argv[1:] != ["up"]:
        sys.exit(__doc__)
    with Cluster() as c:
        print(f"up in {c.bringup_s:.1f} s: export SLURM_CONF={c.conf}")
        print(f"nodes {' '.join(c.names.all_nodes())}, interface {c.node_interface()}; "
              "Ctrl-C tears it down")
        sys.stdout.flush()
        signal.pause()


if __name__ == "__main__":
    main(sys.argv)
