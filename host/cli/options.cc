// options.cc — parsing the target options every per-process command takes.
#include "host/cli/options.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace mpidbg::cli {

std::vector<std::string> SplitArgs(int argc, char** argv, int first) {
  std::vector<std::string> out;
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      out.push_back(a.substr(0, eq));
      out.push_back(a.substr(eq + 1));
    } else {
      out.push_back(a);
    }
  }
  return out;
}

bool ParsePid(const std::string& text, int64_t* pid) {
  if (text.empty()) return false;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end != '\0' || v <= 0 || v > INT32_MAX) return false;
  *pid = v;
  return true;
}

host::Result<ProcessOptions> ParseProcessOptions(const std::vector<std::string>& args) {
  ProcessOptions o;
  for (ArgCursor c(args); c.Next();) {
    const std::string& a = c.arg();
    auto value = [&c](std::string* out) { return c.Value(out); };
    std::string v;
    if (c.Common(&o.json, &o.help)) {
      continue;
    } else if (a == "--pid") {
      if (!value(&v) || !ParsePid(v, &o.target.pid)) {
        return host::Status::Usage("--pid needs a process id");
      }
    } else if (a == "--core") {
      if (!value(&o.target.core)) return host::Status::Usage("--core needs a file");
    } else if (a == "--exe") {
      if (!value(&o.target.exe)) return host::Status::Usage("--exe needs a file");
    } else if (a == "--plugin") {
      if (!value(&o.target.plugin)) return host::Status::Usage("--plugin needs a path");
    } else {
      return host::Status::Usage("unknown argument '" + a + "'");
    }
  }
  if (o.help) return o;
  bool has_pid = o.target.pid != 0;
  bool has_core = !o.target.core.empty();
  if (has_pid == has_core) return host::Status::Usage("give exactly one of --pid PID or --core FILE");
  if (!o.target.exe.empty() && !has_core) return host::Status::Usage("--exe goes with --core");
  return o;
}

int ReportFailure(const host::Status& status, bool json) { return ReportFailure(status, json, {}); }

int ReportFailure(const host::Status& status, bool json,
                  const std::vector<TargetFailure>& targets) {
  std::fprintf(stderr, "mpidbg: %s\n", status.message().c_str());
  if (json) {
    nlohmann::json doc;
    doc["schema"] = "mpidbg.error/1";
    doc["error"] = {{"exit_status", status.exit_code()}, {"message", status.message()}};
    if (!targets.empty()) {
      nlohmann::json ranks = nlohmann::json::array();
      for (const TargetFailure& t : targets) {
        ranks.push_back({{"target", t.target},
                         {"error", t.status.message()},
                         {"error_kind", t.status.exit_code()}});
      }
      doc["error"]["ranks"] = std::move(ranks);
    }
    std::cout << doc.dump(1) << std::endl;
  }
  return status.exit_code();
}

}  // namespace mpidbg::cli
