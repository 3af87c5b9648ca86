// process_util.h — starting, finding and cleaning up processes for integration tests.
//
// Every job a test starts runs in its own session under `timeout`, carries a unique
// marker in its environment, and is killed by process id when the test ends, so no
// MPI process outlives its test even when the test fails half-way.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace mpidbg::itest {

struct CommandResult {
  int exit_code = -1;  // -1 when killed by a signal or by the time limit
  std::string out;
  std::string err;
};

// Runs argv to completion (killed after `seconds`), capturing stdout and stderr.
CommandResult RunCommand(const std::vector<std::string>& argv, int seconds = 120);

// Starts argv in a new session with `env` added, stdout and stderr appended to
// `log_path`. Returns the child's pid (the session leader), or -1.
pid_t SpawnSession(const std::vector<std::string>& argv,
                   const std::vector<std::string>& env, const std::string& log_path);

// Processes whose environment contains `marker` (NAME=VALUE) and, when `exe` is not
// empty, whose executable is `exe`. Sorted by pid.
std::vector<pid_t> FindMarkedProcesses(const std::string& marker, const std::string& exe);

// SIGKILLs every process carrying `marker` and the session `leader`, and reaps the leader.
void KillMarkedJob(const std::string& marker, pid_t leader);

// Contents of a file, "" if unreadable.
std::string ReadFile(const std::string& path);

// A plain process one test starts (`argv` in a session of its own, SpawnSession),
// SIGKILLed and reaped when the scope ends, whatever assertion ends the test first.
class ScopedProcess {
 public:
  ScopedProcess(const std::vector<std::string>& argv, const std::string& log_path);
  ~ScopedProcess();
  ScopedProcess(const ScopedProcess&) = delete;
  ScopedProcess& operator=(const ScopedProcess&) = delete;
  pid_t pid() const { return pid_; }  // -1 when it could not be started
  void Kill();                        // now; the destructor then does nothing

 private:
  pid_t pid_ = -1;
};

}  // namespace mpidbg::itest
