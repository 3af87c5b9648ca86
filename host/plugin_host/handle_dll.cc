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

}  // namespace

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
  ResolveHandleFunctions(h, &f);
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
