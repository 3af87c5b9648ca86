// mpi_job.cc — launching test applications through `mpidbg run`.
#include "mpi_job.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include "process_util.h"

namespace mpidbg::itest {
namespace {

// Each job is bounded in time even if the test process dies before cleaning up.
constexpr int kJobSeconds = 300;

std::vector<std::string> LauncherFor(const std::string& flavour, int ranks) {
  if (flavour == "mpich") return {"mpiexec.mpich", "-n", std::to_string(ranks)};
  return {"mpiexec.openmpi", "--allow-run-as-root", "--oversubscribe", "-n",
          std::to_string(ranks)};
}

int CountReadyLines(const std::string& log) {
  int n = 0;
  for (size_t at = log.find(" ready\n"); at != std::string::npos; at = log.find(" ready\n", at + 1))
    ++n;
  return n;
}

}  // namespace

std::string MpidbgExe() { return MPIDBG_EXE; }
std::string TestAppPath(const std::string& flavour, const std::string& app) {
  return std::string(MPIDBG_TESTAPPS_DIR) + "/" + flavour + "/" + app;
}
std::vector<std::string> BuiltFlavours() {
  std::vector<std::string> out;
  std::stringstream ss(MPIDBG_TEST_FLAVOURS);
  for (std::string f; std::getline(ss, f, ',');)
    if (!f.empty()) out.push_back(f);
  return out;
}

MpiJob::MpiJob(std::string flavour, std::string app, int ranks)
    : flavour_(std::move(flavour)), app_(std::move(app)), ranks_(ranks) {
  char tmpl[] = "/tmp/mpidbg-itest-XXXXXX";
  dir_ = mkdtemp(tmpl) ? tmpl : "/tmp";
  marker_ = "MPIDBG_ITEST_JOB=" + dir_;
}

MpiJob::~MpiJob() {
  Kill();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

bool MpiJob::Start(std::string* why) {
  std::vector<std::string> argv = {"timeout", "-s", "KILL", std::to_string(kJobSeconds)};
  if (!without_runtime_) {
    argv.push_back(MpidbgExe());
    argv.push_back("run");
    argv.insert(argv.end(), run_options_.begin(), run_options_.end());
    argv.push_back("--");
  }
  for (const std::string& w : LauncherFor(flavour_, ranks_)) argv.push_back(w);
  argv.insert(argv.end(), launcher_options_.begin(), launcher_options_.end());
  argv.push_back(TestAppPath(flavour_, app_));
  argv.insert(argv.end(), app_arguments_.begin(), app_arguments_.end());
  leader_ = SpawnSession(argv, {marker_}, dir_ + "/job.log");
  if (leader_ < 0) {
    *why = "cannot start the job";
    return false;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    pids_ = FindMarkedProcesses(marker_, TestAppPath(flavour_, app_));
    const int expected = processes_ < 0 ? ranks_ : processes_;
    const int ready = ready_lines_ < 0 ? expected : ready_lines_;
    if (static_cast<int>(pids_.size()) == expected && CountReadyLines(Log()) == ready) return true;
    if (waitpid(leader_, nullptr, WNOHANG) == leader_) {
      leader_ = -1;
      *why = "the job ended early:\n" + Log();
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  *why = "the job did not reach its ready state in 60 s:\n" + Log();
  return false;
}

std::string MpiJob::PidList() const {
  std::string out;
  for (pid_t p : pids_) out += (out.empty() ? "" : ",") + std::to_string(p);
  return out;
}

std::vector<std::string> MpiJob::DumpCores(std::string* why) {
  std::vector<std::string> cores;
  std::vector<pid_t> dumpers;
  for (pid_t p : pids_) {
    const std::string prefix = dir_ + "/core";
    const pid_t child = fork();
    if (child == 0) {
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, 1);
      dup2(null, 2);
      execlp("timeout", "timeout", "-s", "KILL", "120", "gcore", "-o", prefix.c_str(),
             std::to_string(p).c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    dumpers.push_back(child);
    cores.push_back(prefix + "." + std::to_string(p));
  }
  for (pid_t d : dumpers) waitpid(d, nullptr, 0);
  for (const std::string& c : cores) {
    if (access(c.c_str(), R_OK) != 0) {
      *why = "gcore did not write " + c;
      return {};
    }
  }
  return cores;
}

void MpiJob::Kill() {
  KillMarkedJob(marker_, leader_);
  leader_ = -1;
}

std::string MpiJob::Log() const { return ReadFile(dir_ + "/job.log"); }

MpidbgResult Mpidbg(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {MpidbgExe()};
  argv.insert(argv.end(), args.begin(), args.end());
  const CommandResult r = RunCommand(argv, 120);
  MpidbgResult out{r.exit_code, nullptr, r.out, r.err};
  out.json = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  if (out.json.is_discarded()) out.json = nullptr;
  return out;
}

}  // namespace mpidbg::itest
