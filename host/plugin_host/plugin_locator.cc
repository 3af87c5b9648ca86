// plugin_locator.cc — finding libmpidbg_plugin.so relative to the running executable.
#include "host/plugin_host/plugin_locator.h"

#include <limits.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace mpidbg::host {
namespace {

constexpr const char* kPluginFile = "libmpidbg_plugin.so";

std::string ExecutableDir() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  std::string path(buf, static_cast<size_t>(n));
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

bool Readable(const std::string& path) { return access(path.c_str(), R_OK) == 0; }

}  // namespace

std::optional<std::string> LocateOwnPlugin(std::vector<std::string>* tried) {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("MPIDBG_PLUGIN"); env != nullptr && *env != '\0') {
    candidates.emplace_back(env);
  }
  std::string dir = ExecutableDir();
  if (!dir.empty()) {
    candidates.push_back(dir + "/../lib/mpidbg/" + kPluginFile);
#ifdef MPIDBG_PLUGIN_INSTALL_REL
    candidates.push_back(dir + "/" MPIDBG_PLUGIN_INSTALL_REL "/" + kPluginFile);
#endif
    candidates.push_back(dir + "/../plugin/" + kPluginFile);
  }
#ifdef MPIDBG_PLUGIN_INSTALL_DIR
  candidates.push_back(std::string(MPIDBG_PLUGIN_INSTALL_DIR) + "/" + kPluginFile);
#endif
#ifdef MPIDBG_BUILD_PLUGIN_PATH
  candidates.emplace_back(MPIDBG_BUILD_PLUGIN_PATH);
#endif
  for (const std::string& c : candidates) {
    if (tried != nullptr) tried->push_back(c);
    if (Readable(c)) {
      // "<bin>/../plugin/x.so" reads better in messages as the path it resolves to.
      char resolved[PATH_MAX];
      return realpath(c.c_str(), resolved) != nullptr ? std::string(resolved) : c;
    }
  }
  return std::nullopt;
}

}  // namespace mpidbg::host
