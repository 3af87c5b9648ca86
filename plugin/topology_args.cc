// topology_args.cc — see topology_args.h.
#include "plugin/topology_args.h"

namespace mpidbg::plugin {

int topology_kind(const mpidbg_comm_record& c) {
  if (c.topology != MPIDBG_TOPO_NONE) return c.topology;
  if ((c.hdr.flags & MPIDBG_COMM_CART) != 0) return MPIDBG_TOPO_CART;
  if ((c.hdr.flags & MPIDBG_COMM_GRAPH) != 0) return MPIDBG_TOPO_GRAPH;
  if ((c.hdr.flags & MPIDBG_COMM_DIST_GRAPH) != 0) return MPIDBG_TOPO_DIST_GRAPH;
  return MPIDBG_TOPO_NONE;
}

bool locate_topology(Topology* t) {
  const size_t n = t->args.size();
  const int32_t* a = t->args.data();
  // Every count is checked against what is left before it is used.
  auto take = [&](size_t* at, int64_t count, const int32_t** out) {
    if (count < 0 || static_cast<uint64_t>(count) > n - *at) return false;
    if (out != nullptr) *out = a + *at;
    *at += static_cast<size_t>(count);
    return true;
  };
  auto scalar = [&](size_t* at, int32_t* out) {
    if (*at >= n) return false;
    *out = a[(*at)++];
    return true;
  };
  size_t at = 0;
  switch (t->kind) {
    case MPIDBG_TOPO_CART:
      if (!scalar(&at, &t->ndims) || !take(&at, t->ndims, &t->dims) ||
          !take(&at, t->ndims, &t->periods) || !take(&at, t->ndims, &t->coords)) {
        return false;
      }
      break;
    case MPIDBG_TOPO_GRAPH:
      if (!scalar(&at, &t->nnodes) || !scalar(&at, &t->nedges) ||
          !take(&at, t->nnodes, &t->index) || !take(&at, t->nedges, &t->edges)) {
        return false;
      }
      break;
    case MPIDBG_TOPO_DIST_GRAPH:
      if (!scalar(&at, &t->indegree) || !scalar(&at, &t->outdegree) ||
          !scalar(&at, &t->weighted) || !take(&at, t->indegree, &t->sources) ||
          !take(&at, t->weighted != 0 ? t->indegree : 0, nullptr) ||
          !take(&at, t->outdegree, &t->destinations) ||
          !take(&at, t->weighted != 0 ? t->outdegree : 0, nullptr)) {
        return false;
      }
      break;
    default:
      return n == 0;
  }
  if (!scalar(&at, &t->reorder) || at != n) return false;
  t->have_args = true;
  return true;
}

namespace {

bool in_comm(int32_t r, int32_t size) { return r >= 0 && r < size; }

// The communicator rank of cartesian coordinates (row-major, as MPI_Cart_rank), or -1
// for a coordinate off a non-periodic edge.
int64_t cart_rank(const Topology& t, const int64_t* coords) {
  int64_t rank = 0;
  for (int32_t d = 0; d < t.ndims; ++d) {
    const int64_t extent = t.dims[d];
    int64_t c = coords[d];
    if (c < 0 || c >= extent) {
      if (t.periods[d] == 0) return -1;
      c = ((c % extent) + extent) % extent;
    }
    rank = rank * extent + c;
  }
  return rank;
}

bool cart_neighbors(const Topology& t, int32_t size, Vec<int32_t>* out) {
  // A grid larger than the communicator is a contradiction; so is a dimension of
  // nothing (the product bound also keeps rank * extent from overflowing).
  int64_t cells = 1;
  for (int32_t d = 0; d < t.ndims; ++d) {
    if (t.dims[d] <= 0 || t.coords[d] < 0 || t.coords[d] >= t.dims[d]) return false;
    cells *= t.dims[d];
    if (cells > size) return false;
  }
  Vec<int64_t> at;
  if (!at.resize(static_cast<size_t>(t.ndims))) return false;
  for (int32_t d = 0; d < t.ndims; ++d) at.data()[d] = t.coords[d];
  for (int32_t d = 0; d < t.ndims; ++d) {
    for (int step : {-1, +1}) {
      at.data()[d] = t.coords[d] + step;
      const int64_t r = cart_rank(t, at.data());
      at.data()[d] = t.coords[d];
      if (r >= 0 && !out->push_back(static_cast<int32_t>(r))) return false;
    }
  }
  return true;
}

bool copy_ranks(const int32_t* ranks, int64_t count, int32_t size, Vec<int32_t>* out) {
  for (int64_t i = 0; i < count; ++i) {
    if (!in_comm(ranks[i], size)) return false;
    if (!out->push_back(ranks[i])) return false;
  }
  return true;
}

}  // namespace

bool topology_neighbors(const Topology& t, int32_t rank, int32_t size, Vec<int32_t>* sources,
                        Vec<int32_t>* destinations) {
  sources->clear();
  destinations->clear();
  if (!t.have_args || !in_comm(rank, size)) return false;
  switch (t.kind) {
    case MPIDBG_TOPO_CART:
      if (!cart_neighbors(t, size, sources)) return false;
      return copy_ranks(sources->data(), static_cast<int64_t>(sources->size()), size, destinations);
    case MPIDBG_TOPO_GRAPH: {
      // index[i] is the running total of edges up to node i (MPI_Graph_create).
      if (rank >= t.nnodes) return false;
      const int64_t first = rank == 0 ? 0 : t.index[rank - 1];
      const int64_t last = t.index[rank];
      if (first < 0 || last < first || last > t.nedges) return false;
      if (!copy_ranks(t.edges + first, last - first, size, sources)) return false;
      return copy_ranks(t.edges + first, last - first, size, destinations);
    }
    case MPIDBG_TOPO_DIST_GRAPH:
      return copy_ranks(t.sources, t.indegree, size, sources) &&
             copy_ranks(t.destinations, t.outdegree, size, destinations);
    default:
      return false;
  }
}

}  // namespace mpidbg::plugin
