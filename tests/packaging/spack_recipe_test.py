#!/usr/bin/env python3
"""spack_recipe_test.py SOURCE_DIR — the Spack recipe (packaging/spack/packages/mpidbg/
package.py), loaded without Spack through a stub `spack.package`, checked against the
project: a variant per runtime flavour of mpidbg/CMakeLists.txt, a dependency for what
the build looks for, and cmake_args passing only options the CMakeLists define, with
each flavour switched as its variant says."""
import itertools
import os
import re
import sys
import types

root = sys.argv[1]
problems = []

# --- a stub of the part of spack.package the recipe uses -----------------------------
directives = {"variant": [], "depends_on": [], "conflicts": [], "version": []}


def directive(kind):
    def record(*args, **kwargs):
        directives[kind].append((args, kwargs))
    return record


class Spec:
    def __init__(self, variants):
        self.variants = variants

    def satisfies(self, constraint):
        m = re.fullmatch(r"([+~])(\w+)", constraint)
        if not m:
            raise ValueError("stub Spec understands +v/~v only: %r" % constraint)
        return self.variants[m.group(2)] == (m.group(1) == "+")


class CMakePackage:
    run_tests = False

    def __init__(self, variants):
        self.spec = Spec(variants)
        self.prefix = Prefix("/opt/mpidbg")

    @staticmethod
    def define(name, value):
        if isinstance(value, bool):
            value = "ON" if value else "OFF"
        return "-D%s=%s" % (name, value)

    def define_from_variant(self, name, variant):
        return self.define(name, self.spec.variants[variant])


class Prefix(str):
    def __getattr__(self, name):
        return Prefix(os.path.join(self, name))


stub = types.ModuleType("spack.package")
for kind in directives:
    setattr(stub, kind, directive(kind))
stub.CMakePackage = CMakePackage
stub.join_path = os.path.join
stub.__all__ = list(directives) + ["CMakePackage", "join_path"]
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = stub

recipe = os.path.join(root, "packaging", "spack", "packages", "mpidbg", "package.py")
namespace = {}
exec(compile(open(recipe).read(), recipe, "exec"), namespace)
Mpidbg = namespace["Mpidbg"]

# --- what the project says -----------------------------------------------------------
cmake_text = {}
for dirpath, dirnames, filenames in os.walk(root):
    dirnames[:] = [d for d in dirnames if not d.startswith(("build", ".")) and d != "tests"]
    for f in filenames:
        if f == "CMakeLists.txt" or f.endswith(".cmake"):
            path = os.path.join(dirpath, f)
            cmake_text[os.path.relpath(path, root)] = open(path).read()
everything = "\n".join(cmake_text.values())
defined = set(re.findall(r"option\(\s*(\w+)", everything))
defined |= set(re.findall(r"set\(\s*(\w+)\s[^)]*\bCACHE\b", everything))
# Standard variables: CTest's BUILD_TESTING, GNUInstallDirs' CMAKE_INSTALL_*.
if "include(CTest)" in everything:
    defined.add("BUILD_TESTING")
if "include(GNUInstallDirs)" in everything:
    defined |= {"CMAKE_INSTALL_LIBDIR", "CMAKE_INSTALL_BINDIR", "CMAKE_INSTALL_DATADIR"}
flavours = re.findall(r'"(\w+)\\;[\w-]+\\;\d+"', cmake_text[os.path.join("mpidbg", "CMakeLists.txt")])
if not flavours:
    problems.append("no flavour table in mpidbg/CMakeLists.txt")

# --- the recipe against it -----------------------------------------------------------
variants = {args[0]: kwargs.get("default") for args, kwargs in directives["variant"]}
if set(variants) != set(flavours):
    problems.append("variants %s, runtime flavours %s" % (sorted(variants), sorted(flavours)))
deps = {}
for args, kwargs in directives["depends_on"]:
    deps.setdefault(args[0].split("@")[0], []).append(kwargs.get("when"))
for f in flavours:
    if "+" + f not in deps.get(f, []):
        problems.append("no depends_on(%r, when='+%s')" % (f, f))
# What the build looks for, and the Spack package that provides it.
provided_by = {"nlohmann_json": "nlohmann-json", "libdw": "elfutils", "libelf": "elfutils",
               "Python3": "python", "PkgConfig": "pkgconfig"}
wanted = set(re.findall(r"find_package\((\w+)[^)]*REQUIRED", everything))
wanted |= set(w for m in re.findall(r"pkg_check_modules\(\w+ REQUIRED IMPORTED_TARGET ([\w ]+)\)", everything)
              for w in m.split())
wanted -= {"Threads"}  # the C library's
for w in sorted(wanted):
    if w not in provided_by:
        problems.append("the build requires %s; the test knows no Spack package for it" % w)
    elif provided_by[w] not in deps:
        problems.append("the build requires %s; the recipe has no depends_on(%r)" % (w, provided_by[w]))
if not any(a[0] == "~mpich~openmpi" for a, _ in directives["conflicts"]):
    problems.append("no conflict for a build without any flavour")

for values in itertools.product([True, False], repeat=len(variants)):
    v = dict(zip(variants, values))
    pkg = Mpidbg(v)
    args = pkg.cmake_args()
    for a in args:
        name = re.match(r"-D(\w+)=", a).group(1)
        if name not in defined:
            problems.append("cmake_args passes -D%s, which no CMakeLists defines" % name)
    for f in flavours:
        want = "-DMPIDBG_WITH_%s=%s" % (f.upper(), "ON" if v[f] else "OFF")
        if want not in args:
            problems.append("variants %s: %s not in %s" % (v, want, args))
    if "-DMPIDBG_REQUIRE_FLAVOURS=ON" not in args:
        problems.append("a flavour asked for is not required to be found")

    class Env(dict):
        def set(self, k, val):
            self[k] = val
    env = Env()
    pkg.setup_run_environment(env)
    for f in flavours:
        if ("MPIDBG_RUNTIME_" + f.upper() in env) != v[f]:
            problems.append("variants %s: run environment %s" % (v, sorted(env)))

for p in problems:
    print("FAIL:", p)
print("spack recipe: %d variants, %d dependencies, %d problems" % (len(variants), len(deps), len(problems)))
sys.exit(1 if problems else 0)
