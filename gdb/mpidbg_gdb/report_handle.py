"""`mpi handle [-kind KIND] EXPR`: one handle decoded in full."""

import gdb

from . import describe, handle_query, kinds
from . import text as T

USAGE = ("usage: mpi handle [-kind comm|request|datatype|group|op|errhandler|info|win|"
         "file|message|status] EXPR")


def parse(arg):
    """(kind or None, expression)."""
    words = arg.strip().split(None, 2)
    if words and words[0] in ("-kind", "--kind"):
        if len(words) < 3:
            raise gdb.GdbError(USAGE)
        if words[1] not in handle_query.KIND_QUERIES:
            raise gdb.GdbError("mpi handle: unknown kind '%s'. %s" % (words[1], USAGE))
        return words[1], words[2]
    if not arg.strip():
        raise gdb.GdbError(USAGE)
    return None, arg.strip()


def _scalar(value):
    if isinstance(value, handle_query.Address):
        return T.hexa(value)
    return str(value)


def _field_lines(ns, indent):
    """Every field of a decoded result, nested structures and arrays included."""
    out = []
    for name, value in vars(ns).items():
        if name == "query":
            continue
        if hasattr(value, "__dict__"):
            out.append("%s%s:" % (indent, name))
            out += _field_lines(value, indent + "  ")
        elif isinstance(value, list):
            if value and hasattr(value[0], "__dict__"):
                out.append("%s%s: %d" % (indent, name, len(value)))
                for i, element in enumerate(value):
                    fields = ", ".join("%s=%s" % (k, _scalar(v)) for k, v in vars(element).items())
                    out.append("%s  [%d] %s" % (indent, i, fields))
            else:
                out.append("%s%s: [%s]" % (indent, name, ", ".join(_scalar(v) for v in value)))
        elif value is None:
            out.append("%s%s: (not known)" % (indent, name))
        elif isinstance(value, str):
            out.append('%s%s: "%s"' % (indent, name, value))
        else:
            out.append("%s%s: %s" % (indent, name, _scalar(value)))
    return out


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
    result = handle_query.query(session, kind, handle)
    summary = describe.KINDS[kind][0](result)
    out = ["%s = %s" % (expression, summary),
           "  kind %s, handle %s, answered by %s" % (kind, T.hexa(handle), result.query)]
    out += _field_lines(result, "  ")
    return "\n".join(out) + "\n"
