// leaks_of_processes.cc — see leaks_of_processes.h.
#include "host/leaks/leaks_of_processes.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace mpidbg::leaks {
namespace {

// "app.c:42 in main", "main", or "" — the creation site as a person reads it.
std::string SiteText(const model::ObjectHandle& o) {
  if (!o.site) return "";
  const model::Frame& f = *o.site;
  std::string where;
  if (f.file && f.line) where = *f.file + ":" + std::to_string(*f.line);
  if (f.function) where += (where.empty() ? "" : " in ") + *f.function;
  return where;
}

bool Leaked(const model::ObjectHandle& o) {
  if (o.predefined || o.freed) return false;
  // A request that completed is not held; one waiting for its Wait is.
  return !(o.kind == "request" && o.request_state && *o.request_state == "complete");
}

}  // namespace

LeakReport LeaksOfSnapshots(const std::vector<model::ProcessSnapshot>& snapshots,
                            const std::string& source) {
  using Key = std::tuple<std::string, std::string, std::string>;  // kind, creator, site
  std::map<Key, std::pair<uint64_t, std::set<int>>> by_key;
  LeakReport report;
  report.source = source;
  report.ranks = static_cast<int>(snapshots.size());
  for (const model::ProcessSnapshot& s : snapshots) {
    if (!s.objects) continue;
    for (const model::ObjectHandle& o : s.objects->objects) {
      if (!Leaked(o)) continue;
      auto& entry = by_key[Key{o.kind, o.creator.value_or(""), SiteText(o)}];
      ++entry.first;
      entry.second.insert(s.process.rank);
      ++report.total;
    }
  }
  for (const auto& [key, value] : by_key) {
    report.leaks.push_back(LeakLine{std::get<0>(key), std::get<1>(key), std::get<2>(key),
                                    value.first, value.second.size()});
  }
  std::stable_sort(report.leaks.begin(), report.leaks.end(),
                   [](const LeakLine& a, const LeakLine& b) { return a.count > b.count; });
  return report;
}

}  // namespace mpidbg::leaks
