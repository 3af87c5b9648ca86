// profile_file.cc — reading "mpidbg.profile/1": unknown keys ignored, optional keys may
// be missing, wrong types and ranks out of range are errors. The job-wide part is taken
// as written; when a file has none it is merged from the ranks.
#include "host/profile/profile_file.h"

#include "host/util/json_fields.h"

namespace mpidbg::profile {
namespace {

using host::IndexPath;
using host::JoinPath;
using host::JsonFields;
using nlohmann::json;

constexpr const char* kSchema = "mpidbg.profile/1";

void ReadCounts(JsonFields& f, const json& obj, const std::string& where, StateCounts* out) {
  const json* s = f.Object(obj, where, "samples");
  if (s == nullptr) return;
  std::string at = JoinPath(where, "samples");
  f.U64(*s, at, "not_in_mpi", &out->not_in_mpi);
  f.U64(*s, at, "in_mpi", &out->in_mpi);
  f.U64(*s, at, "blocked", &out->blocked);
}

void ReadFunctions(JsonFields& f, const json& obj, const std::string& where,
                   std::vector<FunctionSamples>* out) {
  host::ForEachElement(f, obj, where, "functions", [&](const json& e, const std::string& at) {
    FunctionSamples fn;
    f.String(e, at, "call", &fn.call, true);
    f.U64(e, at, "working", &fn.working);
    f.U64(e, at, "blocked", &fn.blocked);
    if (f.ok()) out->push_back(fn);
  });
  SortFunctions(out);
}

void ReadSites(JsonFields& f, const json& obj, const std::string& where,
               std::vector<SiteSamples>* out) {
  host::ForEachElement(f, obj, where, "sites", [&](const json& e, const std::string& at) {
    SiteSamples s;
    std::string symbol;
    f.String(e, at, "site", &s.site);
    f.String(e, at, "module", &s.module);
    f.String(e, at, "offset", &s.offset);
    f.String(e, at, "symbol", &symbol);
    f.String(e, at, "call", &s.call);
    f.U64(e, at, "working", &s.working);
    f.U64(e, at, "blocked", &s.blocked);
    f.Int(e, at, "ranks", &s.ranks);
    if (!symbol.empty()) s.symbol = symbol;
    if (f.ok()) out->push_back(std::move(s));
  });
  SortSites(out);
}

// One entry of "ranks", its rank already claimed.
void ReadRank(JsonFields& f, const json& e, const std::string& at, RankProfile* r) {
  f.I64(e, at, "pid", &r->pid);
  f.String(e, at, "host", &r->host);
  f.U64(e, at, "threads", &r->threads);
  f.U64(e, at, "lost", &r->lost);
  f.I64(e, at, "start_time_ns", &r->start_time_ns);
  f.I64(e, at, "stop_time_ns", &r->stop_time_ns);
  ReadCounts(f, e, at, &r->samples);
  ReadFunctions(f, e, at, &r->functions);
  ReadSites(f, e, at, &r->sites);
}

// The "job" object; true when it carries the job-wide totals.
bool ReadJob(JsonFields& f, const json& j, const std::string& at, JobProfile* job) {
  f.String(j, at, "id", &job->id);
  f.Int(j, at, "world_size", &job->world_size, true);
  f.I64(j, at, "period_ns", &job->period_ns, true);
  f.String(j, at, "clock", &job->clock);
  f.Int(j, at, "signal", &job->signal);
  f.I64(j, at, "written_time_ns", &job->written_time_ns);
  bool totals = f.ok() && j.contains("samples");
  ReadCounts(f, j, at, &job->samples);
  ReadFunctions(f, j, at, &job->functions);
  ReadSites(f, j, at, &job->sites);
  host::CheckWorldSize(f, job->world_size, host::kMaxWorldSize);
  if (f.ok() && job->period_ns <= 0) f.Fail(JoinPath(at, "period_ns") + " is not positive");
  if (f.ok() && job->clock != "wall" && job->clock != "cpu") {
    f.Fail(JoinPath(at, "clock") + " is \"" + job->clock + "\", not \"wall\" or \"cpu\"");
  }
  return totals;
}

}  // namespace

host::Result<JobProfile> ProfileFromJson(const json& doc, const std::string& name) {
  JsonFields f;
  JobProfile job;
  host::Status schema = host::CheckSchema(f, doc, name, kSchema);
  if (!schema.ok()) return schema;
  const json* j = f.Object(doc, "", "job", true);
  bool job_totals = j != nullptr && ReadJob(f, *j, "job", &job);
  host::ReadRanks(f, doc, job.world_size, &job.ranks,
                     [&](const json& e, const std::string& at, RankProfile* r) {
                       ReadRank(f, e, at, r);
                     });
  if (!f.ok()) return host::Status::Unreadable(name + ": " + f.error());
  if (!job_totals) MergeRanks(&job);
  job.source = "file";
  return job;
}

host::Status ProfileJobFromJson(const json& job_object, JobProfile* job) {
  JsonFields f;
  JobProfile read;
  ReadJob(f, job_object, "job", &read);
  if (!f.ok()) return host::Status::Unreadable(f.error());
  if (job->ranks.empty()) {
    job->id = read.id;
    job->period_ns = read.period_ns;
    job->clock = read.clock;
    job->signal = read.signal;
  } else if (read.period_ns != job->period_ns || read.clock != job->clock) {
    return host::Status::Unreadable("sampled with another period or clock than the job's other ranks");
  }
  if (read.world_size > job->world_size) {
    job->world_size = read.world_size;
    std::size_t had = job->ranks.size();
    job->ranks.resize(static_cast<std::size_t>(read.world_size));
    for (std::size_t i = had; i < job->ranks.size(); ++i) job->ranks[i].rank = static_cast<int>(i);
  }
  return host::Status::Ok();
}

host::Status AddProfileRankFromJson(const json& entry, JobProfile* job) {
  JsonFields f;
  if (RankProfile* r = host::ClaimRank(f, entry, "rank", &job->ranks)) {
    ReadRank(f, entry, "rank", r);
    if (!f.ok()) {
      const int rank = r->rank;
      *r = RankProfile();  // not present: a rank whose entry failed shows no data
      r->rank = rank;
    }
  }
  return f.ok() ? host::Status::Ok() : host::Status::Unreadable(f.error());
}

host::Result<JobProfile> LoadProfileFile(const std::string& path) {
  return host::LoadJsonFile(path, &ProfileFromJson);
}

}  // namespace mpidbg::profile
