#!/usr/bin/env python3
"""check_layering.py — checks every C/C++ source of the tree against the include rules.

The rules are written once, as the table under "## Include rules" in
docs/ARCHITECTURE.md; this script reads that table, so the document and the check
cannot disagree. Each row names a component, the folders it owns and the components it
may include:

    | component | folders | may include |
    |---|---|---|
    | plugin core | `plugin/` | contract |

A source belongs to the component owning the longest folder prefix of its path; a
component may always include itself. Every quoted #include that names a file of the
tree is resolved (beside the includer, from the tree's root, from include/, else by the
one file of the tree whose path ends with the name) and its owner checked. A source no
component owns is an error too, so a new folder has to be placed in the table.

The table under "## Readers and renderers" gives file roles by name pattern (fnmatch
over the path, `*` crossing folders) and the roles a file of each may not include:

    | role | files | may not include |
    |---|---|---|
    | reader | `host/*read_*` | renderer |

    check_layering.py ROOT            check the tree, print each breach, exit 1 if any
    check_layering.py --self-test     check that breaches in a made-up tree are found
"""
import fnmatch
import os
import re
import sys
import tempfile

SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".h", ".hpp", ".inc")
SKIP_DIRS = {".git", "build", "build-fuzz", "node_modules", "__pycache__"}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def table_rows(text, heading):
    """The three-cell rows of the table under `## heading` (header and rule rows left
    out), or None when the document has no such section."""
    m = re.search(r"^## " + re.escape(heading) + r"\s*$", text, re.M)
    if not m:
        return None
    rows = []
    for line in text[m.end():].splitlines():
        if line.startswith("## "):
            break
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or set(cells[0]) <= set("-: "):
            continue
        rows.append(cells)
    return rows[1:]  # the first is the header


def backticked(cell):
    return [p.strip("`") for p in re.findall(r"`[^`]+`", cell)]


def read_rules(doc_path, text):
    """The table under '## Include rules': {component: (folders, allowed components)}."""
    rows = table_rows(text, "Include rules")
    if rows is None:
        raise SystemExit(f"{doc_path}: no '## Include rules' section")
    rules = {}
    for name, folders, allowed in rows:
        folders = [f.strip("/ ") for f in backticked(folders)]
        allowed = [] if allowed in ("—", "-", "nothing") else [a.strip() for a in allowed.split(",")]
        if not folders:
            raise SystemExit(f"{doc_path}: component '{name}' names no folder")
        rules[name] = (folders, allowed)
    if not rules:
        raise SystemExit(f"{doc_path}: the include rules table is empty")
    for name, (_, allowed) in rules.items():
        for a in allowed:
            if a not in rules:
                raise SystemExit(f"{doc_path}: component '{name}' may include '{a}', which is no component")
    return rules


def read_roles(doc_path, text):
    """The table under '## Readers and renderers': [(role, patterns, forbidden roles)]."""
    rows = table_rows(text, "Readers and renderers") or []
    roles = [(role, backticked(files), [r.strip() for r in forbidden.split(",") if r.strip()])
             for role, files, forbidden in rows]
    names = {r[0] for r in roles}
    for role, _, forbidden in roles:
        for f in forbidden:
            if f not in names:
                raise SystemExit(f"{doc_path}: role '{role}' names '{f}', which is no role")
    return roles


def role_of(path, roles):
    for role, patterns, _ in roles:
        if any(fnmatch.fnmatchcase(path, p) for p in patterns):
            return role
    return None


def owner(path, rules):
    best, best_len = None, -1
    for name, (folders, _) in rules.items():
        for folder in folders:
            if (path == folder or path.startswith(folder + "/")) and len(folder) > best_len:
                best, best_len = name, len(folder)
    return best


def sources(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("build"))
        for name in sorted(filenames):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")


def resolver(root, all_files):
    by_suffix = {}
    for f in all_files:
        parts = f.split("/")
        for i in range(len(parts)):
            by_suffix.setdefault("/".join(parts[i:]), []).append(f)

    def resolve(includer, name):
        here = os.path.dirname(includer)
        for candidate in (os.path.normpath(os.path.join(here, name)), name, "include/" + name):
            candidate = candidate.replace(os.sep, "/")
            if candidate in all_files:
                return candidate
        found = by_suffix.get(name, [])
        return found[0] if len(found) == 1 else None

    return resolve


def check(root):
    doc = os.path.join(root, "docs", "ARCHITECTURE.md")
    with open(doc, encoding="utf-8") as f:
        doc_text = f.read()
    rules = read_rules(doc, doc_text)
    roles = read_roles(doc, doc_text)
    forbidden_of = {role: set(forbidden) for role, _, forbidden in roles}
    files = list(sources(root))
    all_files = set(files)
    resolve = resolver(root, all_files)
    problems = []
    edges = 0
    for f in files:
        who = owner(f, rules)
        if who is None:
            problems.append(f"{f}: in no component of the include rules (docs/ARCHITECTURE.md)")
            continue
        allowed = set(rules[who][1]) | {who}
        my_role = role_of(f, roles)
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for m in INCLUDE_RE.finditer(text):
            target = resolve(f, m.group(1))
            if target is None:
                continue  # not a file of the tree (generated, or a system header in quotes)
            edges += 1
            their = owner(target, rules)
            line = text.count("\n", 0, m.start()) + 1
            if their is not None and their not in allowed:
                problems.append(f"{f}:{line}: {who} includes {target} ({their}); "
                                f"{who} may include: {', '.join(sorted(allowed))}")
            their_role = role_of(target, roles)
            if my_role is not None and their_role in forbidden_of.get(my_role, ()):
                problems.append(f"{f}:{line}: a {my_role} includes {target}, a {their_role}")
    return problems, len(files), edges, len(rules)


def self_test():
    """A made-up tree with one of each breach; the check must find exactly those."""
    doc = """# x
## Include rules
| component | folders | may include |
|---|---|---|
| contract | `include/x/` | — |
| core | `core/` | contract |
| face a | `a/` | contract, core |
| face b | `b/` | contract, core |
## Readers and renderers
| role | files | may not include |
|---|---|---|
| reader | `a/*read_*` | renderer |
| renderer | `a/*_text.*` | reader |
## Next
"""
    tree = {
        "docs/ARCHITECTURE.md": doc,
        "include/x/api.h": "",
        "core/reader.h": '#include "x/api.h"\n',
        "core/reader.cc": '#include "reader.h"\n#include <vector>\n',
        "a/one.cc": '#include "core/reader.h"\n#include "b/two.h"\n',  # breach: face includes face
        "b/two.h": '#include "x/api.h"\n',
        "core/bad.cc": '#include "a/one.h"\n',  # breach: core includes a face
        "a/one.h": "",
        "stray/loose.cc": "",  # breach: no component
        "a/read_one.cc": '#include "a/one_text.h"\n',  # breach: a reader includes a renderer
        "a/one_text.h": "",
    }
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in tree.items():
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        problems, _, _, _ = check(tmp)
    expected = ["a/one.cc:2: face a includes b/two.h", "core/bad.cc:1: core includes a/one.h",
                "stray/loose.cc: in no component", "a/read_one.cc:1: a reader includes a/one_text.h"]
    missing = [e for e in expected if not any(p.startswith(e) for p in problems)]
    if missing or len(problems) != len(expected):
        print("self-test failed; found:\n  " + "\n  ".join(problems) + "\nmissing:\n  " + "\n  ".join(missing))
        return 1
    print(f"self-test: the {len(expected)} planted breaches were found, nothing else")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    problems, files, edges, components = check(argv[1])
    for p in problems:
        print(p)
    print(f"layering: {files} sources, {edges} includes within the tree, {components} components, "
          f"{len(problems)} breaches")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
