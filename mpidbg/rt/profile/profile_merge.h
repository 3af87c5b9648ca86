// profile_merge.h — the job's MPI-state profile as world rank 0 builds it from every
// rank's packed results (rt/profile/profile_pack.h), and its JSON rendering (the
// "mpidbg.profile/1" schema, docs/OUTPUT.md). MPI-free (unit-tested).
//
// Ranks are added one at a time and may be dropped after: the merge keeps job totals,
// per-function totals and the sites merged by module + offset + MPI function (`ranks`
// counts the ranks that had the site), never a rank's whole data.
#ifndef MPIDBG_RT_PROFILE_MERGE_H
#define MPIDBG_RT_PROFILE_MERGE_H

#include <stdint.h>

#include "mpidbg/call_ids.h"
#include "rt/grow_buffer.h"
#include "rt/report/json_writer.h"
#include "rt/profile/profile_pack.h"

namespace mpidbg::rt {

struct ProfileJobInfo {
  const char* id;
  int32_t world_size;
  int64_t written_time_ns;
};

// One member of "ranks".
void RenderProfileRank(JsonWriter& w, const ProfileRankView& rank);

class ProfileJobMerge {
 public:
  ProfileJobMerge() = default;
  ProfileJobMerge(const ProfileJobMerge&) = delete;
  ProfileJobMerge& operator=(const ProfileJobMerge&) = delete;

  // Adds one rank; false when memory ran out (the merge is then incomplete).
  bool Add(const ProfileRankView& rank);
  // A rank whose results never arrived (counted in "ranks_missing").
  void AddMissing() { ++missing_; }
  // The "job" object.
  void Render(JsonWriter& w, const ProfileJobInfo& info);

 private:
  struct Site {
    uint32_t module;  // pool offsets
    uint32_t symbol;
    int32_t call;
    int32_t last_rank;  // the last rank counted in `ranks`
    uint32_t ranks;
    uint32_t reserved;
    uint64_t offset;
    uint64_t working;
    uint64_t blocked;
  };
  Site* FindOrAdd(const char* module, uint64_t offset, int32_t call, const char* symbol);
  bool GrowIndex();
  uint32_t AddString(const char* s);

  bool ok_ = true;
  bool have_settings_ = false;
  int64_t period_ns_ = 0;
  int32_t clock_ = 0;
  int32_t signal_ = 0;
  uint32_t ranks_ = 0;
  uint32_t sampled_ = 0;
  uint32_t missing_ = 0;
  uint64_t samples_[3] = {};
  double seconds_[3] = {};
  uint64_t lost_ = 0;
  uint64_t threads_ = 0;
  uint64_t working_[MPIDBG_CALL_ID_LIMIT] = {};
  uint64_t blocked_[MPIDBG_CALL_ID_LIMIT] = {};
  double seconds_working_[MPIDBG_CALL_ID_LIMIT] = {};
  double seconds_blocked_[MPIDBG_CALL_ID_LIMIT] = {};
  GrowBuffer<Site> sites_;
  GrowBuffer<uint32_t> index_;  // site number + 1, 0 when empty; power-of-two size
  GrowBuffer<char> pool_;
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_PROFILE_MERGE_H
