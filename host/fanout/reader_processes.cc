// reader_processes.cc — children in their own process groups, read through poll().
#include "host/fanout/reader_processes.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace mpidbg::host {
namespace {

using Clock = std::chrono::steady_clock;

// The readers sit in process groups of their own, so a Ctrl-C at the terminal reaches
// only this process: while they run, SIGINT, SIGTERM and SIGHUP are caught, the readers
// stopped, and the signal raised again with its former handler.
volatile sig_atomic_t g_interrupted = 0;

void OnInterrupt(int signo) { g_interrupted = signo; }

class InterruptGuard {
 public:
  InterruptGuard() {
    struct sigaction sa = {};
    sa.sa_handler = OnInterrupt;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &sa, &old_[i]);
  }
  ~InterruptGuard() {
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &old_[i], nullptr);
    if (g_interrupted != 0) raise(g_interrupted);
  }

 private:
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction old_[3];
};

struct Child {
  pid_t pid = -1;
  int fd = -1;           // its stdout, -1 once closed
  bool exited = false;
  std::string line;      // the unfinished line
  bool dropping = false; // the rest of a line over the bound
  bool reported = false; // on_exit was called
  ReaderOutcome outcome;
};

pid_t Spawn(const std::vector<std::string>& argv, int* out_fd) {
  int pipe_fds[2];
  if (argv.empty() || pipe2(pipe_fds, O_CLOEXEC) != 0) return -1;
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    // Its own process group: the deadline stops the reader and everything it started.
    setpgid(0, 0);
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, 0);
    dup2(pipe_fds[1], 1);
    execvp(args[0], args.data());
    std::fprintf(stderr, "mpidbg: cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(pipe_fds[1]);
  if (pid < 0) {
    close(pipe_fds[0]);
    return -1;
  }
  setpgid(pid, pid);  // also here, so the group exists before any signal is sent
  fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
  *out_fd = pipe_fds[0];
  return pid;
}

void Describe(int status, ReaderOutcome* o) {
  if (WIFEXITED(status)) {
    o->exit_status = WEXITSTATUS(status);
    if (o->exit_status == 127) {
      o->why = "its command could not be run (exit status 127)";
    } else if (o->exit_status != 0) {
      o->why = "its reader exited with status " + std::to_string(o->exit_status);
    }
  } else if (WIFSIGNALED(status)) {
    o->signal = WTERMSIG(status);
    o->why = "its reader was killed by signal " + std::to_string(o->signal);
  }
}

// SIGTERM to the group (srun passes it on to its tasks), SIGKILL after a grace period.
void Stop(Child& c) {
  if (c.exited) {
    killpg(c.pid, SIGKILL);  // whatever it left behind in its group
    return;
  }
  killpg(c.pid, SIGTERM);
  const auto grace = Clock::now() + std::chrono::seconds(3);
  int status = 0;
  while (Clock::now() < grace) {
    if (waitpid(c.pid, &status, WNOHANG) == c.pid) {
      c.exited = true;
      break;
    }
    usleep(20000);
  }
  killpg(c.pid, SIGKILL);
  if (!c.exited && waitpid(c.pid, &status, 0) == c.pid) c.exited = true;
}

}  // namespace

std::string CommandText(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

std::vector<ReaderOutcome> RunReaders(
    const std::vector<ReaderCommand>& commands, double timeout_seconds,
    const std::function<void(std::size_t, std::string_view)>& on_line,
    const std::function<void()>& on_tick,
    const std::function<void(std::size_t, const ReaderOutcome&)>& on_exit) {
  g_interrupted = 0;
  InterruptGuard guard;
  std::vector<Child> children(commands.size());
  for (std::size_t i = 0; i < commands.size(); ++i) {
    Child& c = children[i];
    c.pid = Spawn(commands[i].argv, &c.fd);
    c.outcome.started = c.pid > 0;
    if (!c.outcome.started) {
      c.exited = true;
      c.reported = true;
      c.outcome.why = "its command could not be started";
      on_exit(i, c.outcome);
    }
  }
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<long long>(timeout_seconds * 1000));
  auto next_tick = Clock::now();
  char buf[65536];
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<std::size_t> which;
    bool running = false;
    for (std::size_t i = 0; i < children.size(); ++i) {
      Child& c = children[i];
      if (c.fd >= 0) {
        fds.push_back({c.fd, POLLIN, 0});
        which.push_back(i);
      }
      if (!c.exited) {
        int status = 0;
        if (waitpid(c.pid, &status, WNOHANG) == c.pid) {
          c.exited = true;
          Describe(status, &c.outcome);
        }
      }
      running = running || c.fd >= 0 || !c.exited;
    }
    // A reader is over once it has exited and closed its output (a child it left
    // holding the pipe keeps it running until the deadline).
    for (std::size_t i = 0; i < children.size(); ++i) {
      Child& c = children[i];
      if (!c.reported && c.exited && c.fd < 0) {
        c.reported = true;
        killpg(c.pid, SIGKILL);  // what it left behind in its group
        on_exit(i, c.outcome);
      }
    }
    if (!running) break;
    if (Clock::now() >= next_tick) {
      on_tick();
      next_tick = Clock::now() + std::chrono::milliseconds(200);
    }
    if (Clock::now() >= deadline || g_interrupted != 0) {
      for (std::size_t i = 0; i < children.size(); ++i) {
        Child& c = children[i];
        if (c.reported) continue;
        Stop(c);
        if (c.fd >= 0) close(c.fd);
        c.fd = -1;
        c.outcome.timed_out = true;
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", timeout_seconds);
        c.outcome.why = g_interrupted != 0
                            ? std::string("interrupted (its reader was stopped)")
                            : std::string("no answer within ") + seconds + " s (its reader was stopped)";
        c.reported = true;
        on_exit(i, c.outcome);
      }
      break;
    }
    int n = poll(fds.data(), fds.size(), 100);
    if (n < 0 && errno != EINTR) break;
    for (std::size_t k = 0; n > 0 && k < fds.size(); ++k) {
      if ((fds[k].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      std::size_t i = which[k];
      Child& c = children[i];
      ssize_t got = read(c.fd, buf, sizeof buf);
      if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (got <= 0) {
        // A last line without its newline was cut: dropped, so a cut frame never reads
        // as a shorter whole one (its node's stream then lacks that frame).
        c.line.clear();
        close(c.fd);
        c.fd = -1;
        continue;
      }
      for (ssize_t b = 0; b < got; ++b) {
        char ch = buf[b];
        if (ch == '\n') {
          if (!c.dropping) on_line(i, c.line);
          c.line.clear();
          c.dropping = false;
        } else if (c.line.size() >= kMaxReaderLineBytes) {
          if (!c.dropping) on_line(i, c.line);
          c.line.clear();
          c.dropping = true;
        } else if (!c.dropping) {
          c.line.push_back(ch);
        }
      }
    }
  }
  std::vector<ReaderOutcome> outcomes;
  for (Child& c : children) {
    if (c.fd >= 0) close(c.fd);
    outcomes.push_back(c.outcome);
  }
  return outcomes;
}

}  // namespace mpidbg::host
