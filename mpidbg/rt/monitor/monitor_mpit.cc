// monitor_mpit.cc — see monitor_mpit.h.
#include "rt/monitor/monitor_mpit.h"

#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "mpidbg/records.h"
#include "mpidbg/runtime_api.h"
#include "rt/grow_buffer.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {
namespace {

constexpr bool kOpenMpi = MPIDBG_RT_FLAVOUR == MPIDBG_FLAVOUR_OPENMPI;
// MPICH 4.0.2 cannot initialise MPI_T again once its count of users has dropped to zero
// (mpidbg/doc/metadata.md), so there the runtime never lets go of its reference.
constexpr bool kReleaseMpit = kOpenMpi;

enum VarId {
  kPmlCount, kPmlSize,
  kOscSentCount, kOscSentSize, kOscRecvCount, kOscRecvSize,
  kCollCount, kCollSize,
  kO2aCount, kO2aSize, kA2oCount, kA2oSize, kA2aCount, kA2aSize,
  kVarCount
};

struct VarSpec {
  const char* name;
  bool per_peer;  // an array of world_size values; else one value per communicator
};

const VarSpec kSpecs[kVarCount] = {
    {"pml_monitoring_messages_count", true},      {"pml_monitoring_messages_size", true},
    {"osc_monitoring_messages_sent_count", true}, {"osc_monitoring_messages_sent_size", true},
    {"osc_monitoring_messages_recv_count", true}, {"osc_monitoring_messages_recv_size", true},
    {"coll_monitoring_messages_count", true},     {"coll_monitoring_messages_size", true},
    {"coll_monitoring_o2a_count", false},         {"coll_monitoring_o2a_size", false},
    {"coll_monitoring_a2o_count", false},         {"coll_monitoring_a2o_size", false},
    {"coll_monitoring_a2a_count", false},         {"coll_monitoring_a2a_size", false}};

// Where each per-peer variable goes in mpidbg_monitor_mpit_peer.
uint64_t* PeerField(mpidbg_monitor_mpit_peer* p, int id) {
  switch (id) {
    case kPmlCount: return &p->pml_messages;
    case kPmlSize: return &p->pml_bytes;
    case kOscSentCount: return &p->osc_sent_messages;
    case kOscSentSize: return &p->osc_sent_bytes;
    case kOscRecvCount: return &p->osc_received_messages;
    case kOscRecvSize: return &p->osc_received_bytes;
    case kCollCount: return &p->coll_messages;
    case kCollSize: return &p->coll_bytes;
    default: return nullptr;
  }
}

// Where each per-communicator counter goes in mpit_coll.
uint64_t* CollField(mpidbg_monitor* b, int id) {
  switch (id) {
    case kO2aCount: return &b->mpit_coll[MPIDBG_COLL_ONE_TO_ALL].operations;
    case kO2aSize: return &b->mpit_coll[MPIDBG_COLL_ONE_TO_ALL].bytes_sent;
    case kA2oCount: return &b->mpit_coll[MPIDBG_COLL_ALL_TO_ONE].operations;
    case kA2oSize: return &b->mpit_coll[MPIDBG_COLL_ALL_TO_ONE].bytes_sent;
    case kA2aCount: return &b->mpit_coll[MPIDBG_COLL_ALL_TO_ALL].operations;
    case kA2aSize: return &b->mpit_coll[MPIDBG_COLL_ALL_TO_ALL].bytes_sent;
    default: return nullptr;
  }
}

struct Var {
  bool present = false;
  MPI_T_pvar_handle handle;
  int count = 0;
  int value_size = 0;  // bytes of one element (4 or 8)
};

struct State {
  bool mpit_open = false;
  bool session_open = false;
  bool looked_up = false;
  bool closed = false;  // MPI_Finalize has begun
  int present = 0;      // variables with a handle
  MPI_T_pvar_session session;
  Var vars[kVarCount];
  GrowBuffer<unsigned char> values;  // one read's raw elements
} g;

int g_busy = 0;

mpidbg_monitor* Block() {
  uint64_t a = __atomic_load_n(&mpidbg_runtime_root.monitor, __ATOMIC_ACQUIRE);
  return reinterpret_cast<mpidbg_monitor*>(static_cast<uintptr_t>(a));
}

void Publish(mpidbg_monitor* b, int32_t state, const char* reason) {
  snprintf(b->mpit_reason, sizeof b->mpit_reason, "%s", reason);
  b->mpit_time_ns = core::RealtimeNs();
  __atomic_store_n(&b->mpit_state, state, __ATOMIC_RELEASE);
  __atomic_fetch_add(&mpidbg_runtime_root.generation, 1, __ATOMIC_RELEASE);
}

int Unavailable(mpidbg_monitor* b, const char* reason) {
  Publish(b, MPIDBG_MONITOR_MPIT_UNAVAILABLE, reason);
  return -1;
}

const char* NothingPublishedReason() {
  if (kOpenMpi) {
    return "Open MPI's monitoring components are not enabled (run with --mca "
           "pml_monitoring_enable 1)";
  }
  return "MPICH publishes no per-peer monitoring variables";
}

// Open MPI's monitoring components share one library whose enable flag says whether
// they were switched on at launch (--mca pml_monitoring_enable N, N > 0). Looking at
// it first spares MPI_T's initialisation (~200 ms with Open MPI) when they are off.
bool OpenMpiMonitoringOff() {
  if (!kOpenMpi) return false;
  const volatile int* enabled =
      static_cast<const volatile int*>(dlsym(RTLD_DEFAULT, "mca_common_monitoring_enabled"));
  return enabled == nullptr || *enabled <= 0;
}

int FindVar(const char* name) {
  static const int kClasses[] = {MPI_T_PVAR_CLASS_SIZE, MPI_T_PVAR_CLASS_COUNTER,
                                 MPI_T_PVAR_CLASS_AGGREGATE, MPI_T_PVAR_CLASS_LEVEL,
                                 MPI_T_PVAR_CLASS_GENERIC};
  for (int cls : kClasses) {
    int index = -1;
    if (PMPI_T_pvar_get_index(name, cls, &index) == MPI_SUCCESS && index >= 0) return index;
  }
  return -1;
}

// A handle on MPI_COMM_WORLD for one variable, started unless continuous; false when
// the variable is absent or not what the monitoring components publish.
bool OpenVar(int id, int world_size, Var* v) {
  int index = FindVar(kSpecs[id].name);
  if (index < 0) return false;
  char name[128], desc[8];
  int name_len = sizeof name, desc_len = sizeof desc;
  int verbosity = 0, var_class = 0, bind = 0, readonly = 0, continuous = 0, atomic = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_T_enum enumtype;
  if (PMPI_T_pvar_get_info(index, name, &name_len, &verbosity, &var_class, &type, &enumtype,
                           desc, &desc_len, &bind, &readonly, &continuous,
                           &atomic) != MPI_SUCCESS ||
      bind != MPI_T_BIND_MPI_COMM) {
    return false;
  }
  int type_size = 0;
  if (PMPI_Type_size(type, &type_size) != MPI_SUCCESS || (type_size != 4 && type_size != 8)) {
    return false;
  }
  MPI_Comm world = MPI_COMM_WORLD;
  int count = 0;
  if (PMPI_T_pvar_handle_alloc(g.session, index, &world, &v->handle, &count) != MPI_SUCCESS) {
    return false;
  }
  bool shape_ok = kSpecs[id].per_peer ? count == world_size : count >= 1;
  if (!shape_ok || (!continuous && PMPI_T_pvar_start(g.session, v->handle) != MPI_SUCCESS)) {
    PMPI_T_pvar_handle_free(g.session, &v->handle);
    return false;
  }
  v->present = true;
  v->count = count;
  v->value_size = type_size;
  return true;
}

void LookUp(int world_size) {
  g.looked_up = true;
  if (PMPI_T_pvar_session_create(&g.session) != MPI_SUCCESS) return;
  g.session_open = true;
  for (int id = 0; id < kVarCount; ++id) {
    if (OpenVar(id, world_size, &g.vars[id])) ++g.present;
  }
}

uint64_t Element(const unsigned char* raw, int size, int i) {
  if (size == 8) {
    uint64_t v;
    memcpy(&v, raw + static_cast<size_t>(i) * 8, 8);
    return v;
  }
  uint32_t v;
  memcpy(&v, raw + static_cast<size_t>(i) * 4, 4);
  return v;
}

// Reads one variable's elements into g.values; false when the read failed.
bool ReadVar(Var* v) {
  uint64_t bytes = static_cast<uint64_t>(v->count) * static_cast<uint64_t>(v->value_size);
  if (bytes > UINT32_MAX / 4 || !g.values.Resize(static_cast<uint32_t>(bytes))) return false;
  memset(g.values.data(), 0, static_cast<size_t>(bytes));
  return PMPI_T_pvar_read(g.session, v->handle, g.values.data()) == MPI_SUCCESS;
}

// Which groups were read, and what is missing, in mpit_reason's 128 bytes.
void ComposeReason(char* out, size_t size) {
  bool pml = g.vars[kPmlCount].present && g.vars[kPmlSize].present;
  bool osc = g.vars[kOscSentCount].present && g.vars[kOscRecvCount].present;
  bool coll = g.vars[kCollCount].present && g.vars[kCollSize].present;
  bool ops = g.vars[kO2aCount].present && g.vars[kA2oCount].present && g.vars[kA2aCount].present;
  snprintf(out, size, "read%s%s%s%s%s", pml ? " pml" : "", osc ? " osc" : "", coll ? " coll" : "",
           ops ? " o2a/a2o/a2a (counted from the first read)" : "",
           pml ? "" : "; no pml_monitoring_* (Open MPI drops them at MPI_Init)");
}

int ReadInto(mpidbg_monitor* b, int world_size) {
  auto* peers = reinterpret_cast<mpidbg_monitor_mpit_peer*>(
      static_cast<uintptr_t>(__atomic_load_n(&b->mpit_peers, __ATOMIC_ACQUIRE)));
  if (peers == nullptr) {
    // Allocated once and never moved or freed: a debugger may hold its address.
    peers = static_cast<mpidbg_monitor_mpit_peer*>(
        calloc(static_cast<size_t>(world_size), sizeof(mpidbg_monitor_mpit_peer)));
    if (peers == nullptr) return Unavailable(b, "no memory for the MPI_T values");
    b->mpit_peer_count = world_size;
    __atomic_store_n(&b->mpit_peers, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(peers)),
                     __ATOMIC_RELEASE);
  }
  int32_t peer_count = b->mpit_peer_count < world_size ? b->mpit_peer_count : world_size;
  for (int id = 0; id < kVarCount; ++id) {
    Var* v = &g.vars[id];
    if (!v->present || !ReadVar(v)) continue;
    const unsigned char* raw = g.values.data();
    if (kSpecs[id].per_peer) {
      for (int32_t r = 0; r < peer_count && r < v->count; ++r) {
        __atomic_store_n(PeerField(&peers[r], id), Element(raw, v->value_size, r),
                         __ATOMIC_RELAXED);
      }
    } else {
      __atomic_store_n(CollField(b, id), Element(raw, v->value_size, 0), __ATOMIC_RELAXED);
    }
  }
  char reason[sizeof b->mpit_reason];
  ComposeReason(reason, sizeof reason);
  Publish(b, MPIDBG_MONITOR_MPIT_READ, reason);
  return 0;
}

int Refresh() {
  mpidbg_monitor* b = Block();
  if (b == nullptr || __atomic_load_n(&g.closed, __ATOMIC_ACQUIRE)) return -1;
  int initialized = 0, finalized = 0;
  if (PMPI_Initialized(&initialized) != MPI_SUCCESS || !initialized ||
      PMPI_Finalized(&finalized) != MPI_SUCCESS || finalized) {
    return -1;
  }
  int world_size = 0;
  if (PMPI_Comm_size(MPI_COMM_WORLD, &world_size) != MPI_SUCCESS || world_size <= 0) return -1;
  if (OpenMpiMonitoringOff()) return Unavailable(b, NothingPublishedReason());
  if (g.looked_up && g.present == 0) return Unavailable(b, NothingPublishedReason());
  if (!g.mpit_open) {
    int provided = MPI_THREAD_SINGLE;
    if (PMPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
      return Unavailable(b, "MPI_T could not be initialised");
    }
    g.mpit_open = true;
  }
  if (!g.looked_up) LookUp(world_size);
  if (g.present == 0) return Unavailable(b, NothingPublishedReason());
  return ReadInto(b, world_size);
}

void Release() {
  if (g.session_open) {
    for (Var& v : g.vars) {
      if (!v.present) continue;
      PMPI_T_pvar_handle_free(g.session, &v.handle);
      v.present = false;
    }
    PMPI_T_pvar_session_free(&g.session);
    g.session_open = false;
  }
  if (g.mpit_open && kReleaseMpit) {
    PMPI_T_finalize();
    g.mpit_open = false;
  }
}

}  // namespace

void MonitorMpitAfterInit() {
  // Monitoring started at MPI_Init (MPIDBG_MONITOR): a first read opens the session, so
  // Open MPI's per-communicator operation counters (coll_monitoring_o2a/a2o/a2a) count
  // the whole run. Costs nothing when the MPI's own monitoring is off (see Refresh).
  if (Block() == nullptr) return;
  if (__atomic_exchange_n(&g_busy, 1, __ATOMIC_ACQUIRE) != 0) return;
  Refresh();
  __atomic_store_n(&g_busy, 0, __ATOMIC_RELEASE);
}

void MonitorMpitFinalRead() {
  // Waits for nothing: a refresh in progress elsewhere keeps its state, and the last
  // read it publishes stays.
  if (__atomic_exchange_n(&g_busy, 1, __ATOMIC_ACQUIRE) != 0) return;
  Refresh();
  Release();
  __atomic_store_n(&g.closed, true, __ATOMIC_RELEASE);
  __atomic_store_n(&g_busy, 0, __ATOMIC_RELEASE);
}

}  // namespace mpidbg::rt

extern "C" __attribute__((visibility("default"))) int mpidbg_monitor_refresh_mpit(void) {
  using namespace mpidbg::rt;
  // One read at a time; a second caller is refused, never made to wait (a debugger
  // calling into a stopped process must not block on another thread).
  if (__atomic_exchange_n(&g_busy, 1, __ATOMIC_ACQUIRE) != 0) return -1;
  int rc = Refresh();
  __atomic_store_n(&g_busy, 0, __ATOMIC_RELEASE);
  return rc;
}
