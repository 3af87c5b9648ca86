// core_fixture.cc — making a core with gcore once per test run.
#include "core_fixture.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "test_child.h"

namespace mpidbg::test {

std::string MakeTempDir() {
  char tmpl[] = "/tmp/mpidbg-host-test-XXXXXX";
  const char* dir = mkdtemp(tmpl);
  return dir != nullptr ? dir : "";
}

bool SanitizedBuild() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

const std::string& SharedCore(int* child_pid) {
  static std::string path;
  static int pid = 0;
  static bool tried = false;
  if (!tried && !SanitizedBuild()) {
    tried = true;
    std::string dir = MakeTempDir();
    pid_t child = StartChild(ChildOptions{2});
    std::string prefix = dir + "/core";
    // The file size limit keeps a runaway dump from filling the disk.
    std::string cmd = "ulimit -f 1048576; timeout 120 gcore -o " + prefix + " " +
                      std::to_string(child) + " >/dev/null 2>&1";
    int rc = std::system(cmd.c_str());
    std::string core = prefix + "." + std::to_string(child);
    StopChild(child);
    if (rc == 0 && access(core.c_str(), R_OK) == 0) {
      path = core;
      pid = child;
    }
    static std::string s_dir;
    static std::string s_core;
    s_dir = dir;
    s_core = core;
    std::atexit([] {
      unlink(s_core.c_str());
      rmdir(s_dir.c_str());
    });
  }
  if (child_pid != nullptr) *child_pid = pid;
  return path;
}

}  // namespace mpidbg::test
