// phase_clock.cc — one "mpidbg: phase NAME S s" line per phase on stderr.
#include "host/fanout/phase_clock.h"

namespace mpidbg::host {

void PhaseClock::Start(const std::string& name) {
  if (!name_.empty()) End();
  name_ = name;
  start_ = Clock::now();
}

double PhaseClock::End(const std::string& detail) {
  if (name_.empty()) return 0;
  double s = std::chrono::duration<double>(Clock::now() - start_).count();
  Report(name_, s, detail);
  name_.clear();
  return s;
}

void PhaseClock::Report(const std::string& name, double seconds, const std::string& detail) {
  if (out_ == nullptr) return;
  std::fprintf(out_, "mpidbg: phase %s %.3f s%s%s\n", name.c_str(), seconds,
               detail.empty() ? "" : ": ", detail.c_str());
  std::fflush(out_);
}

}  // namespace mpidbg::host
