"""ssh_nodes.py — OpenSSH on the emulated nodes, as a cluster without a batch system is
reached: one sshd per node (inside the node's namespaces, on its bridge address, port 22)
and `node-ssh`, ssh with a client configuration of the cluster's own (a key made for this
run, each node's address, no host-key prompts), for Hydra's `-launcher-exec` and mpidbg's
--remote-shell alike. Processes started through it hang below the node's sshd, not below
the process that ran ssh: what a launcher on a login node sees of its remote proxies.

Everything lives in the cluster's directory. sshd runs in a mount namespace of its own
with a fresh /run, where it keeps its privilege-separation directory, so nothing is
made outside the cluster; it dies with its node's PID namespace."""
import os
import subprocess
import time

READY_SECONDS = 20


def _keygen(path):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", path], check=True)


def available():
    """None when ssh and sshd are installed, else why not."""
    for tool in ("/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen"):
        if not os.access(tool, os.X_OK):
            return f"{tool} is not installed (openssh-server, openssh-client)"
    return None


def start(cluster, node_exec):
    """Starts sshd on every node; returns the path of node-ssh once each node answers."""
    n = cluster.names
    d = f"{n.dir}/ssh"
    os.makedirs(d, mode=0o700)
    _keygen(f"{d}/host_key")
    _keygen(f"{d}/id")
    with open(f"{d}/id.pub") as f, open(f"{d}/authorized_keys", "w") as out:
        out.write(f.read())
    with open(f"{d}/sshd_config", "w") as f:
        f.write(f"""HostKey {d}/host_key
AuthorizedKeysFile {d}/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile none
""")
    with open(f"{d}/ssh_config", "w") as f:
        for i in range(1, n.nodes + 1):
            f.write(f"Host {n.node(i)}\n  HostName {cluster.addresses.node(i)}\n")
        f.write(f"""Host *
  User root
  IdentityFile {d}/id
  IdentitiesOnly yes
  BatchMode yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
  ConnectTimeout 10
""")
    node_ssh = f"{n.dir}/node-ssh"
    with open(node_ssh, "w") as f:
        f.write(f'#!/bin/sh\nexec ssh -F "{d}/ssh_config" "$@"\n')
    os.chmod(node_ssh, 0o755)
    sshd = (f"unshare --mount --propagation private sh -c 'mount -t tmpfs -o mode=755 run /run "
            f"&& mkdir -m 755 /run/sshd && exec /usr/sbin/sshd -D -e -f {d}/sshd_config'")
    for i in range(1, n.nodes + 1):
        cluster.popen([node_exec, n.node(i), sshd], log=f"{n.node(i)}.sshd")
    deadline = time.monotonic() + READY_SECONDS
    for i in range(1, n.nodes + 1):
        while True:
            r = subprocess.run([node_ssh, n.node(i), "hostname"], capture_output=True, text=True,
                               timeout=READY_SECONDS)
            if r.returncode == 0 and r.stdout.strip() == n.node(i):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"sshd on {n.node(i)} does not answer: {r.stderr}"
                                   + cluster.log(f"{n.node(i)}.sshd"))
            time.sleep(0.2)
    return node_ssh
