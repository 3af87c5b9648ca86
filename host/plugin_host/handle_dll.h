// handle_dll.h — a DLL's handle interface (mpidbg_handles.h): its mpidbg_* entry points
// resolved with dlsym, and the check that a DLL has them at all.
#pragma once

#include <memory>
#include <string>

#include "host/plugin_host/handle_functions.h"
#include "host/util/status.h"

namespace mpidbg::host {

class HandleDll {
 public:
  // Checks the file's dynamic symbols first, so a DLL without the handle interface is
  // refused without running any of its code; then dlopen(RTLD_NOW | RTLD_LOCAL),
  // dlsym, the interface version and address width, and mpidbg_init_once with the
  // host's basic callbacks. Every refusal is kNoSupport with one sentence.
  static Result<std::unique_ptr<HandleDll>> Load(const std::string& path);

  const HandleFunctions& fn() const { return fn_; }
  const std::string& path() const { return path_; }
  std::string version() const;

 private:
  HandleDll() = default;
  std::string path_;
  void* handle_ = nullptr;  // stays loaded, as MqDll: the DLL may hold state
  HandleFunctions fn_;
};

// The first of the required version 1 entry points the ELF file at `path` does not
// export, "" when it exports them all; `error` receives why the file could not be read
// as a shared library (then the result is meaningless).
std::string MissingHandleExport(const std::string& path, std::string* error);

}  // namespace mpidbg::host
