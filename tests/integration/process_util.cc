// process_util.cc — fork/exec with pipes and time limits; /proc scans by marker.
#include "process_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/prctl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mpidbg::itest {
namespace {

std::vector<char*> CArgv(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (const std::string& s : argv) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

double Now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv, int seconds) {
  CommandResult result;
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) return result;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    std::vector<char*> args = CArgv(argv);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  const double deadline = Now() + seconds;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  bool timed_out = false;
  while (open_fds > 0) {
    const int left_ms = static_cast<int>((deadline - Now()) * 1000);
    if (left_ms <= 0) {
      timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    if (poll(fds, 2, left_ms) < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
      char buf[65536];
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      } else {
        (i == 0 ? result.out : result.err).append(buf, n);
      }
    }
  }
  for (pollfd& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = !timed_out && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

pid_t SpawnSession(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                   const std::string& log_path) {
  // Orphans of the job (a launcher whose `timeout` parent died first) come back to this
  // process, which reaps them in KillMarkedJob instead of leaving zombies behind.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  setsid();
  const int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
  }
  const int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, 0);
  for (const std::string& kv : env) putenv(strdup(kv.c_str()));
  std::vector<char*> args = CArgv(argv);
  execvp(args[0], args.data());
  _exit(127);
}

std::vector<pid_t> FindMarkedProcesses(const std::string& marker, const std::string& exe) {
  std::vector<pid_t> found;
  DIR* proc = opendir("/proc");
  if (!proc) return found;
  while (dirent* entry = readdir(proc)) {
    const pid_t pid = static_cast<pid_t>(atoi(entry->d_name));
    if (pid <= 0 || pid == getpid()) continue;
    const std::string base = std::string("/proc/") + entry->d_name;
    const std::string environ = ReadFile(base + "/environ");
    bool marked = false;
    for (size_t at = 0; at < environ.size();) {
      const size_t end = environ.find('\0', at);
      const std::string var = environ.substr(at, end == std::string::npos ? end : end - at);
      if (var == marker) marked = true;
      if (end == std::string::npos) break;
      at = end + 1;
    }
    if (!marked) continue;
    if (!exe.empty()) {
      char target[PATH_MAX];
      const ssize_t n = readlink((base + "/exe").c_str(), target, sizeof target - 1);
      if (n <= 0) continue;
      target[n] = '\0';
      char want[PATH_MAX];
      if (!realpath(exe.c_str(), want) || strcmp(want, target) != 0) continue;
    }
    found.push_back(pid);
  }
  closedir(proc);
  std::sort(found.begin(), found.end());
  return found;
}

void KillMarkedJob(const std::string& marker, pid_t leader) {
  for (int round = 0; round < 3; ++round) {
    if (leader > 0) kill(-leader, SIGKILL);
    for (pid_t pid : FindMarkedProcesses(marker, "")) kill(pid, SIGKILL);
    usleep(100 * 1000);
  }
  if (leader > 0) waitpid(leader, nullptr, 0);
  // Reap the job's orphans; give the last ones a moment to die.
  for (int wait_ms = 0; wait_ms < 1000; wait_ms += 50) {
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    if (FindMarkedProcesses(marker, "").empty()) break;
    usleep(50 * 1000);
  }
  while (waitpid(-1, nullptr, WNOHANG) > 0) {
  }
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ScopedProcess::ScopedProcess(const std::vector<std::string>& argv, const std::string& log_path)
    : pid_(SpawnSession(argv, {}, log_path)) {}

ScopedProcess::~ScopedProcess() { Kill(); }

void ScopedProcess::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

}  // namespace mpidbg::itest
