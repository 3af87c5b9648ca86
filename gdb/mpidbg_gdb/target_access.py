"""What the callbacks need from gdb: memory, symbols, types, sizes and byte order.

Only gdb's own API is used (never /proc), so the same code reads a live process, a
core file or a gdbserver target. Every function here may raise gdb.error or
gdb.MemoryError; the callback layer turns those into error codes.
"""

import re

import gdb

# Names the plugin asks for are C identifiers; anything else is refused rather than
# spliced into a gdb expression.
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_$.@]*$")


def inferior_by_num(num):
    for inf in gdb.inferiors():
        if inf.num == num:
            return inf
    return None


def read_memory(inferior, addr, size):
    """Raw target bytes (gdb.MemoryError when unreadable)."""
    return bytes(inferior.read_memory(addr, size))


def symbol_address(name):
    """Address of a global function or data symbol, full or minimal; None if absent.

    Minimal symbols matter: the runtime root lives in .dynsym and the program may have
    no debug information at all. `&'name'` resolves both kinds, in every objfile.
    """
    if not name or not _IDENTIFIER.match(name):
        return None
    try:
        value = gdb.parse_and_eval("&'%s'" % name)
    except gdb.error:
        return None
    try:
        return int(value.cast(gdb.lookup_type("unsigned long")))
    except gdb.error:
        return None


def lookup_type(name):
    """A gdb.Type for a C type name such as 'struct foo' or 'MPI_Comm'; None if absent."""
    if not name:
        return None
    name = name.strip()
    for prefix in ("struct ", "union ", "enum "):
        if name.startswith(prefix):
            bare = name[len(prefix):].strip()
            if not _IDENTIFIER.match(bare):
                return None
            try:
                # `(struct foo *)0` names the tag, not a typedef of the same name.
                return gdb.parse_and_eval("(%s%s *)0" % (prefix, bare)).type.target()
            except gdb.error:
                return None
    if not _IDENTIFIER.match(name):
        return None
    try:
        return gdb.lookup_type(name)
    except gdb.error:
        return None


def field_offset(gdb_type, field):
    """Byte offset of a (possibly dotted, nested) field, -1 when unknown."""
    try:
        t = gdb_type.strip_typedefs()
        offset = 0
        for part in field.split("."):
            found = None
            for f in t.fields():
                if f.name == part:
                    found = f
                    break
            if found is None or not hasattr(found, "bitpos"):
                return -1
            offset += found.bitpos // 8
            t = found.type.strip_typedefs()
        return offset
    except gdb.error:
        return -1


def _type_size(name, default):
    try:
        return gdb.lookup_type(name).sizeof
    except gdb.error:
        return default


def type_sizes():
    """(short, int, long, long long, pointer, bool, size_t) sizes of the target."""
    try:
        pointer = gdb.lookup_type("void").pointer().sizeof
    except gdb.error:
        pointer = 8
    long_size = _type_size("long", pointer)
    return (_type_size("short", 2), _type_size("int", 4), long_size,
            _type_size("long long", 8), pointer, _type_size("_Bool", 1), long_size)


def target_is_big_endian():
    """The target's byte order, from how gdb decodes a known byte pattern."""
    try:
        value = gdb.Value(b"\x01\x00\x00\x00", gdb.lookup_type("int"))
        return int(value) != 1
    except (gdb.error, TypeError, ValueError):
        pass
    try:
        return "big endian" in gdb.execute("show endian", to_string=True)
    except gdb.error:
        return False


def is_core_target(inferior):
    """True when the inferior is a core file, not a process gdb can run code in."""
    try:
        conn = inferior.connection
        if conn is not None:
            return conn.type == "core"
    except AttributeError:
        pass
    try:
        return "core dump" in gdb.execute("info target", to_string=True).lower()
    except gdb.error:
        return False
