// profile_merge.cc — see profile_merge.h.
#include "rt/profile/profile_merge.h"

#include <stdio.h>
#include <string.h>

#include <algorithm>

#include "core/job_id.h"
#include "mpidbg/records.h"
#include "mpidbg/call_ids.h"

namespace mpidbg::rt {
namespace {

const char* const kStateKeys[3] = {"not_in_mpi", "in_mpi", "blocked"};

double Seconds(uint64_t samples, int64_t period_ns) {
  return static_cast<double>(samples) * static_cast<double>(period_ns) / 1e9;
}

void Hex(JsonWriter& w, uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  w.String(buf);
}

void CallName(JsonWriter& w, int32_t call) {
  const char* name = mpidbg_call_name(call);
  if (name != nullptr) {
    w.String(name);
    return;
  }
  char buf[32];
  snprintf(buf, sizeof buf, "unknown(%d)", static_cast<int>(call));
  w.String(buf);
}

const char* BaseName(const char* path) {
  const char* slash = strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

// "ring+0x11a9" (module base name and offset), "0x7f00..." when no module is known.
void SiteName(JsonWriter& w, const char* module, uint64_t offset) {
  char buf[320];
  if (module[0] == '\0') {
    snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(offset));
  } else {
    snprintf(buf, sizeof buf, "%.280s+0x%llx", BaseName(module),
             static_cast<unsigned long long>(offset));
  }
  w.String(buf);
}

void StateCounts(JsonWriter& w, const uint64_t samples[3], const double seconds[3]) {
  w.Key("samples");
  w.BeginObject(true);
  for (int s = 0; s < 3; ++s) {
    w.Key(kStateKeys[s]);
    w.Uint(samples[s]);
  }
  w.EndObject();
  w.Key("seconds");
  w.BeginObject(true);
  for (int s = 0; s < 3; ++s) {
    w.Key(kStateKeys[s]);
    w.Fixed(seconds[s], 6);
  }
  w.EndObject();
}

void Function(JsonWriter& w, int32_t call, uint64_t working, uint64_t blocked,
              double seconds_working, double seconds_blocked) {
  w.BeginObject(true);
  w.Key("call");
  CallName(w, call);
  w.Key("working");
  w.Uint(working);
  w.Key("blocked");
  w.Uint(blocked);
  w.Key("seconds_working");
  w.Fixed(seconds_working, 6);
  w.Key("seconds_blocked");
  w.Fixed(seconds_blocked, 6);
  w.EndObject();
}

// The site members both "job" and "ranks" entries have.
void SiteCommon(JsonWriter& w, const char* module, uint64_t offset, const char* symbol,
                int32_t call, uint64_t working, uint64_t blocked) {
  w.Key("site");
  SiteName(w, module, offset);
  w.Key("module");
  w.String(module);
  w.Key("offset");
  Hex(w, offset);
  w.Key("symbol");
  if (symbol != nullptr) {
    w.String(symbol);
  } else {
    w.Null();
  }
  w.Key("call");
  CallName(w, call);
  w.Key("working");
  w.Uint(working);
  w.Key("blocked");
  w.Uint(blocked);
}

// Most samples first, then by call id / position (a stable, deterministic order).
template <typename Total>
void SortByTotal(GrowBuffer<uint32_t>& order, Total total) {
  std::sort(order.data(), order.data() + order.size(), [&](uint32_t a, uint32_t b) {
    const uint64_t ta = total(a), tb = total(b);
    return ta != tb ? ta > tb : a < b;
  });
}

}  // namespace

void RenderProfileRank(JsonWriter& w, const ProfileRankView& r) {
  const ProfileRankHeader& h = r.header;
  w.BeginObject();
  w.Key("rank");
  w.Int(h.rank);
  w.Key("pid");
  w.Int(h.pid);
  w.Key("host");
  w.String(h.host);
  w.Key("sampled");
  w.Bool(h.sampled != 0);
  w.Key("signal");
  w.Int(h.signal);
  w.Key("threads");
  w.Uint(h.threads);
  w.Key("lost");
  w.Uint(h.lost);
  w.Key("start_time_ns");
  w.Int(h.start_time_ns);
  w.Key("stop_time_ns");
  w.Int(h.stop_time_ns);
  double seconds[3];
  for (int s = 0; s < 3; ++s) seconds[s] = Seconds(h.samples[s], h.period_ns);
  StateCounts(w, h.samples, seconds);

  GrowBuffer<uint32_t> order;
  w.Key("functions");
  w.BeginArray();
  if (order.Resize(h.function_count)) {
    for (uint32_t i = 0; i < h.function_count; ++i) order[i] = i;
    SortByTotal(order, [&](uint32_t i) { return r.functions[i].working + r.functions[i].blocked; });
    for (uint32_t k = 0; k < order.size(); ++k) {
      const ProfilePackedFunction& f = r.functions[order[k]];
      Function(w, f.call, f.working, f.blocked, Seconds(f.working, h.period_ns),
               Seconds(f.blocked, h.period_ns));
    }
  }
  w.EndArray();

  w.Key("sites");
  w.BeginArray();
  if (order.Resize(h.site_count)) {
    for (uint32_t i = 0; i < h.site_count; ++i) order[i] = i;
    SortByTotal(order, [&](uint32_t i) { return r.sites[i].working + r.sites[i].blocked; });
    for (uint32_t k = 0; k < order.size(); ++k) {
      const ProfilePackedSite& s = r.sites[order[k]];
      const char* module = r.String(s.module);
      w.BeginObject(true);
      SiteCommon(w, module != nullptr ? module : "", s.offset, r.String(s.symbol), s.call,
                 s.working, s.blocked);
      w.Key("address");
      Hex(w, s.address);
      w.EndObject();
    }
  }
  w.EndArray();
  w.EndObject();
}

uint32_t ProfileJobMerge::AddString(const char* s) {
  if (s == nullptr) return kProfileNoString;
  const uint32_t at = pool_.size();
  const size_t n = strlen(s) + 1;
  if (n > kProfileMaxString || !pool_.Append(s, static_cast<uint32_t>(n))) {
    ok_ = false;
    return kProfileNoString;
  }
  return at;
}

bool ProfileJobMerge::GrowIndex() {
  const uint32_t size = index_.size() == 0 ? 64 : index_.size() * 2;
  GrowBuffer<uint32_t> grown;
  if (!grown.Resize(size)) return false;
  memset(grown.data(), 0, sizeof(uint32_t) * size);
  const uint32_t mask = size - 1;
  for (uint32_t n = 0; n < sites_.size(); ++n) {
    const Site& s = sites_[n];
    uint64_t h = core::Combine(core::Mix64(s.offset), static_cast<uint32_t>(s.call));
    for (const char* c = &pool_[s.module]; *c != '\0'; ++c) h = core::Combine(h, static_cast<unsigned char>(*c));
    uint32_t i = static_cast<uint32_t>(h) & mask;
    while (grown[i] != 0) i = (i + 1) & mask;
    grown[i] = n + 1;
  }
  index_.Resize(0);
  return index_.Append(grown.data(), size);
}

ProfileJobMerge::Site* ProfileJobMerge::FindOrAdd(const char* module, uint64_t offset,
                                                  int32_t call, const char* symbol) {
  if ((sites_.size() + 1) * 2 > index_.size() && !GrowIndex()) return nullptr;
  uint64_t h = core::Combine(core::Mix64(offset), static_cast<uint32_t>(call));
  for (const char* c = module; *c != '\0'; ++c) h = core::Combine(h, static_cast<unsigned char>(*c));
  const uint32_t mask = index_.size() - 1;
  uint32_t i = static_cast<uint32_t>(h) & mask;
  for (; index_[i] != 0; i = (i + 1) & mask) {
    Site& s = sites_[index_[i] - 1];
    if (s.offset == offset && s.call == call && strcmp(&pool_[s.module], module) == 0) return &s;
  }
  Site s = {};
  s.module = AddString(module);
  s.symbol = AddString(symbol);
  s.call = call;
  s.last_rank = -1;
  s.offset = offset;
  if (!ok_ || s.module == kProfileNoString || !sites_.Push(s)) return nullptr;
  index_[i] = sites_.size();
  return &sites_[sites_.size() - 1];
}

bool ProfileJobMerge::Add(const ProfileRankView& r) {
  const ProfileRankHeader& h = r.header;
  ++ranks_;
  if (h.sampled != 0) {
    ++sampled_;
    if (!have_settings_) {
      have_settings_ = true;
      period_ns_ = h.period_ns;
      clock_ = h.clock;
      signal_ = h.signal;
    }
  }
  for (int s = 0; s < 3; ++s) {
    samples_[s] += h.samples[s];
    seconds_[s] += Seconds(h.samples[s], h.period_ns);
  }
  lost_ += h.lost;
  threads_ += h.threads;
  for (uint32_t i = 0; i < h.function_count; ++i) {
    const ProfilePackedFunction& f = r.functions[i];
    if (f.call <= MPIDBG_CALL_NONE || f.call >= MPIDBG_CALL_ID_LIMIT) continue;
    working_[f.call] += f.working;
    blocked_[f.call] += f.blocked;
    seconds_working_[f.call] += Seconds(f.working, h.period_ns);
    seconds_blocked_[f.call] += Seconds(f.blocked, h.period_ns);
  }
  for (uint32_t i = 0; i < h.site_count; ++i) {
    const ProfilePackedSite& p = r.sites[i];
    const char* module = r.String(p.module);
    Site* s = FindOrAdd(module != nullptr ? module : "", p.offset, p.call, r.String(p.symbol));
    if (s == nullptr) {
      ok_ = false;
      continue;
    }
    s->working += p.working;
    s->blocked += p.blocked;
    if (s->last_rank != h.rank || s->ranks == 0) {
      s->last_rank = h.rank;
      ++s->ranks;
    }
  }
  return ok_;
}

void ProfileJobMerge::Render(JsonWriter& w, const ProfileJobInfo& info) {
  w.BeginObject();
  w.Key("id");
  w.String(info.id);
  w.Key("world_size");
  w.Int(info.world_size);
  w.Key("period_ns");
  w.Int(period_ns_);
  w.Key("clock");
  w.String(clock_ == MPIDBG_PROFILE_CPU ? "cpu" : "wall");
  w.Key("signal");
  w.Int(signal_);
  w.Key("written_time_ns");
  w.Int(info.written_time_ns);
  w.Key("ranks_reported");
  w.Uint(ranks_);
  w.Key("ranks_sampled");
  w.Uint(sampled_);
  w.Key("ranks_missing");
  w.Uint(missing_);
  w.Key("threads");
  w.Uint(threads_);
  w.Key("lost");
  w.Uint(lost_);
  w.Key("complete");
  w.Bool(ok_);
  StateCounts(w, samples_, seconds_);

  GrowBuffer<uint32_t> order;
  w.Key("functions");
  w.BeginArray();
  for (uint32_t c = 0; c < MPIDBG_CALL_ID_LIMIT; ++c) {
    if (working_[c] + blocked_[c] != 0 && !order.Push(c)) ok_ = false;
  }
  SortByTotal(order, [&](uint32_t c) { return working_[c] + blocked_[c]; });
  for (uint32_t k = 0; k < order.size(); ++k) {
    const uint32_t c = order[k];
    Function(w, static_cast<int32_t>(c), working_[c], blocked_[c], seconds_working_[c],
             seconds_blocked_[c]);
  }
  w.EndArray();

  w.Key("sites");
  w.BeginArray();
  if (order.Resize(sites_.size())) {
    for (uint32_t i = 0; i < sites_.size(); ++i) order[i] = i;
    SortByTotal(order, [&](uint32_t i) { return sites_[i].working + sites_[i].blocked; });
    for (uint32_t k = 0; k < order.size(); ++k) {
      const Site& s = sites_[order[k]];
      w.BeginObject(true);
      SiteCommon(w, &pool_[s.module], s.offset,
                 s.symbol == kProfileNoString ? nullptr : &pool_[s.symbol], s.call, s.working,
                 s.blocked);
      w.Key("ranks");
      w.Uint(s.ranks);
      w.EndObject();
    }
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace mpidbg::rt
