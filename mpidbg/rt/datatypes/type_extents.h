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
// alignment), not for empty types, not for arguments of a million or more. Everything
// else is asked of MPI as before.
#ifndef MPIDBG_RT_TYPE_EXTENTS_H
#define MPIDBG_RT_TYPE_EXTENTS_H

#include <mpi.h>
#include <stdint.h>

#include "rt/hot/datatype_info.h"
#include "rt/hot/hook_args_datatypes.h"

namespace mpidbg::rt {

// Every argument and the input's size and extent below this, the arithmetic below
// cannot overflow (three factors of at most 2^20 each): one comparison instead of a
// check per operation. Types with a million blocks or more are asked of MPI.
constexpr int64_t kArithmeticBound = int64_t{1} << 20;

// `blocks` blocks of `blocklength` input elements each, block i starting at byte
// i * stride_bytes, stride_bytes = stride * stride_unit (all nonnegative, below
// kArithmeticBound; the input's lb 0, as every predefined type's): the last element is
// the one furthest up, so the span from the first element's start to the last's is
// (blocks - 1) * stride_bytes + (blocklength - 1) * extent.
inline void BlockExtents(const TypeExtents& in, int64_t blocks, int64_t blocklength,
                         int64_t stride, int64_t stride_unit, TypeExtents* out) {
  const int64_t span = (blocks - 1) * stride * stride_unit + (blocklength - 1) * in.extent;
  out->size = blocks * blocklength * in.size;
  out->lb = in.lb;
  out->extent = span + in.extent;
  out->true_lb = in.true_lb;
  out->true_extent = span + in.true_extent;
}

// The size and bounds of the type `call` made from `input`'s (a predefined type's), when
// its constructor and arguments are of the kind above; false: ask MPI.
inline bool ExtentsFromArguments(const TypeCreateArgs& call, const TypeExtents& input,
                                 TypeExtents* out) {
  if (input.lb != 0 || input.extent <= 0 || input.size <= 0 || input.extent >= kArithmeticBound ||
      input.size >= kArithmeticBound || !call.ints.singles) {
    return false;
  }
  const ArgRuns<int>& ints = call.ints;
  auto within = [](int v) { return v > 0 && v < kArithmeticBound; };
  switch (call.combiner) {
    case MPI_COMBINER_CONTIGUOUS: {
      if (ints.count != 1) return false;
      const int count = *ints.run[0].at;
      if (!within(count)) return false;
      BlockExtents(input, 1, count, 0, 0, out);
      return true;
    }
    case MPI_COMBINER_VECTOR: {
      if (ints.count != 3) return false;
      const int count = *ints.run[0].at;
      const int blocklength = *ints.run[1].at;
      const int stride = *ints.run[2].at;
      if (!within(count) || !within(blocklength) || stride < 0 || stride >= kArithmeticBound) {
        return false;
      }
      BlockExtents(input, count, blocklength, stride, input.extent, out);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_TYPE_EXTENTS_H
