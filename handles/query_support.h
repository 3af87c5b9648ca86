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

// Debugger memory for a result or one of its members, remembered until the next
// open_query so that free_result can find it (nullptr on failure). new_result,
// copy_out and copy_string allocate through it; a query that allocates a member
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

// Bounded copy into a fixed char field, always NUL-terminated.
void set_name(char* dst, size_t dst_size, const char* src);

// Handle-record flags -> MPIDBG_HANDLE_* bits (PREDEFINED, FREED_HANDLE, FREED_OBJECT).
unsigned int object_bits(uint32_t record_flags);

// The call name for an enum mpidbg_call_id ("" when unknown).
const char* call_name(int32_t call);

// Frees a result and its pointer members the way the debugger would: used on the error
// path of a query that has allocated part of a result. It frees everything allocated
// through result_alloc since the query's open_query when `p` is among it (else `p`
// alone).
void free_result(void* p);
// Ends tracking without freeing: what was allocated so far belongs to its holder (the
// DLL-owned name maps).
void forget_result_allocations();
// Lets go of the tracking storage itself (when no process is set up any more).
void release_result_tracking();

// ---- shared by several queries ----

// A plugin error code (or mqs_ok) as the MPIDBG_* code of mpidbg_handles.h.
int handle_code(int plugin_rc);

// The communicator record a handle denotes, with the lookup rule of ObjectSnapshot:
// live first, else the orphan freed last; handles compare on root.handle_size bytes.
const plugin::CommEntry* find_comm(const QueryContext& ctx, uint64_t handle);
// By Fortran index (comm record fortran_index).
const plugin::CommEntry* find_comm_f(const QueryContext& ctx, int32_t index);
// The operation record of a request handle: one not freed first (latest posted), else
// the one freed last (free_serial).
const plugin::OpEntry* find_request(const QueryContext& ctx, uint64_t request);

// Whether `handle` is a kind's null handle as the root gives it (never when the runtime
// did not write it, i.e. 0).
bool is_null_handle(const QueryContext& ctx, uint64_t null_handle, uint64_t handle);

// Whether two handles are equal on the MPI's handle width.
bool same(const QueryContext& ctx, uint64_t a, uint64_t b);

// Whether this MPI's Fortran handles equal its C handles (MPICH: 4-byte integer handles,
// MPI_*_c2f is the identity).
bool fortran_is_c(const QueryContext& ctx);
// The Fortran handle to report: the record's index, else the C value where the two are
// the same, else MPIDBG_ERR_UNAVAILABLE (the interface's marker for "not known").
int fortran_handle(const QueryContext& ctx, int32_t fortran_index, uint64_t c_handle);

// The predefined and null handles of one enum mpidbg_handle_kind, as the name map of
// mpidbg_name_map_query (allocated with result_alloc; terminated by map_name == NULL).
// MPIDBG_ERR_OUT_OF_RANGE for an unknown kind.
int build_name_map(const QueryContext& ctx, int kind, struct mpidbg_name_map_t** out);
// Frees a name map as the debugger does (each map_name, then the array).
void free_name_map(struct mpidbg_name_map_t* map);

}  // namespace mpidbg::handles

#endif  // MPIDBG_HANDLES_QUERY_SUPPORT_H
