"""verdict.py — the part of an `mpidbg job --json` document (mpidbg.job/1) two runs of
the same program must agree on, wherever their ranks ran: the kind of verdict and its
rank sets (pids, nodes and communicator ids differ from run to run)."""


def of(job):
    mismatches = [[(side["call"], list(side["ranks"])) for side in m["sides"]]
                  for m in job.get("collective_mismatches") or []]
    deadlock = job["deadlock"]
    if mismatches:
        kind = "collective_mismatch"
    elif deadlock["detected"]:
        kind = "deadlock"
    else:
        kind = "none"
    return {"kind": kind,
            "ranks": sorted(r["rank"] for r in job["ranks"]),
            "deadlocked": sorted(deadlock.get("ranks") or []),
            "mismatches": mismatches}


def stacks_view_failures(job, ranks, call):
    """What a job run without the runtime must give, read from its ranks' stacks (the
    reduced view): every rank read, each in `call`, hung (no stack moved between the two
    reads), no deadlock claimed. One line per failure."""
    failures = []
    if job.get("view") != "stacks":
        failures.append(f"view {job.get('view')}, not the reduced view (stacks)")
    read = sorted(r["rank"] for r in job.get("ranks", []) if r.get("state") != "unreadable")
    if read != list(range(ranks)) or job.get("complete") is not True:
        failures.append(f"ranks read {read} of {ranks}, complete {job.get('complete')}")
    calls = sorted({r.get("call") for r in job.get("ranks", [])}, key=str)
    if calls != [call]:
        failures.append(f"the ranks are in {calls}, not all in {call}")
    if not (job.get("stacks") or {}).get("hung"):
        failures.append(f"not hung: {job.get('stacks')}")
    if job.get("deadlock") is not None:
        failures.append("a deadlock claimed from stacks alone")
    return failures


def expected(app, ranks):
    """What the test programs are written to produce."""
    everyone = list(range(ranks))
    if app == "ssend_cycle":
        return {"kind": "deadlock", "ranks": everyone, "deadlocked": everyone,
                "mismatches": []}
    if app == "collective_mismatch":
        return {"kind": "collective_mismatch", "ranks": everyone, "deadlocked": everyone,
                "mismatches": [[("MPI_Barrier", [0, 1]), ("MPI_Allreduce", [2, 3])]]}
    raise ValueError(f"no expected verdict for {app}")
