// cmd_profile.cc — `mpidbg profile`: where a job's time goes — outside MPI, in MPI
// working, in MPI blocked — from the file the runtime wrote at MPI_Finalize or from the
// live processes / cores, as text, JSON or an HTML page.
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "host/cli/commands.h"
#include "host/cli/options.h"
#include "host/cli/target_list_options.h"
#include "host/fanout/fanout_options.h"
#include "host/profile/profile_file.h"
#include "host/profile/profile_html.h"
#include "host/profile/profile_json.h"
#include "host/profile/profile_nodes.h"
#include "host/profile/profile_plugin.h"
#include "host/profile/profile_text.h"

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg profile (FILE | --pids P,P,... | --cores CORE [CORE ...] [--exe FILE] |\n"
    "                       --launcher PID | --slurm JOBID[.STEP]) [--plugin PATH]\n"
    "                      [--remote-shell CMD] [--remote-mpidbg PATH] [--timeout S]\n"
    "                      [--rank N] [--json] [--html OUT.html]\n"
    "Shows the job's time outside MPI, in MPI working and in MPI blocked (waiting for\n"
    "other processes), the MPI functions and call sites it was spent in, and each rank.\n"
    "FILE is the mpidbg-profile.*.json the runtime writes at MPI_Finalize under\n"
    "`mpidbg run --profile`; --pids/--cores/--launcher read the samples of running\n"
    "ranks or their cores. --rank N shows one rank in detail. --slurm reads the ranks\n"
    "of a Slurm job on every node of it through `srun --overlap`, --launcher those on\n"
    "other hosts through --remote-shell (as `mpidbg job` does). --html writes one\n"
    "self-contained page (opens offline in any browser): the job's and each rank's time\n"
    "as bars, the MPI functions and call sites, each rank's detail on demand.\n";

struct ProfileOptions {
  JobInputOptions input;
  int rank = -1;
  std::string html_file;
  bool json = false;
  bool help = false;
};

host::Result<ProfileOptions> ParseProfileOptions(const std::vector<std::string>& args) {
  ProfileOptions o;
  host::Status st = ParseJobCommandArgs(
      args, &o.input, &o.json, &o.help, [&](ArgCursor& c, host::Status* error) {
        if (c.arg() == "--html") {
          if (!c.Value(&o.html_file)) *error = host::Status::Usage("--html needs a file");
          return true;
        }
        if (c.arg() != "--rank") return false;
        std::string v;
        char* end = nullptr;
        if (!c.Value(&v) || v.empty() ||
            (o.rank = static_cast<int>(std::strtol(v.c_str(), &end, 10)), *end != '\0') ||
            o.rank < 0) {
          *error = host::Status::Usage("--rank needs a world rank (0, 1, ...)");
        }
        return true;
      });
  if (!st.ok()) return st;
  return o;
}

}  // namespace

int ProfileCommand(const std::vector<std::string>& args) {
  bool json_requested = false;
  for (const std::string& a : args) json_requested = json_requested || a == "--json";
  auto options = ParseProfileOptions(args);
  if (!options.ok()) return ReportFailure(options.status(), json_requested);
  if (options->help) {
    std::cout << kUsage;
    return 0;
  }
  auto job = host::ReadsAcrossNodes(options->input.targets)
                 ? profile::ReadProfileAcrossNodes(options->input.targets)
                 : LoadJobInput(options->input, profile::LoadProfileFile, profile::ReadJobProfile);
  if (!job.ok()) return ReportFailure(job.status(), options->json);
  if (options->rank >= job->world_size) {
    return ReportFailure(host::Status::Usage("--rank " + std::to_string(options->rank) +
                                             " is not a rank of the " +
                                             std::to_string(job->world_size) + "-rank job"),
                         options->json);
  }
  if (!options->html_file.empty()) {
    std::ofstream out(options->html_file);
    out << profile::ProfileToHtml(job.value());
    if (!out) {
      return ReportFailure(host::Status::Usage("cannot write " + options->html_file),
                           options->json);
    }
  }
  if (options->json) {
    std::cout << profile::ProfileToJson(job.value()).dump(1) << std::endl;
  } else {
    std::cout << profile::ProfileToText(job.value(), options->rank);
  }
  return 0;
}

}  // namespace mpidbg::cli
