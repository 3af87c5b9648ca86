"""Finding and loading libmpidbg_plugin.so, with the C prototypes of what it exports.

Functions the loaded library does not export (an older plugin, or a part of the handle
interface not built yet) are None; callers fall back and say so.
"""

import ctypes
import os
from ctypes import POINTER, c_char_p, c_int, c_int64, c_void_p

from . import abi_handles as H
from . import abi_mqs as A

PLUGIN_FILE = "libmpidbg_plugin.so"

_P = c_void_p  # every opaque pointer argument


# Set by the loader script: where the build or the installation put the plugin.
configured_paths = []


def candidate_paths():
    """Where the plugin may be, in the order tried."""
    out = []
    env = os.environ.get("MPIDBG_PLUGIN")
    if env:
        out.append(env)
    out.extend(os.path.normpath(p) for p in configured_paths)
    return out


class Plugin:
    """The loaded library and its bound functions."""

    def __init__(self, path):
        self.path = path
        self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
        self.missing = []
        b = self._bind
        # Message-queue interface.
        self.mqs_setup_basic_callbacks = b("mqs_setup_basic_callbacks", None,
                                           [POINTER(A.mqs_basic_callbacks)])
        self.mqs_version_string = b("mqs_version_string", c_char_p, [])
        self.mqs_version_compatibility = b("mqs_version_compatibility", c_int, [])
        self.mqs_dll_taddr_width = b("mqs_dll_taddr_width", c_int, [])
        self.mqs_dll_error_string = b("mqs_dll_error_string", c_char_p, [c_int])
        self.mqs_setup_image = b("mqs_setup_image", c_int, [_P, POINTER(A.mqs_image_callbacks)])
        self.mqs_image_has_queues = b("mqs_image_has_queues", c_int, [_P, POINTER(c_char_p)])
        self.mqs_destroy_image_info = b("mqs_destroy_image_info", c_int, [_P])
        self.mqs_setup_process = b("mqs_setup_process", c_int,
                                   [_P, POINTER(A.mqs_process_callbacks)])
        self.mqs_process_has_queues = b("mqs_process_has_queues", c_int,
                                        [_P, POINTER(c_char_p)])
        self.mqs_destroy_process_info = b("mqs_destroy_process_info", c_int, [_P])
        self.mqs_update_communicator_list = b("mqs_update_communicator_list", c_int, [_P])
        self.mqs_setup_communicator_iterator = b("mqs_setup_communicator_iterator", c_int, [_P])
        self.mqs_get_communicator = b("mqs_get_communicator", c_int,
                                      [_P, POINTER(A.mqs_communicator)])
        self.mqs_get_comm_group = b("mqs_get_comm_group", c_int, [_P, POINTER(c_int)])
        self.mqs_next_communicator = b("mqs_next_communicator", c_int, [_P])
        self.mqs_setup_operation_iterator = b("mqs_setup_operation_iterator", c_int, [_P, c_int])
        self.mqs_next_operation = b("mqs_next_operation", c_int,
                                    [_P, POINTER(A.mqs_pending_operation)])
        # mpidbg_ext.h
        self.mpidbg_ext_version = b("mpidbg_ext_version", c_int, [])
        self.mpidbg_process_get_summary = b("mpidbg_process_get_summary", c_int,
                                            [_P, POINTER(A.mpidbg_process_summary)])
        self.mpidbg_thread_count = b("mpidbg_thread_count", c_int, [_P, POINTER(c_int)])
        self.mpidbg_thread_get = b("mpidbg_thread_get", c_int,
                                   [_P, c_int, POINTER(A.mpidbg_thread_info)])
        self.mpidbg_thread_waited_operation = b("mpidbg_thread_waited_operation", c_int,
                                                [_P, c_int, c_int,
                                                 POINTER(A.mpidbg_operation_info)])
        self.mpidbg_comm_get_detail = b("mpidbg_comm_get_detail", c_int,
                                        [_P, POINTER(A.mpidbg_comm_detail)])
        self.mpidbg_comm_get_remote_group = b("mpidbg_comm_get_remote_group", c_int,
                                              [_P, POINTER(c_int)])
        # Version 4: the other job of an intercommunicator to another job.
        self.mpidbg_comm_get_remote_job_group = b("mpidbg_comm_get_remote_job_group", c_int,
                                                  [_P, POINTER(c_int)])
        self.mpidbg_operation_get_detail = b("mpidbg_operation_get_detail", c_int,
                                             [_P, POINTER(A.mpidbg_operation_info)])
        self.mpidbg_process_get_launch = b("mpidbg_process_get_launch", c_int,
                                           [_P, POINTER(A.mpidbg_launch_summary)])
        self.mpidbg_mpit_read = b("mpidbg_mpit_read", c_int, [_P, POINTER(A.mpidbg_mpit_summary)])
        self.mpidbg_mpit_cvar_get = b("mpidbg_mpit_cvar_get", c_int,
                                      [_P, c_int, POINTER(A.mpidbg_mpit_variable)])
        self.mpidbg_mpit_pvar_get = b("mpidbg_mpit_pvar_get", c_int,
                                      [_P, c_int, POINTER(A.mpidbg_mpit_variable)])
        self.mpidbg_mpit_category_get = b("mpidbg_mpit_category_get", c_int,
                                          [_P, c_int, POINTER(A.mpidbg_mpit_category_info)])
        # mpidbg_handles.h
        self.mpidbg_init_once = b("mpidbg_init_once", c_int, [POINTER(A.mqs_basic_callbacks)])
        self.mpidbg_interface_version_compatibility = b(
            "mpidbg_interface_version_compatibility", c_int, [])
        self.mpidbg_handle_ext_version = b("mpidbg_handle_ext_version", c_int, [])
        self.mpidbg_init_per_image = b("mpidbg_init_per_image", c_int,
                                       [_P, POINTER(A.mqs_image_callbacks),
                                        POINTER(H.mpidbg_handle_info_t)])
        self.mpidbg_finalize_per_image = b("mpidbg_finalize_per_image", None, [_P, _P])
        self.mpidbg_init_per_process = b("mpidbg_init_per_process", c_int,
                                         [_P, POINTER(A.mqs_process_callbacks),
                                          POINTER(H.mpidbg_handle_info_t)])
        self.mpidbg_finalize_per_process = b("mpidbg_finalize_per_process", None, [_P, _P])
        # Extension version 2: absent from older plugins (None then).
        self.mpidbg_object_list_query = b("mpidbg_object_list_query", c_int,
                                          [_P, _P, _P, _P, c_int, POINTER(c_int),
                                           POINTER(POINTER(H.mpidbg_object_entry_t))])
        self.mpidbg_latest_time_query = b("mpidbg_latest_time_query", c_int,
                                          [_P, _P, _P, _P, POINTER(c_int64)])

    def _bind(self, name, restype, argtypes):
        try:
            fn = getattr(self.lib, name)
        except AttributeError:
            self.missing.append(name)
            return None
        fn.restype = restype
        fn.argtypes = argtypes
        return fn

    def error_text(self, code):
        """The plugin's message for one of its codes."""
        if self.mqs_dll_error_string is not None:
            try:
                raw = self.mqs_dll_error_string(code)
                if raw:
                    return raw.decode("utf-8", "replace")
            except (ctypes.ArgumentError, OSError):
                pass
        return "error %d" % code


def load_first(paths, load):
    """(value, tried, errors): `load(path)` of the first of `paths` (each tried once) that
    is a file and loads, or None; `tried` lists the paths tried, `errors` why files that
    exist did not load (load raises OSError with the reason)."""
    tried, errors = [], []
    for path in paths:
        if path in tried:
            continue
        tried.append(path)
        if not os.path.isfile(path):
            continue
        try:
            return load(path), tried, errors
        except OSError as exc:
            errors.append("%s: %s" % (path, exc))
    return None, tried, errors


def load():
    """(Plugin, None) or (None, one sentence saying what was tried)."""
    plugin, tried, errors = load_first(candidate_paths(), Plugin)
    if plugin is not None:
        return plugin, None
    if errors:
        return None, "cannot load the mpidbg plugin (%s)" % "; ".join(errors)
    return None, ("the mpidbg plugin %s was not found (tried %s; set MPIDBG_PLUGIN to its "
                  "path)" % (PLUGIN_FILE, ", ".join(tried)))