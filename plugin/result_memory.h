// result_memory.h — results handed to the debugger in its own memory, under the
// handle interface's rule (the debugger frees every non-NULL pointer member, then the
// structure), tracked so that a query failing half-way gives back all it allocated.
//
// Tracking is DLL-wide: a query starts it afresh (forget_result_allocations), and the
// session lets go of its storage with the last process (release_result_tracking).
#ifndef MPIDBG_PLUGIN_RESULT_MEMORY_H
#define MPIDBG_PLUGIN_RESULT_MEMORY_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "plugin/debugger_memory.h"

namespace mpidbg::plugin {

// Debugger memory for a result or one of its members, remembered until the next
// forget_result_allocations (every handle query starts with one) so that free_result
// can find it (nullptr on failure). new_result, copy_out and copy_string allocate
// through it; a query that allocates a member
// otherwise must use it too, and result_free for a member it lets go of before
// returning.
void* result_alloc(size_t bytes);
void result_free(void* p);

// A zeroed T in debugger memory, or nullptr.
template <typename T>
T* new_result() {
  void* p = result_alloc(sizeof(T));
  if (p != nullptr) std::memset(p, 0, sizeof(T));
  return static_cast<T*>(p);
}

// Copies n elements into a fresh debugger array (nullptr for n == 0 or on failure; *ok
// turns false only on failure).
template <typename T>
T* copy_out(const T* src, size_t n, bool* ok) {
  if (n == 0) return nullptr;
  if (n > SIZE_MAX / sizeof(T)) {
    *ok = false;
    return nullptr;
  }
  T* p = static_cast<T*>(result_alloc(n * sizeof(T)));
  if (p == nullptr) {
    *ok = false;
    return nullptr;
  }
  std::memcpy(static_cast<void*>(p), src, n * sizeof(T));
  return p;
}

// A NUL-terminated copy in debugger memory (nullptr and *ok = false on failure).
char* copy_string(const char* s, bool* ok);

// Frees a result and its pointer members the way the debugger would: used on the error
// path of a query that has allocated part of a result. It frees everything allocated
// through result_alloc since the last forget_result_allocations when `p` is among it (else `p`
// alone).
void free_result(void* p);
// Ends tracking without freeing: what was allocated so far belongs to its holder (the
// DLL-owned name maps).
void forget_result_allocations();
// Lets go of the tracking storage itself (when no process is set up any more).
void release_result_tracking();

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_RESULT_MEMORY_H
