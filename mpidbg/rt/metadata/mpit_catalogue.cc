// mpit_catalogue.cc — publishes MPI_T captures through root.mpit, and the exported
// mpidbg_refresh_mpit().
//
// MPI_T is initialised for a capture and finalised after it (Open MPI), or initialised
// once and kept (MPICH, see kKeepMpitOpen).
//
// A capture is built in new arrays while the published catalogue stays as it was; only
// the swap of the arrays happens with an odd `seq`, so a debugger stopping the process
// in the middle of a (slow) capture still reads the previous catalogue whole. The old
// arrays are freed after the new ones are published.
#include "rt/metadata/mpit_catalogue.h"

#include <dlfcn.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/record_arrays.h"
#include "mpidbg/runtime_api.h"
#include "rt/handle_widening.h"
#include "rt/metadata/mpit_capture.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {
namespace {

mpidbg_mpit_catalogue g_catalogue = {
    sizeof(mpidbg_mpit_catalogue), 0, 0, 0, 0, 0,
    {0, 0, sizeof(mpidbg_mpit_cvar)},     {0, 0, sizeof(mpidbg_mpit_pvar)},
    {0, 0, sizeof(mpidbg_mpit_category)}, {0, 0, sizeof(int32_t)},
    {0, 0, 1}};

bool g_capture_at_init = true;

// MPICH 4.0.2 cannot initialise MPI_T again once its count of users has dropped to zero
// (the next MPI_T call faults), so there the runtime keeps its first reference for the
// life of the process: an application using MPI_T after MPI_Init must not find it
// broken. Open MPI initialises again without trouble, and an open MPI_T keeps every
// component of every framework loaded, so there the runtime lets go after each capture.
constexpr bool kKeepMpitOpen = MPIDBG_RT_FLAVOUR == MPIDBG_FLAVOUR_MPICH;
bool g_mpit_held = false;  // the runtime's own MPI_T reference is open

// Open MPI 4.1 keeps a control variable's storage pointer after MPI_Init unloads the
// component that owns it, if MPI_T was open across MPI_Init: reading such a variable
// (opal_common_ucx_verbose, ...) then faults, in the application's own reads as much as
// in ours. So values are not read while an MPI_T opened before MPI_Init may still be
// open: Open MPI's count of MPI_T users (ompi_mpit_init_count, exported by libmpi) was
// nonzero before MPI_Init and has not dropped to zero since. MPICH has no such state.
bool g_mpit_open_across_init = false;

const volatile int* OpenMpiMpitUsers() {
  if (MPIDBG_RT_FLAVOUR != MPIDBG_FLAVOUR_OPENMPI) return nullptr;
  return static_cast<const volatile int*>(dlsym(RTLD_DEFAULT, "ompi_mpit_init_count"));
}

// Whether control-variable values may be read now (before our own MPI_T init).
bool CvarValuesReadable() {
  if (!g_mpit_open_across_init) return true;
  const volatile int* users = OpenMpiMpitUsers();
  if (users != nullptr && *users == 0) g_mpit_open_across_init = false;  // fresh from now on
  return !g_mpit_open_across_init;
}
bool g_refresh_allowed = true;
// One capture at a time; a second caller is refused rather than made to wait (a
// debugger calling into a stopped process must never block on another thread).
int g_busy = 0;

MpitSnapshot EmptySnapshot() {
  return MpitSnapshot{{0, 0, sizeof(mpidbg_mpit_cvar)},
                      {0, 0, sizeof(mpidbg_mpit_pvar)},
                      {0, 0, sizeof(mpidbg_mpit_category)},
                      {0, 0, sizeof(int32_t)},
                      {0, 0, 1}};
}

void Publish(const MpitSnapshot& s, bool available) {
  MpitSnapshot old{g_catalogue.cvars, g_catalogue.pvars, g_catalogue.categories,
                   g_catalogue.members, g_catalogue.strings};
  uint32_t seq = __atomic_load_n(&g_catalogue.seq, __ATOMIC_RELAXED);
  __atomic_store_n(&g_catalogue.seq, seq | 1u, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  g_catalogue.cvars = s.cvars;
  g_catalogue.pvars = s.pvars;
  g_catalogue.categories = s.categories;
  g_catalogue.members = s.members;
  g_catalogue.strings = s.strings;
  g_catalogue.available = available ? 1 : 0;
  g_catalogue.captured_time_ns = core::RealtimeNs();
  g_catalogue.refreshes += 1;
  __atomic_store_n(&g_catalogue.seq, (seq | 1u) + 1u, __ATOMIC_RELEASE);

  mpidbg_root* root = &mpidbg_runtime_root;
  __atomic_store_n(&root->mpit, AddressOf(&g_catalogue), __ATOMIC_RELEASE);
  __atomic_fetch_add(&root->generation, 1, __ATOMIC_RELEASE);
  FreeMpitSnapshot(old);
}

// 0 on success, -1 when MPI_T could not be initialised (then the catalogue is
// published empty with available = 0, unless an earlier capture is there to keep) or
// memory ran out.
int CaptureAndPublish() {
  bool read_values = CvarValuesReadable();
  if (!g_mpit_held) {
    int provided = MPI_THREAD_SINGLE;
    // MULTIPLE: the application may use MPI_T from other threads while ours is open.
    if (PMPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
      if (g_catalogue.available == 0) Publish(EmptySnapshot(), false);
      return -1;
    }
    g_mpit_held = true;
  }
  MpitSnapshot snapshot;
  bool ok = CaptureMpit(read_values, &snapshot);
  if (!kKeepMpitOpen) {
    PMPI_T_finalize();
    g_mpit_held = false;
  }
  if (!ok) return -1;
  Publish(snapshot, true);
  return 0;
}

}  // namespace

void ReadMpitSettings() {
  const char* v = getenv("MPIDBG_MPIT");
  g_capture_at_init = !(v != nullptr && strcmp(v, "0") == 0);
  const volatile int* users = OpenMpiMpitUsers();
  g_mpit_open_across_init = users != nullptr && *users > 0;
}

void CaptureMpitAtInit() {
  if (!g_capture_at_init) return;
  if (__atomic_exchange_n(&g_busy, 1, __ATOMIC_ACQUIRE) != 0) return;
  CaptureAndPublish();
  __atomic_store_n(&g_busy, 0, __ATOMIC_RELEASE);
}

void StopMpitRefreshes() { __atomic_store_n(&g_refresh_allowed, false, __ATOMIC_RELEASE); }

static int RefreshMpit() {
  if (!__atomic_load_n(&g_refresh_allowed, __ATOMIC_ACQUIRE)) return -1;
  if (__atomic_exchange_n(&g_busy, 1, __ATOMIC_ACQUIRE) != 0) return -1;
  int rc = CaptureAndPublish();
  __atomic_store_n(&g_busy, 0, __ATOMIC_RELEASE);
  return rc;
}

}  // namespace mpidbg::rt

extern "C" __attribute__((visibility("default"))) int mpidbg_refresh_mpit(void) {
  return mpidbg::rt::RefreshMpit();
}
