// datatypes_check — datatype records checked against MPI's own answers, from inside the
// process (1 rank; the runtime linked or LD_PRELOADed).
//
//  - every predefined type of the runtime's table: flags, name, sizes, Fortran index;
//  - every constructor: combiner, creator, contents arrays (against
//    MPI_Type_get_envelope/get_contents and against the arguments given), sizes, lb,
//    extents, Fortran index (on Open MPI none until the program's MPI_Type_c2f, then
//    that one), COMMITTED, names (empty types too: Open MPI names them);
//  - sizes and bounds the runtime works out from a contiguous or vector type's
//    arguments are MPI's, over every predefined type and the edge cases;
//  - the type map of nested types rebuilt from records alone matches MPI's size and
//    true extent;
//  - freeing: FREED at once, RELEASED only when no live derived type and no pending
//    operation needs the type, and inputs of kept records never evicted by the orphan
//    budget (the test runs with MPIDBG_ORPHAN_BUDGET=4);
//  - the application's MPI_Type_get_contents: a derived input handed back as the
//    input's own handle (MPICH) is one more reference (FREED only after the last
//    free); a handle the runtime did not know (Open MPI's new types, a type made
//    unseen) gets a record with creator MPI_Type_get_contents.
// Usage: datatypes_check <mpich|openmpi>. Exit status 0 = all passed.
#include <mpi.h>

#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rt_check.h"

using namespace rtcheck;

namespace {

using Rec = mpidbg_datatype_record;

const mpidbg_table& Table() { return Root()->datatypes; }

const Rec* Live(MPI_Datatype t) { return FindObject<Rec>(Table(), U64(t)); }

// The newest record of `handle` created before `serial`: how a reader resolves a
// record's input types even after MPI reused a freed input's handle.
const Rec* InputRecord(uint64_t handle, uint64_t serial) {
  const Rec* best = nullptr;
  for (const Rec* r : Records<Rec>(Table())) {
    if (r->obj.handle != handle || r->obj.create_serial >= serial) continue;
    if (best == nullptr || r->obj.create_serial > best->obj.create_serial) best = r;
  }
  return best;
}

std::vector<int32_t> Ints(const Rec* r) { return ArrayValues<int32_t>(r->integers); }
std::vector<int64_t> Addrs(const Rec* r) { return ArrayValues<int64_t>(r->addresses); }
std::vector<uint64_t> Types(const Rec* r) { return ArrayValues<uint64_t>(r->types); }

int32_t Combiner(int mpi) {
  if (mpi == MPI_COMBINER_NAMED) return MPIDBG_COMBINER_NAMED;
  if (mpi == MPI_COMBINER_DUP) return MPIDBG_COMBINER_DUP;
  if (mpi == MPI_COMBINER_CONTIGUOUS) return MPIDBG_COMBINER_CONTIGUOUS;
  if (mpi == MPI_COMBINER_VECTOR) return MPIDBG_COMBINER_VECTOR;
  if (mpi == MPI_COMBINER_HVECTOR) return MPIDBG_COMBINER_HVECTOR;
  if (mpi == MPI_COMBINER_INDEXED) return MPIDBG_COMBINER_INDEXED;
  if (mpi == MPI_COMBINER_HINDEXED) return MPIDBG_COMBINER_HINDEXED;
  if (mpi == MPI_COMBINER_INDEXED_BLOCK) return MPIDBG_COMBINER_INDEXED_BLOCK;
  if (mpi == MPI_COMBINER_HINDEXED_BLOCK) return MPIDBG_COMBINER_HINDEXED_BLOCK;
  if (mpi == MPI_COMBINER_STRUCT) return MPIDBG_COMBINER_STRUCT;
  if (mpi == MPI_COMBINER_SUBARRAY) return MPIDBG_COMBINER_SUBARRAY;
  if (mpi == MPI_COMBINER_DARRAY) return MPIDBG_COMBINER_DARRAY;
  if (mpi == MPI_COMBINER_F90_REAL) return MPIDBG_COMBINER_F90_REAL;
  if (mpi == MPI_COMBINER_F90_COMPLEX) return MPIDBG_COMBINER_F90_COMPLEX;
  if (mpi == MPI_COMBINER_F90_INTEGER) return MPIDBG_COMBINER_F90_INTEGER;
  if (mpi == MPI_COMBINER_RESIZED) return MPIDBG_COMBINER_RESIZED;
  return MPIDBG_COMBINER_UNKNOWN;
}

std::string MpiName(MPI_Datatype t) {
  char name[MPI_MAX_OBJECT_NAME] = {};
  int len = 0;
  MPI_Type_get_name(t, name, &len);
  name[sizeof name - 1] = '\0';
  return std::string(name).substr(0, 63);
}

bool FortranIndexOnRequest() { return Root()->flavour == MPIDBG_FLAVOUR_OPENMPI; }

// Sizes, name, Fortran index and the envelope/contents, against MPI's answers.
void CheckAgainstMpi(const Rec* r, MPI_Datatype t) {
  RT_CHECK(r != nullptr);
  if (r == nullptr) return;
  MPI_Count size = 0, lb = 0, extent = 0, tlb = 0, textent = 0;
  MPI_Type_size_x(t, &size);
  MPI_Type_get_extent_x(t, &lb, &extent);
  MPI_Type_get_true_extent_x(t, &tlb, &textent);
  RT_CHECK_EQ(r->size, size);
  RT_CHECK_EQ(r->lb, lb);
  RT_CHECK_EQ(r->extent, extent);
  RT_CHECK_EQ(r->true_lb, tlb);
  RT_CHECK_EQ(r->true_extent, textent);
  // Open MPI gives a type its Fortran index when first asked: a type made in C (or an
  // MPI_Type_create_f90_* one) has none in its record until the program's
  // MPI_Type_c2f, which the record then notes.
  const int32_t recorded_index = r->obj.fortran_index;
  const int32_t index = MPI_Type_c2f(t);
  if (FortranIndexOnRequest() && r->combiner != MPIDBG_COMBINER_NAMED) {
    RT_CHECK(recorded_index == -1 || recorded_index == index);
  } else {
    RT_CHECK_EQ(recorded_index, index);
  }
  RT_CHECK_EQ(r->obj.fortran_index, index);
  RT_CHECK_EQ(r->obj.hdr.kind, MPIDBG_KIND_DATATYPE);
  const std::string mpi_name = MpiName(t);
  RT_CHECK_STREQ(r->obj.name, mpi_name.c_str());
  int ni = 0, na = 0, nd = 0, combiner = 0;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
  RT_CHECK_EQ(r->combiner, Combiner(combiner));
  RT_CHECK_EQ(r->integers.elem_size, 4);
  RT_CHECK_EQ(r->addresses.elem_size, 8);
  RT_CHECK_EQ(r->types.elem_size, 8);
  if (combiner == MPI_COMBINER_NAMED) {
    RT_CHECK_EQ(r->integers.count, 0);
    RT_CHECK_EQ(r->addresses.count, 0);
    RT_CHECK_EQ(r->types.count, 0);
    return;
  }
  std::vector<int> ints(ni + 1);
  std::vector<MPI_Aint> addrs(na + 1);
  std::vector<MPI_Datatype> types(nd + 1);
  // PMPI_: the check's own look at MPI, not an application call the runtime records.
  PMPI_Type_get_contents(t, ni, na, nd, ints.data(), addrs.data(), types.data());
  RT_CHECK_EQ(r->integers.count, ni);
  RT_CHECK_EQ(r->addresses.count, na);
  RT_CHECK_EQ(r->types.count, nd);
  std::vector<int32_t> ri = Ints(r);
  std::vector<int64_t> ra = Addrs(r);
  std::vector<uint64_t> rt = Types(r);
  for (int i = 0; i < ni && i < static_cast<int>(ri.size()); ++i) RT_CHECK_EQ(ri[i], ints[i]);
  for (int i = 0; i < na && i < static_cast<int>(ra.size()); ++i) RT_CHECK_EQ(ra[i], addrs[i]);
  for (int i = 0; i < nd && i < static_cast<int>(rt.size()); ++i) {
    // Every input has a record of its own created before this one.
    const Rec* input = InputRecord(rt[i], r->obj.create_serial);
    RT_CHECK(input != nullptr);
    int n1 = 0, n2 = 0, n3 = 0, c = 0;
    MPI_Type_get_envelope(types[i], &n1, &n2, &n3, &c);
    if (c == MPI_COMBINER_NAMED) {
      RT_CHECK_EQ(rt[i], U64(types[i]));
    } else if (input != nullptr) {
      // MPICH returns the input's own handle, Open MPI a duplicate: compare what the
      // input record says with what MPI says of the type it returned.
      MPI_Count isize = 0, ilb = 0, iextent = 0;
      MPI_Type_size_x(types[i], &isize);
      MPI_Type_get_extent_x(types[i], &ilb, &iextent);
      RT_CHECK_EQ(input->combiner, Combiner(c));
      RT_CHECK_EQ(input->size, isize);
      RT_CHECK_EQ(input->lb, ilb);
      RT_CHECK_EQ(input->extent, iextent);
    }
  }
  // The references PMPI_Type_get_contents added to derived inputs are given back
  // unseen as well (PMPI_Type_free), since the runtime did not count them.
  for (int i = 0; i < nd; ++i) {
    int n1 = 0, n2 = 0, n3 = 0, c = 0;
    MPI_Type_get_envelope(types[i], &n1, &n2, &n3, &c);
    if (c != MPI_COMBINER_NAMED && c != MPI_COMBINER_F90_REAL &&
        c != MPI_COMBINER_F90_COMPLEX && c != MPI_COMBINER_F90_INTEGER)
      PMPI_Type_free(&types[i]);
  }
}

// A derived type right after its constructor.
void CheckDerived(MPI_Datatype t, int32_t creator, int32_t combiner) {
  const Rec* r = Live(t);
  RT_CHECK(r != nullptr);
  if (r == nullptr) return;
  RT_CHECK_EQ(r->obj.creator, creator);
  RT_CHECK_EQ(r->combiner, combiner);
  RT_CHECK_EQ(r->obj.hdr.flags & (MPIDBG_REC_PREDEFINED | MPIDBG_REC_FREED | MPIDBG_REC_RELEASED |
                                  MPIDBG_TYPE_COMMITTED),
              0);
  RT_CHECK(r->obj.create_time_ns > 0);
  RT_CHECK_EQ(r->obj.free_serial, 0);
  CheckAgainstMpi(r, t);
}

// ---- the type map, rebuilt from records alone (what a debugger would do) ----
struct Leaf {
  int64_t disp;
  const Rec* type;  // a named type
};

bool Flatten(const Rec* r, int64_t base, std::vector<Leaf>* out, int depth) {
  if (r == nullptr || depth > 32) return false;
  if (r->combiner == MPIDBG_COMBINER_NAMED) {
    out->push_back(Leaf{base, r});
    return true;
  }
  std::vector<int32_t> in = Ints(r);
  std::vector<int64_t> ad = Addrs(r);
  std::vector<uint64_t> ty = Types(r);
  auto input = [&](size_t i) { return i < ty.size() ? InputRecord(ty[i], r->obj.create_serial) : nullptr; };
  const Rec* old = input(0);
  const int64_t ext = old != nullptr ? old->extent : 0;
  bool ok = true;
  switch (r->combiner) {
    case MPIDBG_COMBINER_DUP:
    case MPIDBG_COMBINER_RESIZED:
      return Flatten(old, base, out, depth + 1);
    case MPIDBG_COMBINER_CONTIGUOUS:
      for (int i = 0; i < in[0]; ++i) ok &= Flatten(old, base + i * ext, out, depth + 1);
      return ok;
    case MPIDBG_COMBINER_VECTOR:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1]; ++j)
          ok &= Flatten(old, base + (int64_t{i} * in[2] + j) * ext, out, depth + 1);
      return ok;
    case MPIDBG_COMBINER_HVECTOR:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1]; ++j)
          ok &= Flatten(old, base + i * ad[0] + j * ext, out, depth + 1);
      return ok;
    case MPIDBG_COMBINER_INDEXED:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1 + i]; ++j)
          ok &= Flatten(old, base + (int64_t{in[1 + in[0] + i]} + j) * ext, out, depth + 1);
      return ok;
    case MPIDBG_COMBINER_HINDEXED:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1 + i]; ++j)
          ok &= Flatten(old, base + ad[i] + j * ext, out, depth + 1);
      return ok;
    case MPIDBG_COMBINER_INDEXED_BLOCK:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1]; ++j)
          ok &= Flatten(old, base + (int64_t{in[2 + i]} + j) * ext, out, depth + 1);
      return ok;
    case MPIDBG_COMBINER_HINDEXED_BLOCK:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1]; ++j)
          ok &= Flatten(old, base + ad[i] + j * ext, out, depth + 1);
      return ok;
    case MPIDBG_COMBINER_STRUCT:
      for (int i = 0; i < in[0]; ++i) {
        const Rec* t = input(static_cast<size_t>(i));
        if (t == nullptr) return false;
        for (int j = 0; j < in[1 + i]; ++j) ok &= Flatten(t, base + ad[i] + j * t->extent, out, depth + 1);
      }
      return ok;
    case MPIDBG_COMBINER_SUBARRAY: {
      const int n = in[0];
      const int32_t* sizes = &in[1];
      const int32_t* subsizes = &in[1 + n];
      const int32_t* starts = &in[1 + 2 * n];
      const bool c_order = in[1 + 3 * n] == MPI_ORDER_C;
      std::vector<int32_t> idx(n, 0);
      int64_t total = 1;
      for (int d = 0; d < n; ++d) total *= subsizes[d];
      for (int64_t k = 0; k < total; ++k) {
        // idx = the k-th subarray element, the fastest dimension last (C) or first.
        int64_t rest = k;
        for (int s = 0; s < n; ++s) {
          int d = c_order ? n - 1 - s : s;
          idx[d] = static_cast<int32_t>(rest % subsizes[d]);
          rest /= subsizes[d];
        }
        int64_t linear = 0;
        for (int s = 0; s < n; ++s) {
          int d = c_order ? s : n - 1 - s;
          linear = linear * sizes[d] + starts[d] + idx[d];
        }
        ok &= Flatten(old, base + linear * ext, out, depth + 1);
      }
      return ok;
    }
    default:
      return false;
  }
}

// Size and true extent of the rebuilt map match MPI's.
void CheckRebuilt(MPI_Datatype t) {
  const Rec* r = Live(t);
  RT_CHECK(r != nullptr);
  if (r == nullptr) return;
  std::vector<Leaf> leaves;
  RT_CHECK(Flatten(r, 0, &leaves, 0));
  int64_t size = 0, lo = INT64_MAX, hi = INT64_MIN;
  for (const Leaf& l : leaves) {
    size += l.type->size;
    lo = std::min(lo, l.disp + l.type->true_lb);
    hi = std::max(hi, l.disp + l.type->true_lb + l.type->true_extent);
  }
  MPI_Count mpi_size = 0, tlb = 0, textent = 0;
  MPI_Type_size_x(t, &mpi_size);
  MPI_Type_get_true_extent_x(t, &tlb, &textent);
  RT_CHECK_EQ(size, mpi_size);
  if (!leaves.empty()) {
    RT_CHECK_EQ(lo, tlb);
    RT_CHECK_EQ(hi - lo, textent);
  }
}

// ---------------------------------------------------------------------------------
void CheckPredefined() {
  const MPI_Datatype types[] = {MPI_CHAR,        MPI_INT,         MPI_LONG_LONG_INT,
                                MPI_UNSIGNED,    MPI_DOUBLE,      MPI_LONG_DOUBLE,
                                MPI_C_BOOL,      MPI_INT64_T,     MPI_C_DOUBLE_COMPLEX,
                                MPI_BYTE,        MPI_PACKED,      MPI_AINT,
                                MPI_OFFSET,      MPI_COUNT,       MPI_CXX_BOOL,
                                MPI_DOUBLE_INT,  MPI_2INT,        MPI_LONG_DOUBLE_INT,
                                MPI_INTEGER,     MPI_DOUBLE_PRECISION, MPI_2INTEGER};
  for (MPI_Datatype t : types) {
    if (t == MPI_DATATYPE_NULL) continue;
    const Rec* r = Live(t);
    RT_CHECK(r != nullptr);
    if (r == nullptr) {
      const std::string name = MpiName(t);
      fprintf(stderr, "no record for predefined %s\n", name.c_str());
      continue;
    }
    RT_CHECK_EQ(r->obj.hdr.flags & (MPIDBG_REC_PREDEFINED | MPIDBG_TYPE_COMMITTED),
                MPIDBG_REC_PREDEFINED | MPIDBG_TYPE_COMMITTED);
    RT_CHECK_EQ(r->obj.creator, MPIDBG_CALL_NONE);
    RT_CHECK_EQ(r->obj.create_time_ns, 0);
    RT_CHECK(r->obj.name[0] != '\0');
    CheckAgainstMpi(r, t);
  }
  // Each handle registered once, however many names it has.
  std::vector<uint64_t> seen;
  for (const Rec* r : Records<Rec>(Table())) {
    if ((r->obj.hdr.flags & MPIDBG_REC_PREDEFINED) == 0) continue;
    RT_CHECK(std::find(seen.begin(), seen.end(), r->obj.handle) == seen.end());
    seen.push_back(r->obj.handle);
  }
  RT_CHECK(seen.size() >= 40);
}

// The handle of a record, as this MPI's MPI_Datatype.
// (MPICH: an int, the low 32 bits; Open MPI: a pointer.)
MPI_Datatype TypeOf(uint64_t handle) {
  static_assert(sizeof(MPI_Datatype) == 4 || sizeof(MPI_Datatype) == 8, "handle size");
  MPI_Datatype t;
  if constexpr (sizeof(MPI_Datatype) == 4) {
    const uint32_t low = static_cast<uint32_t>(handle);
    memcpy(&t, &low, sizeof t);
  } else {
    memcpy(&t, &handle, sizeof t);
  }
  return t;
}

// Sizes and bounds the runtime works out from the arguments (MPI_Type_contiguous and
// MPI_Type_vector of a predefined type) must be MPI's own: every predefined type of the
// runtime's table, over counts, block lengths and strides around the edges where it
// asks MPI instead (empty types, negative strides, stride below the block length,
// counts around the bound of type_extents.h).
// MPI_Type_create_hvector, always asked, for comparison.
void CheckBoundsFromArguments() {
  std::vector<MPI_Datatype> olds;
  for (const Rec* r : Records<Rec>(Table())) {
    if ((r->obj.hdr.flags & MPIDBG_REC_PREDEFINED) != 0 && r->combiner == MPIDBG_COMBINER_NAMED) {
      olds.push_back(TypeOf(r->obj.handle));
    }
  }
  RT_CHECK(olds.size() >= 40);
  int made = 0;
  for (MPI_Datatype old : olds) {
    for (int count : {0, 1, 2, 5, 1000, (1 << 20) - 1, 1 << 20, 1 << 24}) {
      MPI_Datatype t;
      if (MPI_Type_contiguous(count, old, &t) != MPI_SUCCESS) continue;
      CheckAgainstMpi(Live(t), t);
      MPI_Type_free(&t);
      ++made;
    }
    for (int count : {0, 1, 3}) {
      for (int blocklength : {0, 1, 2}) {
        for (int stride : {-3, -1, 0, 1, 2, 7}) {
          MPI_Datatype t;
          if (MPI_Type_vector(count, blocklength, stride, old, &t) == MPI_SUCCESS) {
            CheckAgainstMpi(Live(t), t);
            MPI_Type_free(&t);
            ++made;
          }
          if (MPI_Type_create_hvector(count, blocklength, stride * 3, old, &t) == MPI_SUCCESS) {
            CheckAgainstMpi(Live(t), t);
            MPI_Type_free(&t);
          }
        }
      }
    }
  }
  RT_CHECK(made >= 40 * 50);
}

void CheckConstructors() {
  MPI_Datatype t;
  MPI_Type_contiguous(3, MPI_INT, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_contiguous, MPIDBG_COMBINER_CONTIGUOUS);
  RT_CHECK(Ints(Live(t)) == std::vector<int32_t>({3}));
  RT_CHECK(Types(Live(t)) == std::vector<uint64_t>({U64(MPI_INT)}));
  CheckRebuilt(t);
  // COMMITTED comes with MPI_Type_commit, a name with MPI_Type_set_name.
  MPI_Type_commit(&t);
  RT_CHECK((Live(t)->obj.hdr.flags & MPIDBG_TYPE_COMMITTED) != 0);
  MPI_Type_set_name(t, "three ints");
  RT_CHECK_STREQ(Live(t)->obj.name, "three ints");
  MPI_Type_free(&t);

  MPI_Type_vector(4, 2, 5, MPI_DOUBLE, &t);
  // No Fortran index asked for a type made in C where MPI gives one only on request
  // (Open MPI: it would take a slot in MPI's Fortran table per type); MPICH's is the
  // handle.
  RT_CHECK_EQ(Live(t)->obj.fortran_index, FortranIndexOnRequest() ? -1 : MPI_Type_c2f(t));
  CheckDerived(t, MPIDBG_CALL_MPI_Type_vector, MPIDBG_COMBINER_VECTOR);
  RT_CHECK(Live(t)->obj.fortran_index >= 0 || !FortranIndexOnRequest());
  RT_CHECK(Ints(Live(t)) == std::vector<int32_t>({4, 2, 5}));
  CheckRebuilt(t);
  MPI_Type_free(&t);

  MPI_Type_create_hvector(3, 2, 40, MPI_SHORT, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_create_hvector, MPIDBG_COMBINER_HVECTOR);
  RT_CHECK(Ints(Live(t)) == std::vector<int32_t>({3, 2}));
  RT_CHECK(Addrs(Live(t)) == std::vector<int64_t>({40}));
  CheckRebuilt(t);
  MPI_Type_free(&t);

  const int bl[3] = {1, 3, 2}, dl[3] = {0, 4, 10};
  MPI_Type_indexed(3, bl, dl, MPI_FLOAT, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_indexed, MPIDBG_COMBINER_INDEXED);
  RT_CHECK(Ints(Live(t)) == std::vector<int32_t>({3, 1, 3, 2, 0, 4, 10}));
  CheckRebuilt(t);
  MPI_Type_free(&t);

  // Contents beyond the record's contents_room (17 integers, 8 addresses): heap arrays,
  // written from the call's arguments as the room is.
  const int bl8[8] = {1, 2, 1, 2, 1, 2, 1, 2}, dl8[8] = {0, 3, 7, 11, 15, 19, 23, 27};
  const MPI_Aint hd8[8] = {0, 16, 40, 64, 96, 128, 160, 200};
  MPI_Type_indexed(8, bl8, dl8, MPI_INT, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_indexed, MPIDBG_COMBINER_INDEXED);
  RT_CHECK(Ints(Live(t)) == std::vector<int32_t>({8, 1, 2, 1, 2, 1, 2, 1, 2, 0, 3, 7, 11, 15, 19,
                                                  23, 27}));
  CheckRebuilt(t);
  MPI_Type_free(&t);
  MPI_Type_create_hindexed(8, bl8, hd8, MPI_CHAR, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_create_hindexed, MPIDBG_COMBINER_HINDEXED);
  RT_CHECK(Ints(Live(t)) == std::vector<int32_t>({8, 1, 2, 1, 2, 1, 2, 1, 2}));
  RT_CHECK(Addrs(Live(t)) == std::vector<int64_t>({0, 16, 40, 64, 96, 128, 160, 200}));
  CheckRebuilt(t);
  MPI_Type_free(&t);

  const MPI_Aint hd[3] = {0, 24, 64};
  MPI_Type_create_hindexed(3, bl, hd, MPI_CHAR, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_create_hindexed, MPIDBG_COMBINER_HINDEXED);
  RT_CHECK(Addrs(Live(t)) == std::vector<int64_t>({0, 24, 64}));
  CheckRebuilt(t);
  MPI_Type_free(&t);

  MPI_Type_create_indexed_block(3, 2, dl, MPI_INT, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_create_indexed_block, MPIDBG_COMBINER_INDEXED_BLOCK);
  RT_CHECK(Ints(Live(t)) == std::vector<int32_t>({3, 2, 0, 4, 10}));
  CheckRebuilt(t);
  MPI_Type_free(&t);

  MPI_Type_create_hindexed_block(3, 2, hd, MPI_INT, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_create_hindexed_block, MPIDBG_COMBINER_HINDEXED_BLOCK);
  RT_CHECK(Ints(Live(t)) == std::vector<int32_t>({3, 2}));
  CheckRebuilt(t);
  MPI_Type_free(&t);

  const int sizes[2] = {10, 8}, subsizes[2] = {3, 4}, starts[2] = {2, 1};
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_create_subarray, MPIDBG_COMBINER_SUBARRAY);
  RT_CHECK(Ints(Live(t)) == std::vector<int32_t>({2, 10, 8, 3, 4, 2, 1, MPI_ORDER_C}));
  CheckRebuilt(t);
  MPI_Type_free(&t);
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_create_subarray, MPIDBG_COMBINER_SUBARRAY);
  CheckRebuilt(t);
  MPI_Type_free(&t);

  const int gsizes[2] = {8, 6}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
            dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[2] = {2, 2};
  MPI_Type_create_darray(4, 1, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_DOUBLE, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_create_darray, MPIDBG_COMBINER_DARRAY);
  RT_CHECK(Ints(Live(t)) == std::vector<int32_t>({4, 1, 2, 8, 6, MPI_DISTRIBUTE_BLOCK,
                                                  MPI_DISTRIBUTE_CYCLIC,
                                                  MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 2,
                                                  MPI_ORDER_C}));
  MPI_Type_free(&t);

  MPI_Type_create_resized(MPI_INT, -4, 16, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_create_resized, MPIDBG_COMBINER_RESIZED);
  RT_CHECK(Addrs(Live(t)) == std::vector<int64_t>({-4, 16}));
  RT_CHECK_EQ(Live(t)->lb, -4);
  RT_CHECK_EQ(Live(t)->extent, 16);
  MPI_Type_free(&t);

  MPI_Type_dup(MPI_LONG, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_dup, MPIDBG_COMBINER_DUP);
  RT_CHECK(Types(Live(t)) == std::vector<uint64_t>({U64(MPI_LONG)}));
  MPI_Type_free(&t);

  // Empty types: Open MPI names them ("Dup MPI_EMPTY"), which the record must ask for.
  MPI_Type_contiguous(0, MPI_INT, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_contiguous, MPIDBG_COMBINER_CONTIGUOUS);
  RT_CHECK_EQ(Live(t)->size, 0);
  MPI_Type_free(&t);
  const int no_blocks[1] = {0};
  const MPI_Aint no_displacements[1] = {0};
  const MPI_Datatype one_type[1] = {MPI_DOUBLE};
  MPI_Type_create_struct(0, no_blocks, no_displacements, one_type, &t);
  CheckDerived(t, MPIDBG_CALL_MPI_Type_create_struct, MPIDBG_COMBINER_STRUCT);
  MPI_Type_free(&t);
}

void CheckF90() {
  MPI_Datatype a, b, c, d;
  MPI_Type_create_f90_real(6, 30, &a);
  MPI_Type_create_f90_real(6, 30, &b);  // the same cached type
  MPI_Type_create_f90_complex(6, 30, &c);
  MPI_Type_create_f90_integer(9, &d);
  struct {
    MPI_Datatype t;
    int32_t creator, combiner;
    std::vector<int32_t> ints;
  } cases[] = {
      {a, MPIDBG_CALL_MPI_Type_create_f90_real, MPIDBG_COMBINER_F90_REAL, {6, 30}},
      {c, MPIDBG_CALL_MPI_Type_create_f90_complex, MPIDBG_COMBINER_F90_COMPLEX, {6, 30}},
      {d, MPIDBG_CALL_MPI_Type_create_f90_integer, MPIDBG_COMBINER_F90_INTEGER, {9}},
  };
  for (const auto& k : cases) {
    const Rec* r = Live(k.t);
    RT_CHECK(r != nullptr);
    if (r == nullptr) continue;
    RT_CHECK_EQ(r->obj.creator, k.creator);
    RT_CHECK_EQ(r->combiner, k.combiner);
    RT_CHECK((r->obj.hdr.flags & MPIDBG_REC_PREDEFINED) != 0);
    RT_CHECK(Ints(r) == k.ints);
    CheckAgainstMpi(r, k.t);
  }
  RT_CHECK(a == b);
  int records = 0;  // live ones: orphans of freed types may share the handle value
  for (const Rec* r : Records<Rec>(Table()))
    records += r->obj.handle == U64(a) && (r->obj.hdr.flags & MPIDBG_REC_FREED) == 0;
  RT_CHECK_EQ(records, 1);
}

// A struct of a vector, an int and a resized vector: rebuilt recursively; the vector
// freed first stays (FREED, not RELEASED) while the struct lives, and outside the
// orphan budget even when other frees overflow it.
void CheckNestedAndLifetime() {
  MPI_Datatype vec, rvec, st;
  MPI_Type_vector(3, 1, 4, MPI_DOUBLE, &vec);
  MPI_Type_create_resized(vec, 0, 8, &rvec);
  const int bl[3] = {2, 1, 2};
  const MPI_Aint disp[3] = {0, 256, 300};
  const MPI_Datatype types[3] = {vec, MPI_INT, rvec};
  MPI_Type_create_struct(3, bl, disp, types, &st);
  MPI_Type_commit(&st);
  CheckDerived(rvec, MPIDBG_CALL_MPI_Type_create_resized, MPIDBG_COMBINER_RESIZED);
  const Rec* rs = Live(st);
  RT_CHECK(rs != nullptr);
  if (rs == nullptr) return;
  RT_CHECK_EQ(rs->combiner, MPIDBG_COMBINER_STRUCT);
  RT_CHECK(Types(rs) == std::vector<uint64_t>({U64(vec), U64(MPI_INT), U64(rvec)}));
  CheckAgainstMpi(rs, st);
  CheckRebuilt(st);

  const uint64_t vec_handle = U64(vec), rvec_handle = U64(rvec), st_handle = U64(st);
  const Rec* rv = Live(vec);
  RT_CHECK(rv != nullptr);
  MPI_Type_free(&vec);
  MPI_Type_free(&rvec);
  RT_CHECK(Live(vec) == nullptr);
  const Rec* fv = FindObject<Rec>(Table(), vec_handle, /*live_only=*/false);
  RT_CHECK(fv == rv);
  if (fv != nullptr) {
    RT_CHECK_EQ(fv->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED), MPIDBG_REC_FREED);
    RT_CHECK(fv->obj.free_serial != 0);
  }
  // Overflow the budget of 4 orphans with other freed types.
  for (int i = 0; i < 12; ++i) {
    MPI_Datatype tmp;
    MPI_Type_contiguous(i + 1, MPI_CHAR, &tmp);
    MPI_Type_free(&tmp);
  }
  RT_CHECK(Root()->orphan_count <= 4);
  RT_CHECK(Root()->orphan_evictions > 0);
  // The struct's inputs are still there: its type map still rebuilds.
  RT_CHECK(FindObject<Rec>(Table(), vec_handle, false) == rv);
  RT_CHECK(FindObject<Rec>(Table(), rvec_handle, false) != nullptr);
  CheckRebuilt(st);

  // Freeing the struct releases it and, with it, the types it was built from.
  MPI_Type_free(&st);
  const Rec* fs = FindObject<Rec>(Table(), st_handle, false);
  RT_CHECK(fs != nullptr);
  if (fs != nullptr)
    RT_CHECK_EQ(fs->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED),
                MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
  if (const Rec* v = FindObject<Rec>(Table(), vec_handle, false))
    RT_CHECK((v->obj.hdr.flags & MPIDBG_REC_RELEASED) != 0);

  // Now nothing holds them: more frees evict all three, nothing stays held.
  const uint64_t serials[3] = {rv->obj.create_serial, rs->obj.create_serial,
                               fs != nullptr ? fs->obj.create_serial : 0};
  for (int i = 0; i < 12; ++i) {
    MPI_Datatype tmp;
    MPI_Type_contiguous(i + 1, MPI_SHORT, &tmp);
    MPI_Type_free(&tmp);
  }
  for (const Rec* r : Records<Rec>(Table())) {
    for (uint64_t serial : serials) RT_CHECK(r->obj.create_serial != serial);
  }
  RT_CHECK(Root()->orphan_count <= 4);
}

// Types made where the runtime cannot see (here: PMPI_ calls, as through the Fortran
// bindings) are recorded when first used as an input, with their own inputs, so the
// type map still rebuilds. (Open MPI's MPI_Type_get_contents returns duplicates of
// derived inputs: those get records of their own, marked freed.)
void CheckUnseenInputs() {
  MPI_Datatype hidden_inner, hidden, st;
  PMPI_Type_contiguous(3, MPI_SHORT, &hidden_inner);
  PMPI_Type_vector(2, 1, 3, hidden_inner, &hidden);
  RT_CHECK(Live(hidden) == nullptr);
  const int bl[2] = {1, 2};
  const MPI_Aint disp[2] = {0, 64};
  const MPI_Datatype types[2] = {hidden, MPI_CHAR};
  MPI_Type_create_struct(2, bl, disp, types, &st);
  const Rec* h = Live(hidden);
  RT_CHECK(h != nullptr);
  if (h != nullptr) {
    RT_CHECK_EQ(h->obj.creator, MPIDBG_CALL_NONE);
    RT_CHECK_EQ(h->combiner, MPIDBG_COMBINER_VECTOR);
    RT_CHECK(Ints(h) == std::vector<int32_t>({2, 1, 3}));
    CheckAgainstMpi(h, hidden);
    RT_CHECK_EQ(h->types.count, 1);
    const Rec* inner = h->types.count == 1 ? InputRecord(Types(h)[0], h->obj.create_serial) : nullptr;
    RT_CHECK(inner != nullptr);
    if (inner != nullptr) {
      RT_CHECK_EQ(inner->combiner, MPIDBG_COMBINER_CONTIGUOUS);
      if (Root()->flavour == MPIDBG_FLAVOUR_OPENMPI) {  // a duplicate, given back
        RT_CHECK((inner->obj.hdr.flags & MPIDBG_REC_FREED) != 0);
      } else {  // the input itself
        RT_CHECK_EQ(inner->obj.handle, U64(hidden_inner));
        RT_CHECK_EQ(inner->obj.hdr.flags & MPIDBG_REC_FREED, 0);
      }
    }
  }
  if (const Rec* r = Live(st)) RT_CHECK(Types(r) == std::vector<uint64_t>({U64(hidden), U64(MPI_CHAR)}));
  CheckRebuilt(st);
  MPI_Type_free(&st);
  PMPI_Type_free(&hidden);
  PMPI_Type_free(&hidden_inner);
}

// ---- references handed out by the application's MPI_Type_get_contents ----
bool ContentsAreNewTypes() { return Root()->flavour == MPIDBG_FLAVOUR_OPENMPI; }

// MPI_Type_get_contents of `t` through the application's interface: the input types.
std::vector<MPI_Datatype> GetContents(MPI_Datatype t) {
  int ni = 0, na = 0, nd = 0, combiner = 0;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
  std::vector<int> ints(ni + 1);
  std::vector<MPI_Aint> addrs(na + 1);
  std::vector<MPI_Datatype> types(nd + 1, MPI_DATATYPE_NULL);
  RT_CHECK_EQ(MPI_Type_get_contents(t, ni, na, nd, ints.data(), addrs.data(), types.data()),
              MPI_SUCCESS);
  types.resize(nd);
  return types;
}

uint32_t FreedBits(const Rec* r) {
  return r->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
}

// A returned type the runtime recorded itself: creator MPI_Type_get_contents, live.
void CheckRecordedByContents(MPI_Datatype t, int32_t combiner) {
  const Rec* r = Live(t);
  RT_CHECK(r != nullptr);
  if (r == nullptr) return;
  RT_CHECK_EQ(r->obj.creator, MPIDBG_CALL_MPI_Type_get_contents);
  RT_CHECK_EQ(r->combiner, combiner);
  RT_CHECK_EQ(FreedBits(r), 0);
  CheckAgainstMpi(r, t);
}

// A struct of a derived vector and MPI_INT, decoded twice by the application. MPICH hands
// out the vector's own handle each time: with the original, the application holds three
// references, and the record is FREED only with the last free (still not RELEASED while
// the struct lives). Open MPI hands out a new type each time: each gets a record of its
// own, and the original's record is freed with the original. A predefined input is no
// reference at all.
void CheckContentsReferences() {
  MPI_Datatype vec, st;
  MPI_Type_vector(3, 1, 4, MPI_DOUBLE, &vec);
  const int bl[2] = {1, 2};
  const MPI_Aint disp[2] = {0, 64};
  const MPI_Datatype types[2] = {vec, MPI_INT};
  MPI_Type_create_struct(2, bl, disp, types, &st);
  const Rec* rv = Live(vec);
  const Rec* rint = Live(MPI_INT);
  RT_CHECK(rv != nullptr && rint != nullptr);
  if (rv == nullptr || rint == nullptr) return;
  const uint64_t vec_handle = U64(vec), st_handle = U64(st);

  std::vector<MPI_Datatype> got1 = GetContents(st), got2 = GetContents(st);
  RT_CHECK(got1.size() == 2 && got2.size() == 2);
  if (got1.size() != 2 || got2.size() != 2) return;
  RT_CHECK(got1[1] == MPI_INT && got2[1] == MPI_INT);
  RT_CHECK(Live(MPI_INT) == rint);
  RT_CHECK_EQ(rint->obj.hdr.flags & MPIDBG_REC_FREED, 0);
  const uint64_t copies[2] = {U64(got1[0]), U64(got2[0])};
  if (ContentsAreNewTypes()) {
    RT_CHECK(got1[0] != vec && got2[0] != vec && got1[0] != got2[0]);
    CheckRecordedByContents(got1[0], MPIDBG_COMBINER_VECTOR);
    CheckRecordedByContents(got2[0], MPIDBG_COMBINER_VECTOR);
  } else {
    RT_CHECK(got1[0] == vec && got2[0] == vec);
  }
  RT_CHECK(Live(vec) == rv);

  // The original goes first.
  MPI_Type_free(&vec);
  if (ContentsAreNewTypes()) {
    RT_CHECK(Live(got1[0]) != nullptr && Live(got2[0]) != nullptr);
    RT_CHECK_EQ(FreedBits(rv), MPIDBG_REC_FREED);  // the struct still uses it
    for (int i = 0; i < 2; ++i) {
      const Rec* rc = Live(i == 0 ? got1[0] : got2[0]);
      MPI_Type_free(i == 0 ? &got1[0] : &got2[0]);
      RT_CHECK(FindObject<Rec>(Table(), copies[i]) == nullptr);
      RT_CHECK(FindObject<Rec>(Table(), copies[i], false) == rc);
      if (rc != nullptr) RT_CHECK_EQ(FreedBits(rc), MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
    }
  } else {
    // Two references left: the record stays live, and stays with the next free too.
    RT_CHECK(Live(got1[0]) == rv);
    RT_CHECK_EQ(FreedBits(rv), 0);
    RT_CHECK_EQ(rv->obj.free_serial, 0);
    MPI_Type_free(&got1[0]);
    RT_CHECK(FindObject<Rec>(Table(), vec_handle) == rv);
    RT_CHECK_EQ(FreedBits(rv), 0);
    MPI_Type_free(&got2[0]);  // the last reference
    RT_CHECK(FindObject<Rec>(Table(), vec_handle) == nullptr);
    RT_CHECK(FindObject<Rec>(Table(), vec_handle, false) == rv);
    RT_CHECK_EQ(FreedBits(rv), MPIDBG_REC_FREED);  // the struct still uses it
    RT_CHECK(rv->obj.free_serial != 0);
  }
  // The struct released, the vector goes with it.
  MPI_Type_free(&st);
  const Rec* fs = FindObject<Rec>(Table(), st_handle, false);
  RT_CHECK(fs != nullptr);
  if (fs != nullptr) RT_CHECK_EQ(FreedBits(fs), MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
  if (const Rec* fv = FindObject<Rec>(Table(), vec_handle, false)) {
    RT_CHECK(fv == rv);
    RT_CHECK_EQ(FreedBits(fv), MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
  }

  // Nothing built from it: the last reference freed, the record is FREED and RELEASED
  // at once (MPICH); the copy's record goes its own way (Open MPI).
  MPI_Datatype inner, dup;
  MPI_Type_contiguous(2, MPI_INT, &inner);
  MPI_Type_dup(inner, &dup);
  const Rec* ri = Live(inner);
  RT_CHECK(ri != nullptr);
  if (ri == nullptr) return;
  const uint64_t inner_handle = U64(inner);
  std::vector<MPI_Datatype> ref = GetContents(dup);
  RT_CHECK(ref.size() == 1);
  if (ref.size() != 1) return;
  MPI_Type_free(&dup);
  MPI_Type_free(&inner);
  if (ContentsAreNewTypes()) {
    RT_CHECK_EQ(FreedBits(ri), MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
    CheckRecordedByContents(ref[0], MPIDBG_COMBINER_CONTIGUOUS);
  } else {
    RT_CHECK_EQ(U64(ref[0]), inner_handle);
    RT_CHECK(FindObject<Rec>(Table(), inner_handle) == ri);
    RT_CHECK_EQ(FreedBits(ri), 0);
  }
  const Rec* rr = Live(ref[0]);
  const uint64_t ref_handle = U64(ref[0]);
  MPI_Type_free(&ref[0]);
  const Rec* gone = FindObject<Rec>(Table(), ref_handle, false);
  RT_CHECK(gone != nullptr && gone == rr);
  if (gone != nullptr) RT_CHECK_EQ(FreedBits(gone), MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
}

// A handle MPI_Type_get_contents hands out that the runtime had no record of (the
// struct and its input made with PMPI_, as through the Fortran bindings): it gets a
// record, creator MPI_Type_get_contents, and its free is tracked.
void CheckContentsOfUnseenType() {
  MPI_Datatype hidden, st;
  PMPI_Type_contiguous(2, MPI_SHORT, &hidden);
  const int bl[1] = {3};
  const MPI_Aint disp[1] = {0};
  const MPI_Datatype types[1] = {hidden};
  PMPI_Type_create_struct(1, bl, disp, types, &st);
  RT_CHECK(Live(hidden) == nullptr && Live(st) == nullptr);
  std::vector<MPI_Datatype> got = GetContents(st);
  RT_CHECK(got.size() == 1);
  if (got.size() != 1) return;
  if (!ContentsAreNewTypes()) RT_CHECK(got[0] == hidden);
  CheckRecordedByContents(got[0], MPIDBG_COMBINER_CONTIGUOUS);
  const Rec* r = Live(got[0]);
  if (r != nullptr) {
    RT_CHECK(Ints(r) == std::vector<int32_t>({2}));
    RT_CHECK(Types(r) == std::vector<uint64_t>({U64(MPI_SHORT)}));
  }
  RT_CHECK(Live(st) == nullptr);  // only what was handed out is recorded
  const uint64_t handle = U64(got[0]);
  MPI_Type_free(&got[0]);
  RT_CHECK(FindObject<Rec>(Table(), handle) == nullptr);
  const Rec* f = FindObject<Rec>(Table(), handle, false);
  RT_CHECK(f != nullptr && f == r);
  if (f != nullptr) RT_CHECK((f->obj.hdr.flags & MPIDBG_REC_FREED) != 0);
  PMPI_Type_free(&st);
  PMPI_Type_free(&hidden);
}

// A type freed while a pending receive uses it is RELEASED only after the receive.
void CheckPendingOperation() {
  MPI_Datatype t;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_commit(&t);
  const uint64_t handle = U64(t);
  int in[2] = {0, 0}, out[2] = {7, 8};
  MPI_Request req;
  MPI_Irecv(in, 1, t, 0, 5, MPI_COMM_SELF, &req);
  MPI_Type_free(&t);
  const Rec* r = FindObject<Rec>(Table(), handle, false);
  RT_CHECK(r != nullptr);
  if (r == nullptr) return;
  RT_CHECK_EQ(r->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED), MPIDBG_REC_FREED);
  MPI_Send(out, 2, MPI_INT, 0, 5, MPI_COMM_SELF);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  RT_CHECK(in[0] == 7 && in[1] == 8);
  MPI_Datatype other;  // any later datatype call looks again
  MPI_Type_contiguous(1, MPI_INT, &other);
  RT_CHECK((r->obj.hdr.flags & MPIDBG_REC_RELEASED) != 0);
  MPI_Type_free(&other);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  if (Root() != nullptr) {
    CheckPredefined();
    CheckConstructors();
    CheckBoundsFromArguments();
    CheckF90();
    CheckNestedAndLifetime();
    CheckPendingOperation();
    CheckContentsReferences();
    CheckContentsOfUnseenType();
    CheckUnseenInputs();  // last: it leaves records of types freed unseen
  }
  int rc = Finish(argc > 1 ? argv[1] : "datatypes_check");
  MPI_Finalize();
  return rc;
}
