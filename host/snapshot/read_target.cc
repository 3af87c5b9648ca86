// read_target.cc — from a target description to a snapshot: open, choose the DLL,
// read, let go. Foreign DLLs run in a child process (see ReadTarget in
// snapshot_reader.h, the child in isolated_child.h): the child opens the target itself,
// so a crash or endless loop in the DLL kills only the child, and the kernel's detach on
// the child's exit leaves a live target as it was found. This side parses the child's
// document; it never writes one.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "host/plugin_host/plugin_choice.h"
#include "host/snapshot/isolated_child.h"
#include "host/snapshot/read_stacks_view.h"
#include "host/snapshot/read_with_dll.h"
#include "host/snapshot/snapshot_parse.h"
#include "host/snapshot/snapshot_reader.h"
#include "host/target/mpi_library.h"
#include "mpidbg/records.h"

namespace mpidbg::host {
namespace {

constexpr int kDefaultDllTimeoutSeconds = 60;

int DllTimeoutSeconds() {
  const char* env = std::getenv("MPIDBG_DLL_TIMEOUT");
  int v = env != nullptr ? std::atoi(env) : 0;
  return v > 0 ? v : kDefaultDllTimeoutSeconds;
}

Result<model::ProcessSnapshot> ReadIsolated(const TargetSpec& spec, const PluginChoice& choice,
                                            int64_t pid) {
  int fds[2];
  if (pipe(fds) != 0) return Status::Unreadable(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return Status::Unreadable(std::string("fork: ") + std::strerror(errno));
  }
  if (child == 0) {
    close(fds[0]);
    RunIsolatedChild(fds[1], spec, choice);
  }
  close(fds[1]);
  std::string text;
  const int timeout_s = DllTimeoutSeconds();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  bool timed_out = false;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    char buf[65536];
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::string who = "the message-queue DLL " + choice.path + " (chosen by " + choice.reason + ")";
  if (timed_out) {
    return Status::NoSupport(who + " did not finish reading process " + std::to_string(pid) +
                             " within " + std::to_string(timeout_s) + " s and was stopped");
  }
  if (WIFSIGNALED(status)) {
    return Status::NoSupport(who + " crashed (signal " + std::to_string(WTERMSIG(status)) + ", " +
                             strsignal(WTERMSIG(status)) + ") while reading process " +
                             std::to_string(pid));
  }
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return Status::NoSupport(who + " ended without a result while reading process " +
                             std::to_string(pid));
  }
  if (doc.contains("error")) {
    int kind = doc["error"].value("kind", 3);
    std::string message = doc["error"].value("message", std::string("unknown error"));
    return Status::Error(static_cast<ErrorKind>(kind), message);
  }
  return SnapshotFromJson(doc["snapshot"]);
}

// Foreign DLLs that refused a target of this run (kNoSupport: no queues, a crash, no
// answer in time). One command reads the ranks of one job, which share their library.
std::set<std::string>& FailedDlls() {
  static std::set<std::string> failed;
  return failed;
}

}  // namespace

// Without a DLL that can read it, a process that has an MPI library is read in the
// reduced view (its stacks); one without any MPI library keeps the refusal.
Result<model::ProcessSnapshot> ReadTarget(const TargetSpec& spec, LiveTarget* stopped,
                                          ReadCost* cost) {
  ReadCost ignored;
  if (cost == nullptr) cost = &ignored;
  auto opened = OpenedTarget::Open(spec, stopped);
  if (!opened.ok()) return opened.status();
  OpenedTarget& target = *opened.value();
  cost->attach_ns = target.attach_ns();
  cost->modules_ns = target.modules_ns();
  const int64_t start = MonotonicNowNs();
  auto choice = ChoosePlugin(target.symbols(), target.memory(), spec.plugin, target.pid());
  cost->choose_ns = MonotonicNowNs() - start;
  if (!choice.ok()) {
    if (choice.status().kind() != ErrorKind::kNoSupport || !spec.plugin.empty()) {
      return choice.status();
    }
    const std::string library = MpiLibraryModule(target);
    if (library.empty()) return NotMpiProcess(target);
    return ReadStacksView(target, library);
  }
  if (choice->ours) return ReadWithDll(target, choice.value(), spec.want_mpit, cost);
  if (spec.plugin.empty() && FailedDlls().count(choice->path) != 0) {
    // The same DLL failed on another process of this run (the ranks of a job share their
    // MPI library): its stacks at once, without another child and attach.
    const std::string library = MpiLibraryModule(target);
    if (!library.empty()) return ReadStacksView(target, library);
  }
  int64_t pid = target.pid();
  target.Close();
  opened.value().reset();
  // The child attaches by itself: a process stopped by the caller is let go first.
  if (stopped != nullptr) stopped->Detach();
  auto snap = ReadIsolated(spec, choice.value(), pid);
  if (!snap.ok() && snap.status().kind() == ErrorKind::kNoSupport && spec.plugin.empty()) {
    // The MPI library's own DLL failed (Debian's Open MPI DLL needs debug information
    // that is not installed): its stacks are what can still be read.
    FailedDlls().insert(choice->path);
    auto again = OpenedTarget::Open(spec);
    if (again.ok()) {
      const std::string library = MpiLibraryModule(*again.value());
      if (!library.empty()) return ReadStacksView(*again.value(), library);
    }
    return Status::NoSupport(snap.status().message() +
                             "; run the job under `mpidbg run` to read it with mpidbg's runtime");
  }
  return snap;
}

}  // namespace mpidbg::host
