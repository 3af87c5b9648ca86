#!/usr/bin/env python3
"""Generate the runtime's MPI_* wrappers from mpi_calls.def.

usage: gen_wrappers.py --def mpi_calls.def --call-ids call_ids.h --out wrappers.cc

Every wrapper enters a per-thread call scope (call id, thread state), runs its
category's Pre hook, publishes the call in the thread record, calls PMPI_<name>, runs
the Post hook and returns the PMPI result. Nested calls go straight to PMPI.

The build fails (exit status 1, one message per problem) when a wrapped function has no
id in call_ids.h, a line is malformed, a category or state is unknown, or a role names a
field the category's argument struct does not have.
"""
import argparse
import re
import sys

# category -> (hook suffix in rt/hooks.h, argument struct in rt/hook_args.h, fields)
P2P_FIELDS = {"buf", "count", "datatype", "peer", "tag", "comm", "direction", "mode",
              "request", "status"}
CATEGORIES = {
    "init": ("Init", "InitArgs", {"required", "provided"}),
    "finalize": ("Finalize", "FinalizeArgs", set()),
    "plain": ("Plain", "PlainArgs", {"comm"}),
    "p2p_blocking": ("P2pBlocking", "P2pArgs", P2P_FIELDS),
    "sendrecv": ("Sendrecv", "SendrecvArgs",
                 {f"{half}.{f}" for half in ("send", "recv") for f in P2P_FIELDS}),
    "p2p_nonblocking": ("P2pNonblocking", "P2pArgs", P2P_FIELDS),
    "p2p_persistent": ("P2pPersistent", "P2pArgs", P2P_FIELDS),
    "start": ("Start", "StartArgs", {"count", "requests"}),
    "completion": ("Completion", "CompletionArgs",
                   {"kind", "count", "requests", "flag", "index", "outcount", "indices"}),
    "request_free": ("RequestFree", "RequestFreeArgs", {"request"}),
    "coll_blocking": ("CollBlocking", "CollArgs",
                      {"comm", "root", "count", "datatype", "inplace_buf", "alt_count",
                       "alt_datatype"}),
    "coll_nonblocking": ("CollNonblocking", "CollArgs",
                         {"comm", "root", "count", "datatype", "inplace_buf", "alt_count",
                          "alt_datatype", "request"}),
    "comm_create": ("CommCreate", "CommCreateArgs",
                    {"parent", "newcomm", "color", "key", "tag"}),
    "comm_idup": ("CommIdup", "CommCreateArgs", {"parent", "newcomm", "request"}),
    "comm_free": ("CommFree", "CommFreeArgs", {"comm"}),
    "comm_set_name": ("CommSetName", "CommSetNameArgs", {"comm", "name"}),
}
STATES = {"BLOCKED": "MPIDBG_THREAD_BLOCKED", "IN_MPI": "MPIDBG_THREAD_IN_MPI"}
RESERVED = {"scope_", "args_", "rc_"}


class DefError(Exception):
    pass


def read_call_ids(path):
    text = open(path, encoding="utf-8").read()
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"X\(\s*(\w+)\s*,\s*(\d+)\s*,\s*\w+\s*\)", text)}


def param_names(params, where):
    if params.strip() == "void":
        return []
    names = []
    for p in params.split(","):
        m = re.search(r"([A-Za-z_]\w*)\s*(\[\s*\])?\s*$", p.strip())
        if not m:
            raise DefError(f"{where}: cannot find the parameter name in '{p.strip()}'")
        if m.group(1) in RESERVED:
            raise DefError(f"{where}: parameter name '{m.group(1)}' is reserved")
        names.append(m.group(1))
    return names


def parse(path, call_ids):
    calls, errors = [], []
    for lineno, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path}:{lineno}"
        try:
            cols = [c.strip() for c in line.split("|")]
            if len(cols) != 6:
                raise DefError(f"{where}: expected 6 '|'-separated columns, got {len(cols)}")
            ret, name, params, category, state, roles_text = cols
            if name not in call_ids:
                raise DefError(f"{where}: {name} has no id in call_ids.h "
                               "(add it to MPIDBG_CALL_LIST before wrapping it)")
            if category not in CATEGORIES:
                raise DefError(f"{where}: unknown category '{category}'")
            if state not in STATES:
                raise DefError(f"{where}: unknown state '{state}'")
            names = param_names(params, where)
            fields = CATEGORIES[category][2]
            roles = []
            for item in filter(None, (r.strip() for r in roles_text.split(";"))):
                if "=" not in item:
                    raise DefError(f"{where}: role '{item}' is not field=expression")
                field, expr = (s.strip() for s in item.split("=", 1))
                if field not in fields:
                    raise DefError(f"{where}: category {category} has no field '{field}'")
                roles.append((field, expr))
            calls.append(dict(ret=ret, name=name, params=params, names=names,
                              category=category, state=state, roles=roles))
        except DefError as e:
            errors.append(str(e))
    seen = set()
    for c in calls:
        if c["name"] in seen:
            errors.append(f"{path}: {c['name']} is listed twice")
        seen.add(c["name"])
    if errors:
        raise DefError("\n".join(errors))
    return calls


def emit_wrapper(c):
    hook, args_type, _ = CATEGORIES[c["category"]]
    params = "void" if c["params"] == "void" else c["params"]
    forward = ", ".join(c["names"])
    pmpi = f"P{c['name']}({forward})"
    out = [
        f'extern "C" MPIDBG_EXPORT {c["ret"]} {c["name"]}({params}) {{',
        f"  ::mpidbg::rt::CallScope scope_(MPIDBG_CALL_{c['name']}, {STATES[c['state']]});",
        f"  if (!scope_.outermost()) return {pmpi};",
        f"  ::mpidbg::rt::{args_type} args_;",
    ]
    out += [f"  args_.{field} = {expr};" for field, expr in c["roles"]]
    out += [
        f"  ::mpidbg::rt::Pre{hook}(scope_, args_);",
        "  scope_.Publish();",
        f"  {c['ret']} rc_ = {pmpi};",
        f"  ::mpidbg::rt::Post{hook}(scope_, args_, rc_);",
        "  return rc_;",
        "}",
        "",
    ]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--def", dest="deffile", required=True)
    ap.add_argument("--call-ids", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    try:
        calls = parse(a.deffile, read_call_ids(a.call_ids))
    except DefError as e:
        print(f"gen_wrappers.py: error:\n{e}", file=sys.stderr)
        return 1
    body = [
        "// Generated by mpidbg/gen/gen_wrappers.py from mpi_calls.def. Do not edit.",
        "// HOT PATH: each wrapper is a call scope, two hooks and the PMPI call.",
        "#include <mpi.h>",
        "",
        '#include "mpidbg/call_ids.h"',
        '#include "rt/hooks.h"',
        "",
        '#define MPIDBG_EXPORT __attribute__((visibility("default")))',
        "",
        "// Role expressions in mpi_calls.def name runtime constants as rt::...",
        "namespace rt = ::mpidbg::rt;",
        "",
    ]
    body += [emit_wrapper(c) for c in calls]
    text = "\n".join(body)
    try:
        if open(a.out, encoding="utf-8").read() == text:
            return 0  # unchanged: keep the timestamp, avoid recompiling
    except OSError:
        pass
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
