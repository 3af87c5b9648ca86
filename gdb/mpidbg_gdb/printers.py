"""Pretty printers for MPI handles: MPI_Comm, MPI_Request, MPI_Datatype, MPI_Group,
MPI_Win, MPI_Op, MPI_Errhandler, MPI_Info, MPI_File, MPI_Message and MPI_Status.

A printer asks the handle interface about the handle and shows a one-line summary with
children an IDE can expand. When the question cannot be answered (no plugin, no
runtime in the process, a query the plugin lacks, a handle it does not know) the value
prints as it would without the printer; `mpi handle EXPR` tells why.
"""

import struct

import gdb
import gdb.printing

from . import describe, handle_query, kinds, session


class HandlePrinter:
    """Printer for one MPI handle value."""

    def __init__(self, value, kind):
        self.value = value
        self.kind = kind
        self._result = None
        self._failed = False

    def _decode(self):
        if self._result is None and not self._failed:
            try:
                handle = kinds.handle_of(self.value, self.kind)
                if handle is None:
                    raise handle_query.QueryError("no handle value")
                self._result = handle_query.query(session.current(), self.kind, handle)
            except (handle_query.QueryError, session.NotAvailable, gdb.error,
                    gdb.MemoryError, OverflowError, ValueError):
                self._failed = True
        return self._result

    def _plain(self):
        try:
            return self.value.format_string(raw=True)
        except gdb.error:
            return "<unavailable>"

    def to_string(self):
        r = self._decode()
        if r is None:
            # A status falls back to its own fields (children), a handle to its value.
            return None if self.kind == "status" else self._plain()
        summary, _, _ = describe.KINDS[self.kind]
        return summary(r)

    def children(self):
        r = self._decode()
        if r is None:
            if self.kind == "status":
                # Keep the structure's own fields expandable.
                for field in self.value.type.strip_typedefs().fields():
                    if field.name:
                        yield field.name, self.value[field.name]
            return
        if describe.is_null(self.kind, r):
            return
        _, children, _ = describe.KINDS[self.kind]
        for name, value in children(r):
            yield name, _child(value)

    def display_hint(self):
        r = self._decode()
        if r is None or describe.is_null(self.kind, r):
            return None
        return describe.KINDS[self.kind][2]


class TextPrinter:
    """A string child of a handle printer.

    gdb shows a char array in gdb/MI as "[N]" with N children, not as text, so string
    children are made as `const volatile char[N]` values (a type programs practically
    never use for data) and this printer shows them as strings."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        try:
            return self.value.string()
        except (gdb.error, UnicodeDecodeError):
            return self.value.format_string(raw=True)

    def display_hint(self):
        return "string"


_text_element = None


def _text_element_type():
    global _text_element
    if _text_element is None:
        _text_element = gdb.lookup_type("char").const().volatile()
    return _text_element


def text_value(text):
    """A child value gdb (CLI and MI) shows as the string `text`."""
    raw = text.encode("utf-8", "replace")
    return gdb.Value(raw + b"\0", _text_element_type().array(len(raw)))


class TextListPrinter:
    """A list-of-strings child (a datatype's type map), made as a
    `const volatile char[N][W]` value: its rows show as strings an IDE lists."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        return None

    def children(self):
        low, high = self.value.type.range()
        for i in range(low, high + 1):
            yield "[%d]" % i, self.value[i]

    def display_hint(self):
        return "array"


def ranks_value(ranks):
    """A child value gdb shows as an int array (world ranks)."""
    int_type = gdb.lookup_type("int")
    raw = struct.pack("=%di" % len(ranks), *ranks)
    return gdb.Value(raw, int_type.array(len(ranks) - 1))


def texts_value(texts):
    """A child value gdb shows as an array of strings."""
    rows = [t.encode("utf-8", "replace") for t in texts]
    width = max(len(r) for r in rows) + 1
    raw = b"".join(r.ljust(width, b"\0") for r in rows)
    row_type = _text_element_type().array(width - 1)
    return gdb.Value(raw, row_type.array(len(rows) - 1))


def _child(value):
    if isinstance(value, describe.Ranks):
        return ranks_value(value) if value else text_value("none")
    if isinstance(value, describe.Texts):
        return texts_value(value) if value else text_value("none")
    if isinstance(value, str):
        return text_value(value)
    if isinstance(value, handle_query.Address):
        return gdb.Value(int(value)).cast(gdb.lookup_type("void").pointer())
    return value


def _is_text(value):
    t = value.type
    return t.code == gdb.TYPE_CODE_ARRAY and t.target() == _text_element_type()


def _is_text_list(value):
    t = value.type
    return (t.code == gdb.TYPE_CODE_ARRAY and t.target().code == gdb.TYPE_CODE_ARRAY and
            t.target().target() == _text_element_type())


class MpiHandlePrinters(gdb.printing.PrettyPrinter):
    """gdb's printer lookup for MPI handles (`info pretty-printer` lists it as mpidbg).

    Called for every value gdb prints, so it is cheap on a miss."""

    def __init__(self):
        super().__init__("mpidbg")

    def __call__(self, value):
        if not self.enabled:
            return None
        try:
            kind = kinds.kind_of_type(value.type)
            if kind is None:
                if _is_text(value):
                    return TextPrinter(value)
                return TextListPrinter(value) if _is_text_list(value) else None
        except gdb.error:
            return None
        return HandlePrinter(value, kind)


def register():
    """Registers the lookup once, globally: MPI handle types come from the program and
    its libraries alike, so one registration covers every objfile."""
    gdb.printing.register_pretty_printer(None, MpiHandlePrinters(), replace=True)
