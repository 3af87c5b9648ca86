"""Pretty printers for MPI handles: MPI_Comm, MPI_Request, MPI_Datatype, MPI_Group,
MPI_Win, MPI_Op, MPI_Errhandler, MPI_Info, MPI_File, MPI_Message and MPI_Status.

A printer has the handle described (describer.py: the describer `mpidbg handle` uses)
and shows its summary line, with the description's fields as children an IDE can expand. When the question cannot be answered (no plugin, no
runtime in the process, a query the plugin lacks, a handle it does not know) the value
prints as it would without the printer; `mpi handle EXPR` tells why.
"""

import struct

import gdb
import gdb.printing

from . import describer, handle_query, kinds, session


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
                self._result = describer.describe(session.current(), self.kind, handle)
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
        return r.summary

    def children(self):
        r = self._decode()
        if r is None:
            if self.kind == "status":
                # Keep the structure's own fields expandable.
                for field in self.value.type.strip_typedefs().fields():
                    if field.name:
                        yield field.name, self.value[field.name]
            return
        if r.is_null:
            return
        for name, value in r.fields:
            yield name, _child(value)


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


def ints_value(values):
    """A child value gdb shows as an integer array (world ranks, a topology's dims):
    int elements, or long long ones when a value does not fit an int."""
    if all(-2**31 <= v < 2**31 for v in values):
        element, code = gdb.lookup_type("int"), "i"
    else:
        element, code = gdb.lookup_type("long long"), "q"
    raw = struct.pack("=%d%s" % (len(values), code), *values)
    return gdb.Value(raw, element.array(len(values) - 1))


def texts_value(texts):
    """A child value gdb shows as an array of strings."""
    rows = [t.encode("utf-8", "replace") for t in texts]
    width = max(len(r) for r in rows) + 1
    raw = b"".join(r.ljust(width, b"\0") for r in rows)
    row_type = _text_element_type().array(width - 1)
    return gdb.Value(raw, row_type.array(len(rows) - 1))


def _child(value):
    """A field's value (an int, a string, a list of ints or of strings, an address) as a
    gdb value."""
    if isinstance(value, dict) and "address" in value:
        return gdb.Value(int(value["address"], 16)).cast(gdb.lookup_type("void").pointer())
    if isinstance(value, list):
        if not value:
            return text_value("none")
        if all(isinstance(v, int) for v in value):
            return ints_value(value)
        return texts_value([str(v) for v in value])
    if isinstance(value, str):
        return text_value(value)
    if isinstance(value, float):
        return gdb.Value(value)
    return gdb.Value(int(value)).cast(_long_type())


_long = None


def _long_type():
    global _long
    if _long is None:
        _long = gdb.lookup_type("long")
    return _long


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
