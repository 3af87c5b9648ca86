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
