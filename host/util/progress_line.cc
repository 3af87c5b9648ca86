// progress_line.cc — the progress line on stderr (progress_line.h).
#include "host/util/progress_line.h"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace mpidbg::host {
namespace {

// At most ten redraws a second: a line redrawn per item of a 10,000-rank job would cost
// more terminal output than the work it reports.
constexpr double kMinRedrawSeconds = 0.1;

// Carriage return and "erase to end of line": every terminal emulator honours both.
constexpr const char* kEraseLine = "\r\033[K";

double MonotonicSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void WriteStderr(const std::string& s) {
  std::fwrite(s.data(), 1, s.size(), stderr);
  std::fflush(stderr);
}

}  // namespace

ProgressOutput ProgressOutput::Stderr() {
  ProgressOutput out;
  out.enabled = ProgressWanted(std::getenv("MPIDBG_PROGRESS"), isatty(STDERR_FILENO) == 1);
  out.seconds = MonotonicSeconds;
  out.write = WriteStderr;
  return out;
}

bool ProgressWanted(const char* env_value, bool stderr_is_terminal) {
  if (env_value != nullptr && std::strcmp(env_value, "0") == 0) return false;
  if (env_value != nullptr && std::strcmp(env_value, "1") == 0) return true;
  return stderr_is_terminal;
}

ProgressLine::ProgressLine(std::string what, std::size_t total, ProgressOutput out)
    : what_(std::move(what)), total_(total), out_(std::move(out)) {
  if (out_.enabled) Draw(0);
}

void ProgressLine::Update(std::size_t done) {
  if (!out_.enabled || finished_) return;
  if (done < total_ && shown_ && out_.seconds() - last_draw_ < kMinRedrawSeconds) return;
  Draw(done);
}

void ProgressLine::Clear() {
  if (!shown_) return;
  out_.write(kEraseLine);
  shown_ = false;
  // The next Update redraws whatever the clock says: the line was taken away.
  last_draw_ = -1.0;
}

void ProgressLine::Finish() {
  if (finished_) return;
  Clear();
  finished_ = true;
}

void ProgressLine::Draw(std::size_t done) {
  out_.write(std::string(kEraseLine) + what_ + " " + std::to_string(done) + "/" +
             std::to_string(total_) + " ...");
  shown_ = true;
  last_draw_ = out_.seconds();
}

}  // namespace mpidbg::host
