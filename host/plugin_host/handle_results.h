// handle_results.h — releasing what a handle query returned, under the interface's
// memory rule: the DLL allocated with the debugger's mqs_malloc; the debugger frees every
// non-NULL pointer member (for arrays of structures holding strings, each string first),
// then the structure, with its mqs_free. The host passes its own (BasicCallbacks());
// the describer library, the one of the debugger that loaded the DLL.
#pragma once

#include "mpidbg/mpidbg_handles.h"

namespace mpidbg::host {

// The debugger's mqs_free.
using ResultFree = void (*)(void*);

void FreeHandleResult(mpidbg_comm_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_comm_ext_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_comm_remote_job_t* info, ResultFree release);
void FreeHandleResult(mpidbg_request_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_request_ext_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_status_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_status_ext_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_errhandler_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_datatype_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_group_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_op_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_info_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_win_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_file_info_t* info, ResultFree release);
void FreeHandleResult(mpidbg_message_info_t* info, ResultFree release);
// An object listing (mpidbg_object_list_query): the array alone (its entries hold no
// pointers).
void FreeHandleResult(mpidbg_object_entry_t* entries, ResultFree release);
// A name map: each map_name, then the array.
void FreeHandleResult(mpidbg_name_map_t* map, ResultFree release);

// Owns one query result: `Query(..., result.out())`, then `result->field`; freed with
// `release`, the mqs_free of the debugger whose mqs_malloc the DLL used.
template <typename T>
class HandleResult {
 public:
  explicit HandleResult(ResultFree release) : release_(release) {}
  ~HandleResult() { reset(); }
  HandleResult(const HandleResult&) = delete;
  HandleResult& operator=(const HandleResult&) = delete;

  T** out() {
    reset();
    return &ptr_;
  }
  T* get() const { return ptr_; }
  T* operator->() const { return ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  void reset() {
    if (ptr_ != nullptr) FreeHandleResult(ptr_, release_);
    ptr_ = nullptr;
  }

 private:
  ResultFree release_;
  T* ptr_ = nullptr;
};

}  // namespace mpidbg::host
