// sized_copy.h — the "caller sets size" rule of mpidbg_ext.h.
//
// Every extension structure begins with uint32_t size, set by the caller to the size of
// its own definition. The plugin fills at most that many bytes, so an older host and a
// newer plugin (or the reverse) still agree on the common prefix.
#ifndef MPIDBG_EXTENSIONS_SIZED_COPY_H
#define MPIDBG_EXTENSIONS_SIZED_COPY_H

#include <cstdint>
#include <cstring>

namespace mpidbg::extensions {

// Bytes of a T the caller can take, or 0 when `out` is null or its size is too small to
// hold even the size field.
template <typename T>
uint32_t caller_size(const T* out) {
  if (out == nullptr) return 0;
  uint32_t size;
  std::memcpy(&size, out, sizeof size);
  if (size < sizeof(uint32_t)) return 0;
  return size < sizeof(T) ? size : static_cast<uint32_t>(sizeof(T));
}

// Copies the first `n` bytes of `full` to `out` with `size` set to n.
template <typename T>
void copy_prefix(T* out, T full, uint32_t n) {
  full.size = n;
  std::memcpy(static_cast<void*>(out), &full, n);
}

// A host-side count as the int32_t the extension structures carry.
inline int32_t clamp_count(size_t n) {
  return n > INT32_MAX ? INT32_MAX : static_cast<int32_t>(n);
}

}  // namespace mpidbg::extensions

#endif  // MPIDBG_EXTENSIONS_SIZED_COPY_H
