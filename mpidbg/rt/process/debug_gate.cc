// debug_gate.cc — the hold in MPI_Init (debug_gate.h).
//
// A debugger writes the MPIR_debug_gate it finds first in the process's symbol lookup
// order: normally ours (mpir_symbols.c), but if another library's definition came first
// the debugger writes that one. The hold watches both, and the same for
// MPIR_being_debugged.
#include "rt/process/debug_gate.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "rt/metadata/mpir_symbols.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {
namespace {

constexpr long kPollNs = 10 * 1000 * 1000;

bool g_enabled = false;
double g_timeout_s = 0;  // 0: wait for ever

double MonotonicSeconds() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The definition of `name` the dynamic linker (and a debugger) resolves first.
const volatile int* FirstDefinition(const char* name) {
  return static_cast<const volatile int*>(dlsym(RTLD_DEFAULT, name));
}

bool IsSet(const volatile int& ours, const volatile int* first) {
  return ours != 0 || (first != nullptr && *first != 0);
}

void SetHold(int32_t value) {
  mpidbg_root* root = &mpidbg_runtime_root;
  __atomic_store_n(&root->debug_gate_hold, value, __ATOMIC_RELEASE);
  __atomic_fetch_add(&root->generation, 1, __ATOMIC_RELEASE);
}

}  // namespace

void ReadDebugGateSettings() {
  const char* gate = getenv("MPIDBG_DEBUG_GATE");
  g_enabled = gate != nullptr && gate[0] == '1' && gate[1] == '\0';
  g_timeout_s = 0;
  const char* timeout = getenv("MPIDBG_DEBUG_GATE_TIMEOUT");
  if (timeout != nullptr && *timeout != '\0') {
    char* end = nullptr;
    double s = strtod(timeout, &end);
    if (end != nullptr && *end == '\0' && s > 0) g_timeout_s = s;
  }
}

void HoldAtDebugGate() {
  if (!g_enabled) return;
  const volatile int* gate = FirstDefinition("MPIR_debug_gate");
  const volatile int* debugged = FirstDefinition("MPIR_being_debugged");
  if (IsSet(mpidbg_mpir_debug_gate, gate)) return;  // released before we got here

  const mpidbg_root& root = mpidbg_runtime_root;
  SetHold(1);
  if (g_timeout_s > 0) {
    fprintf(stderr,
            "mpidbg: rank %d (pid %d on %s) holds in MPI_Init until a debugger sets "
            "MPIR_debug_gate=1 (at most %g s)\n",
            root.world_rank, static_cast<int>(getpid()), root.hostname, g_timeout_s);
  } else {
    fprintf(stderr,
            "mpidbg: rank %d (pid %d on %s) holds in MPI_Init until a debugger sets "
            "MPIR_debug_gate=1\n",
            root.world_rank, static_cast<int>(getpid()), root.hostname);
  }
  double since = MonotonicSeconds();
  while (!IsSet(mpidbg_mpir_debug_gate, gate)) {
    struct timespec pause = {0, kPollNs};
    nanosleep(&pause, nullptr);
    if (IsSet(mpidbg_mpir_being_debugged, debugged)) {
      since = MonotonicSeconds();  // a debugger is attached: the timeout waits
      continue;
    }
    if (g_timeout_s > 0 && MonotonicSeconds() - since >= g_timeout_s) {
      fprintf(stderr,
              "mpidbg: rank %d (pid %d): MPIR_debug_gate not set after %g s; MPI_Init "
              "continues\n",
              root.world_rank, static_cast<int>(getpid()), g_timeout_s);
      break;
    }
  }
  SetHold(0);
}

}  // namespace mpidbg::rt
