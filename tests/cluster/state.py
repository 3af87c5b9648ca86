"""state.py — what a running cluster owns, written to its directory as it is made, so a
run killed before its clean-up (SIGKILL, a CTest timeout) is cleaned by the next one.

state.json holds the run id, the harness's pid and start time, and every process the
cluster started (pid and start time). The network names follow from the run id."""
import glob
import json
import os
import shutil

import names as names_mod
import network
import processes


def path(names):
    return f"{names.dir}/state.json"


def write(names, owner, started):
    data = {"run_id": names.run_id, "nodes": names.nodes,
            "owner": {"pid": owner, "start": processes.start_time(owner)},
            "processes": [{"pid": p, "start": s} for p, s in started]}
    tmp = path(names) + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path(names))


def tear_down(names, started):
    """Removes everything a cluster may have made; safe on a half-made or gone cluster.
    Processes first (the nodes' whole PID namespaces die with their first process), then
    the network, then the files."""
    for pid, start in started:
        processes.kill(pid, start)
    for i in range(1, names.nodes + 1):
        for pid in network.pids_in_netns(names.netns(i)):
            processes.kill(pid, processes.start_time(pid))
    processes.wait_gone(started, 10)
    network.delete_network(names)
    shutil.rmtree(names.dir, ignore_errors=True)


def clean_stale():
    """Tears down clusters whose harness is gone; returns their run ids."""
    cleaned = []
    for d in glob.glob(f"{names_mod.STATE_ROOT}/{names_mod.DIR_PREFIX}*"):
        run_id = d[len(f"{names_mod.STATE_ROOT}/{names_mod.DIR_PREFIX}"):]
        try:
            with open(f"{d}/state.json") as f:
                data = json.load(f)
        except (OSError, ValueError):
            data = None
        if data and processes.same_process(data["owner"]["pid"], data["owner"]["start"]):
            continue   # its harness still runs: not ours to touch
        nodes = data["nodes"] if data else 4
        started = [(p["pid"], p["start"]) for p in data["processes"]] if data else []
        tear_down(names_mod.Names(run_id, nodes), started)
        cleaned.append(run_id)
    return cleaned


def leftovers(names):
    """Anything of this cluster still on the machine, as readable lines (empty: clean)."""
    found = []
    links = network.ip("-o", "link", "show").stdout
    found += [f"link {l.split(':')[1].strip()}" for l in links.splitlines()
              if f"{names_mod.PREFIX}{names.run_id}" in l]
    netns = network.ip("netns", "list").stdout
    found += [f"netns {l.split()[0]}" for l in netns.splitlines()
              if l.startswith(f"{names_mod.PREFIX}{names.run_id}")]
    if os.path.exists(names.dir):
        found.append(f"directory {names.dir}")
    with open("/proc/self/mountinfo") as f:
        found += [f"mount {l.split()[4]}" for l in f if names.dir in l]
    for pid in processes.all_pids():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if names.dir in cmd:
            found.append(f"process {pid}: {cmd.strip()}")
    return found
