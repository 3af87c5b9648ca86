// monitor_model.cc — matrices, histograms and sums over a JobMonitor.
#include "host/matrix/monitor_model.h"

#include <algorithm>
#include <cstdio>

namespace mpidbg::monitor {

const char* const kCollKindNames[kCollKinds] = {"one_to_all", "all_to_one", "all_to_all",
                                                "barrier"};

bool ParseView(const std::string& text, View* out) {
  static const std::pair<const char*, View> kViews[] = {
      {"p2p", View::kP2p}, {"coll", View::kColl}, {"put", View::kPut},
      {"get", View::kGet}, {"acc", View::kAcc},   {"mpi_t", View::kMpiT}};
  for (const auto& [name, view] : kViews) {
    if (text == name) {
      *out = view;
      return true;
    }
  }
  return false;
}

bool ParseMetric(const std::string& text, Metric* out) {
  if (text == "messages") {
    *out = Metric::kMessages;
  } else if (text == "bytes") {
    *out = Metric::kBytes;
  } else {
    return false;
  }
  return true;
}

const char* ViewName(View v) {
  switch (v) {
    case View::kP2p: return "p2p";
    case View::kColl: return "coll";
    case View::kPut: return "put";
    case View::kGet: return "get";
    case View::kAcc: return "acc";
    case View::kMpiT: return "mpi_t";
  }
  return "p2p";
}

const char* MetricName(Metric m) { return m == Metric::kMessages ? "messages" : "bytes"; }

uint64_t Matrix::Total() const {
  uint64_t sum = 0;
  for (const Cell& c : cells) sum += c.value;
  return sum;
}

uint64_t Matrix::Max() const {
  uint64_t m = 0;
  for (const Cell& c : cells) m = std::max(m, c.value);
  return m;
}

uint64_t Matrix::MinNonZero() const {
  uint64_t m = 0;
  for (const Cell& c : cells) m = (m == 0 || c.value < m) ? c.value : m;
  return m;
}

namespace {

uint64_t PeerValue(const PeerCounters& p, View view, Metric metric) {
  bool msgs = metric == Metric::kMessages;
  switch (view) {
    case View::kP2p: return msgs ? p.sent_messages : p.sent_bytes;
    case View::kColl: return msgs ? p.coll_messages : p.coll_bytes;
    case View::kPut: return msgs ? p.put_messages : p.put_bytes;
    case View::kGet: return msgs ? p.get_messages : p.get_bytes;
    case View::kAcc: return msgs ? p.acc_messages : p.acc_bytes;
    case View::kMpiT: break;
  }
  return 0;
}

uint64_t MpitValue(const MpitPeer& p, const std::string& layer, Metric metric) {
  bool msgs = metric == Metric::kMessages;
  if (layer == "pml") return msgs ? p.pml_messages : p.pml_bytes;
  if (layer == "osc") return msgs ? p.osc_sent_messages : p.osc_sent_bytes;
  if (layer == "coll") return msgs ? p.coll_messages : p.coll_bytes;
  return 0;
}

}  // namespace

Matrix BuildMpitMatrix(const JobMonitor& job, const std::string& layer, Metric metric) {
  Matrix m;
  m.size = job.world_size;
  for (const RankMonitor& r : job.ranks) {
    if (!r.present || r.rank < 0 || r.rank >= job.world_size) continue;
    for (const auto& [peer, counters] : r.mpit_peers) {
      uint64_t v = MpitValue(counters, layer, metric);
      if (v != 0 && peer >= 0 && peer < job.world_size) m.cells.push_back({r.rank, peer, v});
    }
  }
  return m;
}

Matrix BuildMatrix(const JobMonitor& job, View view, Metric metric) {
  if (view == View::kMpiT) return BuildMpitMatrix(job, "pml", metric);
  Matrix m;
  m.size = job.world_size;
  for (const RankMonitor& r : job.ranks) {
    if (!r.present || r.rank < 0 || r.rank >= job.world_size) continue;
    for (const auto& [peer, counters] : r.peers) {
      uint64_t v = PeerValue(counters, view, metric);
      if (v != 0 && peer >= 0 && peer < job.world_size) m.cells.push_back({r.rank, peer, v});
    }
  }
  return m;
}

bool AnyMpitRead(const JobMonitor& job) {
  for (const RankMonitor& r : job.ranks) {
    if (r.present && r.mpit_state == "read") return true;
  }
  return false;
}

const RankMonitor* MpitSpeaker(const JobMonitor& job) {
  const RankMonitor* first = nullptr;
  for (const RankMonitor& r : job.ranks) {
    if (!r.present) continue;
    if (r.mpit_state == "read") return &r;
    if (first == nullptr) first = &r;
  }
  return first;
}

std::array<uint64_t, kBuckets> RankHistogram(const RankMonitor& rank) {
  std::array<uint64_t, kBuckets> h{};
  for (const auto& entry : rank.peers) {
    for (int b = 0; b < kBuckets; ++b) h[b] += entry.second.histogram[b];
  }
  return h;
}

std::array<uint64_t, kBuckets> JobHistogram(const JobMonitor& job) {
  std::array<uint64_t, kBuckets> h{};
  for (const RankMonitor& r : job.ranks) {
    auto rh = RankHistogram(r);
    for (int b = 0; b < kBuckets; ++b) h[b] += rh[b];
  }
  return h;
}

namespace {

// A power of two 2^e in the largest binary unit that keeps it whole: (value, unit).
std::pair<uint64_t, const char*> PowerInUnit(int e) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = std::min(e / 10, 6);
  return {uint64_t{1} << (e - unit * 10), kUnits[unit]};
}

}  // namespace

std::string BucketLabel(int bucket) {
  if (bucket <= 0) return "0";
  int low = bucket - 1;  // the bucket is [2^low, 2^(low+1))
  if (low < 10) {
    uint64_t lo = uint64_t{1} << low;
    return std::to_string(lo) + "-" + std::to_string(2 * lo - 1) + " B";
  }
  // From 1 KiB on: lower bound up to, not including, the next power ("1-2 KiB").
  auto [lo, unit] = PowerInUnit(low);
  if (low == 63) return std::to_string(lo) + "-16 " + unit;  // 2^64 is 16 EiB
  return std::to_string(lo) + "-" + std::to_string(lo * 2) + " " + unit;
}

std::array<CollCounters, kCollKinds> JobCollectives(const JobMonitor& job) {
  std::array<CollCounters, kCollKinds> sum{};
  for (const RankMonitor& r : job.ranks) {
    for (int k = 0; k < kCollKinds; ++k) {
      sum[k].operations += r.collectives[k].operations;
      sum[k].bytes_sent += r.collectives[k].bytes_sent;
      sum[k].bytes_received += r.collectives[k].bytes_received;
    }
  }
  return sum;
}

std::vector<JobFile> JobFiles(const JobMonitor& job) {
  std::map<std::string, JobFile> by_name;
  for (const RankMonitor& r : job.ranks) {
    for (const FileCounters& f : r.files) {
      JobFile& j = by_name[f.name];
      j.counters.name = f.name;
      j.counters.opens += f.opens;
      j.counters.read_operations += f.read_operations;
      j.counters.read_bytes += f.read_bytes;
      j.counters.write_operations += f.write_operations;
      j.counters.write_bytes += f.write_bytes;
      if (j.ranks.empty() || j.ranks.back() != r.rank) j.ranks.push_back(r.rank);
    }
  }
  std::vector<JobFile> out;
  for (auto& entry : by_name) out.push_back(std::move(entry.second));
  return out;
}

std::string FormatBytes(uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes);
  int unit = 0;
  while (v >= 1024 && unit < 6) {
    v /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[unit]);
  return buf;
}

}  // namespace mpidbg::monitor
