// leaks_file.cc — see leaks_file.h.
#include "host/leaks/leaks_file.h"

#include <cstdio>

#include "host/util/json_fields.h"

namespace mpidbg::leaks {

host::Result<LeakReport> LeaksFromJson(const nlohmann::json& doc, const std::string& name) {
  host::JsonFields f;
  host::Status schema = host::CheckSchema(f, doc, name, "mpidbg.leaks/1");
  if (!schema.ok()) return schema;
  LeakReport r;
  f.Int(doc, "", "ranks", &r.ranks, true);
  f.U64(doc, "", "total", &r.total, true);
  f.Double(doc, "", "report_seconds", &r.report_seconds);
  host::ForEachElement(f, doc, "", "leaks", [&](const nlohmann::json& e, const std::string& at) {
    LeakLine line;
    f.String(e, at, "kind", &line.kind, true);
    f.String(e, at, "creator", &line.creator);
    f.U64(e, at, "count", &line.count, true);
    f.U64(e, at, "ranks", &line.ranks, true);
    r.leaks.push_back(std::move(line));
  });
  if (!f.ok()) return host::Status::Unreadable(name + ": " + f.error());
  if (r.ranks < 1 || r.ranks > host::kMaxWorldSize) {
    return host::Status::Unreadable(name + ": ranks is " + std::to_string(r.ranks));
  }
  return r;
}

host::Result<LeakReport> LoadLeaksFile(const std::string& path) {
  return host::LoadJsonFile(path, &LeaksFromJson);
}

std::string LeaksToText(const LeakReport& r) {
  const auto plural = [](uint64_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
  };
  std::string out;
  if (r.leaks.empty()) {
    return "every MPI object and request the program made was freed (" +
           plural(static_cast<uint64_t>(r.ranks), "rank") + ")\n";
  }
  out = std::to_string(r.total) + " MPI object" + (r.total == 1 ? "" : "s") + " and request" +
        (r.total == 1 ? "" : "s") + " were never freed (" +
        plural(static_cast<uint64_t>(r.ranks), "rank") + "):\n";
  for (const LeakLine& l : r.leaks) {
    char line[256];
    std::snprintf(line, sizeof line, "  %8llu %-10s made by %s, on %s\n",
                  static_cast<unsigned long long>(l.count), l.kind.c_str(),
                  l.creator.empty() ? "an unknown call" : l.creator.c_str(),
                  plural(l.ranks, "rank").c_str());
    out += line;
  }
  return out;
}

}  // namespace mpidbg::leaks
