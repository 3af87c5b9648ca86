// completed_request_setup.cc — finding the request handle Open MPI returns for an
// operation it completed inside the posting call (rt/hot/completed_request.h), once, at
// MPI_Init. Cold.
#include <dlfcn.h>

#include "rt/hot/completed_request.h"

namespace mpidbg::rt {

#if defined(OPEN_MPI)
uint64_t g_completed_request = 0;

void FindCompletedRequestHandle() {
  // Exported by libmpi (ompi/request/request.h); not in mpi.h, so looked up by name.
  void* empty = dlsym(RTLD_DEFAULT, "ompi_request_empty");
  __atomic_store_n(&g_completed_request, reinterpret_cast<uint64_t>(empty), __ATOMIC_RELAXED);
}
#endif

}  // namespace mpidbg::rt
