// isolated_child.cc — the child side of an isolated read.
#include "host/snapshot/isolated_child.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "host/snapshot/read_with_dll.h"
#include "host/snapshot/snapshot_json.h"

namespace mpidbg::host {

// Child side: one JSON document on the pipe, {"snapshot": ...} or {"error": ...}.
[[noreturn]] void RunIsolatedChild(int fd, const TargetSpec& spec, const PluginChoice& choice) {
  // A crash of the DLL is reported by the parent; it should not also leave a core.
  rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  // Foreign DLLs print warnings of their own; stdout carries our one JSON document and
  // must not receive them, stderr only when debugging.
  int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (devnull >= 0) {
    dup2(devnull, STDOUT_FILENO);
    if (std::getenv("MPIDBG_DEBUG") == nullptr) dup2(devnull, STDERR_FILENO);
    close(devnull);
  }
  nlohmann::json out;
  auto opened = OpenedTarget::Open(spec);
  Result<model::ProcessSnapshot> snap =
      opened.ok() ? ReadWithDll(*opened.value(), choice, spec.want_mpit)
                  : Result<model::ProcessSnapshot>(opened.status());
  if (snap.ok()) {
    out["snapshot"] = SnapshotToJson(snap.value());
  } else {
    out["error"] = {{"kind", snap.status().exit_code()}, {"message", snap.status().message()}};
  }
  std::string text = out.dump();
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0 && errno != EINTR) break;
    if (n > 0) done += static_cast<size_t>(n);
  }
  _exit(0);
}

}  // namespace mpidbg::host
