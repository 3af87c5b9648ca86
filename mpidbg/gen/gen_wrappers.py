#!/usr/bin/env python3
"""Generate the runtime's MPI_* wrappers from mpi_calls.def.

usage: gen_wrappers.py --def categories.def --def mpi_calls.def [--def more.def ...]
                      --call-ids call_ids.h --out wrappers.cc

Besides call lines, a .def file may hold directives:
  @category name | HookSuffix | ArgsStruct | field, field, ... [| [facts [comm]] [drains|unpaused]]
      declares a category: its wrappers call PreHookSuffix/PostHookSuffix with an
      ArgsStruct whose fields the roles may name (a dotted field names a member's member).
      The hooks get the call scope, or with `facts` only the call's facts by value
      (CallFacts: the thread, the call's id, whether it came through Fortran): for hooks
      that publish nothing in the thread record, so the scope stays in registers. With
      `facts comm` the Pre hook returns the communicator the call publishes (CallComm),
      and the wrapper hands it to the scope. With `drains` a call of a paused thread
      that names a request pending at the pause (its `requests` field, with `count` or
      one, or its `request` field) is recorded all the same (rt/hot/pause_drain.h); with
      `unpaused` a paused thread's call is recorded always (the runtime's setup and
      final reports: MPI_Init, MPI_Finalize)
  @include rt/some_hooks.h
      a header the generated file includes (where a category's hooks are declared, or
      defined inline: the hooks of the per-message categories are, so the compiler
      sees each wrapper whole)
  @if <preprocessor condition>   ...   @endif
      wraps the calls between them in #if/#endif (calls only some MPI versions have)

Every wrapper enters a per-thread call scope (call id, thread state), runs its
category's Pre hook, publishes the call in the thread record, calls PMPI_<name>, runs
the Post hook and returns the PMPI result. Nested calls go straight to PMPI, and so do
a paused thread's (apart from what `drains` and `unpaused` record). The scope
and the argument struct are locals of the wrapper: an inline hook that hands their
address to out-of-line code makes the compiler keep both in memory for the whole
wrapper (mpidbg/doc/hot_path.md, "How the per-message path is built").

The build fails (exit status 1, one message per problem) when a wrapped function has no
id in call_ids.h, a line is malformed, a category or state is unknown, or a role names a
field the category's argument struct does not have.
"""
import argparse
import re
import sys

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


def parse_directive(line, where, state):
    word, _, rest = line.partition(" ")
    rest = rest.strip()
    if word == "@category":
        cols = [c.strip() for c in rest.split("|")]
        options = cols[4].split() if len(cols) == 5 else []
        drains = "drains" in options
        unpaused = "unpaused" in options
        passing_words = " ".join(o for o in options if o not in ("drains", "unpaused"))
        if (len(cols) not in (4, 5) or not all(cols[:3])
                or passing_words not in ("", "facts", "facts comm")
                or len(options) != len(set(options)) or (drains and unpaused)):
            raise DefError(f"{where}: @category needs "
                           "'name | Hook | Args | fields [| [facts [comm]] [drains|unpaused]]'")
        name, hook, args_type, fields = cols[:4]
        if name in state["categories"]:
            raise DefError(f"{where}: category '{name}' is declared twice")
        # How the wrapper calls the hooks: what it hands them, and around the Pre hook's
        # call, what it does with its result.
        passing = {"": ("scope_", "{}"), "facts": ("scope_.facts()", "{}"),
                   "facts comm": ("scope_.facts()", "scope_.SetComm({})")}[passing_words]
        field_set = {f.strip() for f in fields.split(",") if f.strip()}
        # drains: a completion call, recorded while the thread is paused when it names a
        # request pending at the pause (rt/hot/pause_drain.h); its requests are the
        # `requests` (with `count`, else one) or `request` field.
        if drains and not field_set & {"requests", "request"}:
            raise DefError(f"{where}: a drains category needs a requests or request field")
        # unpaused: a call a pause never hides (MPI_Init, MPI_Finalize).
        pause = "drains" if drains else "unpaused" if unpaused else None
        state["categories"][name] = (hook, args_type, field_set, passing, pause)
    elif word == "@include":
        if not rest:
            raise DefError(f"{where}: @include needs a header")
        if rest not in state["includes"]:
            state["includes"].append(rest)
    elif word == "@if":
        if state["condition"] is not None:
            raise DefError(f"{where}: @if blocks do not nest")
        if not rest:
            raise DefError(f"{where}: @if needs a condition")
        state["condition"] = rest
    elif word == "@endif":
        if state["condition"] is None:
            raise DefError(f"{where}: @endif without @if")
        state["condition"] = None
    else:
        raise DefError(f"{where}: unknown directive '{word}'")


def parse(paths, call_ids):
    calls, errors = [], []
    state = {"categories": {}, "includes": [], "condition": None}
    lines = []
    for path in paths:
        for lineno, raw in enumerate(open(path, encoding="utf-8"), 1):
            lines.append((f"{path}:{lineno}", raw.strip()))
        lines.append((f"{path}:end", "@eof"))
    # Directives first, so a file may use categories another file declares.
    for where, line in lines:
        if line.startswith("@") and line != "@eof":
            try:
                word = line.split()[0]
                if word in ("@category", "@include"):
                    parse_directive(line, where, state)
            except DefError as e:
                errors.append(str(e))
    CATEGORIES = state["categories"]
    for where, line in lines:
        if not line or line.startswith("#"):
            continue
        if line == "@eof":
            if state["condition"] is not None:
                errors.append(f"{where}: @if without @endif")
                state["condition"] = None
            continue
        if line.startswith("@"):
            word = line.split()[0]
            if word in ("@if", "@endif"):
                try:
                    parse_directive(line, where, state)
                except DefError as e:
                    errors.append(str(e))
            elif word not in ("@category", "@include"):
                errors.append(f"{where}: unknown directive '{word}'")
            continue
        try:
            cols = [c.strip() for c in line.split("|")]
            if len(cols) != 6:
                raise DefError(f"{where}: expected 6 '|'-separated columns, got {len(cols)}")
            ret, name, params, category, state_name, roles_text = cols
            if name not in call_ids:
                raise DefError(f"{where}: {name} has no id in call_ids.h "
                               "(add it to MPIDBG_CALL_LIST before wrapping it)")
            if category not in CATEGORIES:
                raise DefError(f"{where}: unknown category '{category}'")
            if state_name not in STATES:
                raise DefError(f"{where}: unknown state '{state_name}'")
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
            hook, args_type, _, (hook_scope, pre_call), pause = CATEGORIES[category]
            calls.append(dict(ret=ret, name=name, params=params, names=names,
                              category=category, state=state_name, roles=roles,
                              hook=hook, hook_scope=hook_scope, pause=pause,
                              pre=pre_call.format(f"::mpidbg::rt::Pre{hook}({hook_scope}, args_)"),
                              args_type=args_type, condition=state["condition"]))
        except DefError as e:
            errors.append(str(e))
    seen = set()
    for c in calls:
        if c["condition"]:
            continue  # alternatives under different conditions may share a name
        if c["name"] in seen:
            errors.append(f"{path}: {c['name']} is listed twice")
        seen.add(c["name"])
    if errors:
        raise DefError("\n".join(errors))
    return calls, state["includes"]


def nested_test(c, site="__builtin_return_address(0)", drained=None):
    """When the wrapper passes the call straight to MPI: a nested call, or a paused one;
    for a drains category, one naming no request pending at the pause; for an unpaused
    one, only a nested call. `drained(requests, count)` writes the scope's test of a
    drains call from its roles' expressions (count None: one request); by default the C
    wrapper's."""
    if c["pause"] == "unpaused":
        return f"!scope_.outermost() && !scope_.RecordsDespitePause({site})"
    if c["pause"] != "drains":
        return "!scope_.outermost()"
    roles = dict(c["roles"])
    requests = roles.get("requests", roles.get("request"))
    if requests is None:
        raise DefError(f"{c['name']}: a drains call needs its requests or request role")
    count = roles.get("count") if "requests" in roles else None
    test = (drained(requests, count) if drained
            else f"RecordsWhilePaused({site}, {requests}, {count or '1'})")
    return f"!scope_.outermost() &&\n      !scope_.{test}"


def emit_wrapper(c):
    hook, args_type = c["hook"], c["args_type"]
    params = "void" if c["params"] == "void" else c["params"]
    forward = ", ".join(c["names"])
    pmpi = f"P{c['name']}({forward})"
    out = [f"#if {c['condition']}"] if c["condition"] else []
    out += [
        f'extern "C" MPIDBG_EXPORT {c["ret"]} {c["name"]}({params}) {{',
        f"  ::mpidbg::rt::CallScope scope_(MPIDBG_CALL_{c['name']}, {STATES[c['state']]},",
        "                                 __builtin_return_address(0));",
        f"  if ({nested_test(c)}) return {pmpi};",
        f"  ::mpidbg::rt::{args_type} args_;",
    ]
    out += [f"  args_.{field} = {expr};" for field, expr in c["roles"]]
    out += [
        f"  {c['pre']};",
        "  scope_.Publish();",
        f"  {c['ret']} rc_ = {pmpi};",
        f"  ::mpidbg::rt::Post{hook}({c['hook_scope']}, args_, rc_);",
        "  return rc_;",
        "}",
    ]
    if c["condition"]:
        out.append("#endif")
    out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--def", dest="deffiles", action="append", required=True)
    ap.add_argument("--call-ids", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    try:
        calls, includes = parse(a.deffiles, read_call_ids(a.call_ids))
    except DefError as e:
        print(f"gen_wrappers.py: error:\n{e}", file=sys.stderr)
        return 1
    body = [
        "// Generated by mpidbg/gen/gen_wrappers.py from mpi_calls.def. Do not edit.",
        "// HOT PATH: each wrapper is a call scope, two hooks and the PMPI call.",
        "#include <mpi.h>",
        "",
        '#include "mpidbg/call_ids.h"',
        '#include "rt/hot/hooks.h"',
    ]
    body += [f'#include "{h}"' for h in includes if h != "rt/hot/hooks.h"]
    body += [
        "",
        '#define MPIDBG_EXPORT __attribute__((visibility("default")))',
        "",
        "// The tables wrap the deprecated calls an MPI still exports (MPI_Attr_put, ...);",
        "// their PMPI_* twins are declared deprecated.",
        '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"',
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
