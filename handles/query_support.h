// query_support.h — what every handle query (handles/*_query.cc) shares: finding the
// process state behind the debugger's arguments, the cached decodes, and results
// allocated in the debugger's memory under the interface's memory rule (the debugger
// frees every non-NULL pointer member, then the structure).
#ifndef MPIDBG_HANDLES_QUERY_SUPPORT_H
#define MPIDBG_HANDLES_QUERY_SUPPORT_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "mpidbg/mpidbg_handles.h"
#include "mpidbg/records.h"
#include "mqs/process_info.h"
#include "plugin/debugger_memory.h"
#include "plugin/object_snapshot.h"
#include "plugin/runtime_snapshot.h"

namespace mpidbg::handles {

// Everything a query reads, current for the runtime's generation.
struct QueryContext {
  mqs::ProcessState* ps = nullptr;
  const plugin::RuntimeSnapshot* snapshot = nullptr;  // comms, ops, threads, root
  const plugin::ObjectSnapshot* objects = nullptr;    // every other kind
  plugin::ObjectLimits limits;
};

// Resolves the debugger's arguments (process_info may be NULL: it is then fetched with
// mqs_get_process_info) and brings both snapshots up to date. Returns an MPIDBG_* code:
// MPIDBG_ERR_NOT_SUPPORTED when the process was not set up or has no runtime,
// MPIDBG_ERR_UNAVAILABLE when the runtime cannot be read now (before MPI_Init, damaged).
int open_query(mqs_process* process, mqs_process_info* process_info, QueryContext* ctx);

// A zeroed T in debugger memory, or nullptr.
template <typename T>
T* new_result() {
  void* p = plugin::debugger_alloc(sizeof(T));
  if (p != nullptr) std::memset(p, 0, sizeof(T));
  return static_cast<T*>(p);
}

// Copies n elements into a fresh debugger array (nullptr for n == 0 or on failure; *ok
// turns false only on failure).
template <typename T>
T* copy_out(const T* src, size_t n, bool* ok) {
  if (n == 0) return nullptr;
  T* p = static_cast<T*>(plugin::debugger_alloc(n * sizeof(T)));
  if (p == nullptr) {
    *ok = false;
    return nullptr;
  }
  std::memcpy(p, src, n * sizeof(T));
  return p;
}

// A NUL-terminated copy in debugger memory (nullptr and *ok = false on failure).
char* copy_string(const char* s, bool* ok);

// Bounded copy into a fixed char field, always NUL-terminated.
void set_name(char* dst, size_t dst_size, const char* src);

// Handle-record flags -> MPIDBG_HANDLE_* bits (PREDEFINED, FREED_HANDLE, FREED_OBJECT).
unsigned int object_bits(uint32_t record_flags);

// The call name for an enum mpidbg_call_id ("" when unknown).
const char* call_name(int32_t call);

// Frees a result and its pointer members the way the debugger would: used on the error
// path of a query that has allocated part of a result.
void free_result(void* p);

}  // namespace mpidbg::handles

#endif  // MPIDBG_HANDLES_QUERY_SUPPORT_H
