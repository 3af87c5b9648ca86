// cmd_handles.cc — `mpidbg handles`: every MPI object a process holds (live, freed and
// kept as an orphan, predefined), with the call and program line that created it.
#include <cstdio>
#include <iostream>

#include "host/cli/commands.h"
#include "host/cli/options.h"
#include "host/objects/object_listing.h"
#include "host/handle/read_objects.h"
#include "host/util/hex_string.h"

namespace mpidbg::cli {
namespace {

constexpr const char* kUsage =
    "usage: mpidbg handles (--pid PID | --core FILE [--exe FILE]) [--plugin PATH]\n"
    "                      [--kind KIND] [--freed] [--json]\n"
    "Lists every MPI object the process holds or freed and the runtime still keeps:\n"
    "its handle, name, state, the call and program line that created it, and its age.\n"
    "  KIND     comm, request, datatype, group, op, errhandler, info, win, file, message,\n"
    "           session (default: every kind)\n"
    "  --freed  only objects the application freed (orphans the runtime keeps)\n"
    "Ages of a live process are to now; of a core, to the newest time the process\n"
    "recorded (a core has no clock of its own).\n";

host::Result<host::ObjectsRequest> Parse(const std::vector<std::string>& args, bool* json,
                                         bool* help) {
  host::ObjectsRequest r;
  for (ArgCursor c(args); c.Next();) {
    const std::string& a = c.arg();
    std::string v;
    if (c.Common(json, help)) continue;
    if (a == "--pid") {
      if (!c.Value(&v) || !ParsePid(v, &r.target.pid)) {
        return host::Status::Usage("--pid needs a process id");
      }
    } else if (a == "--core") {
      if (!c.Value(&r.target.core)) return host::Status::Usage("--core needs a file");
    } else if (a == "--exe") {
      if (!c.Value(&r.target.exe)) return host::Status::Usage("--exe goes with a file");
    } else if (a == "--plugin") {
      if (!c.Value(&r.target.plugin)) return host::Status::Usage("--plugin needs a path");
    } else if (a == "--kind") {
      if (!c.Value(&r.kind) || r.kind.empty() || host::ObjectKindNumber(r.kind) <= 0) {
        return host::Status::Usage(
            "--kind needs one of comm, request, datatype, group, op, errhandler, info, win, "
            "file, message, session");
      }
    } else if (a == "--freed") {
      r.freed = true;
    } else {
      return host::Status::Usage("unknown argument '" + a + "'");
    }
  }
  if (*help) return r;
  const bool has_pid = r.target.pid != 0;
  const bool has_core = !r.target.core.empty();
  if (has_pid == has_core) return host::Status::Usage("give exactly one of --pid PID or --core FILE");
  if (!r.target.exe.empty() && !has_core) return host::Status::Usage("--exe goes with --core");
  return r;
}

// The document, written as text: the header through nlohmann, the entries streamed
// (AppendObjectJson), so 100,000 objects print in tenths of a second.
void PrintJson(const host::ObjectsReading& r) {
  nlohmann::json head;
  head["schema"] = "mpidbg.handles/1";
  head["process"] = {{"pid", r.pid}, {"source", r.source}, {"plugin", r.plugin}};
  head["age_reference"] = r.listing.age_reference;
  head["now_ns"] = r.listing.now_ns != 0 ? nlohmann::json(r.listing.now_ns) : nlohmann::json(nullptr);
  std::string text = head.dump();
  text.pop_back();  // the closing brace: "handles" follows
  text += ",\"handles\":[";
  const std::string tail = "]}";
  std::string entries;
  entries.reserve(r.listing.objects.size() * 320);
  for (size_t i = 0; i < r.listing.objects.size(); ++i) {
    entries.append(i == 0 ? "\n" : ",\n");
    host::AppendObjectJson(r.listing.objects[i], &entries);
  }
  std::cout << text << entries << "\n" << tail << std::endl;
}

void PrintText(const host::ObjectsReading& r) {
  std::cout << "process " << r.pid << " (" << r.source << "): " << r.listing.objects.size()
            << " MPI object" << (r.listing.objects.size() == 1 ? "" : "s") << "\n";
  std::string kind;
  for (const model::ObjectHandle& o : r.listing.objects) {
    if (o.kind != kind) {
      kind = o.kind;
      std::cout << kind << ":\n";
    }
    std::string line = "  " + host::HexString(o.handle);
    if (o.name) line += " " + *o.name;
    // A freed object listed here is one the runtime still keeps (an orphan), whatever
    // MPI did with its own object: said so, never as if it were gone.
    if (o.released) {
      line += "  freed, MPI's object gone (record kept)";
    } else if (o.freed) {
      line += "  freed (record kept)";
    } else {
      line += "  " + o.state;
    }
    if (o.request_state) line += " (" + *o.request_state + (o.persistent ? ", persistent" : "") + ")";
    const std::string created = host::CreationText(o);
    if (!created.empty()) line += "  " + created;
    std::cout << line << "\n";
  }
}

}  // namespace

int HandlesCommand(const std::vector<std::string>& args) {
  bool json = false;
  bool help = false;
  auto request = Parse(args, &json, &help);
  for (const std::string& a : args) json = json || a == "--json";
  if (!request.ok()) return ReportFailure(request.status(), json);
  if (help) {
    std::cout << kUsage;
    return 0;
  }
  auto reading = host::ReadObjects(request.value());
  if (!reading.ok()) return ReportFailure(reading.status(), json);
  if (json) {
    PrintJson(reading.value());
  } else {
    PrintText(reading.value());
  }
  return 0;
}

}  // namespace mpidbg::cli
