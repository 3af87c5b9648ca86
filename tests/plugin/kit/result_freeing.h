// result_freeing.h — handle-interface results freed the way a debugger frees them: every
// non-NULL pointer member (the strings of structure arrays first), then the structure,
// each with the debugger's mqs_free. Shared by the plugin tests and the fuzzer.
//
// Before anything is freed, each array member is read to the count the result states
// and each string's length is taken, so that under AddressSanitizer a count larger than
// its block, or a string without its NUL, is caught where the result is handed over.
#ifndef MPIDBG_TESTS_PLUGIN_KIT_RESULT_FREEING_H
#define MPIDBG_TESTS_PLUGIN_KIT_RESULT_FREEING_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "mpidbg/mpidbg_handles.h"

namespace mpidbg::test {

// The debugger's mqs_free.
using FreeFn = void (*)(void*);

// Reads every element of a result array (no count is larger than 2^24 in any scenario).
template <typename T>
void touch_array(const T* p, int64_t n) {
  if (p == nullptr) return;
  if (n < 0 || n > (int64_t{1} << 24)) {
    std::fprintf(stderr, "result array count %lld out of bounds\n", static_cast<long long>(n));
    std::abort();
  }
  volatile uint8_t sink = 0;
  for (int64_t i = 0; i < n; ++i) sink ^= reinterpret_cast<const uint8_t*>(p + i)[sizeof(T) - 1];
  (void)sink;
}

inline void touch_string(const char* s) {
  if (s != nullptr) (void)std::strlen(s);
}

inline void free_if_set(FreeFn free_fn, void* p) {
  if (p != nullptr) free_fn(p);
}

// The pointer members of a communicator result (not the structure itself).
inline void free_comm_members(mpidbg_comm_info_t* c, FreeFn free_fn) {
  touch_array(c->comm_local_procs, c->comm_num_local_procs);
  touch_array(c->comm_remote_procs, c->comm_num_remote_procs);
  touch_array(c->comm_cart_dims, c->comm_cart_num_dims);
  touch_array(c->comm_cart_periods, c->comm_cart_num_dims);
  touch_array(c->comm_graph_index, c->comm_graph_num_nodes);
  touch_array(c->comm_attrs, c->comm_num_attrs);
  touch_array(c->comm_pending_requests, c->comm_num_pending_requests);
  touch_array(c->comm_derived_windows, c->comm_num_derived_windows);
  touch_array(c->comm_derived_files, c->comm_num_derived_files);
  touch_string(c->comm_name);
  free_if_set(free_fn, c->comm_local_procs);
  free_if_set(free_fn, c->comm_remote_procs);
  free_if_set(free_fn, c->comm_cart_dims);
  free_if_set(free_fn, c->comm_cart_periods);
  free_if_set(free_fn, c->comm_graph_index);
  free_if_set(free_fn, c->comm_graph_edges);
  for (int i = 0; c->comm_attrs != nullptr && i < c->comm_num_attrs; ++i) {
    touch_string(c->comm_attrs[i].keyval_name);
    touch_string(c->comm_attrs[i].value);
    free_if_set(free_fn, c->comm_attrs[i].keyval_name);
    free_if_set(free_fn, c->comm_attrs[i].value);
  }
  free_if_set(free_fn, c->comm_attrs);
  free_if_set(free_fn, c->comm_pending_requests);
  free_if_set(free_fn, c->comm_derived_windows);
  free_if_set(free_fn, c->comm_derived_files);
}

// A name map: each map_name, then the array (it ends at map_name == NULL).
inline void free_name_map(mpidbg_name_map_t* map, FreeFn free_fn) {
  if (map == nullptr) return;
  for (int i = 0; map[i].map_name != nullptr; ++i) {
    if (i > 100000) std::abort();
    touch_string(map[i].map_name);
    free_fn(map[i].map_name);
  }
  free_fn(map);
}

}  // namespace mpidbg::test

#endif  // MPIDBG_TESTS_PLUGIN_KIT_RESULT_FREEING_H
