// type_map.h — a datatype's type map rebuilt from the constructor records alone.
//
// A derived datatype's record holds its combiner and the constructor's inputs in the
// order of MPI_Type_get_contents (integers, addresses, input types). Following them
// down to the predefined types gives the type map: runs of consecutive elements of one
// basic type at their displacements. The engine reads the records through an abstract
// TypeSource, so it knows nothing of the target: the plugin's source decodes the
// runtime's records, a test's source holds them in memory.
//
// Target memory is untrusted, so every step is bounded: nesting depth, cycles (a
// corrupt record may name itself among its inputs), the number of runs produced, and
// the total work. Huge replication counts cost no time beyond what the runs produced
// need: copies that only extend the previous run, or add nothing, are accounted for in
// closed form. The element count of the whole map is computed separately, without
// expanding counts, so it is known even when the map is cut.
#ifndef MPIDBG_HANDLES_TYPE_MAP_H
#define MPIDBG_HANDLES_TYPE_MAP_H

#include <cstddef>
#include <cstdint>

#include "mpidbg/records.h"

namespace mpidbg::handles {

// A datatype record as the source numbers them (any non-negative value).
using TypeRef = int64_t;
constexpr TypeRef kNoType = -1;

// The scalar facts of one datatype record.
struct TypeFacts {
  uint64_t handle = 0;
  int32_t combiner = MPIDBG_COMBINER_UNKNOWN;  // enum mpidbg_combiner
  bool predefined = false;                     // MPIDBG_REC_PREDEFINED
  int64_t size = 0;
  int64_t lb = 0;
  int64_t extent = 0;
  int64_t true_lb = 0;
  int64_t true_extent = 0;
};

// The constructor's inputs, in MPI_Type_get_contents order. The pointers stay valid
// as long as the source does. `inputs[i]` is the record `types[i]` denotes for this
// type (kNoType when the source has none).
struct TypeContents {
  const int32_t* integers = nullptr;
  size_t num_integers = 0;
  const int64_t* addresses = nullptr;
  size_t num_addresses = 0;
  const uint64_t* types = nullptr;
  const TypeRef* inputs = nullptr;
  size_t num_types = 0;
};

// Where the engine reads records from.
class TypeSource {
 public:
  // False when there is no such record.
  virtual bool facts(TypeRef ref, TypeFacts* out) = 0;
  // False when the record's arrays cannot be read (damaged, out of memory).
  virtual bool contents(TypeRef ref, TypeContents* out) = 0;

 protected:
  ~TypeSource() = default;
};

// True for a type the map does not look into: predefined, NAMED, or MPI_Type_create_f90_*.
bool is_basic_type(const TypeFacts& facts);

// One run of the map: `count` elements of the basic type `basic` (handle
// `basic_handle`), `elem_size` bytes each, the first at `displacement`.
struct TypeRun {
  TypeRef basic = kNoType;
  uint64_t basic_handle = 0;
  int64_t displacement = 0;
  int64_t count = 0;
  int64_t elem_size = 0;
};

// Receives the runs in map order; false when it is out of memory.
class TypeRunSink {
 public:
  virtual bool append(const TypeRun& run) = 0;

 protected:
  ~TypeRunSink() = default;
};

struct TypeMapOptions {
  size_t max_entries = 4096;         // runs at most; more: truncated
  uint32_t flavour = MPIDBG_FLAVOUR_UNKNOWN;  // whose MPI_ORDER_* / MPI_DISTRIBUTE_* values
  int max_depth = 64;                // nesting of derived types
  uint64_t work_budget = 1u << 24;   // steps of the expansion; more: truncated
  uint64_t count_budget = 1u << 22;  // steps of the element count; more: count unknown
  // Where the expansion's working state (tens of KiB: too much for a debugger thread's
  // stack) is allocated; malloc/free when null.
  void* (*allocate)(size_t bytes) = nullptr;
  void (*release)(void* p) = nullptr;
};

struct TypeMapResult {
  size_t runs = 0;         // runs given to the sink
  int64_t elements = 0;    // basic elements of the whole map (saturated); -1 when unknown
  bool truncated = false;  // cut at max_entries or the work budget
  bool incomplete = false; // a record was missing, unreadable, malformed or cyclic
  bool out_of_memory = false;
};

// Expands the type map of `top` into `sink`. Returns false only when the sink ran out
// of memory (out->out_of_memory); everything else is described by *out.
bool build_type_map(TypeSource& source, TypeRef top, const TypeMapOptions& options,
                    TypeRunSink& sink, TypeMapResult* out);

// The MPI's own values of the darray and subarray constants, which the runtime
// records as MPI_Type_get_contents returns them.
struct DistributionValues {
  int32_t order_c;
  int32_t order_fortran;
  int32_t distribute_block;
  int32_t distribute_cyclic;
  int32_t distribute_none;
  int32_t distribute_dflt_darg;
};
extern const DistributionValues kMpichDistributionValues;
extern const DistributionValues kOpenMpiDistributionValues;

}  // namespace mpidbg::handles

#endif  // MPIDBG_HANDLES_TYPE_MAP_H
