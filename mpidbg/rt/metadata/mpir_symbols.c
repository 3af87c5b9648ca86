/*
 * mpir_symbols.c — the MPIR symbols of the MPI process, naming mpidbg's plugin.
 *
 * Defined here, per symbol:
 *  MPIR_dll_name             the plugin a debugger loads (message queues, handles).
 *  mpimsgq_dll_locations,    NULL-terminated lists of candidate DLLs (Open MPI's
 *  mpidbg_dll_locations      extension, read by TotalView); both name our plugin, which
 *                            implements the message-queue and the handle interfaces.
 *  MPIR_debug_typedefs_sizeof  sizes of short, int, long, long long, void*, bool,
 *                            size_t, for a debugger that has no type information.
 *  MPIR_being_debugged       set by a debugger while attached.
 *  MPIR_debug_gate           set to 1 by a debugger to release a process held in
 *                            MPI_Init (debug_gate.cc; held only when MPIDBG_DEBUG_GATE=1).
 *
 * MPICH 4.0.2 defines none of these in the MPI process. Open MPI 4.1 defines all of them
 * (MPIR_being_debugged in libopen-rte, the rest in libmpi). The runtime is linked before
 * libmpi or preloaded, so its definitions come first in the global lookup order: the
 * dynamic linker binds every reference to them, Open MPI's own included (libmpi and
 * libopen-rte reach these variables through their GOT), and a debugger looking a name up
 * finds ours first. Open MPI then keeps working on one set of variables, ours:
 *  - it never writes MPIR_dll_name and never reads MPIR_debug_typedefs_sizeof;
 *  - it reads MPIR_being_debugged and MPIR_debug_gate with their standard meaning;
 *  - when it believes a debugger is attached it stores heap lists of its own DLLs in the
 *    two *_dll_locations pointers; mpidbg_mpir_restore_locations() puts ours back after
 *    PMPI_Init (Open MPI never reads or frees those lists).
 * Should another library's definitions come first after all, the runtime leaves them
 * alone: it writes only through the hidden names below.
 *
 * Where the plugin is: MPIR_dll_name starts as the installed path (valid in a core file
 * of a process that never ran a constructor) and is refined when the library is
 * loaded: $MPIDBG_PLUGIN if it names a readable file; else <dir>/mpidbg/
 * libmpidbg_plugin.so next to this library (the installed layout, wherever the tree was
 * moved); else the build tree's plugin when this library runs from the build tree.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif

#include "rt/metadata/mpir_symbols.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MPIDBG_PLUGIN_INSTALL_PATH
#define MPIDBG_PLUGIN_INSTALL_PATH "libmpidbg_plugin.so"
#endif
#ifndef MPIDBG_PLUGIN_BUILD_PATH
#define MPIDBG_PLUGIN_BUILD_PATH ""
#endif
#ifndef MPIDBG_RT_BUILD_DIR
#define MPIDBG_RT_BUILD_DIR ""
#endif

#define MPIDBG_HIDDEN __attribute__((visibility("hidden")))
#define MPIDBG_EXPORT_ALIAS(target) __attribute__((alias(target), visibility("default")))

/* ---- storage (hidden) and the exported names ---- */

MPIDBG_HIDDEN volatile int mpidbg_mpir_being_debugged = 0;
MPIDBG_HIDDEN volatile int mpidbg_mpir_debug_gate = 0;
MPIDBG_HIDDEN char mpidbg_mpir_dll_name[MPIDBG_DLL_NAME_SIZE] = MPIDBG_PLUGIN_INSTALL_PATH;

static char* g_msgq_locations[2] = {mpidbg_mpir_dll_name, NULL};
static char* g_dbg_locations[2] = {mpidbg_mpir_dll_name, NULL};
MPIDBG_HIDDEN char** mpidbg_mpir_msgq_locations = g_msgq_locations;
MPIDBG_HIDDEN char** mpidbg_mpir_dbg_locations = g_dbg_locations;

extern volatile int MPIR_being_debugged MPIDBG_EXPORT_ALIAS("mpidbg_mpir_being_debugged");
extern volatile int MPIR_debug_gate MPIDBG_EXPORT_ALIAS("mpidbg_mpir_debug_gate");
extern char MPIR_dll_name[MPIDBG_DLL_NAME_SIZE] MPIDBG_EXPORT_ALIAS("mpidbg_mpir_dll_name");
extern char** mpimsgq_dll_locations MPIDBG_EXPORT_ALIAS("mpidbg_mpir_msgq_locations");
extern char** mpidbg_dll_locations MPIDBG_EXPORT_ALIAS("mpidbg_mpir_dbg_locations");

__attribute__((visibility("default"))) int MPIR_debug_typedefs_sizeof[] = {
    sizeof(short), sizeof(int), sizeof(long), sizeof(long long),
    sizeof(void*), sizeof(bool), sizeof(size_t)};

/* ---- locating the plugin ---- */

static bool Readable(const char* path) { return path[0] != '\0' && access(path, R_OK) == 0; }

static void UsePath(const char* path) {
  size_t n = strlen(path);
  if (n >= MPIDBG_DLL_NAME_SIZE) return; /* keep the previous, complete name */
  memcpy(mpidbg_mpir_dll_name, path, n + 1);
}

/* The directory of this library (resolved), into `dir`; false if unknown. */
static bool OwnDirectory(char* dir, size_t size) {
  Dl_info info;
  if (dladdr((const void*)mpidbg_mpir_dll_name, &info) == 0 || info.dli_fname == NULL) {
    return false;
  }
  char* resolved = realpath(info.dli_fname, NULL);
  if (resolved == NULL) return false;
  char* slash = strrchr(resolved, '/');
  bool ok = slash != NULL && (size_t)(slash - resolved) < size;
  if (ok) {
    memcpy(dir, resolved, (size_t)(slash - resolved));
    dir[slash - resolved] = '\0';
  }
  free(resolved);
  return ok;
}

__attribute__((constructor)) static void LocatePlugin(void) {
  const char* env = getenv("MPIDBG_PLUGIN");
  if (env != NULL && Readable(env)) {
    char* resolved = realpath(env, NULL);
    UsePath(resolved != NULL ? resolved : env);
    free(resolved);
    return;
  }
  char dir[PATH_MAX];
  if (!OwnDirectory(dir, sizeof dir)) return;
  static const char kInstalled[] = "/mpidbg/libmpidbg_plugin.so";
  char candidate[PATH_MAX + sizeof kInstalled];
  strcpy(candidate, dir);
  strcat(candidate, kInstalled);
  if (Readable(candidate)) {
    UsePath(candidate);
    return;
  }
  if (strcmp(dir, MPIDBG_RT_BUILD_DIR) == 0 && Readable(MPIDBG_PLUGIN_BUILD_PATH)) {
    UsePath(MPIDBG_PLUGIN_BUILD_PATH);
  }
}

int mpidbg_mpir_restore_locations(void) {
  int restored = 0;
  if (mpidbg_mpir_msgq_locations != g_msgq_locations) {
    mpidbg_mpir_msgq_locations = g_msgq_locations;
    restored = 1;
  }
  if (mpidbg_mpir_dbg_locations != g_dbg_locations) {
    mpidbg_mpir_dbg_locations = g_dbg_locations;
    restored = 1;
  }
  return restored;
}
