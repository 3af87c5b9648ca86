"""local_reference.py — the same program run on this machine alone under
`mpidbg run -- mpiexec ...`, read with `mpidbg job --pids` (and, asked for, `matrix
--pids`): the verdict and the counts a job spread over nodes must reproduce. The job is
killed by process id afterwards."""
import json
import os
import signal
import subprocess
import tempfile
import time
import uuid

import processes

READY_SECONDS = 60


def launcher(flavour, ranks):
    if flavour == "mpich":
        return ["mpiexec.mpich", "-n", str(ranks)]
    return ["mpiexec.openmpi", "--allow-run-as-root", "--oversubscribe", "-n", str(ranks)]


def verdict_json(mpidbg, flavour, program, ranks):
    """Returns the mpidbg.job/1 document of a local run of program with `ranks` ranks."""
    return documents(mpidbg, flavour, program, ranks, ["job"])["job"]


def documents(mpidbg, flavour, program, ranks, commands, run_options=()):
    """{command: its --json document} for each of `commands` (job, matrix, profile) read
    with --pids from one local run of program under `mpidbg run RUN_OPTIONS`."""
    marker = f"MPIDBG_CLUSTER_REFERENCE={uuid.uuid4().hex}"
    key, value = marker.split("=")
    with tempfile.TemporaryDirectory(prefix="mpidbg-cluster-ref-", dir="/var/tmp") as d:
        log = open(f"{d}/job.log", "w+")
        job = subprocess.Popen([mpidbg, "run", *run_options, "--", *launcher(flavour, ranks),
                                program],
                               stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                               env=dict(os.environ, **{key: value}), start_new_session=True)
        try:
            pids = wait_ranks(job, program, marker, ranks, f"{d}/job.log")
            docs = {}
            for command in commands:
                r = subprocess.run([mpidbg, command, "--pids", ",".join(map(str, pids)),
                                    "--json"], capture_output=True, text=True, timeout=120)
                if not r.stdout.strip():
                    raise RuntimeError(f"local mpidbg {command} gave nothing: {r.stderr}")
                docs[command] = json.loads(r.stdout)
            return docs
        finally:
            kill_job(job, program, marker)
            log.close()


def marked_ranks(program, marker):
    key, value = marker.split("=")
    return sorted(p for p in processes.all_pids()
                  if processes.exe(p) == program and processes.environ(p).get(key) == value)


def wait_ranks(job, program, marker, ranks, log):
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        pids = marked_ranks(program, marker)
        with open(log) as f:
            ready = f.read().count(" ready\n")
        if len(pids) == ranks and ready == ranks:
            return pids
        if job.poll() is not None:
            raise RuntimeError("the local job ended early:\n" + open(log).read())
        time.sleep(0.1)
    raise RuntimeError("the local job did not get ready:\n" + open(log).read())


def kill_job(job, program, marker):
    try:
        os.killpg(job.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for pid in marked_ranks(program, marker):
        processes.kill(pid, processes.start_time(pid))
    job.wait(timeout=30)
