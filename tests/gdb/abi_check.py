"""The gdb extension's ctypes mirrors against the C compiler: every structure's size and
every field's offset, from the public headers, must be the same."""

import ctypes
import importlib
import os
import subprocess
import sys
import tempfile

HEADERS = ["mpidbg/mqs_interface.h", "mpidbg/mpidbg_ext.h", "mpidbg/mpidbg_handles.h",
           "mpidbg/mpidbg_describe.h", "mpidbg/records.h"]


def _structures(module):
    for name in dir(module):
        cls = getattr(module, name)
        if isinstance(cls, type) and issubclass(cls, ctypes.Structure) and \
                cls is not ctypes.Structure and cls.__module__ == module.__name__:
            yield name, cls


def mirrors(package_dir):
    """(C type, Python class, check the size) for every mirrored structure."""
    sys.path.insert(0, package_dir)
    out = []
    modules = (("mpidbg_gdb.abi_mqs", ""), ("mpidbg_gdb.abi_handles", "struct "),
               ("mpidbg_gdb.abi_records", ""), ("mpidbg_gdb.abi_describe", ""))
    for module_name, c_prefix in modules:
        module = importlib.import_module(module_name)
        for name, cls in _structures(module):
            if name == "mpidbg_root_head":
                out.append(("mpidbg_root", cls, False))  # a prefix of the root only
            else:
                out.append((c_prefix + name, cls, True))
    return out


def c_program(package_dir):
    lines = ["#include <stddef.h>", "#include <stdio.h>"]
    lines += ['#include "%s"' % h for h in HEADERS]
    lines.append("int main(void) {")
    expected = []
    for c_type, cls, check_size in mirrors(package_dir):
        if check_size:
            lines.append('  printf("size %s %%zu\\n", sizeof(%s));' % (c_type, c_type))
            expected.append("size %s %d" % (c_type, ctypes.sizeof(cls)))
        for field, _ in cls._fields_:
            lines.append('  printf("offset %s.%s %%zu\\n", offsetof(%s, %s));' % (
                c_type, field, c_type, field))
            expected.append("offset %s.%s %d" % (c_type, field, getattr(cls, field).offset))
    records = importlib.import_module("mpidbg_gdb.abi_records")
    for kind, _, record, handle_field, handle_off, name_off, free_off in records.TABLES:
        for field, offset in ((handle_field, handle_off), ("name", name_off),
                              ("free_serial", free_off)):
            if offset is None:
                continue
            lines.append('  printf("record %s.%s %%zu\\n", offsetof(%s, %s));' % (
                record, field, record, field))
            expected.append("record %s.%s %d" % (record, field, offset))
    for field, offset in records.ROOT_FIELDS.items():
        lines.append('  printf("root %s %%zu\\n", offsetof(mpidbg_root, %s));' % (field, field))
        expected.append("root %s %d" % (field, offset))
    lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n", sorted(set(expected))


def run(cc, include_dir, package_dir):
    source, expected = c_program(package_dir)
    with tempfile.TemporaryDirectory(prefix="mpidbg-gdb-abi-") as tmp:
        src = os.path.join(tmp, "abi.c")
        exe = os.path.join(tmp, "abi")
        with open(src, "w") as f:
            f.write(source)
        subprocess.run([cc, "-std=c11", "-I", include_dir, "-o", exe, src], check=True)
        actual = sorted(set(subprocess.run([exe], check=True, capture_output=True,
                                           text=True).stdout.splitlines()))
    missing = [e for e in expected if e not in actual]
    passed = len(expected) - len(missing)
    for line in missing:
        c_line = [a for a in actual if a.rsplit(" ", 1)[0] == line.rsplit(" ", 1)[0]]
        print("FAIL: ctypes has '%s', the C compiler '%s'" % (line, c_line[0] if c_line else "?"))
    print("abi: %d of %d sizes and offsets agree" % (passed, len(expected)))
    return passed, len(missing)
