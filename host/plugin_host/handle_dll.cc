// handle_dll.cc — loading a DLL's handle interface.
#include "host/plugin_host/handle_dll.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <vector>

#include "host/plugin_host/dll_exports.h"
#include "host/plugin_host/mq_callbacks.h"

namespace mpidbg::host {
namespace {

// Without these a DLL cannot answer a single handle query.
const char* const kRequired[] = {
    "mpidbg_init_once",        "mpidbg_interface_version_compatibility",
    "mpidbg_dll_taddr_width",  "mpidbg_init_per_image",
    "mpidbg_init_per_process", "mpidbg_comm_query",
};

template <typename Fn>
void Resolve(void* handle, const char* name, Fn* out) {
  *out = reinterpret_cast<Fn>(dlsym(handle, name));
}

}  // namespace

const char* HandleErrorString(int code) {
  switch (code) {
    case MPIDBG_SUCCESS:
      return "no error";
    case MPIDBG_ERR_NOT_FOUND:
      return "no such handle in this process (never created, or its record is gone)";
    case MPIDBG_ERR_NOT_SUPPORTED:
      return "not supported for this process";
    case MPIDBG_ERR_OUT_OF_RANGE:
      return "value out of range";
    case MPIDBG_ERR_UNAVAILABLE:
      return "the information cannot be read now";
    case MPIDBG_ERR_NO_MEM:
      return "out of memory";
    default:
      return "unknown handle-interface error";
  }
}

std::string MissingHandleExport(const std::string& path, std::string* error) {
  std::set<std::string> names;
  if (!DynamicSymbols(path, &names, error)) return "";
  error->clear();
  for (const char* name : kRequired) {
    if (names.count(name) == 0) return name;
  }
  return "";
}

Result<std::unique_ptr<HandleDll>> HandleDll::Load(const std::string& path) {
  // A bare name is found by dlopen's search; only a path can be inspected first.
  if (path.find('/') != std::string::npos) {
    std::string error;
    std::string missing = MissingHandleExport(path, &error);
    if (!error.empty()) {
      return Status::NoSupport("cannot load the DLL " + path + ": " + error);
    }
    if (!missing.empty()) {
      return Status::NoSupport(path + " has no MPI handle interface: it does not export " +
                               missing);
    }
  }
  std::unique_ptr<HandleDll> dll(new HandleDll());
  dll->path_ = path;
  dlerror();
  dll->handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (dll->handle_ == nullptr) {
    const char* why = dlerror();
    return Status::NoSupport("cannot load the DLL " + path + ": " +
                             (why != nullptr ? why : "unknown dlopen error"));
  }
  void* h = dll->handle_;
  HandleFunctions& f = dll->fn_;
  Resolve(h, "mpidbg_init_once", &f.init_once);
  Resolve(h, "mpidbg_interface_version_compatibility", &f.version_compatibility);
  Resolve(h, "mpidbg_version_string", &f.version_string);
  Resolve(h, "mpidbg_dll_taddr_width", &f.dll_taddr_width);
  Resolve(h, "mpidbg_init_per_image", &f.init_per_image);
  Resolve(h, "mpidbg_finalize_per_image", &f.finalize_per_image);
  Resolve(h, "mpidbg_init_per_process", &f.init_per_process);
  Resolve(h, "mpidbg_finalize_per_process", &f.finalize_per_process);
  Resolve(h, "mpidbg_comm_query", &f.comm_query);
  Resolve(h, "mpidbg_comm_f2c", &f.comm_f2c);
  Resolve(h, "mpidbg_errhandler_query", &f.errhandler_query);
  Resolve(h, "mpidbg_errhandler_f2c", &f.errhandler_f2c);
  Resolve(h, "mpidbg_request_query", &f.request_query);
  Resolve(h, "mpidbg_request_f2c", &f.request_f2c);
  Resolve(h, "mpidbg_status_query", &f.status_query);
  Resolve(h, "mpidbg_status_f2c", &f.status_f2c);
  Resolve(h, "mpidbg_handle_ext_version", &f.extension_version);
  Resolve(h, "mpidbg_name_map_query", &f.name_map_query);
  Resolve(h, "mpidbg_comm_query_ext", &f.comm_query_extended);
  Resolve(h, "mpidbg_comm_query_remote_job", &f.comm_query_remote_job);
  Resolve(h, "mpidbg_request_query_ext", &f.request_query_extended);
  Resolve(h, "mpidbg_status_query_ext", &f.status_query_extended);
  Resolve(h, "mpidbg_datatype_query", &f.datatype_query);
  Resolve(h, "mpidbg_datatype_f2c", &f.datatype_f2c);
  Resolve(h, "mpidbg_group_query", &f.group_query);
  Resolve(h, "mpidbg_group_f2c", &f.group_f2c);
  Resolve(h, "mpidbg_op_query", &f.op_query);
  Resolve(h, "mpidbg_op_f2c", &f.op_f2c);
  Resolve(h, "mpidbg_info_query", &f.info_query);
  Resolve(h, "mpidbg_info_f2c", &f.info_f2c);
  Resolve(h, "mpidbg_win_query", &f.win_query);
  Resolve(h, "mpidbg_win_f2c", &f.win_f2c);
  Resolve(h, "mpidbg_file_query", &f.file_query);
  Resolve(h, "mpidbg_file_f2c", &f.file_f2c);
  Resolve(h, "mpidbg_message_query", &f.message_query);
  Resolve(h, "mpidbg_message_f2c", &f.message_f2c);
  Resolve(h, "mpidbg_object_list_query", &f.object_list_query);
  Resolve(h, "mpidbg_latest_time_query", &f.latest_time_query);
  if (f.init_once == nullptr || f.version_compatibility == nullptr ||
      f.dll_taddr_width == nullptr || f.init_per_image == nullptr ||
      f.init_per_process == nullptr || f.comm_query == nullptr) {
    return Status::NoSupport(path +
                             " has no MPI handle interface: it does not export "
                             "mpidbg_init_once and the other version 1 functions");
  }
  int version = f.version_compatibility();
  if (version != MPIDBG_INTERFACE_VERSION) {
    return Status::NoSupport(path + " implements handle interface version " +
                             std::to_string(version) + ", mpidbg speaks " +
                             std::to_string(MPIDBG_INTERFACE_VERSION));
  }
  int width = f.dll_taddr_width();
  if (width != static_cast<int>(sizeof(mqs_taddr_t))) {
    return Status::NoSupport(path + " uses " + std::to_string(width) +
                             "-byte target addresses, mpidbg uses " +
                             std::to_string(sizeof(mqs_taddr_t)));
  }
  int rc = f.init_once(BasicCallbacks());
  if (rc != MPIDBG_SUCCESS) {
    return Status::NoSupport(path +
                             " refused to start its handle interface: " + HandleErrorString(rc));
  }
  return dll;
}

std::string HandleDll::version() const {
  const char* v = fn_.version_string != nullptr ? fn_.version_string() : nullptr;
  return v != nullptr ? v : "";
}

}  // namespace mpidbg::host
