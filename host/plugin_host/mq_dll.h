// mq_dll.h — a message-queue DLL loaded into the host: its mqs_* entry points, the
// optional mpidbg_* extensions, and the basic callbacks it was given.
#pragma once

#include <memory>
#include <string>

#include "host/util/status.h"
#include "mpidbg/mpidbg_ext.h"
#include "mpidbg/mqs_interface.h"

namespace mpidbg::host {

// Codes the host's own callbacks return. Negative, so they never collide with the
// DLL's codes (>= mqs_first_user_code); the basic errorstring callback names them.
enum HostErrorCode {
  kHostErrRead = -1001,     // target memory could not be read
  kHostErrBadArgs = -1002,  // a callback got an invalid argument
};

struct MqFunctions {
  decltype(&mqs_setup_basic_callbacks) setup_basic_callbacks = nullptr;
  decltype(&mqs_version_string) version_string = nullptr;
  decltype(&mqs_version_compatibility) version_compatibility = nullptr;
  decltype(&mqs_dll_taddr_width) dll_taddr_width = nullptr;
  decltype(&mqs_dll_error_string) dll_error_string = nullptr;
  decltype(&mqs_setup_image) setup_image = nullptr;
  decltype(&mqs_image_has_queues) image_has_queues = nullptr;
  decltype(&mqs_destroy_image_info) destroy_image_info = nullptr;
  decltype(&mqs_setup_process) setup_process = nullptr;
  decltype(&mqs_process_has_queues) process_has_queues = nullptr;
  decltype(&mqs_destroy_process_info) destroy_process_info = nullptr;
  decltype(&mqs_update_communicator_list) update_communicator_list = nullptr;
  decltype(&mqs_setup_communicator_iterator) setup_communicator_iterator = nullptr;
  decltype(&mqs_get_communicator) get_communicator = nullptr;
  decltype(&mqs_get_comm_group) get_comm_group = nullptr;
  decltype(&mqs_next_communicator) next_communicator = nullptr;
  decltype(&mqs_setup_operation_iterator) setup_operation_iterator = nullptr;
  decltype(&mqs_next_operation) next_operation = nullptr;
};

// Every member may be null: a foreign DLL has none of them.
struct ExtensionFunctions {
  decltype(&mpidbg_ext_version) extensions_version = nullptr;
  decltype(&mpidbg_process_get_summary) process_get_summary = nullptr;
  decltype(&mpidbg_thread_count) thread_count = nullptr;
  decltype(&mpidbg_thread_get) thread_get = nullptr;
  decltype(&mpidbg_thread_waited_operation) thread_waited_operation = nullptr;
  decltype(&mpidbg_comm_get_detail) comm_get_detail = nullptr;
  decltype(&mpidbg_comm_get_remote_group) comm_get_remote_group = nullptr;
  decltype(&mpidbg_comm_get_neighbors) comm_get_neighbors = nullptr;
  decltype(&mpidbg_comm_get_remote_job_group) comm_get_remote_job_group = nullptr;  // version 4
  decltype(&mpidbg_operation_get_detail) operation_get_detail = nullptr;
  decltype(&mpidbg_traffic_read) traffic_read = nullptr;
  decltype(&mpidbg_traffic_get) traffic_get = nullptr;
  decltype(&mpidbg_logged_send_get) logged_send_get = nullptr;
  decltype(&mpidbg_process_get_launch) process_get_launch = nullptr;
  decltype(&mpidbg_mpit_read) mpit_read = nullptr;
  decltype(&mpidbg_mpit_cvar_get) mpit_cvar_get = nullptr;
  decltype(&mpidbg_mpit_pvar_get) mpit_pvar_get = nullptr;
  decltype(&mpidbg_mpit_category_get) mpit_category_get = nullptr;
  decltype(&mpidbg_mpit_category_member) mpit_category_member = nullptr;
  // version 3: communication monitoring and MPI-state sampling
  decltype(&mpidbg_monitor_read) monitor_read = nullptr;
  decltype(&mpidbg_monitor_peer_get) monitor_peer_get = nullptr;
  decltype(&mpidbg_monitor_coll_get) monitor_coll_get = nullptr;
  decltype(&mpidbg_monitor_file_get) monitor_file_get = nullptr;
  decltype(&mpidbg_monitor_mpit_peer_get) monitor_mpit_peer_get = nullptr;
  decltype(&mpidbg_monitor_mpit_coll_get) monitor_mpit_coll_get = nullptr;
  decltype(&mpidbg_profile_read) profile_read = nullptr;
  decltype(&mpidbg_profile_function_get) profile_function_get = nullptr;
  decltype(&mpidbg_profile_site_get) profile_site_get = nullptr;
};

class MqDll {
 public:
  // dlopen(RTLD_NOW | RTLD_LOCAL), resolve every mqs_* function, check the
  // compatibility level and address width, hand over the basic callbacks.
  static Result<std::unique_ptr<MqDll>> Load(const std::string& path);
  // The library stays loaded: a DLL may have handed out memory or registered state
  // that unloading would leave dangling.
  ~MqDll() = default;

  const MqFunctions& mqs() const { return mqs_; }
  const ExtensionFunctions& extensions() const { return extensions_; }
  bool has_thread_extension() const {
    return extensions_.thread_count != nullptr && extensions_.thread_get != nullptr;
  }
  bool has_monitor_extension() const {
    return extensions_.monitor_read != nullptr && extensions_.monitor_peer_get != nullptr &&
           extensions_.monitor_coll_get != nullptr && extensions_.monitor_file_get != nullptr;
  }
  bool has_profile_extension() const {
    return extensions_.profile_read != nullptr && extensions_.profile_function_get != nullptr &&
           extensions_.profile_site_get != nullptr;
  }
  const std::string& path() const { return path_; }
  std::string version() const;
  // Text for any code a DLL function returned: ours, the interface's, or the DLL's.
  std::string ErrorString(int code) const;

 private:
  MqDll() = default;
  std::string path_;
  void* handle_ = nullptr;
  MqFunctions mqs_;
  ExtensionFunctions extensions_;
};

// Text for the host's own callback codes (also the basic errorstring callback).
const char* HostErrorString(int code);

}  // namespace mpidbg::host
