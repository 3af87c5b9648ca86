// monitor_text.cc — the text of `mpidbg matrix`: what a person reads first is the
// chosen matrix, then where the volume goes per rank, by size, by collective kind and
// to files.
#include "host/matrix/monitor_text.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace mpidbg::monitor {
namespace {

std::string Value(uint64_t v, Metric metric) {
  return metric == Metric::kBytes ? FormatBytes(v) : std::to_string(v);
}

// Rows = senders, columns = receivers; zeros shown as ".".
void Grid(std::ostringstream& out, const Matrix& m) {
  std::vector<uint64_t> dense(static_cast<size_t>(m.size) * static_cast<size_t>(m.size), 0);
  size_t width = std::to_string(m.size - 1).size();
  for (const Cell& c : m.cells) {
    dense[static_cast<size_t>(c.from) * static_cast<size_t>(m.size) + static_cast<size_t>(c.to)] =
        c.value;
    width = std::max(width, std::to_string(c.value).size());
  }
  size_t label = std::max<size_t>(std::to_string(m.size - 1).size(), 4);
  char buf[64];
  out << "  " << std::string(label, ' ');
  for (int j = 0; j < m.size; ++j) {
    std::snprintf(buf, sizeof buf, " %*d", static_cast<int>(width), j);
    out << buf;
  }
  out << "\n";
  for (int i = 0; i < m.size; ++i) {
    std::snprintf(buf, sizeof buf, "  %*d", static_cast<int>(label), i);
    out << buf;
    for (int j = 0; j < m.size; ++j) {
      uint64_t v = dense[static_cast<size_t>(i) * static_cast<size_t>(m.size) +
                         static_cast<size_t>(j)];
      std::string cell = v == 0 ? "." : std::to_string(v);
      std::snprintf(buf, sizeof buf, " %*s", static_cast<int>(width), cell.c_str());
      out << buf;
    }
    out << "\n";
  }
}

void TopPairs(std::ostringstream& out, const Matrix& m, Metric metric) {
  std::vector<Cell> cells = m.cells;
  std::stable_sort(cells.begin(), cells.end(),
                   [](const Cell& a, const Cell& b) { return a.value > b.value; });
  size_t shown = std::min(cells.size(), kTopPairs);
  out << "  " << cells.size() << " non-zero pairs of " << m.size << " x " << m.size;
  if (shown < cells.size()) out << "; the " << shown << " largest";
  out << ":\n";
  for (size_t i = 0; i < shown; ++i) {
    out << "  " << cells[i].from << " -> " << cells[i].to << ": "
        << Value(cells[i].value, metric) << "\n";
  }
}

// Every rank for a small job; for a large one the kTopPairs ranks with the most traffic.
void RankTotals(std::ostringstream& out, const JobMonitor& job, const Matrix& m, Metric metric) {
  std::vector<uint64_t> sent(static_cast<size_t>(job.world_size), 0);
  std::vector<uint64_t> received(static_cast<size_t>(job.world_size), 0);
  for (const Cell& c : m.cells) {
    sent[static_cast<size_t>(c.from)] += c.value;
    received[static_cast<size_t>(c.to)] += c.value;
  }
  std::vector<int> order;
  int missing = 0;
  for (const RankMonitor& r : job.ranks) {
    if (!r.present) ++missing;
    order.push_back(r.rank);
  }
  bool large = job.world_size > kDenseTextMaxRanks;
  if (large) {
    auto volume = [&](int r) { return sent[static_cast<size_t>(r)] + received[static_cast<size_t>(r)]; };
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return volume(a) > volume(b); });
    if (order.size() > kTopPairs) order.resize(kTopPairs);
  }
  out << "\nper rank (sent / received)" << (large ? ", the busiest" : "") << ":\n";
  for (int rank : order) {
    const RankMonitor& r = job.ranks[static_cast<size_t>(rank)];
    if (!r.present) {
      if (!large) out << "  rank " << rank << ": no data\n";
      continue;
    }
    size_t i = static_cast<size_t>(rank);
    out << "  rank " << rank << ": " << Value(sent[i], metric) << " / "
        << Value(received[i], metric) << "\n";
  }
  if (large && missing > 0) out << "  (" << missing << " ranks without data)\n";
}

void Histogram(std::ostringstream& out, const JobMonitor& job) {
  auto h = JobHistogram(job);
  uint64_t total = 0;
  for (uint64_t v : h) total += v;
  out << "\npoint-to-point message sizes (sent, all ranks):\n";
  if (total == 0) {
    out << "  none\n";
    return;
  }
  char buf[96];
  for (int b = 0; b < kBuckets; ++b) {
    if (h[b] == 0) continue;
    std::snprintf(buf, sizeof buf, "  %-14s %12llu  %5.1f%%\n", BucketLabel(b).c_str(),
                  static_cast<unsigned long long>(h[b]), 100.0 * static_cast<double>(h[b]) /
                                                             static_cast<double>(total));
    out << buf;
  }
}

void Collectives(std::ostringstream& out, const JobMonitor& job) {
  auto sum = JobCollectives(job);
  out << "\ncollectives (all ranks):\n";
  bool any = false;
  for (int k = 0; k < kCollKinds; ++k) {
    if (sum[k].operations == 0) continue;
    any = true;
    out << "  " << kCollKindNames[k] << ": " << sum[k].operations << " operations";
    if (k != 3) {
      out << ", sent " << FormatBytes(sum[k].bytes_sent) << ", received "
          << FormatBytes(sum[k].bytes_received);
    }
    out << "\n";
  }
  if (!any) out << "  none\n";
}

void Files(std::ostringstream& out, const JobMonitor& job) {
  std::vector<JobFile> files = JobFiles(job);
  uint64_t dropped = 0;
  for (const RankMonitor& r : job.ranks) dropped += r.files_dropped;
  if (files.empty() && dropped == 0) return;
  out << "\nfiles:\n";
  for (const JobFile& f : files) {
    out << "  " << f.counters.name << ": " << f.counters.opens << " opens, "
        << f.counters.read_operations << " reads (" << FormatBytes(f.counters.read_bytes)
        << "), " << f.counters.write_operations << " writes ("
        << FormatBytes(f.counters.write_bytes) << "), " << f.ranks.size() << " ranks\n";
  }
  if (dropped != 0) out << "  " << dropped << " file operations not counted (no room for their file)\n";
}

void MpiT(std::ostringstream& out, const JobMonitor& job, Metric metric) {
  out << "\nMPI_T (the MPI's own monitoring, collectives decomposed):\n";
  if (!AnyMpitRead(job)) {
    const RankMonitor* speaker = MpitSpeaker(job);
    std::string state = speaker != nullptr ? speaker->mpit_state : "not_read";
    std::string reason = speaker != nullptr ? speaker->mpit_reason : "";
    out << "  " << (state == "unavailable" ? "unavailable" : "not read")
        << (reason.empty() ? "" : ": " + reason) << "\n";
    return;
  }
  // What was read, and what the MPI did not publish (e.g. Open MPI 4.1.4's pml
  // variables): an empty layer below is then not "no traffic".
  if (const RankMonitor* speaker = MpitSpeaker(job); speaker != nullptr &&
                                                     !speaker->mpit_reason.empty()) {
    out << "  " << speaker->mpit_reason << "\n";
  }
  static const char* const kLayers[] = {"pml", "osc", "coll"};
  for (const char* layer : kLayers) {
    Matrix m = BuildMpitMatrix(job, layer, metric);
    out << "  " << layer << ": " << Value(m.Total(), metric) << " " << MetricName(metric)
        << " in " << m.cells.size() << " pairs\n";
  }
  std::array<MpitColl, kCollKinds> sum{};
  for (const RankMonitor& r : job.ranks) {
    for (int k = 0; k < kCollKinds; ++k) {
      sum[k].operations += r.mpit_collectives[k].operations;
      sum[k].bytes += r.mpit_collectives[k].bytes;
    }
  }
  for (int k = 0; k < kCollKinds; ++k) {
    if (sum[k].operations == 0) continue;
    out << "  " << kCollKindNames[k] << ": " << sum[k].operations << " operations, "
        << FormatBytes(sum[k].bytes) << "\n";
  }
}

}  // namespace

std::string MonitorToText(const JobMonitor& job, View view, Metric metric) {
  std::ostringstream out;
  Matrix m = BuildMatrix(job, view, metric);
  int present = 0;
  for (const RankMonitor& r : job.ranks) present += r.present ? 1 : 0;
  out << "communication matrix: " << ViewName(view) << " " << MetricName(metric) << " ("
      << job.which << "), " << job.world_size << " ranks";
  if (present != job.world_size) out << ", " << present << " with data";
  out << ", from " << job.source << "\n";
  out << "total: " << m.Total() << " " << MetricName(metric);
  if (metric == Metric::kBytes && m.Total() >= 1024) out << " (" << FormatBytes(m.Total()) << ")";
  out << " in " << m.cells.size() << (m.cells.size() == 1 ? " pair" : " pairs") << "\n";
  out << "rows: sending rank, columns: receiving rank\n";
  if (view == View::kMpiT && !AnyMpitRead(job)) {
    out << "  (no MPI_T monitoring was read: see below)\n";
  } else if (job.world_size <= kDenseTextMaxRanks) {
    Grid(out, m);
  } else {
    TopPairs(out, m, metric);
  }
  RankTotals(out, job, m, metric);
  Histogram(out, job);
  Collectives(out, job);
  Files(out, job);
  MpiT(out, job, metric);
  return out.str();
}

}  // namespace mpidbg::monitor
