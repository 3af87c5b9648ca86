// profile_json.cc — the "mpidbg.profile/1" document: the file's keys, normalised (sorted
// rows, seconds from samples x period), plus "source".
#include "host/profile/profile_json.h"

namespace mpidbg::profile {
namespace {

using nlohmann::json;

json Counts(const StateCounts& c) {
  return {{"not_in_mpi", c.not_in_mpi}, {"in_mpi", c.in_mpi}, {"blocked", c.blocked}};
}

json SecondsOf(const StateCounts& c, int64_t period_ns) {
  return {{"not_in_mpi", Seconds(c.not_in_mpi, period_ns)},
          {"in_mpi", Seconds(c.in_mpi, period_ns)},
          {"blocked", Seconds(c.blocked, period_ns)}};
}

json FunctionsJson(const std::vector<FunctionSamples>& functions, int64_t period_ns) {
  json out = json::array();
  for (const FunctionSamples& f : functions) {
    out.push_back({{"call", f.call},
                   {"working", f.working},
                   {"blocked", f.blocked},
                   {"seconds_working", Seconds(f.working, period_ns)},
                   {"seconds_blocked", Seconds(f.blocked, period_ns)}});
  }
  return out;
}

json SitesJson(const std::vector<SiteSamples>& sites, bool with_ranks) {
  json out = json::array();
  for (const SiteSamples& s : sites) {
    json e = {{"site", s.site},
              {"module", s.module},
              {"offset", s.offset},
              {"symbol", s.symbol ? json(*s.symbol) : json(nullptr)},
              {"call", s.call},
              {"working", s.working},
              {"blocked", s.blocked}};
    if (with_ranks) e["ranks"] = s.ranks;
    out.push_back(e);
  }
  return out;
}

}  // namespace

json ProfileJobObject(const JobProfile& job, bool with_totals) {
  json out = {{"id", job.id.empty() ? json(nullptr) : json(job.id)},
              {"world_size", job.world_size},
              {"period_ns", job.period_ns},
              {"clock", job.clock},
              {"signal", job.signal},
              {"written_time_ns", job.written_time_ns}};
  if (with_totals) {
    out["samples"] = Counts(job.samples);
    out["seconds"] = SecondsOf(job.samples, job.period_ns);
    out["functions"] = FunctionsJson(job.functions, job.period_ns);
    out["sites"] = SitesJson(job.sites, true);
  }
  return out;
}

json ProfileRankObject(const RankProfile& r, int64_t period_ns) {
  return {{"rank", r.rank},
          {"pid", r.pid},
          {"host", r.host},
          {"threads", r.threads},
          {"lost", r.lost},
          {"start_time_ns", r.start_time_ns},
          {"stop_time_ns", r.stop_time_ns},
          {"samples", Counts(r.samples)},
          {"seconds", SecondsOf(r.samples, period_ns)},
          {"functions", FunctionsJson(r.functions, period_ns)},
          {"sites", SitesJson(r.sites, false)}};
}

json ProfileToJson(const JobProfile& job) {
  json doc;
  doc["schema"] = "mpidbg.profile/1";
  doc["source"] = job.source;
  doc["job"] = ProfileJobObject(job, true);
  json ranks = json::array();
  for (const RankProfile& r : job.ranks) {
    if (r.present) ranks.push_back(ProfileRankObject(r, job.period_ns));
  }
  doc["ranks"] = ranks;
  return doc;
}

}  // namespace mpidbg::profile
