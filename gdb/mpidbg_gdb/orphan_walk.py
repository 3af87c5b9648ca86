"""Finding the freed handles (orphans) the runtime keeps, per kind.

Only for plugins older than the handle interface's listing query
(mpidbg_object_list_query, extension version 2), which `mpi orphans` uses otherwise:
without it the interface answers for one handle at a time, so this walks the runtime's
record tables itself (layout of
include/mpidbg/records.h: fixed-width fields, the same on every ABI) to learn which
handles are orphans, then describes each through the handle interface. The walk is
bounded (slabs, slots, records) and skips torn or foreign records.
"""

import ctypes
import struct

import gdb

from . import target_access
from .abi_records import (MAX_RECORD_SIZE, MAX_RECORDS, MAX_SLABS, MAX_SLOTS_PER_SLAB,
                          REC_FREED, ROOT_MAGIC, ROOT_SYMBOL, SLAB_MAGIC, TABLES,
                          mpidbg_root_head, mpidbg_table)


class Orphan:
    def __init__(self, kind, handle, name, free_serial):
        self.kind = kind
        self.handle = handle
        self.name = name
        self.free_serial = free_serial


def _read(inferior, addr, size):
    return bytes(inferior.read_memory(addr, size))


def _root(inferior, order):
    addr = target_access.symbol_address(ROOT_SYMBOL)
    if addr is None:
        raise LookupError("the symbol %s was not found" % ROOT_SYMBOL)
    raw = _read(inferior, addr, ctypes.sizeof(mpidbg_root_head))
    magic = struct.unpack(order + "Q", raw[:8])[0]
    if magic != ROOT_MAGIC:
        raise LookupError("%s does not hold an mpidbg root" % ROOT_SYMBOL)
    base = ctypes.BigEndianStructure if order == ">" else ctypes.LittleEndianStructure
    # The same fields in the target's byte order.
    table = type("table", (base,), {"_fields_": mpidbg_table._fields_})
    fields = [(n, table if t is mpidbg_table else t) for n, t in mpidbg_root_head._fields_]
    head = type("root", (base,), {"_fields_": fields}).from_buffer_copy(raw)
    written = head.size
    return head, written


def _walk_table(inferior, order, table, kind, handle_off, name_off, free_off, budget):
    out = []
    slab = table.first_slab
    for _ in range(min(table.slab_count, MAX_SLABS)):
        if slab == 0 or budget[0] <= 0:
            break
        header = _read(inferior, slab, 32)
        magic, nxt, header_size, record_size, capacity, _ = struct.unpack(
            order + "QQIIII", header)
        if magic != SLAB_MAGIC or not 16 <= record_size <= MAX_RECORD_SIZE:
            break
        capacity = min(capacity, MAX_SLOTS_PER_SLAB)
        data = _read(inferior, slab + header_size, capacity * record_size)
        for i in range(capacity):
            budget[0] -= 1
            if budget[0] <= 0:
                break
            rec = data[i * record_size:(i + 1) * record_size]
            seq, rkind, rsize, flags = struct.unpack(order + "IHHI", rec[:12])
            if rkind == 0 or seq & 1 or not flags & REC_FREED:
                continue
            if handle_off + 8 > len(rec):
                continue
            handle = struct.unpack(order + "Q", rec[handle_off:handle_off + 8])[0]
            name = ""
            if name_off is not None and name_off + 64 <= len(rec):
                name = rec[name_off:name_off + 64].split(b"\0")[0].decode("utf-8", "replace")
            free_serial = 0
            if free_off + 8 <= min(len(rec), rsize or len(rec)):
                free_serial = struct.unpack(order + "Q", rec[free_off:free_off + 8])[0]
            out.append(Orphan(kind, handle, name, free_serial))
        slab = nxt
    return out


def orphans(inferior, big_endian):
    """{kind: [Orphan, ...]} in the order the application freed them."""
    order = ">" if big_endian else "<"
    head, written = _root(inferior, order)
    budget = [MAX_RECORDS]
    out = {}
    for kind, attr, _, _, handle_off, name_off, free_off in TABLES:
        offset = getattr(mpidbg_root_head, attr).offset
        if offset + ctypes.sizeof(mpidbg_table) > written:
            continue  # an older runtime without this table
        try:
            found = _walk_table(inferior, order, getattr(head, attr), kind, handle_off,
                                name_off, free_off, budget)
        except gdb.MemoryError:
            found = []
        found.sort(key=lambda o: o.free_serial)
        out[kind] = found
    return out
