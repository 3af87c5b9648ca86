"""`mpi handle [-kind KIND] EXPR`: one handle described in full, in the words and lines of
`mpidbg handle` (the same describer, describer.py)."""

import gdb

from . import describer, handle_query, kinds

USAGE = ("usage: mpi handle [-kind comm|request|datatype|group|op|errhandler|info|win|"
         "file|message|status] EXPR")


def parse(arg):
    """(kind or None, expression)."""
    words = arg.strip().split(None, 2)
    if words and words[0] in ("-kind", "--kind"):
        if len(words) < 3:
            raise gdb.GdbError(USAGE)
        if words[1] not in handle_query.KINDS:
            raise gdb.GdbError("mpi handle: unknown kind '%s'. %s" % (words[1], USAGE))
        return words[1], words[2]
    if not arg.strip():
        raise gdb.GdbError(USAGE)
    return None, arg.strip()


def report(session, arg):
    kind, expression = parse(arg)
    value = gdb.parse_and_eval(expression)
    if kind is None:
        kind = kinds.kind_of_type(value.type)
        if kind is None:
            raise gdb.GdbError("mpi handle: %s has type %s, not an MPI handle type; name the "
                               "kind with -kind" % (expression, value.type))
    handle = kinds.handle_of(value, kind)
    if handle is None:
        if kind == "status":
            raise gdb.GdbError("mpi handle: %s is not in memory (a status is read at its "
                               "address)" % expression)
        handle = int(value)
    return "%s = %s" % (expression, describer.describe(session, kind, handle).text)
