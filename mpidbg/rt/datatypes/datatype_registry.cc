// datatype_registry.cc — see datatype_registry.h.
#include "rt/datatypes/datatype_registry.h"

#include <stdlib.h>
#include <string.h>

#include "core/concurrency.h"
#include "core/record_arrays.h"
#include "core/record_write.h"
#include "core/spinlock.h"
#include "rt/datatypes/datatype_lifetime.h"
#include "rt/datatypes/type_envelope.h"
#include "rt/datatypes/type_extents.h"
#include "rt/hot/datatype_info.h"
#include "rt/handle_widening.h"
#include "rt/process/init_steps.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {
namespace {

static_assert(sizeof(int) == sizeof(int32_t), "integers are stored as int32_t");
static_assert(sizeof(MPI_Aint) == sizeof(int64_t), "addresses are stored as int64_t");

// Bounds the recording of unrecorded input types (a type map is a tree; its depth is
// small in any real program, and this keeps a corrupt answer from recursing forever).
constexpr int kMaxInputDepth = 64;

// One type is recorded at a time, so two threads never both record a missing input
// (or the one cached MPI_Type_create_f90_* type). Held across local MPI queries only,
// and taken only while threads may race: recording happens in MPI calls alone.
core::SpinLock g_record_lock;

// A type's combiner and contents: either MPI_Type_get_envelope + MPI_Type_get_contents
// of it (a small constructor's arrays, as most are, fit the inline room, so reading
// them allocates nothing; larger ones are allocated), or the stretches of the
// constructor's own arguments (`int_runs`, `addr_runs`: nothing is copied until the
// record is written, straight into it). Never copied: the pointers may point into the
// structure itself.
struct Contents {
  Contents() = default;
  Contents(const Contents&) = delete;
  Contents& operator=(const Contents&) = delete;
  int ni = 0, na = 0, nd = 0;
  int combiner = MPI_COMBINER_NAMED;
  int* ints = nullptr;
  MPI_Aint* addrs = nullptr;
  MPI_Datatype* types = nullptr;
  const ArgRuns<int>* int_runs = nullptr;       // instead of ints
  const ArgRuns<MPI_Aint>* addr_runs = nullptr;  // instead of addrs
  int room_ints[16];
  MPI_Aint room_addrs[8];
  MPI_Datatype room_types[8];
};

// Space for `want` elements: the caller's inline room when it holds them, else
// allocated (nullptr when memory ran out); given back with FreeRoomOrHeap.
template <typename T, size_t kRoom>
T* RoomOrHeap(T (&room)[kRoom], size_t want) {
  return want <= kRoom ? room : static_cast<T*>(malloc(sizeof(T) * want));
}

template <typename T, size_t kRoom>
void FreeRoomOrHeap(T (&room)[kRoom], T* p) {
  // Contents taken from the call's arguments have no arrays: no call to free at all.
  if (p != nullptr && p != room) free(p);
}

bool IsF90(int combiner) {
  return combiner == MPI_COMBINER_F90_REAL || combiner == MPI_COMBINER_F90_COMPLEX ||
         combiner == MPI_COMBINER_F90_INTEGER;
}

int EnvelopeCombiner(MPI_Datatype t) {
  TypeEnvelope e;
  if (!ReadTypeEnvelope(t, &e)) return -1;
  return e.combiner;
}

void FreeContents(Contents* c) {
  FreeRoomOrHeap(c->room_ints, c->ints);
  FreeRoomOrHeap(c->room_addrs, c->addrs);
  FreeRoomOrHeap(c->room_types, c->types);
  c->ints = nullptr;
  c->addrs = nullptr;
  c->types = nullptr;
  c->ni = c->na = c->nd = 0;
}

// False when MPI would not describe the type; a named type has no contents.
bool ReadContents(MPI_Datatype t, Contents* c) {
  TypeEnvelope e;
  if (!ReadTypeEnvelope(t, &e)) return false;
  c->ni = e.ni;
  c->na = e.na;
  c->nd = e.nd;
  c->combiner = e.combiner;
  if (c->combiner == MPI_COMBINER_NAMED || c->ni < 0 || c->na < 0 || c->nd < 0) {
    c->ni = c->na = c->nd = 0;
    return true;
  }
  // One element at least, so no array pointer MPI sees is null.
  c->ints = RoomOrHeap(c->room_ints, static_cast<size_t>(c->ni) + 1);
  c->addrs = RoomOrHeap(c->room_addrs, static_cast<size_t>(c->na) + 1);
  c->types = RoomOrHeap(c->room_types, static_cast<size_t>(c->nd) + 1);
  if (c->ints == nullptr || c->addrs == nullptr || c->types == nullptr ||
      !ReadTypeContents(t, e, c->ints, c->addrs, c->types)) {
    FreeContents(c);  // the combiner alone is still worth recording
    return true;
  }
  return true;
}

// Every element of `runs` copied into `out` (room for `total`). Most stretches are one
// scalar argument.
template <typename T>
void CopyRuns(const ArgRuns<T>& runs, T* out) {
  if (runs.singles) {
    // The count read once: `out` may alias it as far as the compiler knows.
    const int n = runs.count;
    for (int i = 0; i < n; ++i) out[i] = *runs.run[i].at;
    return;
  }
  for (int i = 0; i < runs.count; ++i) {
    const ArgRun<T>& r = runs.run[i];
    if (r.n == 1) {
      *out++ = *r.at;
    } else if (r.n > 1) {
      memcpy(out, r.at, sizeof(T) * static_cast<size_t>(r.n));
      out += r.n;
    }
  }
}

// The contents' integers and addresses copied into `out` (room for c.ni / c.na).
void CopyInts(const Contents& c, int32_t* out) {
  if (c.int_runs != nullptr) {
    CopyRuns(*c.int_runs, out);
  } else if (c.ni > 0) {
    memcpy(out, c.ints, static_cast<size_t>(c.ni) * sizeof(int32_t));
  }
}

void CopyAddrs(const Contents& c, int64_t* out) {
  if (c.addr_runs != nullptr) {
    CopyRuns(*c.addr_runs, reinterpret_cast<MPI_Aint*>(out));
  } else if (c.na > 0) {
    memcpy(out, c.addrs, static_cast<size_t>(c.na) * sizeof(int64_t));
  }
}

// Elements in `runs`, or -1 when a stretch is negative or the whole too large to be a
// type MPI accepted (it checked the counts; this bounds what the runtime copies).
template <typename T>
int64_t RunsLength(const ArgRuns<T>& runs) {
  constexpr int64_t kMaxElements = int64_t{1} << 24;
  if (runs.singles) return runs.count;  // each a scalar argument, never null
  int64_t total = 0;
  for (int i = 0; i < runs.count; ++i) {
    if (runs.run[i].n < 0 || (runs.run[i].n > 0 && runs.run[i].at == nullptr)) return -1;
    total += runs.run[i].n;
    if (total > kMaxElements) return -1;
  }
  return total;
}

// The contents of a type the call's own arguments describe (TypeCreateArgs): what
// MPI_Type_get_envelope/get_contents would report, without asking MPI, as the call's
// stretches (copied when the record is written). False when the arguments do not add
// up; the caller then reads them back.
bool ContentsFromCall(const TypeCreateArgs& call, int ninputs, Contents* c) {
  const int64_t ni = RunsLength(call.ints);
  const int64_t na = RunsLength(call.addrs);
  if (ni < 0 || na < 0 || ninputs < 0) return false;
  c->combiner = call.combiner;
  c->ni = static_cast<int>(ni);
  c->na = static_cast<int>(na);
  c->nd = ninputs;  // the inputs themselves are the call's (`inputs`)
  c->int_runs = &call.ints;
  c->addr_runs = &call.addrs;
  return true;
}

// MPI_Type_get_contents hands back a new reference to every input type that is not
// predefined (MPI standard, MPI_TYPE_GET_CONTENTS); the runtime gives those back. Types
// from MPI_Type_create_f90_* are predefined and must not be freed.
//
// Open MPI's new types (kContentsAreNewTypes) are recorded only when the runtime has no
// better input handle (a type made where the runtime could not see). Such a type is
// gone once given back, so its record is marked freed (`recorded_copies`).

void ReleaseContents(Contents* c, bool recorded_copies) {
  for (int i = 0; i < c->nd && c->types != nullptr; ++i) {
    MPI_Datatype t = c->types[i];
    if (t == MPI_DATATYPE_NULL) continue;
    if (!IsContentsReference(t)) continue;
    const bool recorded = recorded_copies && kContentsAreNewTypes;
    mpidbg_object_head* rec = recorded ? g_datatypes.Detach(HandleToU64(t)) : nullptr;
    if (PMPI_Type_free(&t) == MPI_SUCCESS) {
      DatatypeFreed(rec);
    } else {
      g_datatypes.Reattach(rec);
    }
  }
  FreeContents(c);
}

void FillSizes(MPI_Datatype t, const TypeExtents* bounds, mpidbg_datatype_record* rec) {
  if (bounds != nullptr) {
    rec->size = bounds->size;
    rec->lb = bounds->lb;
    rec->extent = bounds->extent;
    rec->true_lb = bounds->true_lb;
    rec->true_extent = bounds->true_extent;
    return;
  }
  MPI_Count size = 0, lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  if (PMPI_Type_size_x(t, &size) == MPI_SUCCESS) rec->size = size;
  if (PMPI_Type_get_extent_x(t, &lb, &extent) == MPI_SUCCESS) {
    rec->lb = lb;
    rec->extent = extent;
  }
  if (PMPI_Type_get_true_extent_x(t, &true_lb, &true_extent) == MPI_SUCCESS) {
    rec->true_lb = true_lb;
    rec->true_extent = true_extent;
  }
}

void ReadName(MPI_Datatype t, char* out, uint32_t out_size) {
  char name[MPI_MAX_OBJECT_NAME];
  int len = 0;
  name[0] = '\0';
  if (PMPI_Type_get_name(t, name, &len) != MPI_SUCCESS) name[0] = '\0';
  name[MPI_MAX_OBJECT_NAME - 1] = '\0';
  core::CopyName(out, out_size, name);
}

// The record's contents_room holds the integers, the addresses and the input types one
// after the other, each from an 8-byte boundary: the words they take, and whether they
// fit.
constexpr size_t kRoomWords = sizeof(mpidbg_datatype_record::contents_room) / sizeof(uint64_t);
constexpr size_t IntWords(int ni) { return (static_cast<size_t>(ni) * sizeof(int32_t) + 7) / 8; }
constexpr bool FitsRoom(int ni, int na, int nd) {
  return IntWords(ni) + static_cast<size_t>(na) + static_cast<size_t>(nd) <= kRoomWords;
}

// An array of `count` elements at `at` in the room (address 0 when empty).
mpidbg_array RoomArray(const void* at, int count, uint32_t elem_size) {
  return mpidbg_array{count != 0 ? static_cast<uint64_t>(reinterpret_cast<uintptr_t>(at)) : 0,
                      static_cast<uint32_t>(count), elem_size};
}

// The arrays in the record's own contents_room when they fit there together: no
// allocation, nothing to free. False when they do not fit.
bool FillArraysInRoom(const Contents& c, const MPI_Datatype* inputs, int n,
                      mpidbg_datatype_record* rec) {
  if (n < 0 || (n > 0 && inputs == nullptr) || !FitsRoom(c.ni, c.na, n)) return false;
  uint64_t* room = rec->contents_room;
  CopyInts(c, reinterpret_cast<int32_t*>(room));
  rec->integers = RoomArray(room, c.ni, sizeof(int32_t));
  room += IntWords(c.ni);
  CopyAddrs(c, reinterpret_cast<int64_t*>(room));
  rec->addresses = RoomArray(room, c.na, sizeof(int64_t));
  room += c.na;
  for (int i = 0; i < n; ++i) room[i] = HandleToU64(inputs[i]);
  rec->types = RoomArray(room, n, sizeof(uint64_t));
  return true;
}

// A heap array of `count` elements (freed with core::FreeArray) that `fill` writes;
// empty when count is 0 or memory ran out.
template <typename T, typename Fill>
mpidbg_array HeapArray(int64_t count, Fill fill) {
  mpidbg_array a{0, 0, sizeof(T)};
  if (count <= 0 || count > UINT32_MAX) return a;
  T* p = static_cast<T*>(malloc(sizeof(T) * static_cast<size_t>(count)));
  if (p == nullptr) return a;
  fill(p);
  a.address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
  a.count = static_cast<uint32_t>(count);
  return a;
}

void FillArrays(const Contents& c, const MPI_Datatype* inputs, int n,
                mpidbg_datatype_record* rec) {
  if (FillArraysInRoom(c, inputs, n, rec)) return;
  rec->integers = HeapArray<int32_t>(c.ni, [&](int32_t* out) { CopyInts(c, out); });
  rec->addresses = HeapArray<int64_t>(c.na, [&](int64_t* out) { CopyAddrs(c, out); });
  rec->types = mpidbg_array{0, 0, sizeof(uint64_t)};
  if (n <= 0 || inputs == nullptr) return;
  rec->types = HeapArray<uint64_t>(n, [&](uint64_t* out) {
    for (int i = 0; i < n; ++i) out[i] = HandleToU64(inputs[i]);
  });
}

// Writes a record of `t` with MPI's combiner `combiner`; `fill_arrays(rec)` fills its
// integers, addresses and types. `fortran`: the type was made through a Fortran binding
// (CallScope::fortran). `bounds`: the type's size and bounds when the caller knows them
// (type_extents.h), else nullptr: asked of MPI.
template <typename FillArraysFn>
mpidbg_datatype_record* Publish(MPI_Datatype t, int32_t creator, int combiner, bool fortran,
                                const TypeExtents* bounds, FillArraysFn&& fill_arrays) {
  uint32_t flags = 0;
  if (combiner == MPI_COMBINER_NAMED || IsF90(combiner)) {
    // Named types and the MPI_Type_create_f90_* results are predefined (usable
    // without a commit, never freed).
    flags = MPIDBG_REC_PREDEFINED | MPIDBG_TYPE_COMMITTED;
  }
  mpidbg_object_head* head = g_datatypes.BeginCreate(HandleToU64(t), creator, flags);
  if (head == nullptr) return nullptr;
  auto* rec = core::As<mpidbg_datatype_record>(head);
  rec->create_pc = (head->hdr.flags & MPIDBG_REC_PREDEFINED) != 0 ? 0 : CurrentCallSite();
  FillSizes(t, bounds, rec);
  fill_arrays(rec);
  rec->combiner = CombinerOf(combiner);
  // Where a type a constructor just made has no name (ConstructedTypeMayBeNamed),
  // MPI_Type_set_name gives it one later, and is recorded; a predefined type, a
  // duplicate or one met unrecorded may have one already.
  const bool maybe_named = creator == MPIDBG_CALL_NONE || creator == MPIDBG_CALL_MPI_Type_dup ||
                           (flags & MPIDBG_REC_PREDEFINED) != 0 ||
                           ConstructedTypeMayBeNamed(creator, rec->size);
  if (maybe_named) ReadName(t, rec->obj.name, sizeof rec->obj.name);
  // Where MPI gives a type its Fortran index only when first asked (Open MPI), asking
  // here would give every type one the application never asked for: a slot in MPI's
  // Fortran table per type made, filled and emptied again at its free (about 140
  // instructions of a type's life), and other indices than the program would get without
  // the runtime. It is asked only where it exists already (named types, types made
  // through a Fortran binding; not MPI_Type_create_f90_*'s, made on demand); the
  // application's own MPI_Type_c2f fills it in (NoteDatatypeFortranIndex).
  const bool has_index = !kFortranIndexOnRequest || fortran || combiner == MPI_COMBINER_NAMED;
  rec->obj.fortran_index = has_index ? static_cast<int32_t>(PMPI_Type_c2f(t)) : -1;
  g_datatypes.EndCreate(head);
  return rec;
}

// The commonest constructor call: every stretch of its contents one scalar argument
// (ArgRuns::singles: MPI_Type_contiguous, MPI_Type_vector, MPI_Type_create_hvector,
// MPI_Type_create_resized, MPI_Type_dup) and its one input a predefined type, whose
// contents fit the room (FitsRoom). Copied there straight from the arguments, without
// the general path's staging and stretch-by-stretch counting (FillArraysInRoom).
void FillScalarsInRoom(const TypeCreateArgs& call, MPI_Datatype input, mpidbg_datatype_record* rec) {
  uint64_t* room = rec->contents_room;
  const int ni = call.ints.count, na = call.addrs.count;
  auto* ints = reinterpret_cast<int32_t*>(room);
  for (int i = 0; i < ni; ++i) ints[i] = *call.ints.run[i].at;
  rec->integers = RoomArray(room, ni, sizeof(int32_t));
  room += IntWords(ni);
  auto* addrs = reinterpret_cast<int64_t*>(room);
  for (int i = 0; i < na; ++i) addrs[i] = *call.addrs.run[i].at;
  rec->addresses = RoomArray(room, na, sizeof(int64_t));
  room += na;
  room[0] = HandleToU64(input);
  rec->types = RoomArray(room, 1, sizeof(uint64_t));
}

mpidbg_datatype_record* LiveRecord(MPI_Datatype t) {
  mpidbg_object_head* head = g_datatypes.FindLive(HandleToU64(t));
  return head != nullptr ? core::As<mpidbg_datatype_record>(head) : nullptr;
}

mpidbg_datatype_record* Record(MPI_Datatype t, int32_t creator, const MPI_Datatype* inputs,
                               int ninputs, int depth, const TypeCreateArgs* call = nullptr,
                               bool fortran = false);

// The input handles' records, each recorded first when it has none, so every handle in
// a record's `types` has a record of its own. Predefined inputs the runtime has already
// described (its named-type cache) are recorded from MPI_Init on: not looked up. Fills
// `derived` (room for `n`; nullptr when there was no memory for it) with the records of
// derived inputs, returns how many.
int RecordInputs(const MPI_Datatype* in, int n, int depth, mpidbg_object_head** derived) {
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (in[i] == MPI_DATATYPE_NULL || IsDescribedPredefined(in[i])) continue;
    mpidbg_datatype_record* r = LiveRecord(in[i]);
    if (r == nullptr) r = Record(in[i], MPIDBG_CALL_NONE, nullptr, 0, depth + 1);
    if (derived != nullptr && r != nullptr && (r->obj.hdr.flags & MPIDBG_REC_PREDEFINED) == 0) {
      derived[count++] = &r->obj;
    }
  }
  return count;
}

mpidbg_datatype_record* Record(MPI_Datatype t, int32_t creator, const MPI_Datatype* inputs,
                               int ninputs, int depth, const TypeCreateArgs* call,
                               bool fortran) {
  if (t == MPI_DATATYPE_NULL || depth > kMaxInputDepth) return nullptr;
  Contents c;
  // The call's arguments are the contents of what it made: no MPI_Type_get_contents,
  // and no input references to give back.
  const bool described = call != nullptr && call->combiner >= 0 && inputs != nullptr &&
                         ContentsFromCall(*call, ninputs, &c);
  if (!described && !ReadContents(t, &c)) return nullptr;
  // MPI_Type_create_f90_* hands out one cached type per (p, r): already recorded.
  if (IsF90(c.combiner)) {
    if (mpidbg_datatype_record* existing = LiveRecord(t)) {
      ReleaseContents(&c, false);
      return existing;
    }
  }
  // The input handles: the caller's when it has them (what the application passed),
  // else what MPI_Type_get_contents gave.
  const bool from_call = inputs != nullptr && ninputs == c.nd;
  const MPI_Datatype* in = from_call ? inputs : c.types;
  const int n = from_call ? ninputs : (c.types != nullptr ? c.nd : 0);
  // Inputs first; the derived ones a new record names must outlive it
  // (datatype_lifetime.h).
  mpidbg_object_head* room[16];
  mpidbg_object_head** derived = RoomOrHeap(room, static_cast<size_t>(n > 0 ? n : 0));
  const int nderived = RecordInputs(in, n, depth, derived);
  mpidbg_datatype_record* rec = Publish(t, creator, c.combiner, fortran, nullptr,
                                        [&](mpidbg_datatype_record* r) { FillArrays(c, in, n, r); });
  if (nderived > 0 && rec != nullptr && (rec->obj.hdr.flags & MPIDBG_REC_PREDEFINED) == 0) {
    NoteDatatypeInputs(&rec->obj, derived, nderived);
  }
  FreeRoomOrHeap(room, derived);
  // Contents that were the call's own arguments have nothing to give back or free.
  if (!described) ReleaseContents(&c, /*recorded_copies=*/!from_call);
  return rec;
}

}  // namespace

void DropDatatypeArrays(mpidbg_datatype_record* rec) {
  const auto room_begin = reinterpret_cast<uintptr_t>(rec->contents_room);
  const uintptr_t room_end = room_begin + sizeof rec->contents_room;
  auto drop = [&](mpidbg_array* a) {
    const auto at = static_cast<uintptr_t>(a->address);
    if (at < room_begin || at >= room_end) core::FreeArray(*a);  // FreeArray skips 0
    a->address = 0;
    a->count = 0;
  };
  drop(&rec->integers);
  drop(&rec->addresses);
  drop(&rec->types);
}

bool IsContentsReference(MPI_Datatype t) {
  if (IsDescribedPredefined(t)) return false;
  const int combiner = EnvelopeCombiner(t);
  return combiner >= 0 && combiner != MPI_COMBINER_NAMED && !IsF90(combiner);
}

int32_t CombinerOf(int mpi_combiner) {
  switch (mpi_combiner) {
    case MPI_COMBINER_NAMED: return MPIDBG_COMBINER_NAMED;
    case MPI_COMBINER_DUP: return MPIDBG_COMBINER_DUP;
    case MPI_COMBINER_CONTIGUOUS: return MPIDBG_COMBINER_CONTIGUOUS;
    case MPI_COMBINER_VECTOR: return MPIDBG_COMBINER_VECTOR;
    case MPI_COMBINER_HVECTOR: return MPIDBG_COMBINER_HVECTOR;
    case MPI_COMBINER_INDEXED: return MPIDBG_COMBINER_INDEXED;
    case MPI_COMBINER_HINDEXED: return MPIDBG_COMBINER_HINDEXED;
    case MPI_COMBINER_INDEXED_BLOCK: return MPIDBG_COMBINER_INDEXED_BLOCK;
    case MPI_COMBINER_HINDEXED_BLOCK: return MPIDBG_COMBINER_HINDEXED_BLOCK;
    case MPI_COMBINER_STRUCT: return MPIDBG_COMBINER_STRUCT;
    case MPI_COMBINER_SUBARRAY: return MPIDBG_COMBINER_SUBARRAY;
    case MPI_COMBINER_DARRAY: return MPIDBG_COMBINER_DARRAY;
    case MPI_COMBINER_F90_REAL: return MPIDBG_COMBINER_F90_REAL;
    case MPI_COMBINER_F90_COMPLEX: return MPIDBG_COMBINER_F90_COMPLEX;
    case MPI_COMBINER_F90_INTEGER: return MPIDBG_COMBINER_F90_INTEGER;
    case MPI_COMBINER_RESIZED: return MPIDBG_COMBINER_RESIZED;
    default: return MPIDBG_COMBINER_UNKNOWN;  // e.g. MPI-1 *_INTEGER combiners
  }
}

mpidbg_datatype_record* RecordDatatype(MPI_Datatype datatype, int32_t creator,
                                       const MPI_Datatype* inputs, int ninputs) {
  core::MaybeSpinGuard guard(g_record_lock);
  return Record(datatype, creator, inputs, ninputs, 0);
}

mpidbg_datatype_record* RecordConstructedDatatype(MPI_Datatype datatype, int32_t creator,
                                                  const TypeCreateArgs& call, bool fortran) {
  core::MaybeSpinGuard guard(g_record_lock);
  // Scalar contents and one predefined input (one look-up of the named-type cache says
  // so and gives its bounds): nothing to record first, and a contiguous or vector
  // type's own bounds follow from the arguments (type_extents.h).
  TypeExtents input;
  if (datatype != MPI_DATATYPE_NULL && call.combiner >= 0 && call.ints.singles &&
      call.addrs.singles && call.ninputs == 1 && call.inputs != nullptr &&
      FitsRoom(call.ints.count, call.addrs.count, 1) &&
      DescribedPredefinedExtents(call.inputs[0], &input)) {
    TypeExtents bounds;
    const bool bounds_known = ExtentsFromArguments(call, input, &bounds);
    return Publish(datatype, creator, call.combiner, fortran, bounds_known ? &bounds : nullptr,
                   [&](mpidbg_datatype_record* rec) { FillScalarsInRoom(call, call.inputs[0], rec); });
  }
  return Record(datatype, creator, call.inputs, call.ninputs, 0, &call, fortran);
}

void NoteDatatypeFortranIndex(MPI_Datatype datatype, int32_t index) {
  if (!kFortranIndexOnRequest || index < 0) return;
  mpidbg_datatype_record* rec = LiveRecord(datatype);
  if (rec == nullptr || rec->obj.fortran_index == index) return;
  g_datatypes.BeginUpdate(&rec->obj);
  rec->obj.fortran_index = index;
  g_datatypes.EndUpdate(&rec->obj);
}

void MarkDatatypeCommitted(MPI_Datatype datatype) {
  mpidbg_datatype_record* rec = LiveRecord(datatype);
  if (rec == nullptr) rec = RecordDatatype(datatype, MPIDBG_CALL_NONE);
  if (rec == nullptr || (rec->obj.hdr.flags & MPIDBG_TYPE_COMMITTED) != 0) return;
  g_datatypes.BeginUpdate(&rec->obj);
  rec->obj.hdr.flags |= MPIDBG_TYPE_COMMITTED;
  g_datatypes.EndUpdate(&rec->obj);
}

void RenameDatatype(MPI_Datatype datatype) {
  mpidbg_datatype_record* rec = LiveRecord(datatype);
  if (rec == nullptr) {
    RecordDatatype(datatype, MPIDBG_CALL_NONE);  // a type made unseen: the record has the name
    return;
  }
  char name[sizeof rec->obj.name];
  ReadName(datatype, name, sizeof name);
  g_datatypes.BeginUpdate(&rec->obj);
  core::CopyName(rec->obj.name, sizeof rec->obj.name, name);
  g_datatypes.EndUpdate(&rec->obj);
}

void DatatypesAfterInit() { RegisterPredefinedDatatypes(); }

}  // namespace mpidbg::rt
