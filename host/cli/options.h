// options.h — command-line parsing shared by the mpidbg commands.
#pragma once

#include <string>
#include <vector>

#include "host/target/opened_target.h"
#include "host/util/status.h"

namespace mpidbg::cli {

// The arguments after the command name, with "--opt=value" split into two.
std::vector<std::string> SplitArgs(int argc, char** argv, int first);

// Walks one command's arguments: `for (ArgCursor c(args); c.Next();)`, then `c.arg()`
// is the current one and Value() takes the one after it as the option's value.
class ArgCursor {
 public:
  explicit ArgCursor(const std::vector<std::string>& args) : args_(args) {}
  bool Next() { return ++next_ <= args_.size(); }
  const std::string& arg() const { return args_[next_ - 1]; }
  bool Value(std::string* out) {
    if (next_ >= args_.size()) return false;
    *out = args_[next_++];
    return true;
  }
  // Whether a value follows that is not itself an option (for lists of values).
  bool HasValue() const { return next_ < args_.size() && args_[next_].rfind("--", 0) != 0; }
  // The options every command takes; true when the current argument was one of them.
  bool Common(bool* json, bool* help) const {
    if (arg() == "--json") return *json = true;
    if (arg() == "-h" || arg() == "--help") return *help = true;
    return false;
  }

 private:
  const std::vector<std::string>& args_;
  size_t next_ = 0;  // index of the argument after the current one
};

struct ProcessOptions {
  host::TargetSpec target;
  bool json = false;
  bool help = false;
};

// `(--pid PID | --core FILE [--exe FILE]) [--plugin PATH] [--json]`.
host::Result<ProcessOptions> ParseProcessOptions(const std::vector<std::string>& args);

// Parses a decimal pid (> 0).
bool ParsePid(const std::string& text, int64_t* pid);

// Prints a failure: "mpidbg: message" on stderr and, with --json, one error document on
// stdout so that stdout always holds exactly one document. Returns the exit status.
int ReportFailure(const host::Status& status, bool json);

// One target of a job that could not be read: "pid 123" or "core /path", and why.
struct TargetFailure {
  std::string target;
  host::Status status;
};

// The same, and the error document also lists why each of `targets` failed (`job`
// when no rank could be read; the per-target lines on stderr are printed already).
int ReportFailure(const host::Status& status, bool json,
                  const std::vector<TargetFailure>& targets);

}  // namespace mpidbg::cli
