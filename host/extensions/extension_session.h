// extension_session.h — one live process or core set up in the message-queue DLL that serves
// it, for the readers of mpidbg's version-3 extensions (monitoring, sampling).
#pragma once

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "host/plugin_host/mq_session.h"
#include "host/target/opened_target.h"
#include "host/util/progress_line.h"
#include "host/util/status.h"

namespace mpidbg::extensions {

// What a reader gets: the session, the DLL and the opened target (for its symbols).
struct ExtensionTarget {
  host::MqSession& session;
  const host::MqDll& dll;
  host::OpenedTarget& target;
  host::TargetContext& ctx;
};

// Opens `spec`, chooses its DLL, loads it in this process and runs `read`. A DLL the
// MPI library names (not mpidbg's plugin) is refused before any of its code runs: only
// mpidbg's runtime keeps monitoring and sampling data. A DLL named with --plugin is
// loaded as asked. A target that loads no MPI library at all is refused as no MPI
// process (Status::not_mpi); one whose MPI library has no debugging support at all, as
// one without the runtime. The target is let go (a live process resumed) afterwards.
host::Status WithExtensionTarget(const host::TargetSpec& spec,
                           const std::function<host::Status(ExtensionTarget&)>& read);

// A version-3 record as the DLL's getters want it: zeroed, its `size` set.
template <typename T>
T Sized() {
  T v;
  std::memset(&v, 0, sizeof v);
  v.size = sizeof v;
  return v;
}

// A fixed-width text field of a record, up to its first NUL (never beyond `size`).
std::string Bounded(const char* text, size_t size);

// The DLL's summary of the process (world rank, pid, host); false when it gives none.
bool ReadProcessSummary(ExtensionTarget& t, mpidbg_process_summary* out);

// The job-wide failure when no target could be read: the first failure's kind and
// message, or "cannot be read" when there was no target at all.
host::Status NoRankRead(const std::vector<host::Status>& failures);

// Runs `read(extension_target)`, which gives a host::Result<T>, on every target in turn and
// hands each value read to `keep(index, value)`; `*source` becomes "core" when a target
// is a core. A target that cannot be read is named on stderr and left out; only when
// none could be read is the answer an error (NoRankRead). One that is no MPI process (a
// launcher among the pids) is said to be left out, as `job` and `leaks` say it. A
// progress line shows on a terminal while many are read.
template <typename T, typename Read, typename Keep>
host::Status ReadEachTarget(const std::vector<host::TargetSpec>& targets, std::string* source,
                            Read read, Keep keep) {
  std::vector<host::Status> failures;
  std::vector<host::Status> not_mpi;  // said only when no MPI process failed
  size_t kept = 0;
  host::ProgressLine progress(host::ReadingWhat(targets), targets.size());
  for (size_t i = 0; i < targets.size(); ++i) {
    const host::TargetSpec& spec = targets[i];
    progress.Update(i);
    if (!spec.core.empty()) *source = "core";
    host::Result<T> one = host::Status::Unreadable("not read");
    host::Status st = WithExtensionTarget(spec, [&](ExtensionTarget& t) {
      one = read(t);
      return one.ok() ? host::Status::Ok() : one.status();
    });
    if (!st.ok()) {
      progress.Clear();
      if (st.not_mpi()) {
        std::fprintf(stderr, "mpidbg: %s; left out\n", st.message().c_str());
        not_mpi.push_back(st);
        continue;
      }
      std::fprintf(stderr, "mpidbg: %s: %s\n", host::TargetDescription(spec).c_str(),
                   st.message().c_str());
      failures.push_back(st);
      continue;
    }
    keep(i, one.value());
    ++kept;
  }
  progress.Finish();
  if (kept != 0) return host::Status::Ok();
  return NoRankRead(failures.empty() ? not_mpi : failures);
}

}  // namespace mpidbg::extensions
