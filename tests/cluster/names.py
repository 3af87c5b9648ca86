"""names.py — every name and path one emulated cluster owns, derived from one run id.

All of them start with PREFIX, so a run's leftovers can be told from anything else on
the machine, and they fit the kernel's 15-character limit on interface names."""
import secrets

PREFIX = "mdbc"                     # mpidbg cluster
STATE_ROOT = "/var/tmp"             # outside /tmp: nodes get their own /tmp
DIR_PREFIX = "mpidbg-cluster-"


class Names:
    def __init__(self, run_id=None, nodes=4):
        self.run_id = run_id or secrets.token_hex(3)
        self.nodes = nodes
        self.dir = f"{STATE_ROOT}/{DIR_PREFIX}{self.run_id}"
        self.bridge = f"{PREFIX}{self.run_id}b"
        self.controller = "ctl"     # a hostname inside the cluster's own UTS namespaces

    def node(self, i):
        """The Slurm node name and hostname of node i (1-based)."""
        return f"node{i}"

    def netns(self, i):
        return f"{PREFIX}{self.run_id}-n{i}"

    def veth(self, i):
        """The host end of node i's veth pair; the node's end is renamed eth0."""
        return f"{PREFIX}{self.run_id}v{i}"

    def all_nodes(self):
        return [self.node(i) for i in range(1, self.nodes + 1)]
