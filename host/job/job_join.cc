// job_join.cc — see job_join.h.
#include "job/job_join.h"

#include <algorithm>
#include <string>
#include <unordered_set>

namespace mpidbg::job {
namespace {

std::string JobIdOf(const model::ProcessSnapshot& s) {
  return s.launch ? s.launch->job_id : std::string();
}

// A spawned job's ranks hold the parent intercommunicator, naming the parent's job.
bool IsSpawned(const model::ProcessSnapshot& s) {
  for (const model::Communicator& c : s.communicators) {
    if (c.remote_job && c.creator == "MPI_Comm_get_parent") return true;
  }
  return false;
}

int JobIndexOf(const std::vector<JobSpan>& jobs, const std::string& job_id) {
  if (job_id.empty()) return -1;
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    if (jobs[k].job_id == job_id) return static_cast<int>(k);
  }
  return -1;
}

std::string Label(std::size_t k) {
  std::string label;
  // A..Z, then AA, AB, ... (more than 26 jobs in one analysis is unusual, not an error).
  do {
    label.insert(label.begin(), static_cast<char>('A' + k % 26));
    k = k / 26;
  } while (k-- > 0);
  return label;
}

std::vector<int> Shift(const std::vector<int>& ranks, int offset) {
  std::vector<int> out(ranks);
  for (int& r : out) {
    if (r >= 0) r += offset;
  }
  return out;
}

// Rewrites one job's snapshot (job `k` of `jobs`) in analysis terms.
class Rewriter {
 public:
  Rewriter(const std::vector<JobSpan>& jobs, std::size_t k, int total,
           const std::unordered_set<std::string>& shared_ids)
      : jobs_(jobs), job_(jobs[k]), total_(total), shared_ids_(shared_ids) {}

  void Rewrite(model::ProcessSnapshot* s) const {
    if (s->process.rank >= 0) s->process.rank += job_.first_rank;
    // Coverage counts ranks 0 .. size-1 as the job: now every job's ranks.
    s->process.size = total_;
    for (model::Communicator& c : s->communicators) Communicator(&c);
    for (model::Thread& t : s->threads) {
      t.comm_id = Id(t.comm_id);
      if (t.operation) Op(&*t.operation);
      for (model::Operation& op : t.waited) Op(&op);
    }
    if (s->traffic) {
      for (model::TrafficCount& c : s->traffic->counts) {
        c.peer_world = PeerWorld(c.comm_id, c.peer_world);
        c.comm_id = Id(c.comm_id);
      }
      for (model::LoggedSend& l : s->traffic->sends) {
        l.peer_world = PeerWorld(l.comm_id, l.peer_world);
        l.comm_id = Id(l.comm_id);
      }
    }
  }

 private:
  bool Shared(const std::string& id) const { return shared_ids_.count(id) != 0; }

  std::string Id(const std::string& id) const {
    if (id.empty() || Shared(id)) return id;
    return job_.label + ":" + id;
  }

  // A world rank the runtime put in an operation names a rank of this job; on an
  // intercommunicator to another job it cannot (the runtime writes none there), and
  // the peer is found through the communicator's remote group instead.
  model::Rank PeerWorld(const std::string& comm_id, const model::Rank& peer_world) const {
    if (!peer_world.is_rank()) return peer_world;
    if (Shared(comm_id)) return model::Rank::Unknown();
    return model::Rank::Of(peer_world.value + job_.first_rank);
  }

  void Op(model::Operation* op) const {
    op->peer_world = PeerWorld(op->comm_id, op->peer_world);
    op->comm_id = Id(op->comm_id);
  }

  void Communicator(model::Communicator* c) const {
    for (model::Operation& op : c->pending_sends) Op(&op);
    for (model::Operation& op : c->pending_receives) Op(&op);
    if (c->unexpected) {
      for (model::Operation& op : *c->unexpected) Op(&op);
    }
    c->world_ranks = model::RankList(Shift(c->world_ranks.ranks(), job_.first_rank));
    if (c->remote_job) {
      const int other = JobIndexOf(jobs_, c->remote_job->job_id);
      if (other >= 0) {
        c->remote_world_ranks = model::RankList(
            Shift(c->remote_job->world_ranks, jobs_[static_cast<std::size_t>(other)].first_rank));
      } else {
        c->remote_world_ranks.reset();  // that job was not given: its ranks are not known
      }
    } else if (c->remote_world_ranks) {
      c->remote_world_ranks = model::RankList(Shift(c->remote_world_ranks->ranks(), job_.first_rank));
    }
    c->id = Id(c->id);
  }

  const std::vector<JobSpan>& jobs_;
  const JobSpan& job_;
  int total_;
  const std::unordered_set<std::string>& shared_ids_;
};

}  // namespace

std::vector<JobSpan> FindJobs(const std::vector<model::ProcessSnapshot>& snapshots) {
  struct Seen {
    std::string job_id;
    bool spawned = false;
    int size = 0;
  };
  std::vector<Seen> seen;
  // Inputs whose job is recorded name the jobs; one whose job is not (a process that
  // could not be read, an older runtime) joins the first of them, wherever it stands
  // among the inputs — it is no job of its own.
  for (const bool recorded : {true, false}) {
    for (const model::ProcessSnapshot& s : snapshots) {
      const std::string id = JobIdOf(s);
      if (id.empty() == recorded) continue;
      auto it = std::find_if(seen.begin(), seen.end(), [&](const Seen& j) { return j.job_id == id; });
      if (id.empty() && !seen.empty()) it = seen.begin();
      if (it == seen.end()) it = seen.insert(seen.end(), Seen{id});
      it->spawned = it->spawned || IsSpawned(s);
      it->size = std::max({it->size, s.process.size, s.process.rank + 1});
    }
  }
  std::stable_partition(seen.begin(), seen.end(), [](const Seen& j) { return !j.spawned; });
  std::vector<JobSpan> jobs;
  int next = 0;
  for (std::size_t k = 0; k < seen.size(); ++k) {
    jobs.push_back(JobSpan{Label(k), seen[k].job_id, next, seen[k].size});
    next += seen[k].size;
  }
  return jobs;
}

std::vector<UnreadRank> MissingJobs(const std::vector<model::ProcessSnapshot>& snapshots,
                                    const std::vector<JobSpan>& jobs,
                                    std::vector<std::string>* comm_ids) {
  std::vector<UnreadRank> missing;
  std::vector<std::string> named;  // missing jobs already reported
  for (const model::ProcessSnapshot& s : snapshots) {
    for (const model::Communicator& c : s.communicators) {
      if (!c.remote_job || JobIndexOf(jobs, c.remote_job->job_id) >= 0) continue;
      if (std::find(comm_ids->begin(), comm_ids->end(), c.id) == comm_ids->end()) {
        comm_ids->push_back(c.id);
      }
      const std::string& id = c.remote_job->job_id;
      if (std::find(named.begin(), named.end(), id) != named.end()) continue;
      named.push_back(id);
      const std::size_t n = c.remote_job->world_ranks.size();
      UnreadRank u;
      u.reason = "not read: job " + (id.empty() ? std::string("(unnamed)") : id) + " (" +
                 std::to_string(n) + (n == 1 ? " rank" : " ranks") +
                 "), the other side of an intercommunicator from " +
                 (c.creator.empty() ? std::string("a dynamic-process call") : c.creator) +
                 ", was not given";
      missing.push_back(std::move(u));
    }
  }
  return missing;
}

std::vector<int> JoinJobs(const std::vector<JobSpan>& jobs,
                          std::vector<model::ProcessSnapshot>* snapshots) {
  std::vector<int> job_of(snapshots->size(), -1);
  if (jobs.empty()) return job_of;
  int total = 0;
  for (const JobSpan& j : jobs) total = std::max(total, j.first_rank + j.size);
  // Intercommunicators between two jobs keep the id both sides derived.
  std::unordered_set<std::string> shared_ids;
  for (const model::ProcessSnapshot& s : *snapshots) {
    for (const model::Communicator& c : s.communicators) {
      if (c.remote_job && !c.id.empty()) shared_ids.insert(c.id);
    }
  }
  for (std::size_t i = 0; i < snapshots->size(); ++i) {
    int k = JobIndexOf(jobs, JobIdOf((*snapshots)[i]));
    if (k < 0) k = 0;  // not recorded: with the first job (FindJobs)
    job_of[i] = k;
    Rewriter(jobs, static_cast<std::size_t>(k), total, shared_ids).Rewrite(&(*snapshots)[i]);
  }
  return job_of;
}

}  // namespace mpidbg::job
