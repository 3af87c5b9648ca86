// type_map.cc — see type_map.h.
//
// Every constructor is reduced to one of two shapes before it is expanded or counted:
//  - blocks: `count` blocks, block i being blocklen_i consecutive copies of a type at a
//    displacement (regular stride, integer displacements in old extents, or byte
//    displacements); DUP, RESIZED, CONTIGUOUS, the vectors, the indexed kinds, STRUCT;
//  - dimensions: SUBARRAY and DARRAY, the elements of an n-dimensional array of the old
//    type that belong to the type, in array order; per dimension a regular series of
//    blocks of indices plus a shorter last block.
// Expansion emits runs through one merge point (emit_run). Replication goes through
// `repeat`, whose copies are translates of each other: when a copy adds no element, no
// copy does; when a later copy only extended the previous run, every further copy
// will, so the rest is one multiplication.
#include "handles/type_map.h"

#include <cstdlib>
#include <new>

namespace mpidbg::handles {

const DistributionValues kMpichDistributionValues = {56, 57, 121, 122, 123, -49767};
const DistributionValues kOpenMpiDistributionValues = {0, 1, 0, 1, 2, -1};

bool is_basic_type(const TypeFacts& f) {
  return f.predefined || f.combiner == MPIDBG_COMBINER_NAMED ||
         f.combiner == MPIDBG_COMBINER_F90_REAL || f.combiner == MPIDBG_COMBINER_F90_COMPLEX ||
         f.combiner == MPIDBG_COMBINER_F90_INTEGER;
}

namespace {

constexpr int kMaxDepthCap = 64;  // the stack of types being expanded
constexpr int kMaxDims = 16;      // subarray/darray dimensions handled (per depth level)
constexpr size_t kCountMemo = 64; // element counts remembered per type (direct-mapped)

bool mul64(int64_t a, int64_t b, int64_t* r) { return !__builtin_mul_overflow(a, b, r); }
bool add64(int64_t a, int64_t b, int64_t* r) { return !__builtin_add_overflow(a, b, r); }

uint64_t sat_add(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}
uint64_t sat_mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
int64_t clamp_i64(uint64_t v) { return v > uint64_t{INT64_MAX} ? INT64_MAX : static_cast<int64_t>(v); }

// Which of this MPI's values `raw` is; -1 when none. Values of the two MPIs do not
// overlap, so an unknown flavour accepts either.
enum class Order { kC, kFortran, kUnknown };
enum class Distrib { kBlock, kCyclic, kNone, kUnknown };

Order decode_order(int32_t raw, uint32_t flavour) {
  const DistributionValues* sets[2] = {&kMpichDistributionValues, &kOpenMpiDistributionValues};
  for (const DistributionValues* v : sets) {
    if (flavour == MPIDBG_FLAVOUR_MPICH && v != &kMpichDistributionValues) continue;
    if (flavour == MPIDBG_FLAVOUR_OPENMPI && v != &kOpenMpiDistributionValues) continue;
    if (raw == v->order_c) return Order::kC;
    if (raw == v->order_fortran) return Order::kFortran;
  }
  return Order::kUnknown;
}

Distrib decode_distrib(int32_t raw, uint32_t flavour, const DistributionValues** which) {
  const DistributionValues* sets[2] = {&kMpichDistributionValues, &kOpenMpiDistributionValues};
  for (const DistributionValues* v : sets) {
    if (flavour == MPIDBG_FLAVOUR_MPICH && v != &kMpichDistributionValues) continue;
    if (flavour == MPIDBG_FLAVOUR_OPENMPI && v != &kOpenMpiDistributionValues) continue;
    *which = v;
    if (raw == v->distribute_block) return Distrib::kBlock;
    if (raw == v->distribute_cyclic) return Distrib::kCyclic;
    if (raw == v->distribute_none) return Distrib::kNone;
  }
  return Distrib::kUnknown;
}

// ---- the two shapes ----

// Block i: blocklen_i copies of type_i (each its extent apart) at displacement_i.
struct Blocks {
  int64_t count = 0;
  int64_t blocklen = 0;              // when blocklens == nullptr
  const int32_t* blocklens = nullptr;
  // Displacement of block i: i * stride (regular), or int_displs[i], or addr_displs[i];
  // in extents of the block's type when `in_extents`, else bytes.
  bool regular = false;
  int64_t stride = 0;
  const int32_t* int_displs = nullptr;
  const int64_t* addr_displs = nullptr;
  bool in_extents = false;
  TypeRef type = kNoType;            // when types == nullptr
  const TypeRef* types = nullptr;
};

// One dimension: `nblocks` blocks of `len` indices, the first at index `first`, block
// starts `period` apart; then, if tail_len > 0, `tail_len` indices from `tail_first`.
// `step` is the distance in bytes between consecutive indices.
struct Dim {
  int64_t first = 0;
  int64_t len = 0;
  int64_t period = 0;
  int64_t nblocks = 0;
  int64_t tail_first = 0;
  int64_t tail_len = 0;
  int64_t step = 0;
};

// Dimensions outermost first; the innermost's step is the old type's extent.
struct Dims {
  int n = 0;
  Dim dim[kMaxDims];
  TypeRef type = kNoType;
  int64_t extent = 0;
};

enum class Shape { kBlocks, kDims, kInvalid };

class Engine {
 public:
  Engine(TypeSource& source, const TypeMapOptions& options, TypeRunSink* sink)
      : src_(source), opt_(options), sink_(sink) {
    max_depth_ = opt_.max_depth < 0 ? 0 : (opt_.max_depth > kMaxDepthCap ? kMaxDepthCap : opt_.max_depth);
    for (auto& m : memo_) m.ref = kNoType;
  }

  void expand(TypeRef top) {
    emit_type(top, 0);
    if (has_pending_ && !oom_ && !sink_->append(pending_)) oom_ = true;
    has_pending_ = false;
  }

  // -1 when the count budget ran out.
  int64_t count(TypeRef top) {
    depth_ = 0;
    bool exact = true;
    const uint64_t n = count_type(top, &exact);
    if (!exact) incomplete_ = true;
    return count_exhausted_ ? -1 : clamp_i64(n);
  }

  size_t runs() const { return runs_; }
  bool truncated() const { return truncated_; }
  bool incomplete() const { return incomplete_; }
  bool oom() const { return oom_; }

 private:
  // ---------------- reading one constructor ----------------

  // The input record i of `c`, kNoType when absent.
  static TypeRef input(const TypeContents& c, size_t i) {
    if (i >= c.num_types || c.inputs == nullptr) return kNoType;
    return c.inputs[i];
  }

  bool extent_of(TypeRef ref, int64_t* extent) {
    TypeFacts f;
    if (ref == kNoType || !src_.facts(ref, &f)) return false;
    *extent = f.extent;
    return true;
  }

  Shape shape_of(const TypeFacts& f, const TypeContents& c, Blocks* b, Dims* d) {
    const int32_t* in = c.integers;
    const size_t ni = c.integers != nullptr ? c.num_integers : 0;
    const size_t na = c.addresses != nullptr ? c.num_addresses : 0;
    auto need = [](size_t have, int64_t want) { return want >= 0 && static_cast<uint64_t>(want) <= have; };
    switch (f.combiner) {
      case MPIDBG_COMBINER_DUP:
      case MPIDBG_COMBINER_RESIZED:
        b->count = 1;
        b->blocklen = 1;
        b->regular = true;
        b->type = input(c, 0);
        return Shape::kBlocks;
      case MPIDBG_COMBINER_CONTIGUOUS:
        if (!need(ni, 1)) return Shape::kInvalid;
        b->count = 1;
        b->blocklen = in[0];
        b->regular = true;
        b->type = input(c, 0);
        return Shape::kBlocks;
      case MPIDBG_COMBINER_VECTOR:
        if (!need(ni, 3)) return Shape::kInvalid;
        b->count = in[0];
        b->blocklen = in[1];
        b->regular = true;
        b->stride = in[2];
        b->in_extents = true;
        b->type = input(c, 0);
        return Shape::kBlocks;
      case MPIDBG_COMBINER_HVECTOR:
        if (!need(ni, 2) || !need(na, 1)) return Shape::kInvalid;
        b->count = in[0];
        b->blocklen = in[1];
        b->regular = true;
        b->stride = c.addresses[0];
        b->type = input(c, 0);
        return Shape::kBlocks;
      case MPIDBG_COMBINER_INDEXED:
        if (!need(ni, 1) || in[0] < 0 || !need(ni, 1 + 2 * int64_t{in[0]})) return Shape::kInvalid;
        b->count = in[0];
        b->blocklens = in + 1;
        b->int_displs = in + 1 + in[0];
        b->in_extents = true;
        b->type = input(c, 0);
        return Shape::kBlocks;
      case MPIDBG_COMBINER_HINDEXED:
        if (!need(ni, 1) || in[0] < 0 || !need(ni, 1 + int64_t{in[0]}) || !need(na, in[0]))
          return Shape::kInvalid;
        b->count = in[0];
        b->blocklens = in + 1;
        b->addr_displs = c.addresses;
        b->type = input(c, 0);
        return Shape::kBlocks;
      case MPIDBG_COMBINER_INDEXED_BLOCK:
        if (!need(ni, 2) || in[0] < 0 || !need(ni, 2 + int64_t{in[0]})) return Shape::kInvalid;
        b->count = in[0];
        b->blocklen = in[1];
        b->int_displs = in + 2;
        b->in_extents = true;
        b->type = input(c, 0);
        return Shape::kBlocks;
      case MPIDBG_COMBINER_HINDEXED_BLOCK:
        if (!need(ni, 2) || in[0] < 0 || !need(na, in[0])) return Shape::kInvalid;
        b->count = in[0];
        b->blocklen = in[1];
        b->addr_displs = c.addresses;
        b->type = input(c, 0);
        return Shape::kBlocks;
      case MPIDBG_COMBINER_STRUCT:
        if (!need(ni, 1) || in[0] < 0 || !need(ni, 1 + int64_t{in[0]}) || !need(na, in[0]) ||
            !need(c.num_types, in[0]) || c.inputs == nullptr)
          return Shape::kInvalid;
        b->count = in[0];
        b->blocklens = in + 1;
        b->addr_displs = c.addresses;
        b->types = c.inputs;
        return Shape::kBlocks;
      case MPIDBG_COMBINER_SUBARRAY:
        return subarray_dims(c, d) ? Shape::kDims : Shape::kInvalid;
      case MPIDBG_COMBINER_DARRAY:
        return darray_dims(c, d) ? Shape::kDims : Shape::kInvalid;
      default:
        return Shape::kInvalid;  // UNKNOWN (e.g. the MPI-1 *_INTEGER combiners)
    }
  }

  // Fills each level's step (bytes per index) from the sizes, innermost = old extent.
  // `sizes` are in level order (outermost first).
  bool fill_steps(Dims* d, const int64_t* sizes) {
    int64_t step = d->extent;
    for (int l = d->n - 1; l >= 0; --l) {
      d->dim[l].step = step;
      if (l > 0 && !mul64(step, sizes[l], &step)) return false;
    }
    return true;
  }

  // ints: ndims, sizes[n], subsizes[n], starts[n], order.
  bool subarray_dims(const TypeContents& c, Dims* d) {
    const int32_t* in = c.integers;
    if (in == nullptr || c.num_integers < 1) return false;
    const int64_t n = in[0];
    if (n < 1 || n > kMaxDims || c.num_integers < static_cast<size_t>(2 + 3 * n)) return false;
    const Order order = decode_order(in[1 + 3 * n], opt_.flavour);
    if (order == Order::kUnknown) return false;
    d->n = static_cast<int>(n);
    d->type = input(c, 0);
    if (!extent_of(d->type, &d->extent)) return false;
    int64_t sizes[kMaxDims];
    for (int l = 0; l < d->n; ++l) {
      const int64_t k = order == Order::kC ? l : n - 1 - l;
      const int64_t size = in[1 + k], sub = in[1 + n + k], start = in[1 + 2 * n + k];
      if (size < 1 || sub < 0 || start < 0 || start + sub > size) return false;
      sizes[l] = size;
      Dim& dm = d->dim[l];
      dm.first = start;
      dm.len = sub;
      dm.nblocks = 1;
    }
    return fill_steps(d, sizes);
  }

  // ints: size, rank, ndims, gsizes[n], distribs[n], dargs[n], psizes[n], order. The
  // process grid is row-major whatever the array order (MPI standard).
  bool darray_dims(const TypeContents& c, Dims* d) {
    const int32_t* in = c.integers;
    if (in == nullptr || c.num_integers < 3) return false;
    const int64_t nprocs = in[0], rank = in[1], n = in[2];
    if (n < 1 || n > kMaxDims || c.num_integers < static_cast<size_t>(4 + 4 * n)) return false;
    if (rank < 0 || rank >= nprocs) return false;
    const int32_t* gsizes = in + 3;
    const int32_t* distribs = in + 3 + n;
    const int32_t* dargs = in + 3 + 2 * n;
    const int32_t* psizes = in + 3 + 3 * n;
    const Order order = decode_order(in[3 + 4 * n], opt_.flavour);
    if (order == Order::kUnknown) return false;
    int64_t coords[kMaxDims];
    int64_t r = rank, grid = 1;
    for (int64_t i = n - 1; i >= 0; --i) {
      if (psizes[i] < 1 || !mul64(grid, psizes[i], &grid)) return false;
      coords[i] = r % psizes[i];
      r /= psizes[i];
    }
    if (grid != nprocs) return false;
    d->n = static_cast<int>(n);
    d->type = input(c, 0);
    if (!extent_of(d->type, &d->extent)) return false;
    int64_t sizes[kMaxDims];
    for (int l = 0; l < d->n; ++l) {
      const int64_t k = order == Order::kC ? l : n - 1 - l;
      const int64_t g = gsizes[k], p = psizes[k], coord = coords[k];
      if (g < 0) return false;
      sizes[l] = g;
      const DistributionValues* values = nullptr;
      const Distrib dist = decode_distrib(distribs[k], opt_.flavour, &values);
      if (dist == Distrib::kUnknown) return false;
      const bool dflt = dargs[k] == values->distribute_dflt_darg;
      Dim& dm = d->dim[l];
      if (dist == Distrib::kNone) {
        dm.first = 0;
        dm.len = g;
        dm.nblocks = 1;
      } else if (dist == Distrib::kBlock) {
        int64_t b = dargs[k];
        if (dflt) b = g > 0 ? (g + p - 1) / p : 1;  // MPI_DISTRIBUTE_DFLT_DARG: ceil(g/p)
        if (b < 1) return false;
        int64_t start;
        if (!mul64(coord, b, &start)) return false;
        const int64_t len = start >= g ? 0 : (g - start < b ? g - start : b);
        dm.first = start;
        dm.len = len;
        dm.nblocks = len > 0 ? 1 : 0;
      } else {  // cyclic
        const int64_t b = dflt ? 1 : dargs[k];
        if (b < 1) return false;
        int64_t first, period;
        if (!mul64(coord, b, &first) || !mul64(p, b, &period)) return false;
        dm.first = first;
        dm.len = b;
        dm.period = period;
        if (first < g) {
          const int64_t blocks = (g - first + period - 1) / period;  // starts below g
          const int64_t last = first + (blocks - 1) * period;
          if (g - last >= b) {
            dm.nblocks = blocks;
          } else {
            dm.nblocks = blocks - 1;
            dm.tail_first = last;
            dm.tail_len = g - last;
          }
        }
      }
    }
    return fill_steps(d, sizes);
  }

  // ---------------- expansion ----------------

  bool tick() {
    if (++work_ <= opt_.work_budget) return true;
    truncated_ = true;
    stop_ = true;
    return false;
  }

  void note_elements(uint64_t n) { emitted_ = sat_add(emitted_, n); }

  // The one place runs enter the map: merged into the previous run when it continues
  // it, else a new run (or the end of the map at max_entries).
  void emit_run(TypeRef basic, uint64_t handle, int64_t elem_size, int64_t disp, int64_t count) {
    if (stop_ || count <= 0 || !tick()) return;
    if (has_pending_ && pending_.basic_handle == handle && pending_.elem_size == elem_size) {
      int64_t bytes, end;
      if (mul64(pending_.count, elem_size, &bytes) && add64(pending_.displacement, bytes, &end) &&
          end == disp) {
        pending_.count = clamp_i64(sat_add(static_cast<uint64_t>(pending_.count),
                                           static_cast<uint64_t>(count)));
        note_elements(static_cast<uint64_t>(count));
        return;
      }
    }
    if (runs_ >= opt_.max_entries) {
      truncated_ = true;
      stop_ = true;
      return;
    }
    if (has_pending_ && !sink_->append(pending_)) {
      oom_ = true;
      stop_ = true;
      return;
    }
    pending_ = TypeRun{basic, handle, disp, count, elem_size};
    has_pending_ = true;
    ++runs_;
    note_elements(static_cast<uint64_t>(count));
  }

  // `n` copies of what `unit(disp)` emits, the i-th at disp + i*step. The copies are
  // translates, so an empty copy means all are empty, and a copy after the first that
  // only extended the previous run means every later one does the same.
  template <typename Unit>
  void repeat(int64_t n, int64_t step, int64_t disp, Unit&& unit) {
    if (n < 0) {
      incomplete_ = true;
      return;
    }
    for (int64_t i = 0; i < n && !stop_; ++i) {
      if (!tick()) return;
      int64_t off, d;
      if (!mul64(i, step, &off) || !add64(disp, off, &d)) {
        incomplete_ = true;
        return;
      }
      const size_t runs_before = runs_;
      const uint64_t before = emitted_;
      unit(d);
      if (stop_) return;
      const uint64_t added = emitted_ - before;
      if (added == 0) return;
      if (i >= 1 && runs_ == runs_before && has_pending_) {
        const uint64_t more = sat_mul(static_cast<uint64_t>(n - i - 1), added);
        pending_.count = clamp_i64(sat_add(static_cast<uint64_t>(pending_.count), more));
        note_elements(more);
        return;
      }
    }
  }

  // `n` consecutive copies of `ref`, the first at `disp`.
  void replicate(TypeRef ref, int64_t disp, int64_t n) {
    if (n == 0 || stop_) return;
    int64_t extent;
    if (!extent_of(ref, &extent)) {
      incomplete_ = true;
      return;
    }
    repeat(n, extent, disp, [&](int64_t d) { emit_type(ref, d); });
  }

  // Whether `ref` may be expanded at this depth: no deeper than allowed, not already
  // on the stack (a cycle). Marks the map incomplete when not.
  bool enter(TypeRef ref) {
    if (depth_ >= max_depth_) {
      incomplete_ = true;
      return false;
    }
    for (int i = 0; i < depth_; ++i) {
      if (stack_[i] == ref) {
        incomplete_ = true;
        return false;
      }
    }
    stack_[depth_++] = ref;
    return true;
  }

  void emit_type(TypeRef ref, int64_t disp) {
    if (stop_) return;
    TypeFacts f;
    if (ref == kNoType || !src_.facts(ref, &f)) {
      incomplete_ = true;
      return;
    }
    if (is_basic_type(f)) {
      if (f.size < 0) {
        incomplete_ = true;
        return;
      }
      emit_run(ref, f.handle, f.size, disp, 1);
      return;
    }
    if (!enter(ref)) return;
    TypeContents c;
    if (!src_.contents(ref, &c)) {
      incomplete_ = true;
    } else {
      Blocks b;
      Dims* d = &dims_[depth_ - 1];
      switch (shape_of(f, c, &b, d)) {
        case Shape::kBlocks: emit_blocks(b, disp); break;
        case Shape::kDims: emit_dims(*d, 0, disp); break;
        case Shape::kInvalid: incomplete_ = true; break;
      }
    }
    --depth_;
  }

  int64_t blocklen_at(const Blocks& b, int64_t i) const {
    return b.blocklens != nullptr ? b.blocklens[i] : b.blocklen;
  }

  void emit_blocks(const Blocks& b, int64_t disp) {
    if (b.count < 0) {
      incomplete_ = true;
      return;
    }
    if (b.regular) {
      int64_t step = b.stride, extent = 0;
      if (b.in_extents) {
        if (!extent_of(b.type, &extent)) {
          incomplete_ = true;
          return;
        }
        if (!mul64(b.stride, extent, &step)) {
          incomplete_ = true;
          return;
        }
      }
      if (b.blocklen < 0) {
        incomplete_ = true;
        return;
      }
      repeat(b.count, step, disp, [&](int64_t d) { replicate(b.type, d, b.blocklen); });
      return;
    }
    for (int64_t i = 0; i < b.count && !stop_; ++i) {
      if (!tick()) return;
      const TypeRef type = b.types != nullptr ? b.types[i] : b.type;
      const int64_t len = blocklen_at(b, i);
      if (len < 0) {
        incomplete_ = true;
        continue;
      }
      int64_t off = b.addr_displs != nullptr ? b.addr_displs[i] : b.int_displs[i];
      if (b.in_extents) {
        int64_t extent;
        if (!extent_of(type, &extent) || !mul64(off, extent, &off)) {
          incomplete_ = true;
          continue;
        }
      }
      int64_t d;
      if (!add64(disp, off, &d)) {
        incomplete_ = true;
        continue;
      }
      replicate(type, d, len);
    }
  }

  // The elements of level `l` and below, the array's origin at `disp`.
  void emit_dims(const Dims& d, int l, int64_t disp) {
    const Dim& dm = d.dim[l];
    int64_t at, period;
    if (dm.nblocks > 0) {
      if (!mul64(dm.first, dm.step, &at) || !add64(disp, at, &at) ||
          !mul64(dm.period, dm.step, &period)) {
        incomplete_ = true;
        return;
      }
      repeat(dm.nblocks, period, at, [&](int64_t x) { emit_dim_block(d, l, x, dm.len); });
    }
    if (dm.tail_len > 0 && !stop_) {
      if (!mul64(dm.tail_first, dm.step, &at) || !add64(disp, at, &at)) {
        incomplete_ = true;
        return;
      }
      emit_dim_block(d, l, at, dm.tail_len);
    }
  }

  // `len` consecutive indices of level `l`, the first at `disp`.
  void emit_dim_block(const Dims& d, int l, int64_t disp, int64_t len) {
    if (l == d.n - 1) {
      replicate(d.type, disp, len);
      return;
    }
    repeat(len, d.dim[l].step, disp, [&](int64_t x) { emit_dims(d, l + 1, x); });
  }

  // ---------------- element count ----------------

  bool count_tick() {
    if (++count_work_ <= opt_.count_budget) return true;
    count_exhausted_ = true;
    return false;
  }

  // Elements of `ref`; *exact turns false when a part could not be counted (missing,
  // malformed, cyclic or too deep), the count then being that of the known parts.
  uint64_t count_type(TypeRef ref, bool* exact) {
    if (count_exhausted_ || !count_tick()) return 0;
    TypeFacts f;
    if (ref == kNoType || !src_.facts(ref, &f)) {
      *exact = false;
      return 0;
    }
    if (is_basic_type(f)) return 1;
    Memo& m = memo_[static_cast<uint64_t>(ref) % kCountMemo];
    if (m.ref == ref) return m.elements;
    if (!enter(ref)) {
      *exact = false;
      return 0;
    }
    uint64_t n = 0;
    bool mine = true;
    TypeContents c;
    if (!src_.contents(ref, &c)) {
      mine = false;
    } else {
      Blocks b;
      Dims* d = &dims_[depth_ - 1];
      switch (shape_of(f, c, &b, d)) {
        case Shape::kBlocks: n = count_blocks(b, &mine); break;
        case Shape::kDims: n = sat_mul(count_dims(*d), count_type(d->type, &mine)); break;
        case Shape::kInvalid: mine = false; break;
      }
    }
    --depth_;
    // Remembered only when it depends on the type alone (nothing cut below it).
    if (mine && !count_exhausted_) {
      m.ref = ref;
      m.elements = n;
    }
    if (!mine) *exact = false;
    return n;
  }

  uint64_t count_blocks(const Blocks& b, bool* exact) {
    if (b.count < 0) {
      *exact = false;
      return 0;
    }
    if (b.types == nullptr && b.blocklens == nullptr) {
      if (b.blocklen < 0) {
        *exact = false;
        return 0;
      }
      const uint64_t per = count_type(b.type, exact);
      return sat_mul(sat_mul(static_cast<uint64_t>(b.count), static_cast<uint64_t>(b.blocklen)), per);
    }
    uint64_t total = 0, same_type_len = 0;
    for (int64_t i = 0; i < b.count; ++i) {
      if (!count_tick()) return 0;
      const int64_t len = blocklen_at(b, i);
      if (len < 0) {
        *exact = false;
        continue;
      }
      if (b.types == nullptr) {
        same_type_len = sat_add(same_type_len, static_cast<uint64_t>(len));
      } else {
        total = sat_add(total, sat_mul(static_cast<uint64_t>(len), count_type(b.types[i], exact)));
      }
    }
    if (b.types == nullptr) total = sat_mul(same_type_len, count_type(b.type, exact));
    return total;
  }

  // Indices of the array the dimensions select (without the old type's elements).
  static uint64_t count_dims(const Dims& d) {
    uint64_t n = 1;
    for (int l = 0; l < d.n; ++l) {
      const Dim& dm = d.dim[l];
      const uint64_t here =
          sat_add(sat_mul(static_cast<uint64_t>(dm.nblocks), static_cast<uint64_t>(dm.len)),
                  static_cast<uint64_t>(dm.tail_len));
      n = sat_mul(n, here);
    }
    return n;
  }

  struct Memo {
    TypeRef ref;
    uint64_t elements;
  };

  TypeSource& src_;
  const TypeMapOptions& opt_;
  TypeRunSink* sink_;
  int max_depth_ = kMaxDepthCap;

  TypeRun pending_;
  bool has_pending_ = false;
  size_t runs_ = 0;
  uint64_t emitted_ = 0;
  uint64_t work_ = 0;
  bool stop_ = false;
  bool truncated_ = false;
  bool incomplete_ = false;
  bool oom_ = false;

  TypeRef stack_[kMaxDepthCap];
  Dims dims_[kMaxDepthCap];  // the shape being walked at each depth
  int depth_ = 0;

  uint64_t count_work_ = 0;
  bool count_exhausted_ = false;
  Memo memo_[kCountMemo];
};

}  // namespace

bool build_type_map(TypeSource& source, TypeRef top, const TypeMapOptions& options,
                    TypeRunSink& sink, TypeMapResult* out) {
  *out = TypeMapResult{};
  void* memory = options.allocate != nullptr ? options.allocate(sizeof(Engine))
                                             : std::malloc(sizeof(Engine));
  if (memory == nullptr) {
    out->out_of_memory = true;
    return false;
  }
  Engine* engine = new (memory) Engine(source, options, &sink);
  engine->expand(top);
  out->elements = engine->count(top);
  out->runs = engine->oom() ? 0 : engine->runs();
  out->truncated = engine->truncated();
  out->incomplete = engine->incomplete();
  out->out_of_memory = engine->oom();
  engine->~Engine();
  if (options.allocate != nullptr) {
    if (options.release != nullptr) options.release(memory);
  } else {
    std::free(memory);
  }
  return !out->out_of_memory;
}

}  // namespace mpidbg::handles
