// opened_target.cc — opening a live process or a core for reading.
#include "host/target/opened_target.h"

#include <ctime>

namespace mpidbg::host {

std::string TargetName(const TargetSpec& spec) {
  return spec.core.empty() ? "pid " + std::to_string(spec.pid) : "core " + spec.core;
}

std::string ReadingWhat(const std::vector<TargetSpec>& targets) {
  bool cores = false;
  bool live = false;
  for (const TargetSpec& t : targets) (t.core.empty() ? live : cores) = true;
  return cores && live ? "reading ranks" : cores ? "reading cores" : "reading processes";
}

std::string TargetDescription(const TargetSpec& spec) {
  return spec.core.empty() ? "process " + std::to_string(spec.pid) : spec.core;
}

int64_t RealtimeNowNs() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

int64_t MonotonicNowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

Result<std::unique_ptr<OpenedTarget>> OpenedTarget::Open(const TargetSpec& spec,
                                                         LiveTarget* stopped) {
  std::unique_ptr<OpenedTarget> t(new OpenedTarget());
  int64_t start = MonotonicNowNs();
  if (!spec.core.empty()) {
    auto core = CoreTarget::Open(spec.core, spec.exe);
    if (!core.ok()) return core.status();
    t->core_ = std::move(core.value());
    t->attach_ns_ = MonotonicNowNs() - start;
    start = MonotonicNowNs();
    auto symbols = SymbolIndex::ForCore(t->core_->elf(), t->core_->executable());
    t->modules_ns_ = MonotonicNowNs() - start;
    if (!symbols.ok()) return symbols.status();
    t->symbols_ = std::move(symbols.value());
    t->pid_ = t->core_->pid();
    t->source_ = "core";
    t->capture_time_ns_ = t->core_->mtime_ns();
    t->image_name_ = t->core_->executable();
    return t;
  }
  if (stopped != nullptr && stopped->pid() == spec.pid && stopped->attached()) {
    t->live_ = stopped;
    t->capture_time_ns_ = stopped->stopped_at_ns();
  } else {
    auto live = LiveTarget::Attach(spec.pid);
    if (!live.ok()) return live.status();
    t->owned_live_ = std::move(live.value());
    t->live_ = t->owned_live_.get();
    t->capture_time_ns_ = RealtimeNowNs();
    t->attach_ns_ = MonotonicNowNs() - start;
  }
  start = MonotonicNowNs();
  auto symbols = SymbolIndex::ForLive(spec.pid);
  t->modules_ns_ = MonotonicNowNs() - start;
  if (!symbols.ok()) return symbols.status();
  t->symbols_ = std::move(symbols.value());
  t->pid_ = spec.pid;
  t->source_ = "live";
  t->image_name_ = LiveExecutable(spec.pid);
  return t;
}

std::vector<int64_t> OpenedTarget::tids() const {
  if (live_) return live_->tids();
  if (core_) return core_->tids();
  return {};
}

Status OpenedTarget::WriteLive(TargetAddr addr, size_t size, const void* data) {
  if (!live_) return Status::Usage("a core file cannot be written");
  return live_->Write(addr, size, data);
}

Status OpenedTarget::Close() {
  symbols_.reset();
  // A target stopped by the caller stays stopped: the caller lets it go.
  if (owned_live_) return owned_live_->Detach();
  return Status::Ok();
}

}  // namespace mpidbg::host
