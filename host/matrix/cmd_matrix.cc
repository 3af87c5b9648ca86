// cmd_matrix.cc — `mpidbg matrix`: a job's communication matrices, from the file the
// runtime wrote at MPI_Finalize or from the live processes / cores, as text, JSON, an
// SVG heat map or an HTML page.
#include <fstream>
#include <iostream>

#include "host/cli/commands.h"
#include "host/cli/options.h"
#include "host/cli/target_list_options.h"
#include "host/matrix/monitor_file.h"
#include "host/fanout/fanout_options.h"
#include "host/matrix/monitor_html.h"
#include "host/matrix/monitor_json.h"
#include "host/matrix/monitor_nodes.h"
#include "host/matrix/monitor_plugin.h"
#include "host/matrix/monitor_svg.h"
#include "host/matrix/monitor_text.h"

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg matrix (FILE | --pids P,P,... | --cores CORE [CORE ...] [--exe FILE] |\n"
    "                      --launcher PID | --slurm JOBID[.STEP]) [--plugin PATH]\n"
    "                     [--remote-shell CMD] [--remote-mpidbg PATH] [--timeout S]\n"
    "                     [--which accumulated|current] [--metric messages|bytes]\n"
    "                     [--view p2p|coll|put|get|acc|mpi_t] [--svg OUT.svg]\n"
    "                     [--html OUT.html] [--json]\n"
    "Shows who sent how much to whom: the sender x receiver matrix of the chosen view\n"
    "(default p2p messages), per-rank totals, message sizes, collectives, files and the\n"
    "MPI's own decomposed counts (MPI_T). FILE is the mpidbg-monitor.*.json the runtime\n"
    "writes at MPI_Finalize under `mpidbg run --monitor`; --pids/--cores/--launcher read\n"
    "the counters of running ranks or their cores. --svg draws the matrix as a heat map\n"
    "(values in human units, exact on hover). --html writes one self-contained page\n"
    "(opens offline in any browser): heat maps of messages and bytes, per-rank totals,\n"
    "message sizes, collectives, each rank's totals on demand.\n"
    "--slurm reads the ranks of a Slurm job on every node of it through `srun --overlap`,\n"
    "--launcher those on other hosts through --remote-shell (as `mpidbg job` does).\n";

struct MatrixOptions {
  JobInputOptions input;
  std::string which;  // "" = the file's own, else accumulated|current
  monitor::View view = monitor::View::kP2p;
  monitor::Metric metric = monitor::Metric::kMessages;
  std::string svg_file;
  std::string html_file;
  bool json = false;
  bool help = false;
};

host::Result<MatrixOptions> ParseMatrixOptions(const std::vector<std::string>& args) {
  MatrixOptions o;
  host::Status st = ParseJobCommandArgs(
      args, &o.input, &o.json, &o.help, [&](ArgCursor& c, host::Status* error) {
        const std::string& a = c.arg();
        std::string v;
        if (a == "--which") {
          if (!c.Value(&o.which) || (o.which != "accumulated" && o.which != "current")) {
            *error = host::Status::Usage("--which needs accumulated or current");
          }
        } else if (a == "--metric") {
          if (!c.Value(&v) || !monitor::ParseMetric(v, &o.metric)) {
            *error = host::Status::Usage("--metric needs messages or bytes");
          }
        } else if (a == "--view") {
          if (!c.Value(&v) || !monitor::ParseView(v, &o.view)) {
            *error = host::Status::Usage("--view needs p2p, coll, put, get, acc or mpi_t");
          }
        } else if (a == "--svg") {
          if (!c.Value(&o.svg_file)) *error = host::Status::Usage("--svg needs a file");
        } else if (a == "--html") {
          if (!c.Value(&o.html_file)) *error = host::Status::Usage("--html needs a file");
        } else {
          return false;
        }
        return true;
      });
  if (!st.ok()) return st;
  return o;
}

host::Result<monitor::JobMonitor> Load(const MatrixOptions& o) {
  int which = o.which == "current" ? MPIDBG_MONITOR_CURRENT : MPIDBG_MONITOR_ACCUMULATED;
  if (host::ReadsAcrossNodes(o.input.targets)) {
    return monitor::ReadMonitorAcrossNodes(o.input.targets, which);
  }
  return LoadJobInput(
      o.input,
      [&](const std::string& file) -> host::Result<monitor::JobMonitor> {
        auto job = monitor::LoadMonitorFile(file);
        if (job.ok() && !o.which.empty() && o.which != job->which) {
          return host::Status::Usage(file + " holds " + job->which + " counters; --which " +
                                     o.which + " needs the ranks themselves (--pids or --cores)");
        }
        return job;
      },
      [&](const std::vector<host::TargetSpec>& targets) {
        return monitor::ReadJobMonitor(targets, which);
      });
}

}  // namespace

int MatrixCommand(const std::vector<std::string>& args) {
  bool json_requested = false;
  for (const std::string& a : args) json_requested = json_requested || a == "--json";
  auto options = ParseMatrixOptions(args);
  if (!options.ok()) return ReportFailure(options.status(), json_requested);
  if (options->help) {
    std::cout << kUsage;
    return 0;
  }
  auto job = Load(options.value());
  if (!job.ok()) return ReportFailure(job.status(), options->json);
  if (!options->svg_file.empty()) {
    monitor::Matrix m = monitor::BuildMatrix(job.value(), options->view, options->metric);
    std::string title = std::string(monitor::ViewName(options->view)) + " " +
                        monitor::MetricName(options->metric) + " (" + job->which + "), " +
                        std::to_string(job->world_size) + " ranks";
    std::ofstream out(options->svg_file);
    out << monitor::MatrixToSvg(m, title, options->metric);
    if (!out) {
      return ReportFailure(host::Status::Usage("cannot write " + options->svg_file),
                           options->json);
    }
  }
  if (!options->html_file.empty()) {
    std::ofstream out(options->html_file);
    out << monitor::MonitorToHtml(job.value(), options->view);
    if (!out) {
      return ReportFailure(host::Status::Usage("cannot write " + options->html_file),
                           options->json);
    }
  }
  if (options->json) {
    monitor::WriteMonitorJson(std::cout, job.value());
    std::cout.flush();
  } else {
    std::cout << monitor::MonitorToText(job.value(), options->view, options->metric);
  }
  return 0;
}

}  // namespace mpidbg::cli
