// monitor_check.h — what the monitoring checks share: the runtime's mpidbg_monitor_*
// functions found through the dynamic symbol table (so a program works with the runtime
// linked or LD_PRELOADed), and readers of the block root.monitor points at.
#ifndef MPIDBG_TESTS_RUNTIME_MONITOR_CHECK_H
#define MPIDBG_TESTS_RUNTIME_MONITOR_CHECK_H

#include <dlfcn.h>
#include <string.h>

#include "mpidbg/runtime_api.h"
#include "rt_check.h"

namespace monitor {

struct Api {
  int (*start)(void) = nullptr;
  int (*stop)(void) = nullptr;
  int (*reset)(void) = nullptr;
  int (*active)(void) = nullptr;
  int (*read_peer)(int, int, mpidbg_monitor_peer*) = nullptr;
  int (*read_collective)(int, int, mpidbg_monitor_coll*) = nullptr;
  int (*read_file)(int, int, mpidbg_monitor_file*) = nullptr;
};

using rtcheck::Resolve;

// The functions, or a failure counted for each one missing.
inline const Api& Functions() {
  static Api api;
  static bool found = false;
  if (!found) {
    Resolve(&api.start, "mpidbg_monitor_start");
    Resolve(&api.stop, "mpidbg_monitor_stop");
    Resolve(&api.reset, "mpidbg_monitor_reset");
    Resolve(&api.active, "mpidbg_monitor_active");
    Resolve(&api.read_peer, "mpidbg_monitor_read_peer");
    Resolve(&api.read_collective, "mpidbg_monitor_read_collective");
    Resolve(&api.read_file, "mpidbg_monitor_read_file");
    found = true;
  }
  return api;
}

inline bool Usable() {
  const Api& a = Functions();
  return a.start && a.stop && a.reset && a.active && a.read_peer && a.read_collective &&
         a.read_file;
}

// The block root.monitor points at, or nullptr.
inline const mpidbg_monitor* Block() {
  const mpidbg_root* root = rtcheck::Root();
  if (root == nullptr) return nullptr;
  return rtcheck::At<mpidbg_monitor>(__atomic_load_n(&root->monitor, __ATOMIC_ACQUIRE));
}

inline mpidbg_monitor_peer Peer(int world, int which) {
  mpidbg_monitor_peer p;
  memset(&p, 0xff, sizeof p);
  RT_CHECK_EQ(Functions().read_peer(world, which, &p), 0);
  return p;
}

inline mpidbg_monitor_coll Coll(int kind, int which) {
  mpidbg_monitor_coll c;
  memset(&c, 0xff, sizeof c);
  RT_CHECK_EQ(Functions().read_collective(kind, which, &c), 0);
  return c;
}

}  // namespace monitor

#endif  // MPIDBG_TESTS_RUNTIME_MONITOR_CHECK_H
