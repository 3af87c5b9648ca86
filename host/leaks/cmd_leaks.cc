// cmd_leaks.cc — `mpidbg leaks FILE`: the leak report the runtime wrote at MPI_Finalize
// (`mpidbg run --leaks`), as text or JSON.
#include <iostream>

#include "host/cli/commands.h"
#include "host/cli/options.h"
#include "host/leaks/leaks_file.h"
#include "host/util/json_fields.h"

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg leaks FILE [--json]\n"
    "Shows the MPI objects and requests a job never freed, by kind and creating call,\n"
    "summed over its ranks: FILE is the mpidbg-leaks.*.json rank 0 writes at\n"
    "MPI_Finalize under `mpidbg run --leaks` (or MPIDBG_LEAKS=1).\n";

}  // namespace

int LeaksCommand(const std::vector<std::string>& args) {
  std::string file;
  bool json = false;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (a == "--json") {
      json = true;
    } else if (!a.empty() && a[0] == '-') {
      return ReportFailure(host::Status::Usage("unknown option " + a + "\n" + kUsage), json);
    } else if (file.empty()) {
      file = a;
    } else {
      return ReportFailure(host::Status::Usage("one FILE only\n" + std::string(kUsage)), json);
    }
  }
  if (file.empty()) return ReportFailure(host::Status::Usage(kUsage), json);
  auto report = leaks::LoadLeaksFile(file);
  if (!report.ok()) return ReportFailure(report.status(), json);
  if (json) {
    auto doc = host::ReadJsonFile(file);  // the runtime's document, as it wrote it
    std::cout << doc.value().dump(1) << std::endl;
  } else {
    std::cout << leaks::LeaksToText(report.value());
  }
  return 0;
}

}  // namespace mpidbg::cli
