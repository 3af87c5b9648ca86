// fake_mq_dll.cc — a small message-queue DLL for the plugin-host tests. It reads the
// test child through the host's callbacks (symbols, types, memory) and reports one
// communicator with one operation per queue. MPIDBG_FAKE_DLL_MODE=crash|hang makes it
// misbehave in mqs_setup_image; built with FAKE_NO_EXT it has no mpidbg_* extensions,
// like a foreign DLL.
#include <signal.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "mpidbg/mpidbg_ext.h"
#include "mpidbg/mqs_interface.h"
#include "mpidbg/records.h"
#include "test_child.h"

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

const mqs_basic_callbacks* g_basic = nullptr;

enum { kErrTypes = mqs_first_user_code, kErrSymbol, kErrRead };

struct ImageInfo {
  const mqs_image_callbacks* cb;
};

struct ProcessInfo {
  const mqs_process_callbacks* cb;
  uint64_t known_value;
  int comm_pos;   // 0: on the communicator, 1: past the end
  int op_class;
  int op_pos;
};

ProcessInfo* Info(mqs_process* p) {
  return reinterpret_cast<ProcessInfo*>(g_basic->mqs_get_process_info_fp(p));
}

void FillOp(mqs_pending_operation* op, int op_class) {
  std::memset(op, 0, sizeof *op);
  op->status = mqs_st_pending;
  op->desired_local_rank = op_class == mqs_pending_sends ? 1 : -1;
  op->desired_global_rank = op->desired_local_rank;
  op->tag_wild = op_class == mqs_pending_sends ? 0 : 1;
  op->desired_tag = op_class == mqs_pending_sends ? 7 : -1;
  op->desired_length = 40;
  op->actual_local_rank = op->desired_local_rank;
  op->actual_global_rank = op->desired_global_rank;
  op->actual_tag = op->desired_tag;
  op->actual_length = 40;
}

}  // namespace

FAKE_EXPORT void mqs_setup_basic_callbacks(const mqs_basic_callbacks* cb) { g_basic = cb; }
FAKE_EXPORT char* mqs_version_string(void) { return const_cast<char*>("fake 1.0"); }
FAKE_EXPORT int mqs_version_compatibility(void) { return MQS_INTERFACE_COMPATIBILITY; }
FAKE_EXPORT int mqs_dll_taddr_width(void) { return sizeof(mqs_taddr_t); }
FAKE_EXPORT char* mqs_dll_error_string(int code) {
  switch (code) {
    case kErrTypes:
      return const_cast<char*>("fake: type lookup gave wrong answers");
    case kErrSymbol:
      return const_cast<char*>("fake: symbol not found");
    case kErrRead:
      return const_cast<char*>("fake: memory read failed");
    default:
      return const_cast<char*>("fake: unknown code");
  }
}

FAKE_EXPORT int mqs_setup_image(mqs_image* image, const mqs_image_callbacks* cb) {
  const char* mode = std::getenv("MPIDBG_FAKE_DLL_MODE");
  if (mode != nullptr && std::strcmp(mode, "crash") == 0) raise(SIGSEGV);
  if (mode != nullptr && std::strcmp(mode, "hang") == 0) {
    for (;;) pause();
  }
  auto* info = static_cast<ImageInfo*>(g_basic->mqs_malloc_fp(sizeof(ImageInfo)));
  info->cb = cb;
  g_basic->mqs_put_image_info_fp(image, reinterpret_cast<mqs_image_info*>(info));
  return mqs_ok;
}

FAKE_EXPORT int mqs_image_has_queues(mqs_image* image, char** message) {
  auto* info = reinterpret_cast<ImageInfo*>(g_basic->mqs_get_image_info_fp(image));
  // Debuggers in the wild pass NULL out-pointers; the host must accept them.
  if (info->cb->mqs_find_function_fp(image, const_cast<char*>("mpidbg_test_function"),
                                     mqs_lang_c, nullptr) != mqs_ok) {
    *message = const_cast<char*>("no mpidbg_test_function in %s");
    return kErrSymbol;
  }
  mqs_type* t = info->cb->mqs_find_type_fp(image, const_cast<char*>("TestRecord"), mqs_lang_c);
  if (t == nullptr ||
      info->cb->mqs_sizeof_fp(t) != static_cast<int>(sizeof(mpidbg::test::TestRecord)) ||
      info->cb->mqs_field_offset_fp(t, const_cast<char*>("second")) !=
          static_cast<int>(offsetof(mpidbg::test::TestRecord, second))) {
    *message = const_cast<char*>("TestRecord has the wrong layout in %s");
    return kErrTypes;
  }
  return mqs_ok;
}

FAKE_EXPORT int mqs_destroy_image_info(mqs_image_info* info) {
  g_basic->mqs_free_fp(info);
  return mqs_ok;
}

FAKE_EXPORT int mqs_setup_process(mqs_process* process, const mqs_process_callbacks* cb) {
  auto* info = static_cast<ProcessInfo*>(g_basic->mqs_malloc_fp(sizeof(ProcessInfo)));
  std::memset(info, 0, sizeof *info);
  info->cb = cb;
  g_basic->mqs_put_process_info_fp(process, reinterpret_cast<mqs_process_info*>(info));
  return mqs_ok;
}

FAKE_EXPORT int mqs_process_has_queues(mqs_process*, char**) { return mqs_ok; }

FAKE_EXPORT int mqs_destroy_process_info(mqs_process_info* info) {
  g_basic->mqs_free_fp(info);
  return mqs_ok;
}

FAKE_EXPORT int mqs_update_communicator_list(mqs_process* process) {
  ProcessInfo* info = Info(process);
  mqs_image* image = info->cb->mqs_get_image_fp(process);
  auto* image_info = reinterpret_cast<ImageInfo*>(g_basic->mqs_get_image_info_fp(image));
  mqs_taddr_t addr = 0;
  if (image_info->cb->mqs_find_symbol_fp(image, const_cast<char*>("mpidbg_test_known_value"),
                                         &addr) != mqs_ok) {
    return kErrSymbol;
  }
  unsigned char raw[8];
  if (info->cb->mqs_fetch_data_fp(process, addr, sizeof raw, raw) != mqs_ok) return kErrRead;
  info->cb->mqs_target_to_host_fp(process, raw, &info->known_value, sizeof raw);
  return mqs_ok;
}

FAKE_EXPORT int mqs_setup_communicator_iterator(mqs_process* process) {
  Info(process)->comm_pos = 0;
  return mqs_ok;
}

FAKE_EXPORT int mqs_get_communicator(mqs_process* process, mqs_communicator* comm) {
  ProcessInfo* info = Info(process);
  if (info->comm_pos != 0) return mqs_end_of_list;
  std::memset(comm, 0, sizeof *comm);
  comm->unique_id = info->known_value;
  comm->local_rank = 0;
  comm->size = 2;
  std::strcpy(comm->name, "FAKE_WORLD");
  return mqs_ok;
}

FAKE_EXPORT int mqs_get_comm_group(mqs_process*, int* world_ranks) {
  world_ranks[0] = 0;
  world_ranks[1] = 1;
  return mqs_ok;
}

FAKE_EXPORT int mqs_next_communicator(mqs_process* process) {
  Info(process)->comm_pos++;
  return mqs_end_of_list;
}

FAKE_EXPORT int mqs_setup_operation_iterator(mqs_process* process, int op_class) {
  if (op_class == mqs_unexpected_messages) return mqs_no_information;
  Info(process)->op_class = op_class;
  Info(process)->op_pos = 0;
  return mqs_ok;
}

FAKE_EXPORT int mqs_next_operation(mqs_process* process, mqs_pending_operation* op) {
  ProcessInfo* info = Info(process);
  if (info->op_pos++ != 0) return mqs_end_of_list;
  FillOp(op, info->op_class);
  return mqs_ok;
}

#ifndef FAKE_NO_EXT
FAKE_EXPORT int mpidbg_ext_version(void) { return MPIDBG_EXT_VERSION; }

FAKE_EXPORT int mpidbg_process_get_summary(mqs_process*, mpidbg_process_summary* out) {
  uint32_t size = out->size;
  std::memset(out, 0, size);
  out->size = size;
  out->flavour = MPIDBG_FLAVOUR_MPICH;
  out->process_state = MPIDBG_PROCESS_RUNNING;
  out->world_rank = 0;
  out->world_size = 2;
  out->thread_level = MPIDBG_THREAD_SINGLE;
  out->thread_count = 1;
  std::strcpy(out->mpi_library, "Fake MPI 1.0");
  std::strcpy(out->hostname, "fakehost");
  return mqs_ok;
}

FAKE_EXPORT int mpidbg_thread_count(mqs_process*, int* count) {
  *count = 1;
  return mqs_ok;
}

namespace {
void FillExtOp(mpidbg_operation_info* op, uint64_t comm_id) {
  uint32_t size = op->size;
  std::memset(op, 0, size);
  op->size = size;
  op->call = MPIDBG_CALL_MPI_Recv;
  op->comm_id = comm_id;
  op->direction = MPIDBG_OP_RECV;
  op->status = MPIDBG_OP_PENDING;
  op->blocking = 1;
  op->peer = MPIDBG_RANK_ANY_SOURCE;
  op->peer_world = MPIDBG_RANK_ANY_SOURCE;
  op->tag = 5;
  op->count = 10;
  op->bytes = 40;
  op->tid = 77;
  std::strcpy(op->call_name, "MPI_Recv");
  std::strcpy(op->datatype_name, "MPI_INT");
  std::strcpy(op->comm_name, "FAKE_WORLD");
}
}  // namespace

FAKE_EXPORT int mpidbg_thread_get(mqs_process* process, int index, mpidbg_thread_info* out) {
  if (index != 0) return mqs_no_information;
  uint32_t size = out->size;
  std::memset(out, 0, size);
  out->size = size;
  out->state = MPIDBG_THREAD_BLOCKED;
  out->tid = 77;
  out->entry_time_ns = 1;  // long ago
  out->call = MPIDBG_CALL_MPI_Recv;
  out->call_class = MPIDBG_CLASS_P2P;
  out->root = -1;
  out->has_operation = 1;
  out->waited_count = 2;
  out->comm_id = Info(process)->known_value;
  std::strcpy(out->call_name, "MPI_Recv");
  std::strcpy(out->comm_name, "FAKE_WORLD");
  out->operation.size = sizeof(mpidbg_operation_info);
  FillExtOp(&out->operation, Info(process)->known_value);
  return mqs_ok;
}

FAKE_EXPORT int mpidbg_thread_waited_operation(mqs_process* process, int, int k,
                                               mpidbg_operation_info* out) {
  if (k != 0) return mqs_no_information;
  FillExtOp(out, Info(process)->known_value);
  return mqs_ok;
}

FAKE_EXPORT int mpidbg_comm_get_detail(mqs_process* process, mpidbg_comm_detail* out) {
  uint32_t size = out->size;
  std::memset(out, 0, size);
  out->size = size;
  out->handle = 0x44000000;
  out->job_id = Info(process)->known_value;
  out->predefined = 1;
  std::strcpy(out->creator_name, "MPIDBG_PREDEFINED");
  return mqs_ok;
}

FAKE_EXPORT int mpidbg_comm_get_remote_group(mqs_process*, int*) { return mqs_no_information; }

FAKE_EXPORT int mpidbg_operation_get_detail(mqs_process* process, mpidbg_operation_info* out) {
  ProcessInfo* info = Info(process);
  FillExtOp(out, info->known_value);
  if (info->op_class == mqs_pending_sends) {
    out->direction = MPIDBG_OP_SEND;
    out->call = MPIDBG_CALL_MPI_Isend;
    std::strcpy(out->call_name, "MPI_Isend");
    out->peer = 1;
    out->peer_world = 1;
    out->tag = 7;
    out->mode = MPIDBG_MODE_STANDARD;
    out->blocking = 0;
    out->request = 0xac000001;
  }
  return mqs_ok;
}

// ---- version 3: monitoring and sampling, with fixed values the host tests expect ----
// Rank 0 of 2: 3 messages of 8 bytes to rank 1; one broadcast; one file; MPI_T
// monitoring unavailable. Sampling: 5 samples outside MPI, 2 working, 3 blocked, all in
// MPI_Recv called from mpidbg_test_function+0x0. MPIDBG_FAKE_DLL_MODE=nomonitor makes
// both report that nothing ran.
namespace {
bool FakeNothingRan() {
  const char* mode = std::getenv("MPIDBG_FAKE_DLL_MODE");
  return mode != nullptr && std::strcmp(mode, "nomonitor") == 0;
}

template <typename T>
void ClearSized(T* out) {
  uint32_t size = out->size;
  std::memset(out, 0, size);
  out->size = size;
}
}  // namespace

FAKE_EXPORT int mpidbg_monitor_read(mqs_process*, mpidbg_monitor_summary* out) {
  if (FakeNothingRan()) return mqs_no_information;
  ClearSized(out);
  out->world_size = 2;
  out->active = 1;
  out->file_count = 1;
  out->starts = 1;
  out->first_start_time_ns = 1000;
  out->reset_time_ns = 1000;
  out->mpit_state = MPIDBG_MONITOR_MPIT_UNAVAILABLE;
  std::strcpy(out->mpit_reason, "no pml_monitoring variables");
  std::strcpy(out->output_path, "mpidbg-monitor.fake.json");
  return mqs_ok;
}

FAKE_EXPORT int mpidbg_monitor_peer_get(mqs_process*, int world_rank, int which,
                                        mpidbg_monitor_peer_info* out) {
  if (world_rank < 0 || world_rank > 1) return mqs_no_information;
  ClearSized(out);
  out->world_rank = world_rank;
  if (world_rank == 1) {
    // "current" counts one message less, as if a reset came after the first one.
    uint64_t n = which == MPIDBG_MONITOR_CURRENT ? 2 : 3;
    out->counters.sent_messages = n;
    out->counters.sent_bytes = 8 * n;
    out->counters.received_messages = 1;
    out->counters.received_bytes = 4;
    out->counters.coll_messages = 1;
    out->counters.coll_bytes = 16;
    out->counters.sent_histogram[4] = n;  // [8, 16)
  }
  return mqs_ok;
}

FAKE_EXPORT int mpidbg_monitor_coll_get(mqs_process*, int kind, int,
                                        mpidbg_monitor_coll_info* out) {
  if (kind < 0 || kind >= MPIDBG_COLL_KINDS) return mqs_no_information;
  ClearSized(out);
  out->kind = kind;
  if (kind == MPIDBG_COLL_ONE_TO_ALL) {
    out->counters.operations = 1;
    out->counters.bytes_sent = 16;
  }
  return mqs_ok;
}

FAKE_EXPORT int mpidbg_monitor_file_get(mqs_process*, int index, int,
                                        mpidbg_monitor_file_info* out) {
  if (index != 0) return mqs_no_information;
  ClearSized(out);
  out->counters.state = MPIDBG_MONITOR_FILE_READY;
  out->counters.opens = 1;
  out->counters.write_operations = 2;
  out->counters.write_bytes = 512;
  std::strcpy(out->counters.name, "fake.dat");
  return mqs_ok;
}

FAKE_EXPORT int mpidbg_monitor_mpit_peer_get(mqs_process*, int, mpidbg_monitor_mpit_peer_info*) {
  return mqs_no_information;
}

FAKE_EXPORT int mpidbg_monitor_mpit_coll_get(mqs_process*, int, mpidbg_monitor_coll_info*) {
  return mqs_no_information;
}

FAKE_EXPORT int mpidbg_profile_read(mqs_process*, mpidbg_profile_summary* out) {
  if (FakeNothingRan()) return mqs_no_information;
  ClearSized(out);
  out->period_ns = 10000000;
  out->signal = SIGPROF;
  out->clock = MPIDBG_PROFILE_WALL;
  out->samples[MPIDBG_THREAD_NOT_IN_MPI] = 5;
  out->samples[MPIDBG_THREAD_IN_MPI] = 2;
  out->samples[MPIDBG_THREAD_BLOCKED] = 3;
  out->threads = 1;
  out->function_count = 1;
  out->site_count = 1;
  return mqs_ok;
}

FAKE_EXPORT int mpidbg_profile_function_get(mqs_process*, int index,
                                            mpidbg_profile_function_info* out) {
  if (index != 0) return mqs_no_information;
  ClearSized(out);
  out->call = MPIDBG_CALL_MPI_Recv;
  out->working = 2;
  out->blocked = 3;
  std::strcpy(out->call_name, "MPI_Recv");
  return mqs_ok;
}

FAKE_EXPORT int mpidbg_profile_site_get(mqs_process* process, int index,
                                        mpidbg_profile_site_info* out) {
  if (index != 0) return mqs_no_information;
  ProcessInfo* info = Info(process);
  mqs_image* image = info->cb->mqs_get_image_fp(process);
  auto* image_info = reinterpret_cast<ImageInfo*>(g_basic->mqs_get_image_info_fp(image));
  mqs_taddr_t addr = 0;
  if (image_info->cb->mqs_find_symbol_fp(image, const_cast<char*>("mpidbg_test_function"),
                                         &addr) != mqs_ok) {
    return kErrSymbol;
  }
  ClearSized(out);
  out->call = MPIDBG_CALL_MPI_Recv;
  out->address = addr;  // the function is one byte long: its own address is inside it
  out->working = 2;
  out->blocked = 3;
  std::strcpy(out->call_name, "MPI_Recv");
  return mqs_ok;
}
#endif
