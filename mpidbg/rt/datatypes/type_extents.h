// type_extents.h — a new type's size and bounds worked out from its constructor's
// arguments, where that is exactly what MPI answers, so its record need not ask.
//
// MPI-4.0 (5.1.2, 5.1.7) defines a contiguous or vector type's size, lb, extent, true lb
// and true extent from its input type's. Three queries per constructor (about 130
// instructions on Open MPI, 160 on MPICH, of a datatype's create/commit/free cycle) come
// down to a few multiplications for the commonest case: MPI_Type_contiguous and
// MPI_Type_vector of a predefined type (whose bounds the named-type cache holds,
// rt/hot/datatype_info.h).
//
// Only where both MPIs answer as the standard says (measured over every predefined type
// of the runtime's table, counts 1-5, block lengths 1-3, strides 0-5, and checked again
// in tests/runtime/datatypes): not for negative strides (Open MPI 4.1 gives
// MPI_Type_vector(4, 2, -1, MPI_CHAR) lb 0 and extent 8, not -3 and 5), not for
// MPI_Type_create_hvector (Open MPI rounds the extent of a byte stride up to the input's
// alignment), not for empty types, not for arithmetic that would overflow. Everything
// else is asked of MPI as before.
#ifndef MPIDBG_RT_TYPE_EXTENTS_H
#define MPIDBG_RT_TYPE_EXTENTS_H

#include <mpi.h>
#include <stdint.h>

#include "rt/hot/datatype_info.h"
#include "rt/hot/hook_args_datatypes.h"

namespace mpidbg::rt {

// `blocks` blocks of `blocklength` input elements each, block i starting at byte
// i * stride_bytes (stride_bytes >= 0; the input's lb 0, as every predefined type's):
// the last element is the one furthest up, so the span from the first element's start
// to the last's is (blocks - 1) * stride_bytes + (blocklength - 1) * extent. False on
// overflow.
inline bool BlockExtents(const TypeExtents& in, int64_t blocks, int64_t blocklength,
                         int64_t stride_bytes, TypeExtents* out) {
  int64_t elements = 0, size = 0, a = 0, b = 0, span = 0, extent = 0, true_extent = 0;
  if (__builtin_mul_overflow(blocks, blocklength, &elements) ||
      __builtin_mul_overflow(elements, in.size, &size) ||
      __builtin_mul_overflow(blocks - 1, stride_bytes, &a) ||
      __builtin_mul_overflow(blocklength - 1, in.extent, &b) ||
      __builtin_add_overflow(a, b, &span) || __builtin_add_overflow(span, in.extent, &extent) ||
      __builtin_add_overflow(span, in.true_extent, &true_extent)) {
    return false;
  }
  out->size = size;
  out->lb = in.lb;
  out->extent = extent;
  out->true_lb = in.true_lb;
  out->true_extent = true_extent;
  return true;
}

// The size and bounds of the type `call` made from `input`'s (a predefined type's), when
// its constructor and arguments are of the kind above; false: ask MPI.
inline bool ExtentsFromArguments(const TypeCreateArgs& call, const TypeExtents& input,
                                 TypeExtents* out) {
  if (input.lb != 0 || input.extent <= 0 || input.size <= 0 || !call.ints.singles) return false;
  const ArgRuns<int>& ints = call.ints;
  switch (call.combiner) {
    case MPI_COMBINER_CONTIGUOUS: {
      if (ints.count != 1) return false;
      const int count = *ints.run[0].at;
      return count > 0 && BlockExtents(input, 1, count, 0, out);
    }
    case MPI_COMBINER_VECTOR: {
      if (ints.count != 3) return false;
      const int count = *ints.run[0].at;
      const int blocklength = *ints.run[1].at;
      const int stride = *ints.run[2].at;
      int64_t stride_bytes = 0;
      return count > 0 && blocklength > 0 && stride >= 0 &&
             !__builtin_mul_overflow(int64_t{stride}, input.extent, &stride_bytes) &&
             BlockExtents(input, count, blocklength, stride_bytes, out);
    }
    default:
      return false;
  }
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_TYPE_EXTENTS_H
