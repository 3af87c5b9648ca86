// record_arrays.h — the variable-length arrays beside records (records.h: mpidbg_array).
//
// An array is written once and replaced as a whole: build the new one, point the record
// at it inside the record's write window, then free the old one. A debugger stopped at
// any instruction sees either the old or the new array, each complete. Not on a
// per-message path (creation, free, set_name/set_info and the like).
#ifndef MPIDBG_CORE_RECORD_ARRAYS_H
#define MPIDBG_CORE_RECORD_ARRAYS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpidbg/records.h"

namespace mpidbg::core {

// A heap copy of `count` elements of `elem_size` bytes. An empty array (address 0,
// count 0) when count is 0 or memory ran out; `*ok` (if given) says which.
inline mpidbg_array MakeArray(const void* data, uint64_t count, uint32_t elem_size,
                              bool* ok = nullptr) {
  mpidbg_array a{0, 0, elem_size};
  if (ok != nullptr) *ok = true;
  if (count == 0 || data == nullptr || elem_size == 0) return a;
  if (count > UINT32_MAX || count > SIZE_MAX / elem_size) {
    if (ok != nullptr) *ok = false;
    return a;
  }
  void* copy = malloc(static_cast<size_t>(count) * elem_size);
  if (copy == nullptr) {
    if (ok != nullptr) *ok = false;
    return a;
  }
  memcpy(copy, data, static_cast<size_t>(count) * elem_size);
  a.address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(copy));
  a.count = static_cast<uint32_t>(count);
  return a;
}

inline void FreeArray(const mpidbg_array& a) {
  if (a.address != 0) free(reinterpret_cast<void*>(static_cast<uintptr_t>(a.address)));
}

template <typename T>
inline T* ArrayData(const mpidbg_array& a) {
  return reinterpret_cast<T*>(static_cast<uintptr_t>(a.address));
}

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_RECORD_ARRAYS_H
