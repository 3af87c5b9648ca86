"""node_shell.py — remote shells into the emulated nodes, for launchers and for mpidbg's
--remote-shell: `node-exec HOST COMMAND...` runs COMMAND (one shell command line, as ssh
runs it) in HOST's network, UTS, mount and PID namespaces; `node-pdsh -w H1,H2 COMMAND...`
runs it on each host at once and prefixes each output line with "HOST: ", as pdsh does.
Both are scripts written into the cluster's directory, so they go with it."""
import os


def write(cluster):
    """Writes both scripts; returns (node-exec path, node-pdsh path)."""
    n = cluster.names
    execute = f"{n.dir}/node-exec"
    cases = "\n".join(f"  {n.node(i + 1)}) pid={pid} ;;"
                      for i, pid in enumerate(cluster.node_inits))
    with open(execute, "w") as f:
        f.write(f"""#!/bin/sh
host="$1"; shift
case "$host" in
{cases}
  *) echo "node-exec: no node $host" >&2; exit 255 ;;
esac
exec nsenter -t "$pid" --net --uts --mount --pid -- sh -c "$*"
""")
    pdsh = f"{n.dir}/node-pdsh"
    with open(pdsh, "w") as f:
        f.write(f"""#!/bin/bash
[ "$1" = -w ] || {{ echo "usage: node-pdsh -w HOSTS COMMAND..." >&2; exit 2; }}
hosts="$2"; shift 2
for h in ${{hosts//,/ }}; do
  "{execute}" "$h" "$@" | sed -u "s/^/$h: /" &
done
wait
""")
    for path in (execute, pdsh):
        os.chmod(path, 0o755)
    return execute, pdsh
