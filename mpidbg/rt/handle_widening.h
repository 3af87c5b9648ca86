// handle_widening.h — MPI handles widened to the 64-bit values records store.
//
// MPICH's handles are ints, Open MPI's are pointers to library objects; overloading
// picks the right widening for whichever mpi.h this file is compiled against.
#ifndef MPIDBG_RT_HANDLE_WIDENING_H
#define MPIDBG_RT_HANDLE_WIDENING_H

#include <mpi.h>
#include <stdint.h>

#include <type_traits>

#include "core/inline.h"
namespace mpidbg::rt {

// Integer handles: zero-extend, so a handle reads back the same through a 32-bit
// field (the plugin reads root.handle_size bytes).
MPIDBG_ALWAYS_INLINE uint64_t HandleToU64(int handle) {
  return static_cast<uint64_t>(static_cast<uint32_t>(handle));
}

// Pointer handles: the object's address.
template <typename T>
MPIDBG_ALWAYS_INLINE uint64_t HandleToU64(T* handle) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle));
}

// The reverse, for a handle kept widened in a record (MPI_Comm, MPI_Win, ...): the
// pointer back for Open MPI, the low 32 bits for MPICH's int handles.
template <typename H>
MPIDBG_ALWAYS_INLINE H HandleFromU64(uint64_t v) {
  if constexpr (std::is_pointer_v<H>) {
    return reinterpret_cast<H>(static_cast<uintptr_t>(v));
  } else {
    return static_cast<H>(static_cast<uint32_t>(v));
  }
}

MPIDBG_ALWAYS_INLINE uint64_t AddressOf(const void* p) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HANDLE_WIDENING_H
