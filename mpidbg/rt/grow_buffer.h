// grow_buffer.h — a malloc'd array of plain records that grows by doubling, for
// metadata built at MPI_Init or on demand (never on a per-call path). Allocation
// failure is reported, not thrown: the runtime builds without exceptions.
#ifndef MPIDBG_RT_GROW_BUFFER_H
#define MPIDBG_RT_GROW_BUFFER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <type_traits>

#include "mpidbg/records.h"

namespace mpidbg::rt {

template <typename T>
class GrowBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "plain records only");

 public:
  GrowBuffer() = default;
  GrowBuffer(const GrowBuffer&) = delete;
  GrowBuffer& operator=(const GrowBuffer&) = delete;
  ~GrowBuffer() { free(data_); }

  uint32_t size() const { return size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](uint32_t i) { return data_[i]; }

  // Exactly `n` elements (new ones uninitialised); false when memory ran out.
  bool Resize(uint32_t n) {
    if (n > size_ && !Reserve(n - size_)) return false;
    size_ = n;
    return true;
  }

  // Room for `extra` more elements; false when memory ran out or the count overflows.
  bool Reserve(uint64_t extra) {
    uint64_t need = uint64_t{size_} + extra;
    if (need <= capacity_) return true;
    if (need > UINT32_MAX / 2 || need > SIZE_MAX / sizeof(T)) return false;
    uint64_t capacity = capacity_ == 0 ? 16 : capacity_;
    while (capacity < need) capacity *= 2;
    void* grown = realloc(data_, static_cast<size_t>(capacity) * sizeof(T));
    if (grown == nullptr) return false;
    data_ = static_cast<T*>(grown);
    capacity_ = static_cast<uint32_t>(capacity);
    return true;
  }

  bool Push(const T& value) { return Append(&value, 1); }

  bool Append(const T* values, uint32_t count) {
    if (count == 0) return true;
    if (!Reserve(count)) return false;
    memcpy(data_ + size_, values, sizeof(T) * count);
    size_ += count;
    return true;
  }

  // Hands the elements over as a records.h array (the caller frees it with
  // core::FreeArray); the buffer is empty afterwards.
  mpidbg_array Release() {
    mpidbg_array a{0, 0, static_cast<uint32_t>(sizeof(T))};
    if (size_ > 0) {
      a.address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(data_));
      a.count = size_;
    } else {
      free(data_);
    }
    data_ = nullptr;
    size_ = capacity_ = 0;
    return a;
  }

 private:
  T* data_ = nullptr;
  uint32_t size_ = 0;
  uint32_t capacity_ = 0;
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_GROW_BUFFER_H
