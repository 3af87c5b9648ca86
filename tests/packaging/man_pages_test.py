#!/usr/bin/env python3
"""man_pages_test.py MPIDBG MAN_DIR GEN_DIR — the man pages the build generated: one per
command of `mpidbg --help` plus mpidbg.1, each saying what the command's --help says
(its usage as SYNOPSIS, every option), rendered by groff without a warning, and equal
to what the generator makes from the command now (never stale)."""
import os
import subprocess
import sys
import tempfile

mpidbg, man_dir, gen_dir = sys.argv[1:4]
sys.path.insert(0, gen_dir)
import help_text  # noqa: E402

problems = []
info = help_text.read_all(mpidbg)
expected = {"mpidbg.1"} | {"mpidbg-%s.1" % c.name for c in info.commands}
present = {f for f in os.listdir(man_dir) if f.endswith(".1")}
if present != expected:
    problems.append("pages %s, expected %s" % (sorted(present), sorted(expected)))


def render(path):
    out = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-rLL=100n", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0 or out.stderr.strip():
        problems.append("%s: groff says %s" % (path, out.stderr.strip()))
    # Undo the overstrike/SGR decoration and the hyphen glyphs groff may use.
    text = subprocess.run(["col", "-b"], input=out.stdout, stdout=subprocess.PIPE, text=True).stdout
    return text.replace("\u2010", "-").replace("\u2212", "-")


for c in info.commands:
    path = os.path.join(man_dir, "mpidbg-%s.1" % c.name)
    if not os.path.exists(path):
        continue
    text = render(path)
    flat = " ".join(text.split())
    if ("mpidbg " + c.name) not in flat or c.summary.split()[0] not in flat:
        problems.append("%s: no NAME/SYNOPSIS for %s" % (path, c.name))
    for o in c.options:
        if o.name not in flat:
            problems.append("%s: option %s of `mpidbg %s --help` missing" % (path, o.name, c.name))
    first_usage = " ".join(c.usage[0].split())
    if first_usage not in flat:
        problems.append("%s: SYNOPSIS lacks %r" % (path, first_usage))
main_text = " ".join(render(os.path.join(man_dir, "mpidbg.1")).split())
for c in info.commands:
    if "mpidbg-%s(1)" % c.name not in main_text:
        problems.append("mpidbg.1 does not name mpidbg-%s(1)" % c.name)
if "--version" not in main_text:
    problems.append("mpidbg.1 does not name --version")

# The build's pages are what the command's help gives now.
with tempfile.TemporaryDirectory() as fresh:
    subprocess.run([sys.executable, os.path.join(gen_dir, "gen_man.py"), "--mpidbg", mpidbg,
                    "--out", fresh], check=True)
    for name in sorted(expected & present):
        with open(os.path.join(fresh, name)) as a, open(os.path.join(man_dir, name)) as b:
            if a.read() != b.read():
                problems.append("%s is stale: the help text changed since it was made" % name)

for p in problems:
    print("FAIL:", p)
print("man pages: %d checked, %d problems" % (len(present), len(problems)))
sys.exit(1 if problems else 0)
