// mq_dll.cc — loading and checking a message-queue DLL.
#include "host/plugin_host/mq_dll.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "host/plugin_host/mq_callbacks.h"

namespace mpidbg::host {
namespace {

template <typename Fn>
void Resolve(void* handle, const char* name, Fn* out, std::vector<std::string>* missing) {
  void* sym = dlsym(handle, name);
  if (sym == nullptr && missing != nullptr) missing->push_back(name);
  *out = reinterpret_cast<Fn>(sym);
}

}  // namespace

const char* HostErrorString(int code) {
  switch (code) {
    case kHostErrRead:
      return "the debugger could not read the target's memory";
    case kHostErrBadArgs:
      return "invalid argument to a debugger callback";
    case mqs_ok:
      return "no error";
    case mqs_no_information:
      return "no information";
    case mqs_end_of_list:
      return "end of list";
    default:
      return "unknown debugger error";
  }
}

Result<std::unique_ptr<MqDll>> MqDll::Load(const std::string& path) {
  std::unique_ptr<MqDll> dll(new MqDll());
  dll->path_ = path;
  dlerror();
  dll->handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (dll->handle_ == nullptr) {
    const char* why = dlerror();
    return Status::NoSupport("cannot load the message-queue DLL " + path + ": " +
                             (why != nullptr ? why : "unknown dlopen error"));
  }
  std::vector<std::string> missing;
  void* h = dll->handle_;
  MqFunctions& f = dll->mqs_;
  Resolve(h, "mqs_setup_basic_callbacks", &f.setup_basic_callbacks, &missing);
  Resolve(h, "mqs_version_string", &f.version_string, &missing);
  Resolve(h, "mqs_version_compatibility", &f.version_compatibility, &missing);
  Resolve(h, "mqs_dll_taddr_width", &f.dll_taddr_width, &missing);
  Resolve(h, "mqs_dll_error_string", &f.dll_error_string, &missing);
  Resolve(h, "mqs_setup_image", &f.setup_image, &missing);
  Resolve(h, "mqs_image_has_queues", &f.image_has_queues, &missing);
  Resolve(h, "mqs_destroy_image_info", &f.destroy_image_info, &missing);
  Resolve(h, "mqs_setup_process", &f.setup_process, &missing);
  Resolve(h, "mqs_process_has_queues", &f.process_has_queues, &missing);
  Resolve(h, "mqs_destroy_process_info", &f.destroy_process_info, &missing);
  Resolve(h, "mqs_update_communicator_list", &f.update_communicator_list, &missing);
  Resolve(h, "mqs_setup_communicator_iterator", &f.setup_communicator_iterator, &missing);
  Resolve(h, "mqs_get_communicator", &f.get_communicator, &missing);
  Resolve(h, "mqs_get_comm_group", &f.get_comm_group, &missing);
  Resolve(h, "mqs_next_communicator", &f.next_communicator, &missing);
  Resolve(h, "mqs_setup_operation_iterator", &f.setup_operation_iterator, &missing);
  Resolve(h, "mqs_next_operation", &f.next_operation, &missing);
  if (!missing.empty()) {
    // One sentence: a library that is no DLL at all lacks all 18 entry points.
    constexpr size_t kEntryPoints = 18;
    if (missing.size() == kEntryPoints) {
      return Status::NoSupport(path + " is not a message-queue DLL: it does not export " +
                               missing.front() + " or any other mqs_* function");
    }
    std::string list;
    for (size_t i = 0; i < missing.size() && i < 3; ++i) list += (i == 0 ? "" : ", ") + missing[i];
    if (missing.size() > 3) list += " and " + std::to_string(missing.size() - 3) + " more";
    return Status::NoSupport(path + " is not a usable message-queue DLL: it does not export " +
                             list);
  }
  int compat = f.version_compatibility();
  if (compat != MQS_INTERFACE_COMPATIBILITY) {
    return Status::NoSupport(path + " implements message-queue interface compatibility " +
                             std::to_string(compat) + ", mpidbg speaks " +
                             std::to_string(MQS_INTERFACE_COMPATIBILITY));
  }
  int width = f.dll_taddr_width();
  if (width != static_cast<int>(sizeof(mqs_taddr_t))) {
    return Status::NoSupport(path + " uses " + std::to_string(width) +
                             "-byte target addresses, mpidbg uses " +
                             std::to_string(sizeof(mqs_taddr_t)));
  }
  ExtensionFunctions& e = dll->extensions_;
  Resolve(h, "mpidbg_ext_version", &e.extensions_version, nullptr);
  Resolve(h, "mpidbg_process_get_summary", &e.process_get_summary, nullptr);
  Resolve(h, "mpidbg_thread_count", &e.thread_count, nullptr);
  Resolve(h, "mpidbg_thread_get", &e.thread_get, nullptr);
  Resolve(h, "mpidbg_thread_waited_operation", &e.thread_waited_operation, nullptr);
  Resolve(h, "mpidbg_comm_get_detail", &e.comm_get_detail, nullptr);
  Resolve(h, "mpidbg_comm_get_remote_group", &e.comm_get_remote_group, nullptr);
  Resolve(h, "mpidbg_comm_get_neighbors", &e.comm_get_neighbors, nullptr);
  Resolve(h, "mpidbg_comm_get_remote_job_group", &e.comm_get_remote_job_group, nullptr);
  Resolve(h, "mpidbg_operation_get_detail", &e.operation_get_detail, nullptr);
  Resolve(h, "mpidbg_traffic_read", &e.traffic_read, nullptr);
  Resolve(h, "mpidbg_traffic_get", &e.traffic_get, nullptr);
  Resolve(h, "mpidbg_logged_send_get", &e.logged_send_get, nullptr);
  Resolve(h, "mpidbg_process_get_launch", &e.process_get_launch, nullptr);
  Resolve(h, "mpidbg_mpit_read", &e.mpit_read, nullptr);
  Resolve(h, "mpidbg_mpit_cvar_get", &e.mpit_cvar_get, nullptr);
  Resolve(h, "mpidbg_mpit_pvar_get", &e.mpit_pvar_get, nullptr);
  Resolve(h, "mpidbg_mpit_category_get", &e.mpit_category_get, nullptr);
  Resolve(h, "mpidbg_mpit_category_member", &e.mpit_category_member, nullptr);
  Resolve(h, "mpidbg_monitor_read", &e.monitor_read, nullptr);
  Resolve(h, "mpidbg_monitor_peer_get", &e.monitor_peer_get, nullptr);
  Resolve(h, "mpidbg_monitor_coll_get", &e.monitor_coll_get, nullptr);
  Resolve(h, "mpidbg_monitor_file_get", &e.monitor_file_get, nullptr);
  Resolve(h, "mpidbg_monitor_mpit_peer_get", &e.monitor_mpit_peer_get, nullptr);
  Resolve(h, "mpidbg_monitor_mpit_coll_get", &e.monitor_mpit_coll_get, nullptr);
  Resolve(h, "mpidbg_profile_read", &e.profile_read, nullptr);
  Resolve(h, "mpidbg_profile_function_get", &e.profile_function_get, nullptr);
  Resolve(h, "mpidbg_profile_site_get", &e.profile_site_get, nullptr);
  f.setup_basic_callbacks(BasicCallbacks());
  return dll;
}

std::string MqDll::version() const {
  const char* v = mqs_.version_string != nullptr ? mqs_.version_string() : nullptr;
  return v != nullptr ? v : "";
}

std::string MqDll::ErrorString(int code) const {
  if (code < mqs_first_user_code) return HostErrorString(code);
  const char* s = mqs_.dll_error_string != nullptr ? mqs_.dll_error_string(code) : nullptr;
  if (s == nullptr) return "message-queue DLL error " + std::to_string(code);
  return s;
}

}  // namespace mpidbg::host
