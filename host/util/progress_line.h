// progress_line.h — "reading cores 37/256" on stderr while long work runs, rewritten in
// place, for a person watching a terminal. Scripts and logs never see it: without a
// terminal on stderr it writes nothing (MPIDBG_PROGRESS=1 or 0 overrides either way).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace mpidbg::host {

// Where a progress line goes and when. The default is stderr, the monotonic clock, and
// enabled when ProgressWanted says so; tests give their own.
struct ProgressOutput {
  bool enabled = false;
  std::function<double()> seconds;                  // a monotonic clock
  std::function<void(const std::string&)> write;    // raw bytes, no newline added

  static ProgressOutput Stderr();
};

// MPIDBG_PROGRESS "0" never, "1" always, anything else (or unset): when stderr is a
// terminal.
bool ProgressWanted(const char* env_value, bool stderr_is_terminal);

class ProgressLine {
 public:
  // `what` names the work ("reading cores"); `total` items are expected.
  ProgressLine(std::string what, std::size_t total, ProgressOutput out = ProgressOutput::Stderr());
  ~ProgressLine() { Finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // `done` items are finished. Drawn at most ten times a second; the last item always.
  void Update(std::size_t done);
  // Removes the line so a message can be printed on stderr; the next Update draws it
  // again.
  void Clear();
  // Removes the line for good.
  void Finish();

 private:
  void Draw(std::size_t done);

  std::string what_;
  std::size_t total_;
  ProgressOutput out_;
  bool shown_ = false;
  bool finished_ = false;
  double last_draw_ = -1.0;
};

}  // namespace mpidbg::host
