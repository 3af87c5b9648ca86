// comm_topology.h — the topology MPI attached to a communicator, read back after
// creation and encoded as records.h describes (enum mpidbg_topology, comm `topo_args`).
//
// Read from MPI rather than from the creating call's arguments, so a communicator that
// inherits a topology (MPI_Comm_dup of a cartesian communicator, MPI_Cart_sub) and
// MPI's reordering are shown as MPI has them.
#ifndef MPIDBG_RT_COMM_TOPOLOGY_H
#define MPIDBG_RT_COMM_TOPOLOGY_H

#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

// Returns the enum mpidbg_topology of `comm`; *args gets the malloc'd int32_t encoding
// ending with `reorder` (empty for MPIDBG_TOPO_NONE or when memory ran out).
int32_t ReadTopology(MPI_Comm comm, int32_t reorder, mpidbg_array* args);

// The comm record flag of a topology (MPIDBG_COMM_CART, ...), 0 for none.
uint32_t TopologyFlag(int32_t topology);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_COMM_TOPOLOGY_H
