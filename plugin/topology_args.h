// topology_args.h — a communicator's recorded topology (records.h, enum mpidbg_topology):
// its integers located, and this process's neighbours as MPI's neighbourhood collectives
// use them. Shared by the handle interface (which shows the topology) and the
// message-queue extensions (which give hosts the neighbours a neighbourhood collective
// waits for). Pure: the integers are untrusted, every count is checked before use.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "mpidbg/records.h"
#include "plugin/debugger_memory.h"

namespace mpidbg::plugin {

struct Topology {
  int kind = MPIDBG_TOPO_NONE;
  Vec<int32_t> args;
  bool have_args = false;
  int32_t ndims = 0;  // CART
  const int32_t* dims = nullptr;
  const int32_t* periods = nullptr;
  const int32_t* coords = nullptr;
  int32_t nnodes = 0;  // GRAPH
  int32_t nedges = 0;
  const int32_t* index = nullptr;
  const int32_t* edges = nullptr;
  int32_t indegree = 0;  // DIST_GRAPH
  int32_t outdegree = 0;
  int32_t weighted = 0;
  const int32_t* sources = nullptr;
  const int32_t* destinations = nullptr;
  int32_t reorder = 0;
};

// The topology kind of a record; older runtimes only set the flag bits.
int topology_kind(const mpidbg_comm_record& c);

// Locates the parts of t->args for t->kind; false when the counts do not add up to the
// array. Sets have_args on success.
bool locate_topology(Topology* t);

// This process's neighbours in communicator ranks, in MPI's order for neighbourhood
// collectives (MPI 4.0 §8.6): CART, per dimension the rank at -1 then at +1 (MPI_PROC_NULL
// off a non-periodic edge is left out); GRAPH, the process's edges (both lists alike);
// DIST_GRAPH, the sources and destinations as given. `rank` and `size` are the process's
// rank in the communicator and its size. False when the arguments contradict themselves
// (rank outside the graph, a neighbour outside the communicator) or memory ran out.
bool topology_neighbors(const Topology& t, int32_t rank, int32_t size, Vec<int32_t>* sources,
                        Vec<int32_t>* destinations);

}  // namespace mpidbg::plugin
