"""The plugin set up for gdb's current inferior: image, process, handle interface.

One Session per inferior and target identity (pid or core, loaded objfiles). It is
rebuilt when that identity changes: a new run, another core, a library loaded (the
runtime may arrive with a shared library after the first stop).

The message-queue interface and the handle interface get separate mqs_image and
mqs_process objects, each with the info the plugin attaches to it, so tearing one down
never touches the other's.
"""

import ctypes
from ctypes import byref, c_char_p

import gdb

from . import abi_handles as H
from . import abi_mqs as A
from . import plugin as plugin_mod
from . import target_access
from .callbacks import Callbacks


class NotAvailable(Exception):
    """The plugin cannot serve this inferior; the message is one sentence."""


class _Dll:
    """The plugin loaded once per gdb, with its callbacks installed."""

    def __init__(self):
        self.plugin, self.error = plugin_mod.load()
        self.callbacks = Callbacks()
        self.handles_ready = False
        if self.plugin is None:
            return
        p = self.plugin
        if p.mqs_setup_basic_callbacks is None or p.mqs_setup_image is None:
            self.error = "%s is not a message-queue DLL" % p.path
            self.plugin = None
            return
        p.mqs_setup_basic_callbacks(byref(self.callbacks.basic))
        if p.mpidbg_init_once is not None:
            rc = p.mpidbg_init_once(byref(self.callbacks.basic))
            self.handles_ready = rc == H.MPIDBG_SUCCESS


_dll = None
_sessions = {}  # inferior num -> Session
_objfile_epoch = 0  # bumped whenever objfiles come or go


def dll():
    global _dll
    if _dll is None:
        _dll = _Dll()
    return _dll


def _identity(inferior):
    core = target_access.is_core_target(inferior)
    progspace = inferior.progspace
    return (inferior.pid, core, progspace.filename if progspace else None, _objfile_epoch)


class Session:
    """mqs and handle-interface set-up for one inferior in one state."""

    def __init__(self, inferior):
        self.inferior_num = inferior.num
        self.identity = _identity(inferior)
        self.is_core = self.identity[1]
        self.pid = inferior.pid
        self.d = dll()
        self.plugin = self.d.plugin
        self.error = None
        self.handle_error = None
        self.mqs_image = self.mqs_process = None
        self.h_image = self.h_process = None
        self.handle_types = H.mpidbg_handle_info_t()
        if self.plugin is None:
            self.error = self.d.error
            return
        self._setup_mqs(inferior)
        self._setup_handles(inferior)

    # ---- set-up and tear-down -----------------------------------------------------

    def _setup_mqs(self, inferior):
        p, cb = self.plugin, self.d.callbacks
        image = cb.add_image(inferior.progspace)
        rc = p.mqs_setup_image(image, byref(cb.image))
        if rc != A.MQS_OK:
            self.error = "the plugin cannot set up the image: " + p.error_text(rc)
            return
        self.mqs_image = image
        message = c_char_p()
        rc = p.mqs_image_has_queues(image, byref(message))
        if rc != A.MQS_OK:
            self.error = self._message(message, rc, inferior)
            return
        process = cb.add_process(inferior.num, image)
        rc = p.mqs_setup_process(process, byref(cb.process))
        if rc != A.MQS_OK:
            self.error = "the plugin cannot set up the process: " + p.error_text(rc)
            return
        self.mqs_process = process
        rc = p.mqs_process_has_queues(process, byref(message))
        if rc != A.MQS_OK:
            self.error = self._message(message, rc, inferior)
            return
        summary = self.summary()
        if summary is not None:
            cb.processes[process].global_rank = summary.world_rank

    def _message(self, message, rc, inferior):
        text = message.value.decode("utf-8", "replace") if message.value else \
            self.plugin.error_text(rc)
        name = inferior.progspace.filename if inferior.progspace else None
        return text.replace("%s", name or "the program")

    def _setup_handles(self, inferior):
        p, cb = self.plugin, self.d.callbacks
        if not self.d.handles_ready or p.mpidbg_init_per_image is None or \
                p.mpidbg_init_per_process is None:
            self.handle_error = "the plugin %s has no handle interface" % p.path
            return
        if self.error is not None:
            self.handle_error = self.error
            return
        image = cb.add_image(inferior.progspace)
        rc = p.mpidbg_init_per_image(image, byref(cb.image), byref(self.handle_types))
        if rc != H.MPIDBG_SUCCESS:
            self.handle_error = "the plugin cannot set up the image for handle queries: " + \
                H.RETURN_CODE_TEXT.get(rc, str(rc))
            return
        self.h_image = image
        process = cb.add_process(inferior.num, image)
        cb.processes[process].global_rank = cb.processes[self.mqs_process].global_rank
        rc = p.mpidbg_init_per_process(process, byref(cb.process), byref(self.handle_types))
        if rc != H.MPIDBG_SUCCESS:
            self.handle_error = "the plugin cannot set up the process for handle queries: " + \
                H.RETURN_CODE_TEXT.get(rc, str(rc))
            return
        self.h_process = process

    def close(self):
        p, cb = self.plugin, self.d.callbacks
        if p is None:
            return
        if self.h_process is not None and p.mpidbg_finalize_per_process is not None:
            p.mpidbg_finalize_per_process(self.h_process, cb.processes[self.h_process].info)
        if self.h_image is not None and p.mpidbg_finalize_per_image is not None:
            p.mpidbg_finalize_per_image(self.h_image, cb.images[self.h_image].info)
        if self.mqs_process is not None:
            info = cb.processes[self.mqs_process].info
            if info:
                p.mqs_destroy_process_info(info)
        if self.mqs_image is not None:
            info = cb.images[self.mqs_image].info
            if info:
                p.mqs_destroy_image_info(info)
        for ident in (self.h_process, self.mqs_process):
            cb.processes.pop(ident, None)
        for ident in (self.h_image, self.mqs_image):
            state = cb.images.pop(ident, None)
            if state is not None:
                for type_id in state.types:
                    cb.types.pop(type_id, None)
        self.mqs_process = self.mqs_image = self.h_process = self.h_image = None

    # ---- helpers for commands --------------------------------------------------------

    def require_mqs(self):
        if self.error is not None or self.mqs_process is None:
            raise NotAvailable(self.error or "the message-queue interface is not set up")
        return self.plugin, self.mqs_process

    def require_handles(self):
        if self.h_process is None:
            raise NotAvailable(self.handle_error or "the handle interface is not set up")
        return self.plugin, self.h_image, self.h_process

    def summary(self):
        p = self.plugin
        if p is None or p.mpidbg_process_get_summary is None or self.mqs_process is None:
            return None
        s = A.sized(A.mpidbg_process_summary)
        if p.mpidbg_process_get_summary(self.mqs_process, byref(s)) != A.MQS_OK:
            return None
        return s

    def image_info(self):
        return self.d.callbacks.images[self.h_image].info

    def process_info(self):
        return self.d.callbacks.processes[self.h_process].info


def current(inferior=None):
    """The Session of the selected inferior, rebuilt when its identity changed."""
    inferior = inferior or gdb.selected_inferior()
    session = _sessions.get(inferior.num)
    if session is not None and session.identity == _identity(inferior):
        return session
    if session is not None:
        session.close()
    session = Session(inferior)
    _sessions[inferior.num] = session
    return session


def forget(_event=None):
    """Drops every session (objfiles changed, process exited, inferior gone)."""
    global _objfile_epoch
    _objfile_epoch += 1
    for session in list(_sessions.values()):
        try:
            session.close()
        except (gdb.error, ctypes.ArgumentError):
            pass
    _sessions.clear()


def connect_events():
    for name in ("new_objfile", "clear_objfiles", "exited", "inferior_deleted"):
        registry = getattr(gdb.events, name, None)
        if registry is not None:
            registry.connect(forget)
