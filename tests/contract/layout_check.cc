// layout_check.cc — compiled for foreign targets by tests/contract/CMakeLists.txt.
// records.h's static_asserts do the checking; this file adds the alignment rule the
// sizes alone cannot show: a record slot's size keeps every following slot 8-aligned.
#include "mpidbg/call_ids.h"
#include "mpidbg/records.h"
#include "mpidbg/runtime_api.h"

static_assert(sizeof(mpidbg_object_head) % 8 == 0, "object head keeps 8-byte alignment");
static_assert(sizeof(mpidbg_group_record) % 8 == 0 && sizeof(mpidbg_datatype_record) % 8 == 0 &&
                  sizeof(mpidbg_reduce_op_record) % 8 == 0 &&
                  sizeof(mpidbg_errhandler_record) % 8 == 0 &&
                  sizeof(mpidbg_info_record) % 8 == 0 && sizeof(mpidbg_window_record) % 8 == 0 &&
                  sizeof(mpidbg_file_record) % 8 == 0 && sizeof(mpidbg_message_record) % 8 == 0 &&
                  sizeof(mpidbg_session_record) % 8 == 0 &&
                  sizeof(mpidbg_partition_record) % 8 == 0 &&
                  sizeof(mpidbg_traffic_entry) % 8 == 0 &&
                  sizeof(mpidbg_send_log_entry) % 8 == 0,
              "record sizes keep 8-byte alignment in slabs and arrays");
