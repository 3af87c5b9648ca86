// phase_clock.h — how long each phase of a fanned-out read took (fan-out, collection,
// merge, analysis), each reported on stderr as it ends, so a slow job tells where its
// time goes.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace mpidbg::host {

class PhaseClock {
 public:
  // `out` nullptr: phases are timed but reported nowhere (a read repeated for a check).
  explicit PhaseClock(std::FILE* out = stderr) : out_(out) {}

  // Ends the phase running now (if any) and starts `name`.
  void Start(const std::string& name);
  // Ends the running phase and reports it with `detail` ("4 nodes") after its time.
  double End(const std::string& detail = "");
  // A phase measured elsewhere (e.g. summed over many small pieces).
  void Report(const std::string& name, double seconds, const std::string& detail = "");
  // Reports nothing: the read it times says nothing on stderr either (fanout_collect.h).
  bool quiet() const { return out_ == nullptr; }

 private:
  using Clock = std::chrono::steady_clock;
  std::FILE* out_;
  std::string name_;
  Clock::time_point start_;
};

// Sums the time spent inside many short stretches of work (the merge, done piece by
// piece between reads).
class StretchTimer {
 public:
  class Scope {
   public:
    explicit Scope(StretchTimer& t) : t_(t), start_(std::chrono::steady_clock::now()) {}
    ~Scope() {
      t_.seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

   private:
    StretchTimer& t_;
    std::chrono::steady_clock::time_point start_;
  };
  double seconds() const { return seconds_; }

 private:
  double seconds_ = 0;
};

}  // namespace mpidbg::host
