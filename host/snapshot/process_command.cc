// process_command.cc — read one target, print it.
#include "host/snapshot/process_command.h"

#include <iostream>

#include "host/cli/options.h"
#include "host/snapshot/snapshot_json.h"
#include "host/snapshot/snapshot_reader.h"

namespace mpidbg::cli {

int RunProcessCommand(const std::string& name, const std::string& summary,
                      const std::vector<std::string>& args, const TextView& view,
                      bool want_mpit) {
  auto options = ParseProcessOptions(args);
  if (!options.ok()) {
    bool json = false;
    for (const std::string& a : args) json = json || a == "--json";
    return ReportFailure(options.status(), json);
  }
  if (options->help) {
    std::cout << "usage: mpidbg " << name
              << " (--pid PID | --core FILE [--exe FILE]) [--plugin PATH] [--json]\n"
              << summary << "\n";
    return 0;
  }
  options->target.want_mpit = want_mpit;
  auto snap = host::ReadTarget(options->target);
  if (!snap.ok()) return ReportFailure(snap.status(), options->json);
  if (options->json) {
    std::cout << host::SnapshotToJson(snap.value()).dump(1) << std::endl;
  } else {
    std::cout << view(snap.value());
  }
  return 0;
}

}  // namespace mpidbg::cli
