// test_child.cc — the forked target process used by the host tests.
#include "test_child.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

extern "C" {
volatile uint64_t mpidbg_test_known_value = mpidbg::test::kParentValue;
volatile uint64_t mpidbg_test_counter = 0;
const char mpidbg_test_string[] = "mpidbg test string";
__attribute__((noinline)) void mpidbg_test_function(void) { asm volatile(""); }
}

namespace mpidbg::test {

// Keeps TestRecord in the DWARF of the test binary.
TestRecord g_test_record_instance;

pid_t StartChild(const ChildOptions& options) {
  int fds[2];
  if (pipe(fds) != 0) std::abort();
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    mpidbg_test_known_value = kChildValue;
    if (options.dump_dir != nullptr) {
      rlimit one_gib{1ul << 30, 1ul << 30};  // the kernel cuts a larger dump short
      setrlimit(RLIMIT_CORE, &one_gib);
      if (chdir(options.dump_dir) != 0) _exit(1);
    }
    std::vector<std::thread> threads;
    for (int i = 0; i < options.extra_threads; ++i) {
      threads.emplace_back([] {
        for (;;) usleep(1000);
      });
    }
    char ready = 1;
    if (write(fds[1], &ready, 1) != 1) _exit(1);
    close(fds[1]);
    for (;;) {
      mpidbg_test_counter = mpidbg_test_counter + 1;
      usleep(500);
    }
  }
  close(fds[1]);
  char ready = 0;
  if (read(fds[0], &ready, 1) != 1) std::abort();
  close(fds[0]);
  return pid;
}

std::string KernelCore() {
  char tmpl[] = "/tmp/mpidbg-kernel-core-XXXXXX";
  const char* dir = mkdtemp(tmpl);
  if (dir == nullptr) return "";
  ChildOptions options;
  options.dump_dir = dir;
  pid_t child = StartChild(options);
  kill(child, SIGSEGV);
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFSIGNALED(status) || !WCOREDUMP(status)) {
    rmdir(dir);
    return "";
  }
  DIR* d = opendir(dir);
  std::string found;
  while (d != nullptr) {
    dirent* e = readdir(d);
    if (e == nullptr) break;
    if (std::string(e->d_name).rfind("core", 0) == 0) found = std::string(dir) + "/" + e->d_name;
  }
  if (d != nullptr) closedir(d);
  if (found.empty()) rmdir(dir);
  return found;
}

void StopChild(pid_t pid) {
  if (pid <= 0) return;
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
}

char ProcessState(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  std::getline(in, stat);
  size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size()) return 0;
  return stat[close + 2];
}

pid_t UnusedPid() {
  pid_t pid = fork();
  if (pid == 0) _exit(0);
  int status = 0;
  waitpid(pid, &status, 0);
  return pid;
}

}  // namespace mpidbg::test
