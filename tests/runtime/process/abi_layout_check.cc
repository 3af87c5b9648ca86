// abi_layout_check — 2 ranks. Decodes MPI_Status variables the way a debugger does,
// from the raw bytes and only the root's status_* fields, and compares with what MPI
// itself says of the same status; then compares the root's null handles with the MPI's.
// Usage: rt_abi_layout_<f> <mpich|openmpi>.
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rt_check.h"

using namespace rtcheck;

namespace {

struct Decoded {
  int source = 0;
  int tag = 0;
  int error = 0;
  int64_t bytes = -1;
  int cancelled = -1;
};

bool IntAt(const uint8_t* raw, uint32_t size, int32_t offset, int* out) {
  if (offset < 0 || static_cast<uint32_t>(offset) + 4 > size) return false;
  memcpy(out, raw + offset, 4);
  return true;
}

// The decoding rule of records.h (enum mpidbg_status_count_encoding), on this
// process's own bytes (same byte order and pointer width as the runtime).
Decoded Decode(const mpidbg_root& r, const MPI_Status& status) {
  Decoded d;
  uint8_t raw[512];
  RT_CHECK(r.status_size == sizeof(MPI_Status) && r.status_size <= sizeof raw);
  memcpy(raw, &status, sizeof status);
  RT_CHECK(IntAt(raw, r.status_size, r.status_source_offset, &d.source));
  RT_CHECK(IntAt(raw, r.status_size, r.status_tag_offset, &d.tag));
  RT_CHECK(IntAt(raw, r.status_size, r.status_error_offset, &d.error));
  const int32_t at = r.status_count_offset;
  switch (r.status_count_encoding) {
    case MPIDBG_STATUS_COUNT_LO_HI_CANCELLED: {
      RT_CHECK(at >= 0 && static_cast<uint32_t>(at) + 8 <= r.status_size);
      uint32_t lo, hi;
      memcpy(&lo, raw + at, 4);
      memcpy(&hi, raw + at + 4, 4);
      d.bytes = static_cast<int64_t>(uint64_t{lo} | (uint64_t{hi >> 1} << 32));
      RT_CHECK_EQ(r.status_cancelled_offset, at + 4);
      d.cancelled = static_cast<int>(hi & 1);
      break;
    }
    case MPIDBG_STATUS_COUNT_SIZE_T: {
      RT_CHECK(at >= 0 && static_cast<uint32_t>(at) + sizeof(size_t) <= r.status_size);
      size_t count;
      memcpy(&count, raw + at, sizeof count);
      d.bytes = static_cast<int64_t>(count);
      int flag = 0;
      RT_CHECK(IntAt(raw, r.status_size, r.status_cancelled_offset, &flag));
      d.cancelled = flag != 0 ? 1 : 0;
      break;
    }
    default:
      RT_CHECK(!"the runtime knows this MPI's count encoding");
  }
  return d;
}

// What MPI says of a status, against the decoding.
void Compare(const mpidbg_root& r, const MPI_Status& status, const char* what) {
  const Decoded d = Decode(r, status);
  MPI_Count bytes = -1;
  MPI_Get_elements_x(&status, MPI_BYTE, &bytes);
  int cancelled = -1;
  MPI_Test_cancelled(&status, &cancelled);
  if (d.source != status.MPI_SOURCE || d.tag != status.MPI_TAG || d.error != status.MPI_ERROR ||
      d.bytes != bytes || d.cancelled != (cancelled != 0 ? 1 : 0)) {
    fprintf(stderr, "[rank %d] %s: decoded source %d tag %d error %d bytes %lld cancelled %d\n",
            g_rank, what, d.source, d.tag, d.error, static_cast<long long>(d.bytes), d.cancelled);
  }
  RT_CHECK_EQ(d.source, status.MPI_SOURCE);
  RT_CHECK_EQ(d.tag, status.MPI_TAG);
  RT_CHECK_EQ(d.error, status.MPI_ERROR);
  RT_CHECK_EQ(d.bytes, bytes);
  RT_CHECK_EQ(d.cancelled, cancelled != 0 ? 1 : 0);
}

void CheckReceivedStatus(const mpidbg_root& r) {
  char buf[1000] = {0};
  if (g_rank == 0) {
    MPI_Send(buf, 777, MPI_BYTE, 1, 42, MPI_COMM_WORLD);
    return;
  }
  MPI_Status status;
  memset(&status, 0xa5, sizeof status);  // every byte set by MPI, not left from before
  MPI_Recv(buf, sizeof buf, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
  status.MPI_ERROR = MPI_SUCCESS;  // MPI leaves it alone for single-request calls
  const Decoded d = Decode(r, status);
  RT_CHECK_EQ(d.source, 0);
  RT_CHECK_EQ(d.tag, 42);
  RT_CHECK_EQ(d.bytes, 777);
  RT_CHECK_EQ(d.cancelled, 0);
  Compare(r, status, "received");
}

void CheckSetStatus(const mpidbg_root& r) {
  MPI_Status status;
  memset(&status, 0, sizeof status);
  status.MPI_SOURCE = 3;
  status.MPI_TAG = 1234567;
  status.MPI_ERROR = MPI_ERR_TRUNCATE;
  // A count beyond 32 bits exercises the high word (MPICH) or the size_t (Open MPI).
  const MPI_Count big = (MPI_Count{1} << 33) + 5;
  MPI_Status_set_elements_x(&status, MPI_BYTE, big);
  MPI_Status_set_cancelled(&status, 1);
  Decoded d = Decode(r, status);
  RT_CHECK_EQ(d.source, 3);
  RT_CHECK_EQ(d.tag, 1234567);
  RT_CHECK_EQ(d.error, MPI_ERR_TRUNCATE);
  RT_CHECK_EQ(d.bytes, big);
  RT_CHECK_EQ(d.cancelled, 1);
  Compare(r, status, "set, cancelled");
  MPI_Status_set_cancelled(&status, 0);
  MPI_Status_set_elements_x(&status, MPI_BYTE, 12);
  d = Decode(r, status);
  RT_CHECK_EQ(d.bytes, 12);
  RT_CHECK_EQ(d.cancelled, 0);
  Compare(r, status, "set, not cancelled");
}

void CheckNullHandles(const mpidbg_root& r) {
  RT_CHECK_EQ(r.comm_null_handle, U64(MPI_COMM_NULL));
  RT_CHECK_EQ(r.group_null_handle, U64(MPI_GROUP_NULL));
  RT_CHECK_EQ(r.group_empty_handle, U64(MPI_GROUP_EMPTY));
  RT_CHECK_EQ(r.datatype_null_handle, U64(MPI_DATATYPE_NULL));
  RT_CHECK_EQ(r.reduce_op_null_handle, U64(MPI_OP_NULL));
  RT_CHECK_EQ(r.errhandler_null_handle, U64(MPI_ERRHANDLER_NULL));
  RT_CHECK_EQ(r.info_null_handle, U64(MPI_INFO_NULL));
  RT_CHECK_EQ(r.win_null_handle, U64(MPI_WIN_NULL));
  RT_CHECK_EQ(r.file_null_handle, U64(MPI_FILE_NULL));
  RT_CHECK_EQ(r.request_null_handle, U64(MPI_REQUEST_NULL));
  RT_CHECK_EQ(r.message_null_handle, U64(MPI_MESSAGE_NULL));
  RT_CHECK_EQ(r.message_no_proc_handle, U64(MPI_MESSAGE_NO_PROC));
  // Every null handle is known (none of these MPIs uses 0 for one).
  RT_CHECK(r.comm_null_handle != 0 && r.request_null_handle != 0 && r.win_null_handle != 0);
}

}  // namespace

int main(int argc, char** argv) {
  // The layout is there from the moment the runtime is loaded, before MPI_Init.
  const mpidbg_root* r = Root();
  if (r == nullptr) return 1;
  RT_CHECK_EQ(r->status_size, sizeof(MPI_Status));
  RT_CHECK(r->status_count_encoding != MPIDBG_STATUS_COUNT_UNKNOWN);
  RT_CHECK(r->comm_null_handle != 0);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  const bool openmpi = argc > 1 && strcmp(argv[1], "openmpi") == 0;
  RT_CHECK_EQ(r->status_count_encoding,
              openmpi ? MPIDBG_STATUS_COUNT_SIZE_T : MPIDBG_STATUS_COUNT_LO_HI_CANCELLED);
  CheckNullHandles(*r);
  CheckReceivedStatus(*r);
  CheckSetStatus(*r);
  MPI_Barrier(MPI_COMM_WORLD);
  const int rc = Finish("abi_layout_check");
  MPI_Finalize();
  return rc;
}
