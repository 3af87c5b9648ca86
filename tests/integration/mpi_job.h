// mpi_job.h — one MPI test application run under `mpidbg run`, as a user would,
// with its ranks found, dumped to core files and killed.
#pragma once

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace mpidbg::itest {

// Paths fixed at build time (see CMakeLists.txt).
std::string MpidbgExe();
std::string TestAppPath(const std::string& flavour, const std::string& app);
std::vector<std::string> BuiltFlavours();

class MpiJob {
 public:
  MpiJob(std::string flavour, std::string app, int ranks);
  ~MpiJob();
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;

  // Options for `mpidbg run` before "--" (e.g. --monitor, --profile=200); set before Start.
  void set_run_options(std::vector<std::string> options) { run_options_ = std::move(options); }
  // Starts the job with the launcher alone, not under `mpidbg run`: no runtime in the
  // ranks, as a user's job that was not started for debugging. Set before Start.
  void set_without_runtime() { without_runtime_ = true; }
  // A job whose ranks spawn more processes (MPI_Comm_spawn): Start waits for this many
  // processes of the application, and as many "ready" lines. Set before Start.
  void set_expected_processes(int n) { processes_ = n; }
  // Start waits for this many "ready" lines (default: one per process); 0 returns as
  // soon as the processes are found. Set before Start.
  void set_expected_ready_lines(int n) { ready_lines_ = n; }
  // Arguments for the launcher before the program (e.g. --ompi-server file:F), and for
  // the program itself. Set before Start.
  void set_launcher_options(std::vector<std::string> options) { launcher_options_ = std::move(options); }
  void set_app_arguments(std::vector<std::string> arguments) { app_arguments_ = std::move(arguments); }
  // Launches the job and waits until every rank printed "ready" and all rank
  // processes are found. False (with the reason and the job's log) on failure.
  bool Start(std::string* why);
  const std::vector<pid_t>& pids() const { return pids_; }
  // "--pids" argument: the rank pids joined by commas.
  std::string PidList() const;
  // Writes one core per rank with gcore; returns their paths (empty on failure).
  std::vector<std::string> DumpCores(std::string* why);
  void Kill();
  std::string Log() const;

 private:
  std::string flavour_, app_, marker_, dir_;
  int ranks_;
  int processes_ = -1;  // -1: ranks_
  int ready_lines_ = -1;  // -1: as many as processes
  pid_t leader_ = -1;
  std::vector<pid_t> pids_;
  std::vector<std::string> run_options_;
  std::vector<std::string> launcher_options_, app_arguments_;
  bool without_runtime_ = false;
};

struct MpidbgResult {
  int exit_code = -1;
  nlohmann::json json;  // null when stdout was not JSON
  std::string out, err;
};

// Runs the mpidbg command with `args` and parses its stdout as JSON when it is JSON.
MpidbgResult Mpidbg(const std::vector<std::string>& args);

}  // namespace mpidbg::itest
