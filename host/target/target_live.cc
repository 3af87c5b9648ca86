// target_live.cc — ptrace attach/detach and memory reads of a live process.
//
// Attach: PTRACE_SEIZE + PTRACE_INTERRUPT on every thread listed in /proc/PID/task,
// repeated until no new thread appears, then a bounded wait for each thread's stop.
// Seize (unlike PTRACE_ATTACH) sends no SIGSTOP, so nothing has to be undone for a
// running process; a process found in group stop is reinstated in that stop by the
// kernel at PTRACE_DETACH, so a stopped process stays stopped. Signals the attach
// intercepts are handed back at detach.
#include "host/target/target_live.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "host/target/ptrace_refusal.h"

namespace mpidbg::host {
namespace {

constexpr int kMaxAttachRounds = 100;
constexpr auto kStopTimeout = std::chrono::seconds(5);

std::string ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  return line;
}

std::vector<pid_t> ListTasks(pid_t pid) {
  std::vector<pid_t> tids;
  std::string dir = "/proc/" + std::to_string(pid) + "/task";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return tids;
  while (dirent* e = readdir(d)) {
    char* end = nullptr;
    long v = std::strtol(e->d_name, &end, 10);
    if (end != e->d_name && *end == '\0' && v > 0) tids.push_back(static_cast<pid_t>(v));
  }
  closedir(d);
  return tids;
}

bool IsStopSignal(int sig) {
  return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

}  // namespace

std::string ThreadStatFields(int64_t pid, int64_t tid) {
  std::string stat = ReadFirstLine("/proc/" + std::to_string(pid) + "/task/" +
                                   std::to_string(tid) + "/stat");
  size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size()) return "";
  return stat.substr(close + 2);
}

char ThreadStateLetter(int64_t pid, int64_t tid) {
  const std::string fields = ThreadStatFields(pid, tid);
  return fields.empty() ? 0 : fields[0];
}

std::string LiveExecutable(int64_t pid) {
  char buf[PATH_MAX];
  const std::string link = "/proc/" + std::to_string(pid) + "/exe";
  const ssize_t n = readlink(link.c_str(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

std::vector<std::string> ProcStrings(int64_t pid, const char* file, std::size_t max_bytes,
                                     std::size_t max_strings) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/" + file, std::ios::binary);
  std::string bytes;
  char buf[65536];
  while (in && bytes.size() < max_bytes) {
    in.read(buf, sizeof buf);
    bytes.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < bytes.size() && out.size() < max_strings) {
    std::size_t end = bytes.find('\0', start);
    if (end == std::string::npos) end = bytes.size();
    out.push_back(bytes.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::vector<std::string> LiveCommandLine(int64_t pid) {
  return ProcStrings(pid, "cmdline", std::size_t{1} << 20, 4096);
}

std::string PtracePermissionHint(int64_t pid) { return PtraceRefusal(GatherPtraceFacts(pid)); }

namespace {

Status CheckAttachable(int64_t pid) {
  if (pid <= 0 || pid > INT32_MAX) {
    return Status::Usage("invalid process id " + std::to_string(pid));
  }
  if (pid == getpid()) {
    return Status::Usage("mpidbg cannot read its own process");
  }
  if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
    return Status::Unreadable("no process " + std::to_string(pid));
  }
  char state = ThreadStateLetter(pid, pid);
  if (state == 'Z' || state == 'X') {
    return Status::Unreadable("process " + std::to_string(pid) +
                              " has exited (a zombie not yet reaped by its parent)");
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<LiveTarget>> LiveTarget::Attach(int64_t pid) {
  std::vector<Result<std::unique_ptr<LiveTarget>>> one = AttachMany({pid});
  return std::move(one[0]);
}

std::vector<Result<std::unique_ptr<LiveTarget>>> LiveTarget::AttachMany(
    const std::vector<int64_t>& pids) {
  std::vector<std::unique_ptr<LiveTarget>> targets(pids.size());
  std::vector<Status> errors(pids.size());
  // Interrupt every process before waiting for any: a busy-polling rank on a loaded
  // machine stops only when next scheduled, and those waits overlap this way.
  for (std::size_t i = 0; i < pids.size(); ++i) {
    errors[i] = CheckAttachable(pids[i]);
    if (!errors[i].ok()) continue;
    targets[i].reset(new LiveTarget(static_cast<pid_t>(pids[i])));
    errors[i] = targets[i]->AttachAll();
  }
  std::vector<Result<std::unique_ptr<LiveTarget>>> out;
  out.reserve(pids.size());
  for (std::size_t i = 0; i < pids.size(); ++i) {
    if (errors[i].ok()) errors[i] = targets[i]->WaitForStops();
    if (!errors[i].ok()) {
      if (targets[i]) targets[i]->Detach();
      out.emplace_back(errors[i]);
      continue;
    }
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    targets[i]->stopped_at_ns_ = static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
    out.emplace_back(std::move(targets[i]));
  }
  return out;
}

Status LiveTarget::AttachAll() {
  attached_ = true;
  std::set<pid_t> seen;
  for (int round = 0; round < kMaxAttachRounds; ++round) {
    std::vector<pid_t> tasks = ListTasks(pid_);
    if (tasks.empty() && seen.empty()) {
      return Status::Unreadable("no process " + std::to_string(pid_));
    }
    bool any_new = false;
    for (pid_t tid : tasks) {
      if (!seen.insert(tid).second) continue;
      any_new = true;
      char letter = ThreadStateLetter(pid_, tid);
      if (letter == 'Z' || letter == 'X') continue;  // an exited thread cannot be traced
      if (ptrace(PTRACE_SEIZE, tid, nullptr, nullptr) != 0) {
        int err = errno;
        if (err == ESRCH) continue;  // the thread exited meanwhile
        // The kernel refuses an exiting thread with EPERM too: a thread that ended since
        // its state was read is gone, not a permission problem.
        if (err == EPERM && tid != pid_) {
          const char now = ThreadStateLetter(pid_, tid);
          if (now == 0 || now == 'Z' || now == 'X') continue;
        }
        if (err == EPERM) return Status::Unreadable(PtracePermissionHint(pid_));
        return Status::Unreadable("cannot attach to thread " + std::to_string(tid) +
                                  " of process " + std::to_string(pid_) + ": " +
                                  std::strerror(err));
      }
      ThreadState ts;
      ts.tid = tid;
      ts.was_stopped = (letter == 'T');
      threads_.push_back(ts);
      if (ptrace(PTRACE_INTERRUPT, tid, nullptr, nullptr) != 0 && errno != ESRCH) {
        return Status::Unreadable("cannot stop thread " + std::to_string(tid) + ": " +
                                  std::strerror(errno));
      }
    }
    if (!any_new) break;
  }
  if (threads_.empty()) return Status::Unreadable("no process " + std::to_string(pid_));
  return Status::Ok();
}

Status LiveTarget::WaitForStops() {
  auto deadline = std::chrono::steady_clock::now() + kStopTimeout;
  for (size_t i = 0; i < threads_.size();) {
    ThreadState& ts = threads_[i];
    int status = 0;
    pid_t r = waitpid(ts.tid, &status, __WALL | WNOHANG);
    if (r == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        return Status::Unreadable("thread " + std::to_string(ts.tid) + " of process " +
                                  std::to_string(pid_) +
                                  " did not stop within 5 s (uninterruptible sleep?)");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    if (r < 0 || WIFEXITED(status) || WIFSIGNALED(status)) {
      threads_.erase(threads_.begin() + static_cast<long>(i));  // gone
      continue;
    }
    if (WIFSTOPPED(status)) {
      int sig = WSTOPSIG(status);
      int event = status >> 16;
      if (event == PTRACE_EVENT_STOP) {
        // Our interrupt, or a group stop: nothing to hand back.
        if (IsStopSignal(sig)) ts.was_stopped = true;
      } else if (event == 0) {
        // A signal-delivery stop: the signal was on its way; deliver it at detach.
        ts.pending_signal = sig;
      }
    }
    ++i;
  }
  if (threads_.empty()) return Status::Unreadable("no process " + std::to_string(pid_));
  return Status::Ok();
}

Status LiveTarget::Detach() {
  if (mem_fd_ >= 0) {
    close(mem_fd_);
    mem_fd_ = -1;
  }
  if (!attached_) return Status::Ok();
  attached_ = false;
  std::string failed;
  for (const ThreadState& ts : threads_) {
    long sig = ts.pending_signal;
    if (ptrace(PTRACE_DETACH, ts.tid, nullptr, reinterpret_cast<void*>(sig)) != 0 &&
        errno != ESRCH) {
      failed += " " + std::to_string(ts.tid);
    }
  }
  threads_.clear();
  if (!failed.empty()) {
    return Status::Unreadable("could not detach from threads" + failed + " of process " +
                              std::to_string(pid_));
  }
  return Status::Ok();
}

LiveTarget::~LiveTarget() { Detach(); }

std::vector<int64_t> LiveTarget::tids() const {
  std::vector<int64_t> out;
  for (const ThreadState& ts : threads_) out.push_back(ts.tid);
  return out;
}

bool LiveTarget::was_stopped() const {
  for (const ThreadState& ts : threads_) {
    if (!ts.was_stopped) return false;
  }
  return !threads_.empty();
}

Status LiveTarget::Read(TargetAddr addr, size_t size, void* out) {
  if (size == 0) return Status::Ok();
  TargetAddr end;
  if (!addr.Advance(size, &end)) {
    return Status::Unreadable("address range at " + HexAddr(addr) + " wraps around");
  }
  iovec local{out, size};
  iovec remote{reinterpret_cast<void*>(static_cast<uintptr_t>(addr.value)), size};
  ssize_t n = process_vm_readv(pid_, &local, 1, &remote, 1, 0);
  if (n == static_cast<ssize_t>(size)) return Status::Ok();
  // Partial or refused (e.g. a kernel without the call): /proc/PID/mem reads through
  // the ptrace access we hold.
  return ReadProcMem(addr, size, out);
}

Status LiveTarget::ReadProcMem(TargetAddr addr, size_t size, void* out) {
  if (mem_fd_ < 0) {
    std::string path = "/proc/" + std::to_string(pid_) + "/mem";
    mem_fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (mem_fd_ < 0) {
      return Status::Unreadable("cannot open " + path + ": " + std::strerror(errno));
    }
  }
  if (addr.value > static_cast<uint64_t>(INT64_MAX)) {
    return Status::Unreadable("cannot read " + std::to_string(size) + " bytes at " +
                              HexAddr(addr) + " of process " + std::to_string(pid_) +
                              ": address out of range");
  }
  size_t done = 0;
  auto* dst = static_cast<char*>(out);
  while (done < size) {
    ssize_t n = pread(mem_fd_, dst + done, size - done, static_cast<off_t>(addr.value + done));
    if (n <= 0) {
      std::string why = n == 0 ? "unmapped" : std::strerror(errno);
      return Status::Unreadable("cannot read " + std::to_string(size) + " bytes at " +
                                HexAddr(addr) + " of process " + std::to_string(pid_) +
                                ": " + why);
    }
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status LiveTarget::Write(TargetAddr addr, size_t size, const void* data) {
  if (!attached_) {
    return Status::Unreadable("process " + std::to_string(pid_) + " is not stopped for writing");
  }
  iovec local{const_cast<void*>(data), size};
  iovec remote{reinterpret_cast<void*>(static_cast<uintptr_t>(addr.value)), size};
  ssize_t n = process_vm_writev(pid_, &local, 1, &remote, 1, 0);
  if (n == static_cast<ssize_t>(size)) return Status::Ok();
  return Status::Unreadable("cannot write " + std::to_string(size) + " bytes at " + HexAddr(addr) +
                            " of process " + std::to_string(pid_) + ": " +
                            (n < 0 ? std::strerror(errno) : "partial write"));
}

Status ReadUnstopped(int64_t pid, TargetAddr addr, size_t size, void* out) {
  iovec local{out, size};
  iovec remote{reinterpret_cast<void*>(static_cast<uintptr_t>(addr.value)), size};
  ssize_t n = process_vm_readv(static_cast<pid_t>(pid), &local, 1, &remote, 1, 0);
  if (n == static_cast<ssize_t>(size)) return Status::Ok();
  return Status::Unreadable("cannot read " + std::to_string(size) + " bytes at " + HexAddr(addr) +
                            " of process " + std::to_string(pid) + ": " +
                            (n < 0 ? std::strerror(errno) : "partial read"));
}

}  // namespace mpidbg::host
