// cmd_run.cc — `mpidbg run`: run an MPI job with every rank under the mpidbg
// runtime. The flavour comes from the program's MPI library (or --flavour); the
// launcher is exec'd in place so signals and the exit status are the job's own.
#include "host/cli/commands.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "host/run/launch_plan.h"
#include "host/run/runtime_locations.h"

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg run [--flavour mpich|openmpi] [--runtime LIB] [--monitor[=FILE]]\n"
    "                  [--profile[=HZ]] [--leaks[=FILE]] [--dry-run] -- COMMAND...\n"
    "  Runs COMMAND (an MPI launcher such as mpiexec, or an MPI program) with every rank\n"
    "  under the mpidbg runtime, so `mpidbg snapshot|job` can explain its MPI state.\n"
    "  --monitor counts who sends how much to whom (MPIDBG_MONITOR; with Open MPI also\n"
    "  its own monitoring, --mca pml_monitoring_enable 1) and --profile samples each\n"
    "  thread's MPI state HZ times a second (MPIDBG_PROFILE); rank 0 writes\n"
    "  mpidbg-monitor.JOB.json / mpidbg-profile.JOB.json (or FILE) at MPI_Finalize, for\n"
    "  `mpidbg matrix FILE` and `mpidbg profile FILE`.\n"
    "  --leaks reports at MPI_Finalize the MPI objects and requests the program never\n"
    "  freed, summed over the ranks (MPIDBG_LEAKS): rank 0 prints it on stderr and writes\n"
    "  mpidbg-leaks.JOB.json (or FILE), for `mpidbg leaks FILE`.\n";

// The pid of the running job, for the signal forwarder.
volatile pid_t g_job = 0;

void Forward(int sig) {
  if (g_job > 0) kill(g_job, sig);
}

// Files named PREFIX*.json in the working directory written since `since`.
std::vector<std::string> NewFiles(const std::string& prefix, time_t since) {
  std::vector<std::string> found;
  DIR* d = opendir(".");
  if (d == nullptr) return found;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    struct stat st;
    if (name.rfind(prefix, 0) != 0 || name.size() < 5 ||
        name.compare(name.size() - 5, 5, ".json") != 0 || stat(name.c_str(), &st) != 0 ||
        st.st_mtime < since) {
      continue;
    }
    found.push_back(name);
  }
  closedir(d);
  return found;
}

// Where rank 0 wrote (or should have written) a file: the name given, else the
// default names found in the working directory, else where to look.
void ReportFile(const char* what, const std::string& named, const std::string& prefix,
                const char* command, time_t since) {
  if (!named.empty()) {
    fprintf(stderr, "mpidbg run: %s: %s (relative to rank 0's working directory); `mpidbg %s %s`\n",
            what, named.c_str(), command, named.c_str());
    return;
  }
  std::vector<std::string> found = NewFiles(prefix, since);
  if (found.empty()) {
    fprintf(stderr, "mpidbg run: %s: look for %s*.json in rank 0's working directory\n", what,
            prefix.c_str());
  }
  for (const std::string& name : found) {
    fprintf(stderr, "mpidbg run: %s: %s; `mpidbg %s %s`\n", what, name.c_str(), command,
            name.c_str());
  }
}

// Runs the job as a child (signals forwarded) so the files can be named once it ends;
// returns the job's exit status (a job killed by a signal kills us the same way).
int RunAndReport(std::vector<char*>& exec_argv, const std::string& monitor,
                 const std::string& profile, const std::string& leaks) {
  time_t since = time(nullptr) - 1;
  pid_t child = fork();
  if (child < 0) {
    fprintf(stderr, "mpidbg run: fork: %s\n", strerror(errno));
    return 1;
  }
  if (child == 0) {
    execvp(exec_argv[0], exec_argv.data());
    fprintf(stderr, "mpidbg run: cannot execute %s: %s\n", exec_argv[0], strerror(errno));
    _exit(127);
  }
  g_job = child;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = Forward;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaction(sig, &sa, nullptr);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!monitor.empty()) {
    ReportFile("monitoring", monitor == "1" ? "" : monitor, "mpidbg-monitor.", "matrix", since);
  }
  // --profile's value is a rate; the file has its default name.
  if (!profile.empty()) ReportFile("profile", "", "mpidbg-profile.", "profile", since);
  if (!leaks.empty()) {
    ReportFile("leak report", leaks == "1" ? "" : leaks, "mpidbg-leaks.", "leaks", since);
  }
  if (WIFSIGNALED(status)) {
    signal(WTERMSIG(status), SIG_DFL);
    raise(WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

// --profile's HZ: samples per second per thread, 2 .. 10000 as the runtime takes them
// ("1" is its word for the default rate, 100 Hz, which `--profile` alone sets).
bool ValidHz(const std::string& text) {
  if (text.empty() || text.size() > 5) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  int hz = atoi(text.c_str());
  return hz >= 2 && hz <= 10000;
}

std::string Quote(const std::string& s) {
  if (!s.empty() && s.find_first_of(" \t'\"\\$") == std::string::npos) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

int RunCommand(int argc, char** argv) {
  launch::LaunchRequest request;
  bool dry_run = false;
  std::string monitor;  // "" off, "1" default file name, else FILE
  std::string profile;  // "" off, "1" default rate, else HZ
  std::string leaks;    // "" off, "1" default file name, else FILE
  int i = 1;
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "--help" || arg == "-h") {
      fputs(kUsage, stdout);
      return 0;
    }
    if (arg == "--dry-run") {
      dry_run = true;
    } else if ((arg == "--flavour" || arg == "--flavor") && i + 1 < argc) {
      request.forced = launch::FlavourFromName(argv[++i]);
      if (request.forced == launch::Flavour::kUnknown) {
        fprintf(stderr, "mpidbg run: unknown flavour `%s` (mpich or openmpi)\n", argv[i]);
        return 2;
      }
    } else if (arg == "--runtime" && i + 1 < argc) {
      request.runtime_override = argv[++i];
    } else if (arg == "--monitor" || arg.rfind("--monitor=", 0) == 0) {
      monitor = arg == "--monitor" ? "1" : arg.substr(10);
      if (monitor.empty()) {
        fprintf(stderr, "mpidbg run: --monitor= needs a file name\n");
        return 2;
      }
    } else if (arg == "--profile" || arg.rfind("--profile=", 0) == 0) {
      profile = arg == "--profile" ? "1" : arg.substr(10);
      if (arg != "--profile" && !ValidHz(profile)) {
        fprintf(stderr, "mpidbg run: --profile=HZ needs samples per second, 2 to 10000\n");
        return 2;
      }
    } else if (arg == "--leaks" || arg.rfind("--leaks=", 0) == 0) {
      leaks = arg == "--leaks" ? "1" : arg.substr(8);
      if (leaks.empty()) {
        fprintf(stderr, "mpidbg run: --leaks= needs a file name\n");
        return 2;
      }
    } else if (!arg.empty() && arg[0] == '-') {
      fprintf(stderr, "mpidbg run: unknown option `%s`\n%s", arg.c_str(), kUsage);
      return 2;
    } else {
      break;  // the command starts here
    }
  }
  for (; i < argc; ++i) request.command.emplace_back(argv[i]);
  if (!monitor.empty()) request.rank_env.emplace_back("MPIDBG_MONITOR", monitor);
  if (!profile.empty()) request.rank_env.emplace_back("MPIDBG_PROFILE", profile);
  if (!leaks.empty()) request.rank_env.emplace_back("MPIDBG_LEAKS", leaks);
  request.monitor = !monitor.empty();
  if (request.command.empty()) {
    fputs(kUsage, stderr);
    return 2;
  }

  const launch::LaunchPlan plan =
      launch::PlanLaunch(request, launch::SystemProbe(launch::RuntimeSearchDirs()));
  if (!plan.ok) {
    fprintf(stderr, "mpidbg run: %s\n", plan.error.c_str());
    return plan.runtime.empty() && plan.flavour != launch::Flavour::kUnknown ? 1 : 2;
  }

  std::string shown;
  for (const auto& [name, value] : plan.env) shown += name + "=" + Quote(value) + " ";
  for (const std::string& word : plan.argv) shown += Quote(word) + " ";
  fprintf(stderr, "mpidbg run: %s runtime %s\nmpidbg run: %s\n", launch::FlavourName(plan.flavour),
          plan.runtime.c_str(), shown.c_str());
  if (dry_run) return 0;

  for (const auto& [name, value] : plan.env) setenv(name.c_str(), value.c_str(), 1);
  std::vector<char*> exec_argv;
  for (const std::string& word : plan.argv) exec_argv.push_back(const_cast<char*>(word.c_str()));
  exec_argv.push_back(nullptr);
  fflush(stderr);
  if (!monitor.empty() || !profile.empty() || !leaks.empty()) {
    return RunAndReport(exec_argv, monitor, profile, leaks);
  }
  execvp(exec_argv[0], exec_argv.data());
  fprintf(stderr, "mpidbg run: cannot execute %s: %s\n", exec_argv[0], strerror(errno));
  return 1;
}

}  // namespace mpidbg::cli
