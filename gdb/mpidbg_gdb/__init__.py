"""mpidbg inside gdb: the mpidbg plugin loaded through ctypes, its callbacks over gdb's
API, `mpi ...` commands and pretty printers for MPI handles.

`register()` is called by the loader script (mpidbg-gdb.py), directly or through an
auto-load script; calling it again does nothing.
"""

_registered = False


def register(plugin_paths=()):
    """Installs the commands, the printers and the event hooks. `plugin_paths`: where
    the loader expects libmpidbg_plugin.so (tried after $MPIDBG_PLUGIN)."""
    global _registered
    if _registered:
        return
    _registered = True
    from . import commands, plugin, printers, session
    plugin.configured_paths.extend(plugin_paths)
    session.connect_events()
    commands.register()
    printers.register()
