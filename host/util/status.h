// status.h — errors as values inside the host.
//
// Every fallible host function returns a Status (or a Result<T>): a kind that decides
// the command's exit status (OUTPUT.md) and one sentence for stderr. Exceptions stay
// inside the few places that use libraries which throw (JSON parsing) and never cross
// a C ABI.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace mpidbg::host {

// The kinds map onto the exit statuses of OUTPUT.md.
enum class ErrorKind {
  kNone = 0,
  kNoSupport = 1,   // the target has no MPI debugging support
  kUsage = 2,       // bad command line
  kUnreadable = 3,  // permission, ptrace, truncated or foreign core, no such process
};

class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(ErrorKind kind, std::string message) {
    Status s;
    s.kind_ = kind;
    s.message_ = std::move(message);
    return s;
  }
  static Status Unreadable(std::string message) {
    return Error(ErrorKind::kUnreadable, std::move(message));
  }
  static Status NoSupport(std::string message) {
    return Error(ErrorKind::kNoSupport, std::move(message));
  }
  static Status Usage(std::string message) { return Error(ErrorKind::kUsage, std::move(message)); }
  // No MPI debugging support because the target is no MPI process at all: it loads no
  // MPI library (a launcher, a shell, a pid named by mistake). A job leaves it out
  // rather than count it as a rank it could not read.
  static Status NotMpi(std::string message) {
    Status s = NoSupport(std::move(message));
    s.not_mpi_ = true;
    return s;
  }

  bool ok() const { return kind_ == ErrorKind::kNone; }
  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  int exit_code() const { return static_cast<int>(kind_); }
  bool not_mpi() const { return not_mpi_; }

 private:
  ErrorKind kind_ = ErrorKind::kNone;
  std::string message_;
  bool not_mpi_ = false;
};

// A value or the Status that explains why there is none.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T& operator*() { return *value_; }
  T* operator->() { return &*value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace mpidbg::host
