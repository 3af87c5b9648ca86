// abi_layout.cc — what a debugger needs of this MPI's C ABI to read the program's own
// variables: the layout of MPI_Status and the null handles, recorded in the root
// (records.h, "what a handle query needs").
//
// Both are fixed when the library is loaded (offsets are constants; Open MPI's null
// handles are addresses of library objects, resolved by then), so they are written by
// a load-time constructor: present before MPI_Init and in every core file, and no other
// area's start-up step needs to know about them.
#include <mpi.h>
#include <stddef.h>

#include "mpidbg/records.h"
#include "rt/handle_widening.h"

extern "C" mpidbg_root mpidbg_runtime_root;

namespace mpidbg::rt {
namespace {

void RecordStatusLayout(mpidbg_root* root) {
  root->status_size = sizeof(MPI_Status);
  root->status_source_offset = offsetof(MPI_Status, MPI_SOURCE);
  root->status_tag_offset = offsetof(MPI_Status, MPI_TAG);
  root->status_error_offset = offsetof(MPI_Status, MPI_ERROR);
  // The byte count is not a public field: each MPI keeps it its own way.
#if defined(MPICH_NUMVERSION)
  static_assert(offsetof(MPI_Status, count_hi_and_cancelled) ==
                    offsetof(MPI_Status, count_lo) + sizeof(int),
                "MPICH keeps the count's high bits right after its low word");
  root->status_count_offset = offsetof(MPI_Status, count_lo);
  root->status_count_encoding = MPIDBG_STATUS_COUNT_LO_HI_CANCELLED;
  root->status_cancelled_offset = offsetof(MPI_Status, count_hi_and_cancelled);
#elif defined(OPEN_MPI)
  static_assert(sizeof(((MPI_Status*)nullptr)->_ucount) == sizeof(size_t),
                "Open MPI counts received bytes in a size_t");
  root->status_count_offset = offsetof(MPI_Status, _ucount);
  root->status_count_encoding = MPIDBG_STATUS_COUNT_SIZE_T;
  root->status_cancelled_offset = offsetof(MPI_Status, _cancelled);
#else
  root->status_count_offset = -1;
  root->status_count_encoding = MPIDBG_STATUS_COUNT_UNKNOWN;
  root->status_cancelled_offset = -1;
#endif
  root->status_reserved = 0;
}

void RecordNullHandles(mpidbg_root* root) {
  root->comm_null_handle = HandleToU64(MPI_COMM_NULL);
  root->group_null_handle = HandleToU64(MPI_GROUP_NULL);
  root->group_empty_handle = HandleToU64(MPI_GROUP_EMPTY);
  root->datatype_null_handle = HandleToU64(MPI_DATATYPE_NULL);
  root->reduce_op_null_handle = HandleToU64(MPI_OP_NULL);
  root->errhandler_null_handle = HandleToU64(MPI_ERRHANDLER_NULL);
  root->info_null_handle = HandleToU64(MPI_INFO_NULL);
  root->win_null_handle = HandleToU64(MPI_WIN_NULL);
  root->file_null_handle = HandleToU64(MPI_FILE_NULL);
  root->request_null_handle = HandleToU64(MPI_REQUEST_NULL);
  root->message_null_handle = HandleToU64(MPI_MESSAGE_NULL);
  root->message_no_proc_handle = HandleToU64(MPI_MESSAGE_NO_PROC);
}

// Runs before main and before any MPI call, while nothing else touches the root.
__attribute__((constructor)) void RecordAbiLayout() {
  RecordStatusLayout(&mpidbg_runtime_root);
  RecordNullHandles(&mpidbg_runtime_root);
}

}  // namespace
}  // namespace mpidbg::rt
