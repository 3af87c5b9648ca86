"""Releasing the runtime's orphans without calling into the process: the request is
written into the runtime's root (records.h, "requests a debugger writes") and the
runtime's clock thread carries it out once the process runs, also while its threads are
blocked in MPI. Never an inferior call, so it works where gdb cannot make one."""

import struct

from . import target_access
from .abi_records import ROOT_FIELDS, ROOT_MAGIC, ROOT_SYMBOL


class Unavailable(Exception):
    """No runtime, or one older than release requests."""


def _root(inferior, order):
    addr = target_access.symbol_address(ROOT_SYMBOL)
    if addr is None:
        raise Unavailable("the process has no %s (is the mpidbg runtime loaded?)" % ROOT_SYMBOL)
    magic, size = struct.unpack(order + "QI", target_access.read_memory(inferior, addr, 12))
    if magic != ROOT_MAGIC:
        raise Unavailable("%s does not hold an initialised mpidbg root" % ROOT_SYMBOL)
    if size < ROOT_FIELDS["orphan_release_done"] + 8:
        raise Unavailable("the process runs an mpidbg runtime older than release requests "
                          "(root of %d bytes)" % size)
    return addr


def state(inferior, big_endian):
    """(asked, done): the last request written and the last carried out."""
    order = ">" if big_endian else "<"
    root = _root(inferior, order)
    asked = struct.unpack(order + "Q", target_access.read_memory(
        inferior, root + ROOT_FIELDS["orphan_release_asked"], 8))[0]
    done = struct.unpack(order + "Q", target_access.read_memory(
        inferior, root + ROOT_FIELDS["orphan_release_done"], 8))[0]
    return asked, done


def ask(inferior, big_endian):
    """Writes a new request unless one is pending; (request number, was already pending)."""
    asked, done = state(inferior, big_endian)
    if asked != done:
        return asked, True
    order = ">" if big_endian else "<"
    root = _root(inferior, order)
    request = done + 1
    inferior.write_memory(root + ROOT_FIELDS["orphan_release_asked"],
                          struct.pack(order + "Q", request))
    return request, False
