#!/usr/bin/env python3
"""Check that the transparency programs call every MPI function the runtime knows.

usage: check_coverage.py --call-ids include/mpidbg/call_ids.h --sources tests/transparency

Every name in MPIDBG_CALL_LIST (call_ids.h) is a call the runtime intercepts or will
intercept; each must be called by at least one C program in the sources directory, or
be listed in EXCLUDED below with the reason. A call counts as used when its name is
followed by "(" in a .c or .h file there, outside a comment. Exit status 0 when
covered, 1 otherwise (the uncovered names are printed).
"""
import argparse
import glob
import os
import re
import sys

# Calls deliberately not exercised, each with the reason. Keep this empty if possible.
EXCLUDED = {
}


def call_list(path):
    text = open(path, encoding="utf-8").read()
    names = re.findall(r"X\(\s*(\w+)\s*,\s*\d+\s*,\s*\w+\s*\)", text)
    return [n for n in names if n.startswith("MPI_")]


def strip_comments(code):
    code = re.sub(r"/\*.*?\*/", " ", code, flags=re.S)
    return re.sub(r"//[^\n]*", " ", code)


def used_calls(directory):
    used = {}
    paths = glob.glob(os.path.join(directory, "*.c")) + glob.glob(os.path.join(directory, "*.h"))
    for path in sorted(paths):
        code = strip_comments(open(path, encoding="utf-8").read())
        for name in re.findall(r"\b(MPI_\w+)\s*\(", code):
            used.setdefault(name, os.path.basename(path))
    return used


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--call-ids", required=True)
    parser.add_argument("--sources", required=True)
    args = parser.parse_args()
    calls = call_list(args.call_ids)
    if not calls:
        print(f"no calls found in {args.call_ids}")
        return 1
    used = used_calls(args.sources)
    missing = [c for c in calls if c not in used and c not in EXCLUDED]
    stale = [c for c in EXCLUDED if c not in calls or c in used]
    for c in missing:
        print(f"not exercised by any transparency program: {c}")
    for c in stale:
        print(f"exclusion no longer needed (unknown or now used): {c}")
    covered = len([c for c in calls if c in used])
    print(f"{covered} of {len(calls)} calls in call_ids.h exercised, "
          f"{len(EXCLUDED)} excluded, {len(missing)} missing")
    return 1 if missing or stale else 0


if __name__ == "__main__":
    sys.exit(main())
