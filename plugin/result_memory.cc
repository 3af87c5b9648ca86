#include "plugin/result_memory.h"

namespace mpidbg::plugin {
namespace {

// What result_alloc handed out since the last forget_result_allocations. Plain storage
// in debugger memory (no static destructor: the debugger's allocator may be gone when
// the DLL is unloaded); let go of by release_result_tracking.
struct Tracked {
  void** items = nullptr;
  size_t size = 0;
  size_t capacity = 0;
};
Tracked g_tracked;

bool track(void* p) {
  if (g_tracked.size == g_tracked.capacity) {
    const size_t grown = g_tracked.capacity < 16 ? 16 : g_tracked.capacity * 2;
    void** fresh = static_cast<void**>(debugger_alloc(grown * sizeof(void*)));
    if (fresh == nullptr) return false;
    if (g_tracked.size != 0) std::memcpy(fresh, g_tracked.items, g_tracked.size * sizeof(void*));
    debugger_free(g_tracked.items);
    g_tracked.items = fresh;
    g_tracked.capacity = grown;
  }
  g_tracked.items[g_tracked.size++] = p;
  return true;
}

// Index of p among the tracked pointers, or SIZE_MAX.
size_t tracked_index(const void* p) {
  for (size_t i = 0; i < g_tracked.size; ++i) {
    if (g_tracked.items[i] == p) return i;
  }
  return SIZE_MAX;
}

}  // namespace

void* result_alloc(size_t bytes) {
  void* p = debugger_alloc(bytes);
  if (p == nullptr) return nullptr;
  if (!track(p)) {
    debugger_free(p);
    return nullptr;
  }
  return p;
}

void result_free(void* p) {
  if (p == nullptr) return;
  const size_t i = tracked_index(p);
  if (i != SIZE_MAX) g_tracked.items[i] = g_tracked.items[--g_tracked.size];
  debugger_free(p);
}

void free_result(void* p) {
  if (p == nullptr) return;
  if (tracked_index(p) == SIZE_MAX) {
    debugger_free(p);
    return;
  }
  for (size_t i = 0; i < g_tracked.size; ++i) debugger_free(g_tracked.items[i]);
  g_tracked.size = 0;
}

void forget_result_allocations() { g_tracked.size = 0; }

void release_result_tracking() {
  debugger_free(g_tracked.items);
  g_tracked = Tracked();
}

char* copy_string(const char* s, bool* ok) {
  if (s == nullptr) s = "";
  const size_t n = std::strlen(s) + 1;
  char* p = static_cast<char*>(result_alloc(n));
  if (p == nullptr) {
    *ok = false;
    return nullptr;
  }
  std::memcpy(p, s, n);
  return p;
}

}  // namespace mpidbg::plugin
