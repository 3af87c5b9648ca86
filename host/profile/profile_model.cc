// profile_model.cc — merging ranks and ordering rows.
#include "host/profile/profile_model.h"

#include <algorithm>
#include <map>

namespace mpidbg::profile {

double Seconds(uint64_t samples, int64_t period_ns) {
  return static_cast<double>(samples) * static_cast<double>(period_ns) / 1e9;
}

void SortFunctions(std::vector<FunctionSamples>* functions) {
  std::sort(functions->begin(), functions->end(),
            [](const FunctionSamples& a, const FunctionSamples& b) {
              uint64_t sa = a.working + a.blocked, sb = b.working + b.blocked;
              return sa != sb ? sa > sb : a.call < b.call;
            });
}

void SortSites(std::vector<SiteSamples>* sites) {
  std::sort(sites->begin(), sites->end(), [](const SiteSamples& a, const SiteSamples& b) {
    uint64_t sa = a.working + a.blocked, sb = b.working + b.blocked;
    return sa != sb ? sa > sb : a.site < b.site;
  });
}

void MergeRanks(JobProfile* job) {
  job->samples = {};
  std::map<std::string, FunctionSamples> functions;
  std::map<std::pair<std::string, std::string>, SiteSamples> sites;  // (module, offset)
  for (const RankProfile& r : job->ranks) {
    if (!r.present) continue;
    job->samples.not_in_mpi += r.samples.not_in_mpi;
    job->samples.in_mpi += r.samples.in_mpi;
    job->samples.blocked += r.samples.blocked;
    for (const FunctionSamples& f : r.functions) {
      FunctionSamples& m = functions[f.call];
      m.call = f.call;
      m.working += f.working;
      m.blocked += f.blocked;
    }
    for (const SiteSamples& s : r.sites) {
      auto [it, inserted] = sites.try_emplace({s.module, s.offset}, s);
      if (inserted) {
        it->second.ranks = 1;
        continue;
      }
      it->second.working += s.working;
      it->second.blocked += s.blocked;
      it->second.ranks += 1;
    }
  }
  job->functions.clear();
  for (auto& entry : functions) job->functions.push_back(entry.second);
  SortFunctions(&job->functions);
  job->sites.clear();
  for (auto& entry : sites) job->sites.push_back(entry.second);
  SortSites(&job->sites);
}

}  // namespace mpidbg::profile
