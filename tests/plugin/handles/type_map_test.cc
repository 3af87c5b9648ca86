// type_map_test.cc — the type-map engine (handles/type_map.*) over datatype records
// held in memory: every combiner, merging, the bounds (entries, depth, cycles, work)
// and records that are missing or malformed.
//
// The plugin is a dlopen'ed library that exports only the debugger interface, so the
// engine, which depends on nothing but the record contract, is linked into this test
// from its own library (tests/plugin/CMakeLists.txt).
#include "handles/type_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace mpidbg::handles {
namespace {

// ---------------- records in memory ----------------

class MemTypes : public TypeSource {
 public:
  struct Rec {
    TypeFacts facts;
    std::vector<int32_t> ints;
    std::vector<int64_t> addrs;
    std::vector<uint64_t> types;
    std::vector<TypeRef> inputs;
    bool readable = true;
  };

  bool facts(TypeRef ref, TypeFacts* out) override {
    ++calls;
    if (ref < 0 || static_cast<size_t>(ref) >= recs.size()) return false;
    *out = recs[static_cast<size_t>(ref)].facts;
    return true;
  }
  bool contents(TypeRef ref, TypeContents* out) override {
    ++calls;
    if (ref < 0 || static_cast<size_t>(ref) >= recs.size()) return false;
    const Rec& r = recs[static_cast<size_t>(ref)];
    if (!r.readable) return false;
    *out = TypeContents{};
    out->integers = r.ints.data();
    out->num_integers = r.ints.size();
    out->addresses = r.addrs.data();
    out->num_addresses = r.addrs.size();
    out->types = r.types.data();
    out->inputs = r.inputs.data();
    out->num_types = r.inputs.size();
    return true;
  }

  TypeRef basic(int64_t size) {
    Rec r;
    r.facts.handle = 0x1000 + recs.size();
    r.facts.combiner = MPIDBG_COMBINER_NAMED;
    r.facts.predefined = true;
    r.facts.size = r.facts.extent = r.facts.true_extent = size;
    return add(r);
  }
  TypeRef derived(int32_t combiner, std::vector<int32_t> ints, std::vector<int64_t> addrs,
                  std::vector<TypeRef> inputs, int64_t lb, int64_t extent) {
    Rec r;
    r.facts.handle = 0x1000 + recs.size();
    r.facts.combiner = combiner;
    r.facts.lb = lb;
    r.facts.extent = extent;
    r.ints = std::move(ints);
    r.addrs = std::move(addrs);
    r.inputs = std::move(inputs);
    for (TypeRef in : r.inputs) r.types.push_back(valid(in) ? ext(in).handle : 0);
    return add(r);
  }

  // Constructors with the extents MPI gives them (non-negative strides and displacements).
  TypeRef dup(TypeRef t) { return derived(MPIDBG_COMBINER_DUP, {}, {}, {t}, lb(t), extent(t)); }
  TypeRef contiguous(int32_t n, TypeRef t) {
    return derived(MPIDBG_COMBINER_CONTIGUOUS, {n}, {}, {t}, lb(t), n * extent(t));
  }
  TypeRef vector(int32_t count, int32_t bl, int32_t stride, TypeRef t) {
    return derived(MPIDBG_COMBINER_VECTOR, {count, bl, stride}, {}, {t}, lb(t),
                   (int64_t{count - 1} * stride + bl) * extent(t));
  }
  TypeRef hvector(int32_t count, int32_t bl, int64_t stride, TypeRef t) {
    return derived(MPIDBG_COMBINER_HVECTOR, {count, bl}, {stride}, {t}, lb(t),
                   int64_t{count - 1} * stride + bl * extent(t));
  }
  TypeRef indexed(std::vector<int32_t> bls, std::vector<int32_t> displs, TypeRef t) {
    std::vector<int32_t> ints{static_cast<int32_t>(bls.size())};
    ints.insert(ints.end(), bls.begin(), bls.end());
    ints.insert(ints.end(), displs.begin(), displs.end());
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < bls.size(); ++i) {
      lo = std::min(lo, displs[i] * extent(t));
      hi = std::max(hi, (displs[i] + bls[i]) * extent(t));
    }
    return derived(MPIDBG_COMBINER_INDEXED, ints, {}, {t}, lo, hi - lo);
  }
  TypeRef hindexed(std::vector<int32_t> bls, std::vector<int64_t> displs, TypeRef t) {
    std::vector<int32_t> ints{static_cast<int32_t>(bls.size())};
    ints.insert(ints.end(), bls.begin(), bls.end());
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < bls.size(); ++i) {
      lo = std::min(lo, displs[i]);
      hi = std::max(hi, displs[i] + bls[i] * extent(t));
    }
    return derived(MPIDBG_COMBINER_HINDEXED, ints, displs, {t}, lo, hi - lo);
  }
  TypeRef indexed_block(int32_t bl, std::vector<int32_t> displs, TypeRef t) {
    std::vector<int32_t> ints{static_cast<int32_t>(displs.size()), bl};
    ints.insert(ints.end(), displs.begin(), displs.end());
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int32_t d : displs) {
      lo = std::min(lo, d * extent(t));
      hi = std::max(hi, (d + bl) * extent(t));
    }
    return derived(MPIDBG_COMBINER_INDEXED_BLOCK, ints, {}, {t}, lo, hi - lo);
  }
  TypeRef hindexed_block(int32_t bl, std::vector<int64_t> displs, TypeRef t) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t d : displs) {
      lo = std::min(lo, d);
      hi = std::max(hi, d + bl * extent(t));
    }
    return derived(MPIDBG_COMBINER_HINDEXED_BLOCK, {static_cast<int32_t>(displs.size()), bl},
                   displs, {t}, lo, hi - lo);
  }
  TypeRef structure(std::vector<int32_t> bls, std::vector<int64_t> displs, std::vector<TypeRef> ts) {
    std::vector<int32_t> ints{static_cast<int32_t>(bls.size())};
    ints.insert(ints.end(), bls.begin(), bls.end());
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < bls.size(); ++i) {
      lo = std::min(lo, displs[i]);
      hi = std::max(hi, displs[i] + bls[i] * extent(ts[i]));
    }
    return derived(MPIDBG_COMBINER_STRUCT, ints, displs, ts, lo, hi - lo);
  }
  TypeRef resized(TypeRef t, int64_t lb, int64_t extent) {
    return derived(MPIDBG_COMBINER_RESIZED, {}, {lb, extent}, {t}, lb, extent);
  }
  TypeRef subarray(std::vector<int32_t> sizes, std::vector<int32_t> subs, std::vector<int32_t> starts,
                   int32_t order, TypeRef t) {
    std::vector<int32_t> ints{static_cast<int32_t>(sizes.size())};
    int64_t total = 1;
    for (int32_t s : sizes) total *= s;
    ints.insert(ints.end(), sizes.begin(), sizes.end());
    ints.insert(ints.end(), subs.begin(), subs.end());
    ints.insert(ints.end(), starts.begin(), starts.end());
    ints.push_back(order);
    return derived(MPIDBG_COMBINER_SUBARRAY, ints, {}, {t}, 0, total * extent(t));
  }
  TypeRef darray(int32_t size, int32_t rank, std::vector<int32_t> gsizes, std::vector<int32_t> distribs,
                 std::vector<int32_t> dargs, std::vector<int32_t> psizes, int32_t order, TypeRef t) {
    std::vector<int32_t> ints{size, rank, static_cast<int32_t>(gsizes.size())};
    int64_t total = 1;
    for (int32_t g : gsizes) total *= g;
    for (auto* v : {&gsizes, &distribs, &dargs, &psizes}) ints.insert(ints.end(), v->begin(), v->end());
    ints.push_back(order);
    return derived(MPIDBG_COMBINER_DARRAY, ints, {}, {t}, 0, total * extent(t));
  }

  bool valid(TypeRef t) const { return t >= 0 && static_cast<size_t>(t) < recs.size(); }
  const TypeFacts& ext(TypeRef t) const { return recs[static_cast<size_t>(t)].facts; }
  int64_t extent(TypeRef t) const { return valid(t) ? ext(t).extent : 0; }
  int64_t lb(TypeRef t) const { return valid(t) ? ext(t).lb : 0; }
  Rec& rec(TypeRef t) { return recs[static_cast<size_t>(t)]; }

  std::vector<Rec> recs;
  uint64_t calls = 0;

 private:
  TypeRef add(const Rec& r) {
    recs.push_back(r);
    return static_cast<TypeRef>(recs.size() - 1);
  }
};

class VecSink : public TypeRunSink {
 public:
  bool append(const TypeRun& run) override {
    if (fail_after >= 0 && static_cast<int>(runs.size()) >= fail_after) return false;
    runs.push_back(run);
    return true;
  }
  std::vector<TypeRun> runs;
  int fail_after = -1;
};

struct MapRun {
  TypeRef basic;
  int64_t disp;
  int64_t count;
  bool operator==(const MapRun& o) const { return basic == o.basic && disp == o.disp && count == o.count; }
};
void PrintTo(const MapRun& r, std::ostream* os) {
  *os << "{type " << r.basic << " @" << r.disp << " x" << r.count << "}";
}

struct Built {
  std::vector<MapRun> runs;
  TypeMapResult result;
  bool ok = false;
};

Built build(MemTypes& m, TypeRef top, size_t max_entries = 4096,
            uint32_t flavour = MPIDBG_FLAVOUR_UNKNOWN) {
  VecSink sink;
  TypeMapOptions opt;
  opt.max_entries = max_entries;
  opt.flavour = flavour;
  Built b;
  b.ok = build_type_map(m, top, opt, sink, &b.result);
  for (const TypeRun& r : sink.runs) {
    EXPECT_EQ(r.elem_size, m.ext(r.basic).size);
    EXPECT_EQ(r.basic_handle, m.ext(r.basic).handle);
    b.runs.push_back(MapRun{r.basic, r.displacement, r.count});
  }
  EXPECT_EQ(b.result.runs, b.runs.size());
  return b;
}

// ---------------- a plain reference: every element, then merged ----------------

struct Elem {
  TypeRef basic;
  int64_t disp;
};

void flatten(const MemTypes& m, TypeRef t, int64_t base, std::vector<Elem>* out) {
  const MemTypes::Rec& r = m.recs[static_cast<size_t>(t)];
  const auto& in = r.ints;
  const auto& ad = r.addrs;
  auto old = [&](size_t i) { return r.inputs[i]; };
  auto ext = [&](TypeRef x) { return m.extent(x); };
  switch (r.facts.combiner) {
    case MPIDBG_COMBINER_NAMED: out->push_back({t, base}); return;
    case MPIDBG_COMBINER_DUP:
    case MPIDBG_COMBINER_RESIZED: flatten(m, old(0), base, out); return;
    case MPIDBG_COMBINER_CONTIGUOUS:
      for (int i = 0; i < in[0]; ++i) flatten(m, old(0), base + i * ext(old(0)), out);
      return;
    case MPIDBG_COMBINER_VECTOR:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1]; ++j) flatten(m, old(0), base + (int64_t{i} * in[2] + j) * ext(old(0)), out);
      return;
    case MPIDBG_COMBINER_HVECTOR:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1]; ++j) flatten(m, old(0), base + i * ad[0] + j * ext(old(0)), out);
      return;
    case MPIDBG_COMBINER_INDEXED:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1 + i]; ++j)
          flatten(m, old(0), base + (int64_t{in[1 + in[0] + i]} + j) * ext(old(0)), out);
      return;
    case MPIDBG_COMBINER_HINDEXED:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1 + i]; ++j) flatten(m, old(0), base + ad[i] + j * ext(old(0)), out);
      return;
    case MPIDBG_COMBINER_STRUCT:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1 + i]; ++j) flatten(m, old(i), base + ad[i] + j * ext(old(i)), out);
      return;
    default: FAIL() << "reference: combiner " << r.facts.combiner;
  }
}

std::vector<MapRun> reference(const MemTypes& m, TypeRef t) {
  std::vector<Elem> elems;
  flatten(m, t, 0, &elems);
  std::vector<MapRun> runs;
  for (const Elem& e : elems) {
    const int64_t size = m.ext(e.basic).size;
    if (!runs.empty() && m.ext(runs.back().basic).handle == m.ext(e.basic).handle &&
        runs.back().disp + runs.back().count * size == e.disp) {
      ++runs.back().count;
    } else {
      runs.push_back({e.basic, e.disp, 1});
    }
  }
  return runs;
}

// ---------------- combiners ----------------

TEST(TypeMap, BasicTypeIsOneRun) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, i);
  EXPECT_TRUE(b.ok);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 1}}));
  EXPECT_EQ(b.result.elements, 1);
  EXPECT_FALSE(b.result.truncated || b.result.incomplete);
}

TEST(TypeMap, F90TypesAreBasic) {
  MemTypes m;
  const TypeRef r = m.derived(MPIDBG_COMBINER_F90_REAL, {15, 300}, {}, {}, 0, 8);
  m.rec(r).facts.size = 8;
  const TypeRef c = m.contiguous(3, r);
  Built b = build(m, c);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{r, 0, 3}}));
  EXPECT_EQ(b.result.elements, 3);
}

TEST(TypeMap, ContiguousMergesIntoOneRun) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.contiguous(5, i));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 5}}));
  EXPECT_EQ(b.result.elements, 5);
}

TEST(TypeMap, NestedContiguousMergesAcrossLevels) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.contiguous(4, m.contiguous(3, i)));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 12}}));
}

TEST(TypeMap, DupIsTheSameMap) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  const TypeRef v = m.vector(2, 1, 3, i);
  EXPECT_EQ(build(m, m.dup(v)).runs, build(m, v).runs);
}

TEST(TypeMap, VectorStridesInOldExtents) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.vector(3, 2, 4, i));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 2}, {i, 16, 2}, {i, 32, 2}}));
  EXPECT_EQ(b.result.elements, 6);
}

TEST(TypeMap, VectorWithStrideEqualBlocklenIsContiguous) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.vector(3, 2, 2, i));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 6}}));
}

TEST(TypeMap, NegativeVectorStride) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  const TypeRef v = m.derived(MPIDBG_COMBINER_VECTOR, {3, 1, -2}, {}, {i}, -16, 20);
  Built b = build(m, v);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 1}, {i, -8, 1}, {i, -16, 1}}));
}

TEST(TypeMap, HvectorStridesInBytes) {
  MemTypes m;
  const TypeRef d = m.basic(8);
  Built b = build(m, m.hvector(2, 1, 10, d));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{d, 0, 1}, {d, 10, 1}}));
}

TEST(TypeMap, Indexed) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.indexed({2, 1, 3}, {0, 5, 2}, i));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 2}, {i, 20, 1}, {i, 8, 3}}));
  EXPECT_EQ(b.result.elements, 6);
}

TEST(TypeMap, IndexedZeroLengthBlocksAddNothing) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.indexed({1, 0, 1}, {0, 7, 1}, i));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 2}}));
}

TEST(TypeMap, Hindexed) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.hindexed({1, 2}, {8, 100}, i));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 8, 1}, {i, 100, 2}}));
}

TEST(TypeMap, IndexedBlock) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.indexed_block(2, {3, 0}, i));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 12, 2}, {i, 0, 2}}));
}

TEST(TypeMap, HindexedBlockTouchingBlocksMerge) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.hindexed_block(2, {0, 8, 24}, i));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 4}, {i, 24, 2}}));
}

TEST(TypeMap, StructOfBasicTypes) {
  MemTypes m;
  const TypeRef i = m.basic(4), d = m.basic(8), c = m.basic(1);
  Built b = build(m, m.structure({1, 2, 1}, {0, 8, 24}, {i, d, c}));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 1}, {d, 8, 2}, {c, 24, 1}}));
  EXPECT_EQ(b.result.elements, 4);
}

TEST(TypeMap, DifferentBasicTypesNeverMerge) {
  MemTypes m;
  const TypeRef i = m.basic(4), f = m.basic(4);
  Built b = build(m, m.structure({1, 1}, {0, 4}, {i, f}));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 1}, {f, 4, 1}}));
}

TEST(TypeMap, NestedStructOfVector) {
  MemTypes m;
  const TypeRef i = m.basic(4), c = m.basic(1);
  const TypeRef v = m.vector(2, 1, 2, i);  // ints at 0 and 8, extent 12
  ASSERT_EQ(m.extent(v), 12);
  const TypeRef s = m.structure({2, 1}, {0, 30}, {v, c});
  Built b = build(m, s);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 1}, {i, 8, 2}, {i, 20, 1}, {c, 30, 1}}));
  EXPECT_EQ(b.runs, reference(m, s));
  EXPECT_EQ(b.result.elements, 5);
}

TEST(TypeMap, ResizedExtentDrivesReplication) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  const TypeRef padded = m.resized(m.contiguous(2, i), 0, 12);
  Built b = build(m, m.contiguous(3, padded));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 2}, {i, 12, 2}, {i, 24, 2}}));
  // The resized type alone has the same map as its input.
  EXPECT_EQ(build(m, padded).runs, (std::vector<MapRun>{{i, 0, 2}}));
  // Shrunk to the data: copies touch and merge.
  const TypeRef tight = m.resized(m.structure({1}, {0}, {i}), 0, 4);
  EXPECT_EQ(build(m, m.contiguous(3, tight)).runs, (std::vector<MapRun>{{i, 0, 3}}));
}

TEST(TypeMap, PairTypeWithPaddingDoesNotMerge) {
  MemTypes m;
  const TypeRef di = m.basic(12);  // like MPI_DOUBLE_INT: size 12, extent 16
  m.rec(di).facts.extent = 16;
  Built b = build(m, m.contiguous(2, di));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{di, 0, 1}, {di, 16, 1}}));
}

// ---------------- subarray and darray ----------------

TEST(TypeMap, SubarrayCOrder) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  // 4x5 ints, rows 1..2, columns 1..3.
  Built b = build(m, m.subarray({4, 5}, {2, 3}, {1, 1}, 56, i), 4096, MPIDBG_FLAVOUR_MPICH);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 24, 3}, {i, 44, 3}}));
  EXPECT_EQ(b.result.elements, 6);
  EXPECT_FALSE(b.result.incomplete);
}

TEST(TypeMap, SubarrayFortranOrder) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  // 4x5 ints, dimension 0 fastest: indices (1..2, 1..3).
  Built b = build(m, m.subarray({4, 5}, {2, 3}, {1, 1}, 1, i), 4096, MPIDBG_FLAVOUR_OPENMPI);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 20, 2}, {i, 36, 2}, {i, 52, 2}}));
}

TEST(TypeMap, SubarrayFullRowsMergeIntoOneRun) {
  MemTypes m;
  const TypeRef d = m.basic(8);
  Built b = build(m, m.subarray({6, 4}, {3, 4}, {2, 0}, 56, d), 4096, MPIDBG_FLAVOUR_MPICH);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{d, 64, 12}}));
}

TEST(TypeMap, OrderValuesFollowTheFlavour) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  // Open MPI's MPI_ORDER_C (0) means nothing to MPICH; an unknown flavour takes either.
  const TypeRef t = m.subarray({4, 5}, {2, 3}, {1, 1}, 0, i);
  EXPECT_TRUE(build(m, t, 4096, MPIDBG_FLAVOUR_MPICH).result.incomplete);
  EXPECT_EQ(build(m, t, 4096, MPIDBG_FLAVOUR_OPENMPI).runs, (std::vector<MapRun>{{i, 24, 3}, {i, 44, 3}}));
  EXPECT_EQ(build(m, t, 4096, MPIDBG_FLAVOUR_UNKNOWN).runs, (std::vector<MapRun>{{i, 24, 3}, {i, 44, 3}}));
}

TEST(TypeMap, DarrayBlockAndCyclicMpich) {
  MemTypes m;
  const TypeRef d = m.basic(8);
  // 8x6 doubles on a 2x2 grid, rows BLOCK (default), columns CYCLIC(2); rank 1 = (0, 1):
  // rows 0..3, columns 2..3.
  const TypeRef t = m.darray(4, 1, {8, 6}, {121, 122}, {-49767, 2}, {2, 2}, 56, d);
  Built b = build(m, t, 4096, MPIDBG_FLAVOUR_MPICH);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{d, 16, 2}, {d, 64, 2}, {d, 112, 2}, {d, 160, 2}}));
  EXPECT_EQ(b.result.elements, 8);
  EXPECT_FALSE(b.result.incomplete);
}

TEST(TypeMap, DarrayBlockAndCyclicOpenMpi) {
  MemTypes m;
  const TypeRef d = m.basic(8);
  const TypeRef t = m.darray(4, 1, {8, 6}, {0, 1}, {-1, 2}, {2, 2}, 0, d);
  Built b = build(m, t, 4096, MPIDBG_FLAVOUR_OPENMPI);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{d, 16, 2}, {d, 64, 2}, {d, 112, 2}, {d, 160, 2}}));
}

TEST(TypeMap, DarrayCyclicDefaultAndShortLastBlock) {
  MemTypes m;
  const TypeRef d = m.basic(8);
  // 10 elements cyclic over 3 processes: rank 1 holds 1, 4, 7.
  Built b = build(m, m.darray(3, 1, {10}, {122}, {-49767}, {3}, 56, d), 4096, MPIDBG_FLAVOUR_MPICH);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{d, 8, 1}, {d, 32, 1}, {d, 56, 1}}));
  // 7 elements, blocks of 2 over 2 processes: rank 1 holds 2..3 and 6.
  b = build(m, m.darray(2, 1, {7}, {122}, {2}, {2}, 56, d), 4096, MPIDBG_FLAVOUR_MPICH);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{d, 16, 2}, {d, 48, 1}}));
  EXPECT_EQ(b.result.elements, 3);
}

TEST(TypeMap, DarrayFortranOrderAndNone) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  // 4x3 ints, Fortran order: dimension 0 (4, fastest) BLOCK over 2, dimension 1 NONE.
  // Rank 1 holds rows 2..3 of every column: linear 2,3, 6,7, 10,11.
  Built b = build(m, m.darray(2, 1, {4, 3}, {121, 123}, {-49767, -49767}, {2, 1}, 57, i), 4096,
                  MPIDBG_FLAVOUR_MPICH);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 8, 2}, {i, 24, 2}, {i, 40, 2}}));
}

TEST(TypeMap, DarrayProcessWithoutElements) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  // 3 elements in blocks of 2 over 3 processes: rank 2 holds none.
  Built b = build(m, m.darray(3, 2, {3}, {0}, {2}, {3}, 0, i), 4096, MPIDBG_FLAVOUR_OPENMPI);
  EXPECT_TRUE(b.runs.empty());
  EXPECT_EQ(b.result.elements, 0);
  EXPECT_FALSE(b.result.incomplete);
}

TEST(TypeMap, DarrayGridMismatchIsIncomplete) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.darray(5, 1, {8}, {0}, {-1}, {2}, 0, i), 4096, MPIDBG_FLAVOUR_OPENMPI);
  EXPECT_TRUE(b.result.incomplete);
  EXPECT_TRUE(b.runs.empty());
}

// ---------------- bounds ----------------

TEST(TypeMap, TruncatedAtTheEntryLimitKeepsTheElementCount) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.vector(100, 1, 2, i), 10);
  EXPECT_EQ(b.runs.size(), 10u);
  EXPECT_TRUE(b.result.truncated);
  EXPECT_FALSE(b.result.incomplete);
  EXPECT_EQ(b.result.elements, 100);
  EXPECT_EQ(b.runs.back(), (MapRun{i, 72, 1}));
}

TEST(TypeMap, ExactlyAtTheLimitIsNotTruncated) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  Built b = build(m, m.vector(10, 1, 2, i), 10);
  EXPECT_EQ(b.runs.size(), 10u);
  EXPECT_FALSE(b.result.truncated);
}

TEST(TypeMap, ZeroEntriesAllowedTruncatesAtOnce) {
  MemTypes m;
  Built b = build(m, m.basic(4), 0);
  EXPECT_TRUE(b.runs.empty());
  EXPECT_TRUE(b.result.truncated);
  EXPECT_EQ(b.result.elements, 1);
}

TEST(TypeMap, HugeCountsCostNoTime) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  // One run of a billion: closed form.
  Built b = build(m, m.vector(1000000000, 1, 1, i));
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 1000000000}}));
  EXPECT_EQ(b.result.elements, 1000000000);
  // A billion separate runs: cut at the limit.
  b = build(m, m.vector(1000000000, 1, 2, i), 100);
  EXPECT_EQ(b.runs.size(), 100u);
  EXPECT_TRUE(b.result.truncated);
  EXPECT_EQ(b.result.elements, 1000000000);
  // A billion empty copies.
  b = build(m, m.contiguous(1000000000, m.contiguous(0, i)));
  EXPECT_TRUE(b.runs.empty());
  EXPECT_EQ(b.result.elements, 0);
  // Nested: 2^31-1 squared elements in one run; a third level saturates the count.
  const TypeRef c = m.basic(1);
  const TypeRef big = m.contiguous(2147483647, m.contiguous(2147483647, c));
  b = build(m, big);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{c, 0, int64_t{2147483647} * 2147483647}}));
  b = build(m, m.derived(MPIDBG_COMBINER_CONTIGUOUS, {2147483647}, {}, {big}, 0, 0));
  EXPECT_EQ(b.result.elements, INT64_MAX);
  EXPECT_EQ(b.runs.size(), 1u);
  EXPECT_EQ(b.runs[0].count, INT64_MAX);
  // Subarray rows that touch: one run, however many rows.
  b = build(m, m.subarray({2000000000, 4}, {1999999999, 4}, {1, 0}, 56, i), 4096, MPIDBG_FLAVOUR_MPICH);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 16, int64_t{1999999999} * 4}}));
  // Cyclic over one process: every block continues the last.
  b = build(m, m.darray(1, 0, {2000000000}, {122}, {3}, {1}, 56, i), 4096, MPIDBG_FLAVOUR_MPICH);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 2000000000}}));
  // All of it with a bounded number of record reads.
  EXPECT_LT(m.calls, 20000u);
}

TEST(TypeMap, ExponentialSharingIsBounded) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  // Each level holds the previous twice, 50 levels: 2^50 elements.
  TypeRef t = i;
  for (int level = 0; level < 50; ++level) t = m.structure({1, 1}, {0, m.extent(t) + 4}, {t, t});
  Built b = build(m, t, 1000);
  EXPECT_TRUE(b.result.truncated);
  EXPECT_EQ(b.runs.size(), 1000u);
  EXPECT_EQ(b.result.elements, int64_t{1} << 50);
  EXPECT_LT(m.calls, 200000u);
}

TEST(TypeMap, WorkBudgetEndsAnExpansionThatProducesNothing) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  // A million empty blocks then one int, repeated with gaps: each copy costs a million
  // steps for one run.
  std::vector<int32_t> bls(1000000, 0), displs(1000000, 0);
  bls.back() = 1;
  const TypeRef sparse = m.indexed(bls, displs, i);
  const TypeRef t = m.hvector(1000, 1, 64, sparse);
  VecSink sink;
  TypeMapOptions opt;
  opt.work_budget = 1u << 22;
  TypeMapResult r;
  EXPECT_TRUE(build_type_map(m, t, opt, sink, &r));
  EXPECT_TRUE(r.truncated);
  EXPECT_LT(sink.runs.size(), 1000u);
  EXPECT_GT(sink.runs.size(), 0u);
}

TEST(TypeMap, CountBudgetMakesTheCountUnknown) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  std::vector<int32_t> bls(100, 1);
  std::vector<int64_t> displs(100);
  std::vector<TypeRef> types(100, i);
  for (int k = 0; k < 100; ++k) displs[k] = 4 * k;
  const TypeRef s = m.structure(bls, displs, types);
  VecSink sink;
  TypeMapOptions opt;
  opt.count_budget = 10;
  TypeMapResult r;
  EXPECT_TRUE(build_type_map(m, s, opt, sink, &r));
  EXPECT_EQ(r.elements, -1);
  EXPECT_EQ(sink.runs.size(), 1u);
}

// ---------------- damaged records ----------------

TEST(TypeMap, SelfReferenceIsACycle) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  const TypeRef t = m.contiguous(2, i);
  m.rec(t).inputs[0] = t;
  Built b = build(m, t);
  EXPECT_TRUE(b.ok);
  EXPECT_TRUE(b.result.incomplete);
  EXPECT_TRUE(b.runs.empty());
}

TEST(TypeMap, TwoRecordCycleKeepsTheKnownParts) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  const TypeRef a = m.structure({1, 1}, {0, 8}, {i, i});
  const TypeRef b2 = m.contiguous(1, a);
  m.rec(a).inputs[1] = b2;  // a -> b2 -> a
  Built b = build(m, a);
  EXPECT_TRUE(b.result.incomplete);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 1}}));
  EXPECT_EQ(b.result.elements, 1);
}

TEST(TypeMap, DepthLimit) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  TypeRef t = i;
  for (int k = 0; k < 64; ++k) t = m.dup(t);
  Built b = build(m, t);
  EXPECT_FALSE(b.result.incomplete);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 1}}));
  t = m.dup(t);
  b = build(m, t);
  EXPECT_TRUE(b.result.incomplete);
  EXPECT_TRUE(b.runs.empty());
}

TEST(TypeMap, MissingInputKeepsWhatIsKnown) {
  MemTypes m;
  const TypeRef i = m.basic(4), d = m.basic(8);
  const TypeRef s = m.structure({1, 1, 1}, {0, 8, 16}, {i, d, i});
  m.rec(s).inputs[1] = kNoType;
  Built b = build(m, s);
  EXPECT_TRUE(b.result.incomplete);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 1}, {i, 16, 1}}));
  EXPECT_EQ(b.result.elements, 2);
  // The top record itself missing.
  b = build(m, 12345);
  EXPECT_TRUE(b.result.incomplete);
  EXPECT_TRUE(b.runs.empty());
  EXPECT_EQ(b.result.elements, 0);
}

TEST(TypeMap, UnreadableContentsAreIncomplete) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  const TypeRef v = m.vector(2, 1, 2, i);
  m.rec(v).readable = false;
  Built b = build(m, m.structure({1, 1}, {0, 100}, {i, v}));
  EXPECT_TRUE(b.result.incomplete);
  EXPECT_EQ(b.runs, (std::vector<MapRun>{{i, 0, 1}}));
}

TEST(TypeMap, MalformedRecordsAreIncomplete) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  auto incomplete = [&](TypeRef t) {
    Built b = build(m, t, 4096, MPIDBG_FLAVOUR_MPICH);
    EXPECT_TRUE(b.ok);
    return b.result.incomplete;
  };
  // Arrays shorter than the counts in them.
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_VECTOR, {3, 1}, {}, {i}, 0, 0)));
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_INDEXED, {5, 1, 1}, {}, {i}, 0, 0)));
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_HINDEXED, {2, 1, 1}, {0}, {i}, 0, 0)));
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_STRUCT, {2, 1, 1}, {0, 4}, {i}, 0, 0)));
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_HVECTOR, {2, 1}, {}, {i}, 0, 0)));
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_CONTIGUOUS, {}, {}, {i}, 0, 0)));
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_INDEXED, {-3}, {}, {i}, 0, 0)));
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_INDEXED, {2147483647}, {}, {i}, 0, 0)));
  // Negative counts.
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_CONTIGUOUS, {-1}, {}, {i}, 0, 0)));
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_VECTOR, {2, -1, 1}, {}, {i}, 0, 0)));
  EXPECT_TRUE(incomplete(m.indexed({1, -2}, {0, 1}, i)));
  // Subarray out of bounds, unknown order, zero or too many dimensions.
  EXPECT_TRUE(incomplete(m.subarray({4}, {3}, {2}, 56, i)));
  EXPECT_TRUE(incomplete(m.subarray({4}, {3}, {0}, 99, i)));
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_SUBARRAY, {0, 56}, {}, {i}, 0, 0)));
  EXPECT_TRUE(incomplete(m.subarray(std::vector<int32_t>(40, 1), std::vector<int32_t>(40, 1),
                                    std::vector<int32_t>(40, 0), 56, i)));
  // Darray: bad rank, unknown distribution, block too small for BLOCK.
  EXPECT_TRUE(incomplete(m.darray(2, 2, {4}, {121}, {-49767}, {2}, 56, i)));
  EXPECT_TRUE(incomplete(m.darray(2, 0, {4}, {7}, {-49767}, {2}, 56, i)));
  EXPECT_TRUE(incomplete(m.darray(2, 0, {4}, {122}, {0}, {2}, 56, i)));
  // Unknown combiner, negative basic size.
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_UNKNOWN, {}, {}, {}, 0, 0)));
  EXPECT_TRUE(incomplete(m.derived(77, {1}, {}, {i}, 0, 0)));
  const TypeRef neg = m.basic(-4);
  EXPECT_TRUE(incomplete(m.contiguous(2, neg)));
  // Displacements that overflow.
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_HVECTOR, {3, 1}, {INT64_MAX / 2 + 1}, {i}, 0, 0)));
  const TypeRef huge = m.resized(i, 0, INT64_MAX / 4);
  EXPECT_TRUE(incomplete(m.derived(MPIDBG_COMBINER_VECTOR, {2, 1, 8}, {}, {huge}, 0, 0)));
}

TEST(TypeMap, SinkOutOfMemory) {
  MemTypes m;
  const TypeRef i = m.basic(4);
  VecSink sink;
  sink.fail_after = 2;
  TypeMapOptions opt;
  TypeMapResult r;
  EXPECT_FALSE(build_type_map(m, m.vector(10, 1, 2, i), opt, sink, &r));
  EXPECT_TRUE(r.out_of_memory);
  EXPECT_EQ(r.runs, 0u);
}

// ---------------- against the plain reference ----------------

TEST(TypeMap, RandomNestedTypesMatchTheReference) {
  std::mt19937 rng(12345);
  auto pick = [&](int n) { return static_cast<int32_t>(rng() % static_cast<uint32_t>(n)); };
  for (int round = 0; round < 300; ++round) {
    MemTypes m;
    std::vector<TypeRef> pool{m.basic(1), m.basic(4), m.basic(8)};
    for (int k = 0; k < 6; ++k) {
      const TypeRef t = pool[static_cast<size_t>(pick(static_cast<int>(pool.size())))];
      TypeRef made = kNoType;
      switch (pick(8)) {
        case 0: made = m.contiguous(pick(4), t); break;
        case 1: made = m.vector(1 + pick(3), pick(3), pick(4), t); break;
        case 2: made = m.hvector(1 + pick(3), 1 + pick(2), pick(3) * m.extent(t) + pick(9), t); break;
        case 3: made = m.indexed({pick(3), 1 + pick(2)}, {pick(5), pick(5)}, t); break;
        case 4: made = m.hindexed({1 + pick(2), pick(3)}, {pick(40), pick(40)}, t); break;
        case 5: {
          const TypeRef u = pool[static_cast<size_t>(pick(static_cast<int>(pool.size())))];
          const int64_t d1 = m.extent(t) * (1 + pick(2)) + pick(3);
          made = m.structure({1 + pick(2), 1 + pick(2)}, {0, d1}, {t, u});
          break;
        }
        case 6: made = m.resized(t, 0, m.extent(t) + pick(3) * 4); break;
        default: made = m.dup(t); break;
      }
      pool.push_back(made);
    }
    const TypeRef top = m.contiguous(1 + pick(3), pool.back());
    Built b = build(m, top);
    ASSERT_FALSE(b.result.incomplete) << "round " << round;
    const std::vector<MapRun> want = reference(m, top);
    ASSERT_EQ(b.runs, want) << "round " << round;
    int64_t elements = 0;
    for (const MapRun& r : want) elements += r.count;
    ASSERT_EQ(b.result.elements, elements) << "round " << round;
  }
}

}  // namespace
}  // namespace mpidbg::handles
