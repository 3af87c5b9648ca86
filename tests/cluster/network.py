"""network.py — the cluster's network: one bridge on the host, one network namespace per
node joined to it by a veth pair.

Addresses are link-local (169.254.S.0/24) and exist only on the bridge and inside the
namespaces; nothing is routed, so the cluster cannot reach or be reached from outside."""
import ipaddress
import random
import subprocess

NODE_INTERFACE = "eth0"   # every node's end of its veth pair, the name MPI is told to use


def ip(*args, check=True):
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True)


def pick_subnet():
    """A free 169.254.S.0/24: none of the host's routes may overlap it. S=169 is avoided
    because 169.254.169.254 is the cloud metadata address on many machines."""
    used = []
    for line in ip("-4", "route", "show", "table", "all").stdout.splitlines():
        word = line.split()[0] if line.split() else ""
        try:
            used.append(ipaddress.ip_network(word, strict=False))
        except ValueError:
            continue   # "default", "local", "broadcast" ...
    choices = [s for s in range(1, 255) if s != 169]
    random.shuffle(choices)
    for s in choices:
        net = ipaddress.ip_network(f"169.254.{s}.0/24")
        if not any(net.overlaps(u) for u in used if u.prefixlen > 0):
            return s
    raise RuntimeError("no free 169.254.x.0/24 subnet on this machine")


class Addresses:
    def __init__(self, subnet):
        self.subnet = subnet
        self.host = f"169.254.{subnet}.1"        # the bridge; slurmctld and srun use it

    def node(self, i):
        return f"169.254.{self.subnet}.{10 + i}"


def create_bridge(names, addresses):
    ip("link", "add", names.bridge, "type", "bridge")
    ip("addr", "add", f"{addresses.host}/24", "dev", names.bridge)
    ip("link", "set", names.bridge, "up")


def create_node_network(names, addresses, i):
    ns, veth = names.netns(i), names.veth(i)
    ip("netns", "add", ns)
    ip("link", "add", veth, "type", "veth", "peer", "name", NODE_INTERFACE, "netns", ns)
    ip("link", "set", veth, "master", names.bridge, "up")
    ip("-n", ns, "addr", "add", f"{addresses.node(i)}/24", "dev", NODE_INTERFACE)
    ip("-n", ns, "link", "set", NODE_INTERFACE, "up")
    ip("-n", ns, "link", "set", "lo", "up")


def pids_in_netns(ns):
    r = ip("netns", "pids", ns, check=False)
    return [int(p) for p in r.stdout.split() if p.isdigit()]


def delete_network(names):
    """Deletes what create_* made, whatever part of it exists; never fails."""
    for i in range(1, names.nodes + 1):
        ip("link", "del", names.veth(i), check=False)
        ip("netns", "del", names.netns(i), check=False)
    ip("link", "del", names.bridge, check=False)
