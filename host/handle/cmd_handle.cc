// cmd_handle.cc — `mpidbg handle`: one MPI handle of a live process or core, decoded.
#include <cctype>
#include <cstdlib>
#include <iostream>

#include "host/cli/commands.h"
#include "host/cli/options.h"
#include "host/handle/handle_json.h"
#include "host/handle/handle_text.h"
#include "host/handle/read_handle.h"

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg handle (--pid PID | --core FILE [--exe FILE]) [--plugin PATH]\n"
    "                     (--kind KIND VALUE | [--kind KIND] --expr VARIABLE)\n"
    "                     [--fortran] [--max-map N] [--json]\n"
    "Shows one MPI handle: its object, how it was made, whether the application freed it.\n"
    "  KIND       comm, request, datatype, group, op, errhandler, info, win, file, message,\n"
    "             or status (VALUE is then the address of an MPI_Status)\n"
    "  VALUE      the handle as the program holds it: hex (0x84000002) or decimal\n"
    "  --expr     read the handle from a global variable, NAME or NAME[INDEX]; with debug\n"
    "             information its type (MPI_Comm, ...) gives the kind\n"
    "  --fortran  VALUE (or the variable) is a Fortran INTEGER handle\n"
    "  --max-map  longest datatype type map to show, in runs (default 4096)\n";

bool LooksNumeric(const std::string& a) {
  return !a.empty() &&
         (std::isdigit(static_cast<unsigned char>(a[0])) ||
          (a[0] == '-' && a.size() > 1 && std::isdigit(static_cast<unsigned char>(a[1]))));
}

host::Result<host::HandleRequest> Parse(const std::vector<std::string>& args, bool* json,
                                        bool* help) {
  host::HandleRequest r;
  bool positional_only = false;  // after "--", for a negative VALUE
  for (ArgCursor c(args); c.Next();) {
    const std::string& a = c.arg();
    std::string v;
    if (positional_only || (LooksNumeric(a) && r.value.empty())) {
      if (!r.value.empty()) {
        return host::Status::Usage("give one handle VALUE, not '" + a + "' too");
      }
      r.value = a;
      continue;
    }
    if (a == "--") {
      positional_only = true;
      continue;
    }
    if (c.Common(json, help)) continue;
    if (a == "--pid") {
      if (!c.Value(&v) || !ParsePid(v, &r.target.pid)) {
        return host::Status::Usage("--pid needs a process id");
      }
    } else if (a == "--core") {
      if (!c.Value(&r.target.core)) return host::Status::Usage("--core needs a file");
    } else if (a == "--exe") {
      if (!c.Value(&r.target.exe)) return host::Status::Usage("--exe needs a file");
    } else if (a == "--plugin") {
      if (!c.Value(&r.target.plugin)) return host::Status::Usage("--plugin needs a path");
    } else if (a == "--kind") {
      if (!c.Value(&r.kind) || !host::IsHandleKind(r.kind)) {
        return host::Status::Usage(
            "--kind needs one of comm, request, datatype, group, op, "
            "errhandler, info, win, file, message, status");
      }
    } else if (a == "--expr") {
      if (!c.Value(&r.expr)) return host::Status::Usage("--expr needs a variable name");
    } else if (a == "--fortran") {
      r.fortran = true;
    } else if (a == "--max-map") {
      char* end = nullptr;
      long n = c.Value(&v) ? std::strtol(v.c_str(), &end, 10) : -1;
      if (v.empty() || *end != '\0' || n < 1 || n > (1 << 24)) {
        return host::Status::Usage("--max-map needs a count of runs (1 or more)");
      }
      r.max_map_entries = static_cast<int>(n);
    } else {
      return host::Status::Usage("unknown argument '" + a + "'");
    }
  }
  if (*help) return r;
  bool has_pid = r.target.pid != 0;
  bool has_core = !r.target.core.empty();
  if (has_pid == has_core) {
    return host::Status::Usage("give exactly one of --pid PID or --core FILE");
  }
  if (!r.target.exe.empty() && !has_core) return host::Status::Usage("--exe goes with --core");
  if (r.value.empty() == r.expr.empty()) {
    return host::Status::Usage("give exactly one of a handle VALUE or --expr VARIABLE");
  }
  if (!r.value.empty() && r.kind.empty()) {
    return host::Status::Usage("--kind KIND is needed with a handle value");
  }
  return r;
}

}  // namespace

int HandleCommand(const std::vector<std::string>& args) {
  bool json = false;
  bool help = false;
  auto request = Parse(args, &json, &help);
  // A parse error may come before --json is reached; the error document is still due.
  for (const std::string& a : args) json = json || a == "--json";
  if (!request.ok()) return ReportFailure(request.status(), json);
  if (help) {
    std::cout << kUsage;
    return 0;
  }
  auto reading = host::ReadHandle(request.value());
  if (!reading.ok()) return ReportFailure(reading.status(), json);
  nlohmann::json doc = host::HandleDocument(reading.value());
  if (json) {
    std::cout << doc.dump(1) << std::endl;
  } else {
    std::cout << host::HandleText(doc);
  }
  return 0;
}

}  // namespace mpidbg::cli
