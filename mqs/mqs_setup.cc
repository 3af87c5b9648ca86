// mqs_setup.cc — the DLL-wide, per-image and per-process parts of the message-queue
// interface: callbacks, versions, error strings, set-up, tear-down and refresh.
#include <cstring>

#include "mpidbg/abi_checks.h"
#include "mpidbg/mqs_interface.h"
#include "plugin/session.h"
#include "plugin/debugger_memory.h"
#include "plugin/errors.h"
#include "plugin/export.h"

#ifndef MPIDBG_VERSION_STRING
#define MPIDBG_VERSION_STRING "unknown"
#endif

namespace {

using mpidbg::plugin::InfoUser;
using mpidbg::plugin::ProcessSession;
using namespace mpidbg::plugin;

char g_version[] = "mpidbg message-queue plugin " MPIDBG_VERSION_STRING;

// Shown by the debugger with the image name in place of %s.
char g_no_runtime_in_image[] =
    "no mpidbg runtime in %s: the symbol " MPIDBG_ROOT_SYMBOL
    " was not found (link the program with libmpidbg or LD_PRELOAD it)";

char* message_for(int code) { return const_cast<char*>(error_message(code)); }

}  // namespace

MPIDBG_EXPORT void mqs_setup_basic_callbacks(const mqs_basic_callbacks* cb) {
  set_basic_callbacks(cb);
}

MPIDBG_EXPORT char* mqs_version_string(void) { return g_version; }

MPIDBG_EXPORT int mqs_version_compatibility(void) { return MQS_INTERFACE_COMPATIBILITY; }

MPIDBG_EXPORT int mqs_dll_taddr_width(void) { return static_cast<int>(sizeof(mqs_taddr_t)); }

MPIDBG_EXPORT char* mqs_dll_error_string(int error_code) { return message_for(error_code); }

MPIDBG_EXPORT int mqs_setup_image(mqs_image* image, const mqs_image_callbacks* cb) {
  // Shared with the handle interface when it set this image up first.
  _mqs_image_info* info = nullptr;
  return mpidbg::plugin::acquire_image_info(image, cb, InfoUser::kMessageQueues, &info);
}

MPIDBG_EXPORT int mqs_image_has_queues(mqs_image* image, char** message) {
  if (message != nullptr) *message = nullptr;
  const mqs_basic_callbacks* basic = basic_callbacks();
  if (basic == nullptr || basic->mqs_get_image_info_fp == nullptr) return kErrNoCallbacks;
  _mqs_image_info* info = basic->mqs_get_image_info_fp(image);
  if (info == nullptr) return kErrOutOfOrder;
  TargetAddr root;
  const int rc = find_runtime_root(image, &info->cb, &root);
  if (rc != mqs_ok && message != nullptr) {
    *message = rc == kErrNoRuntime ? g_no_runtime_in_image : message_for(rc);
  }
  return rc;
}

MPIDBG_EXPORT int mqs_destroy_image_info(mqs_image_info* info) {
  mpidbg::plugin::release_image_info(info, InfoUser::kMessageQueues);
  return mqs_ok;
}

MPIDBG_EXPORT int mqs_setup_process(mqs_process* process, const mqs_process_callbacks* cb) {
  _mqs_process_info* info = nullptr;
  return mpidbg::plugin::acquire_process_info(process, cb, InfoUser::kMessageQueues, &info);
}

MPIDBG_EXPORT int mqs_process_has_queues(mqs_process* process, char** message) {
  if (message != nullptr) *message = nullptr;
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr) return kErrOutOfOrder;
  const int rc = mpidbg::plugin::ensure_root(ps);
  if (rc != mqs_ok && message != nullptr) *message = message_for(rc);
  return rc;
}

MPIDBG_EXPORT int mqs_destroy_process_info(mqs_process_info* info) {
  mpidbg::plugin::release_process_info(info, InfoUser::kMessageQueues);
  return mqs_ok;
}

// The debugger calls this at every stop. Records change in place between stops
// (an operation gets matched, a thread enters another call) without the generation
// moving, so the snapshot is decoded afresh here rather than reused.
MPIDBG_EXPORT int mqs_update_communicator_list(mqs_process* process) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr) return kErrOutOfOrder;
  return mpidbg::plugin::update_snapshot(ps);
}
