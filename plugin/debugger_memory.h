// debugger_memory.h — memory owned through the debugger's allocator.
//
// A message-queue DLL lives inside the debugger and must allocate with the debugger's
// mqs_malloc/mqs_free (the debugger may track or pool them). Everything that outlives one
// call — image and process info, decoded snapshots — is allocated here. Allocation
// failure is a value (nullptr / false), never an exception.
#ifndef MPIDBG_PLUGIN_DEBUGGER_MEMORY_H
#define MPIDBG_PLUGIN_DEBUGGER_MEMORY_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "mpidbg/mqs_interface.h"

namespace mpidbg::plugin {

// Remembers the debugger's basic callbacks (a copy; null clears them).
void set_basic_callbacks(const mqs_basic_callbacks* cb);
// The remembered callbacks, or nullptr before mqs_setup_basic_callbacks.
const mqs_basic_callbacks* basic_callbacks();

// nullptr when the callbacks are missing or the debugger is out of memory.
void* debugger_alloc(size_t bytes);
void debugger_free(void* p);
// Diagnostic text for the debugger's log (ignored when it gave no dprints callback).
void debug_print(const char* text);

// Constructs a T in debugger memory; nullptr on failure.
template <typename T, typename... Args>
T* debugger_new(Args&&... args) {
  void* p = debugger_alloc(sizeof(T));
  if (p == nullptr) return nullptr;
  return new (p) T(std::forward<Args>(args)...);
}

template <typename T>
void debugger_delete(T* p) {
  if (p == nullptr) return;
  p->~T();
  debugger_free(p);
}

// A growable array of trivially copyable elements in debugger memory. Growth reports
// failure instead of throwing.
template <typename T>
class Vec {
  static_assert(std::is_trivially_copyable<T>::value, "Vec holds plain records only");

 public:
  Vec() = default;
  Vec(const Vec&) = delete;
  Vec& operator=(const Vec&) = delete;
  Vec(Vec&& o) noexcept { swap(o); }
  Vec& operator=(Vec&& o) noexcept {
    if (this != &o) {
      reset();
      swap(o);
    }
    return *this;
  }
  ~Vec() { reset(); }

  void swap(Vec& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
  }

  bool reserve(size_t n) {
    if (n <= capacity_) return true;
    if (n > SIZE_MAX / sizeof(T)) return false;
    T* fresh = static_cast<T*>(debugger_alloc(n * sizeof(T)));
    if (fresh == nullptr) return false;
    if (size_ != 0) std::memcpy(static_cast<void*>(fresh), data_, size_ * sizeof(T));
    debugger_free(data_);
    data_ = fresh;
    capacity_ = n;
    return true;
  }

  bool push_back(const T& value) {
    if (size_ == capacity_ && !reserve(capacity_ < 8 ? 8 : capacity_ * 2)) return false;
    std::memcpy(static_cast<void*>(data_ + size_), &value, sizeof(T));
    ++size_;
    return true;
  }

  // Grows or shrinks; new elements are zero bytes.
  bool resize(size_t n) {
    if (!reserve(n)) return false;
    if (n > size_) std::memset(static_cast<void*>(data_ + size_), 0, (n - size_) * sizeof(T));
    size_ = n;
    return true;
  }

  void clear() { size_ = 0; }
  void reset() {
    debugger_free(data_);
    data_ = nullptr;
    size_ = capacity_ = 0;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_DEBUGGER_MEMORY_H
