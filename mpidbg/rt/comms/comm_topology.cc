// comm_topology.cc — see comm_topology.h.
#include "rt/comms/comm_topology.h"

#include <stdlib.h>

#include "core/record_arrays.h"

namespace mpidbg::rt {
namespace {

static_assert(sizeof(int) == sizeof(int32_t), "MPI ints are stored as int32_t");

// A growable int32_t buffer that remembers running out of memory.
class IntBuffer {
 public:
  explicit IntBuffer(size_t capacity)
      : data_(static_cast<int32_t*>(malloc(sizeof(int32_t) * (capacity == 0 ? 1 : capacity)))),
        capacity_(capacity) {}
  ~IntBuffer() { free(data_); }
  IntBuffer(const IntBuffer&) = delete;
  IntBuffer& operator=(const IntBuffer&) = delete;

  bool ok() const { return data_ != nullptr; }
  void Push(int32_t v) {
    if (data_ != nullptr && size_ < capacity_) data_[size_++] = v;
  }
  void PushAll(const int* v, int n) {
    for (int i = 0; i < n; ++i) Push(v[i]);
  }
  mpidbg_array ToArray() const {
    return core::MakeArray(data_, size_ == capacity_ ? size_ : 0, sizeof(int32_t));
  }

 private:
  int32_t* data_;
  size_t capacity_;
  size_t size_ = 0;
};

// Scratch ints for one MPI query; at least one element so MPI never sees NULL.
struct Scratch {
  explicit Scratch(int n) : p(static_cast<int*>(malloc(sizeof(int) * (n > 0 ? n : 1)))) {}
  ~Scratch() { free(p); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  int* p;
};

mpidbg_array Cart(MPI_Comm comm, int32_t reorder) {
  int ndims = 0;
  if (PMPI_Cartdim_get(comm, &ndims) != MPI_SUCCESS || ndims < 0) return mpidbg_array{0, 0, 4};
  Scratch dims(ndims), periods(ndims), coords(ndims);
  if (dims.p == nullptr || periods.p == nullptr || coords.p == nullptr ||
      PMPI_Cart_get(comm, ndims, dims.p, periods.p, coords.p) != MPI_SUCCESS)
    return mpidbg_array{0, 0, 4};
  IntBuffer out(2 + 3 * static_cast<size_t>(ndims));
  out.Push(ndims);
  out.PushAll(dims.p, ndims);
  out.PushAll(periods.p, ndims);
  out.PushAll(coords.p, ndims);
  out.Push(reorder);
  return out.ToArray();
}

mpidbg_array Graph(MPI_Comm comm, int32_t reorder) {
  int nnodes = 0, nedges = 0;
  if (PMPI_Graphdims_get(comm, &nnodes, &nedges) != MPI_SUCCESS || nnodes < 0 || nedges < 0)
    return mpidbg_array{0, 0, 4};
  Scratch index(nnodes), edges(nedges);
  if (index.p == nullptr || edges.p == nullptr ||
      PMPI_Graph_get(comm, nnodes, nedges, index.p, edges.p) != MPI_SUCCESS)
    return mpidbg_array{0, 0, 4};
  IntBuffer out(3 + static_cast<size_t>(nnodes) + static_cast<size_t>(nedges));
  out.Push(nnodes);
  out.Push(nedges);
  out.PushAll(index.p, nnodes);
  out.PushAll(edges.p, nedges);
  out.Push(reorder);
  return out.ToArray();
}

mpidbg_array DistGraph(MPI_Comm comm, int32_t reorder) {
  int indegree = 0, outdegree = 0, weighted = 0;
  if (PMPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted) != MPI_SUCCESS ||
      indegree < 0 || outdegree < 0)
    return mpidbg_array{0, 0, 4};
  // Real weight buffers even for an unweighted graph: both MPIs then leave them alone,
  // and the runtime need not name MPI_UNWEIGHTED (a data symbol in MPICH).
  Scratch sources(indegree), sourceweights(indegree), destinations(outdegree),
      destweights(outdegree);
  if (sources.p == nullptr || sourceweights.p == nullptr || destinations.p == nullptr ||
      destweights.p == nullptr ||
      PMPI_Dist_graph_neighbors(comm, indegree, sources.p, sourceweights.p, outdegree,
                                destinations.p, destweights.p) != MPI_SUCCESS)
    return mpidbg_array{0, 0, 4};
  const size_t w = weighted != 0 ? 2 : 1;
  IntBuffer out(4 + w * static_cast<size_t>(indegree) + w * static_cast<size_t>(outdegree));
  out.Push(indegree);
  out.Push(outdegree);
  out.Push(weighted != 0 ? 1 : 0);
  out.PushAll(sources.p, indegree);
  if (weighted != 0) out.PushAll(sourceweights.p, indegree);
  out.PushAll(destinations.p, outdegree);
  if (weighted != 0) out.PushAll(destweights.p, outdegree);
  out.Push(reorder);
  return out.ToArray();
}

}  // namespace

int32_t ReadTopology(MPI_Comm comm, int32_t reorder, mpidbg_array* args) {
  *args = mpidbg_array{0, 0, sizeof(int32_t)};
  int status = MPI_UNDEFINED;
  if (comm == MPI_COMM_NULL || PMPI_Topo_test(comm, &status) != MPI_SUCCESS) {
    return MPIDBG_TOPO_NONE;
  }
  if (status == MPI_CART) {
    *args = Cart(comm, reorder);
    return MPIDBG_TOPO_CART;
  }
  if (status == MPI_GRAPH) {
    *args = Graph(comm, reorder);
    return MPIDBG_TOPO_GRAPH;
  }
  if (status == MPI_DIST_GRAPH) {
    *args = DistGraph(comm, reorder);
    return MPIDBG_TOPO_DIST_GRAPH;
  }
  return MPIDBG_TOPO_NONE;
}

uint32_t TopologyFlag(int32_t topology) {
  switch (topology) {
    case MPIDBG_TOPO_CART:
      return MPIDBG_COMM_CART;
    case MPIDBG_TOPO_GRAPH:
      return MPIDBG_COMM_GRAPH;
    case MPIDBG_TOPO_DIST_GRAPH:
      return MPIDBG_COMM_DIST_GRAPH;
    default:
      return 0;
  }
}

}  // namespace mpidbg::rt
