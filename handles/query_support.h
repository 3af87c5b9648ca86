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
#include "plugin/session.h"
#include "plugin/debugger_memory.h"
#include "plugin/object_snapshot.h"
#include "plugin/result_memory.h"
#include "plugin/runtime_snapshot.h"

namespace mpidbg::handles {

using plugin::copy_out;
using plugin::copy_string;
using plugin::forget_result_allocations;
using plugin::free_result;
using plugin::new_result;
using plugin::result_alloc;
using plugin::result_free;

// Everything a query reads, current for the runtime's generation.
struct QueryContext {
  plugin::ProcessSession* ps = nullptr;
  const plugin::RuntimeSnapshot* snapshot = nullptr;  // comms, ops, threads, root
  const plugin::ObjectSnapshot* objects = nullptr;    // every other kind
  plugin::ObjectLimits limits;
};

// Resolves the debugger's arguments (process_info may be NULL: it is then fetched with
// mqs_get_process_info) and brings both snapshots up to date. Returns an MPIDBG_* code:
// MPIDBG_ERR_NOT_SUPPORTED when the process was not set up or has no runtime,
// MPIDBG_ERR_UNAVAILABLE when the runtime cannot be read now (before MPI_Init, damaged).
int open_query(mqs_process* process, mqs_process_info* process_info, QueryContext* ctx);

// Bounded copy into a fixed char field, always NUL-terminated.
void set_name(char* dst, size_t dst_size, const char* src);

// Handle-record flags -> MPIDBG_HANDLE_* bits (PREDEFINED, FREED_HANDLE, FREED_OBJECT).
unsigned int object_bits(uint32_t record_flags);

// The call name for an enum mpidbg_call_id ("" when unknown).
const char* call_name(int32_t call);

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
const plugin::OperationEntry* find_request(const QueryContext& ctx, uint64_t request);

// Whether `handle` is a kind's null handle as the root gives it (never when the runtime
// did not write it, i.e. 0).
bool is_null_handle(const QueryContext& ctx, uint64_t null_handle, uint64_t handle);

// Whether two handles are equal on the MPI's handle width.
bool same(const QueryContext& ctx, uint64_t a, uint64_t b);

// "MPI_COMM_WORLD" / "MPI_COMM_SELF" for the predefined communicators (recognised by
// handle, as the runtime may leave them unnamed), "" for any other.
const char* predefined_comm_name(const QueryContext& ctx, const mpidbg_comm_record& c);

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
