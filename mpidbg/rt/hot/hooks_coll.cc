// hooks_coll.cc — blocking, nonblocking and persistent collectives.
//
// HOT PATH: no heap allocation, no system call; PMPI_* only.
#include "core/normalise.h"
#include "rt/hot/comm_cache.h"
#include "rt/comms/comm_registry.h"
#include "rt/hot/datatype_info.h"
#include "rt/handle_widening.h"
#include "rt/hot/hooks.h"
#include "rt/monitor/monitor.h"
#include "rt/hot/operation_registry.h"
#include "rt/process/registry.h"
#include "rt/hot/type_cache.h"

namespace mpidbg::rt {
namespace {

int32_t NormalisedRoot(const CollArgs& a) {
  return a.root == kAbsent ? -1 : core::NormaliseRank(a.root, kEncodings);
}

// The count/datatype pair that is significant on this rank.
void SignificantPair(const CollArgs& a, int64_t* count, MPI_Datatype* datatype) {
  if (a.inplace_buf == MPI_IN_PLACE) {
    *count = a.alt_count;
    *datatype = a.alt_datatype;
  } else {
    *count = a.count;
    *datatype = a.datatype;
  }
}

}  // namespace

void PreCollBlocking(CallScope& scope, CollArgs& args) {
  scope.SetComm(CommViewOf(scope.thread(), args.comm));
  CallDetail& d = scope.detail();
  d.root = NormalisedRoot(args);
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  SignificantPair(args, &d.count, &datatype);
  if (datatype != MPI_DATATYPE_NULL) {
    const DatatypeInfo& info = DatatypeOf(scope.thread(), datatype);
    d.datatype = HandleToU64(datatype);
    static_assert(sizeof d.datatype_name == sizeof info.name, "name sizes");
    for (unsigned i = 0; i < sizeof info.name; ++i) d.datatype_name[i] = info.name[i];
  }
}

void PostCollBlocking(CallScope& scope, CollArgs& args, int rc) {
  if (MonitorOn() && rc == MPI_SUCCESS) MonitorCollective(scope.thread(), scope.call(), args);
}

void PreCollNonblocking(CallScope& scope, CollArgs& args) { PreCollBlocking(scope, args); }

namespace {

// The request record of a nonblocking (flags 0) or persistent collective.
void TrackCollective(CallScope& scope, const CollArgs& args, uint32_t flags) {
  CommView comm = CommViewOf(scope.thread(), args.comm);
  OperationDescription d;
  d.call = scope.call();
  d.direction = MPIDBG_OPERATION_COLLECTIVE;
  SignificantPair(args, &d.count, &d.datatype);
  d.peer = NormalisedRoot(args);
  d.tag = MPIDBG_TAG_ANY;
  d.comm = &comm;
  TrackRequest(HandleToU64(*args.request), d, flags, scope.thread()->tid);
}

}  // namespace

void PostCollNonblocking(CallScope& scope, CollArgs& args, int rc) {
  // Counted when posted, like the blocking form.
  if (MonitorOn() && rc == MPI_SUCCESS) MonitorCollective(scope.thread(), scope.call(), args);
  if (rc != MPI_SUCCESS || args.request == nullptr || *args.request == MPI_REQUEST_NULL) return;
  TrackCollective(scope, args, 0);
}

// MPI-4 persistent collectives (MPI_Allreduce_init, ...): the record starts INACTIVE,
// MPI_Start makes it active, completion inactive again (operation_registry.h), like a
// persistent point-to-point request. Nothing moves at initialisation: not monitored.
void PreCollPersistent(CallScope& scope, CollArgs& args) { PreCollBlocking(scope, args); }

void PostCollPersistent(CallScope& scope, CollArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.request == nullptr || *args.request == MPI_REQUEST_NULL) return;
  TrackCollective(scope, args, MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE);
}

}  // namespace mpidbg::rt
