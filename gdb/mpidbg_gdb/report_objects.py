"""`mpi objects [KIND] [-freed]`: every MPI object the process holds or freed and the
runtime keeps, through the handle interface's listing (mpidbg_object_list_query), each
with the call and the program line that created it and its age.

Creation sites are symbolized by gdb itself (the return address minus one lies in the
call instruction). Ages of a live process are to now; of a core, to the newest time the
process recorded (a core has no clock of its own)."""

import time

import gdb

from . import handle_query
from . import text as T
from .report_queues import process_line

USAGE = "usage: mpi objects [comm|request|datatype|group|op|errhandler|info|win|file|" \
        "message|session] [-freed]"


def parse(arg):
    """(kind number or 0, freed only); raises gdb.GdbError on bad usage."""
    kind, freed = 0, False
    for word in gdb.string_to_argv(arg or ""):
        if word in ("-freed", "--freed"):
            freed = True
        elif word in handle_query.KIND_NUMBERS or word == "session":
            if kind:
                raise gdb.GdbError(USAGE)
            kind = {v: k for k, v in handle_query.KIND_NAMES.items()}[word]
        else:
            raise gdb.GdbError(USAGE)
    return kind, freed


def site(pc):
    """"app.c:42 in main" for a return address, "" when gdb knows nothing of it."""
    if not pc:
        return ""
    try:
        sal = gdb.find_pc_line(pc - 1)
        block = gdb.block_for_pc(pc - 1)
    except (RuntimeError, gdb.error):
        return "0x%x" % pc
    function = block.function.print_name if block is not None and block.function else None
    where = ""
    if sal is not None and sal.symtab is not None and sal.line:
        where = "%s:%d" % (sal.symtab.filename.rsplit("/", 1)[-1], sal.line)
    if function:
        where = (where + " in " + function) if where else "in " + function
    return where or "0x%x" % pc


def state(o):
    if o.released:
        return "released"
    if o.freed:
        return "freed"
    return "predefined" if o.predefined else "live"


def creation(o, now_ns):
    parts = []
    if o.creator:
        parts.append("created by " + o.creator)
    where = site(o.create_pc)
    if where:
        parts.append(("at " if where[0] != "i" else "") + where)
    text = " ".join(parts)
    if o.create_time_ns > 0 and now_ns > 0:
        text += ", %.1f s ago" % (max(0, now_ns - o.create_time_ns) / 1e9)
    return text


def lines(entries, now_ns):
    out, kind = [], None
    for o in entries:
        if o.kind != kind:
            kind = o.kind
            out.append("%s:" % kind)
        line = "  %s" % T.hexa(o.handle)
        if o.name:
            line += " " + o.name
        line += "  " + state(o)
        made = creation(o, now_ns)
        if made:
            line += "  " + made
        out.append(line)
    return out


def report(session, arg):
    kind, freed_only = parse(arg)
    try:
        entries = handle_query.object_list(session, kind)
    except handle_query.QueryError as exc:
        raise gdb.GdbError("mpi objects: %s" % exc)
    if freed_only:
        entries = [o for o in entries if o.freed]
    if session.is_core:
        now_ns = handle_query.latest_time(session)
    else:
        now_ns = time.time_ns()
    out = [process_line(session),
           "%d MPI object%s" % (len(entries), "" if len(entries) == 1 else "s")]
    out += lines(entries, now_ns)
    return "\n".join(out) + "\n"
