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
  // null in a report of processes or cores: no report ran.
  if (doc.is_object() && doc.contains("report_seconds") && !doc["report_seconds"].is_null()) {
    f.Double(doc, "", "report_seconds", &r.report_seconds);
  }
  f.String(doc, "", "source", &r.source);
  host::ForEachElement(f, doc, "", "leaks", [&](const nlohmann::json& e, const std::string& at) {
    LeakLine line;
    f.String(e, at, "kind", &line.kind, true);
    f.String(e, at, "creator", &line.creator);
    f.String(e, at, "site", &line.site);
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
  const bool at_finalize = r.source == "finalize";
  std::string out;
  if (r.leaks.empty()) {
    return (at_finalize ? "every MPI object and request the program made was freed ("
                        : "no MPI object or request the program made is live (") +
           plural(static_cast<uint64_t>(r.ranks), "rank") + ")\n";
  }
  out = std::to_string(r.total) + " MPI object" + (r.total == 1 ? "" : "s") + " and request" +
        (r.total == 1 ? "" : "s") + (at_finalize ? " were never freed (" : " are live, not freed yet (") +
        plural(static_cast<uint64_t>(r.ranks), "rank") + "):\n";
  for (const LeakLine& l : r.leaks) {
    char line[512];
    std::snprintf(line, sizeof line, "  %8llu %-10s made by %s%s%s, on %s\n",
                  static_cast<unsigned long long>(l.count), l.kind.c_str(),
                  l.creator.empty() ? "an unknown call" : l.creator.c_str(),
                  l.site.empty() ? "" : " at ", l.site.c_str(), plural(l.ranks, "rank").c_str());
    out += line;
  }
  return out;
}

nlohmann::json LeaksToJson(const LeakReport& r) {
  nlohmann::json lines = nlohmann::json::array();
  for (const LeakLine& l : r.leaks) {
    lines.push_back({{"kind", l.kind},
                     {"creator", l.creator.empty() ? nlohmann::json(nullptr) : nlohmann::json(l.creator)},
                     {"site", l.site.empty() ? nlohmann::json(nullptr) : nlohmann::json(l.site)},
                     {"count", l.count},
                     {"ranks", l.ranks}});
  }
  return {{"schema", "mpidbg.leaks/1"}, {"source", r.source}, {"ranks", r.ranks},
          {"total", r.total},
          {"report_seconds", r.source == "finalize" ? nlohmann::json(r.report_seconds) : nlohmann::json(nullptr)},
          {"leaks", lines}};
}

}  // namespace mpidbg::leaks
