// release_request.cc — the request written, the acknowledgement awaited.
#include "host/release/release_request.h"

#include <unistd.h>

#include <chrono>
#include <cstddef>

#include "host/target/opened_target.h"
#include "host/target/target_live.h"
#include "mpidbg/records.h"

namespace mpidbg::host {
namespace {

// The root's fields this reads, at their contract offsets.
constexpr std::size_t kAskedAt = offsetof(mpidbg_root, orphan_release_asked);
constexpr std::size_t kDoneAt = offsetof(mpidbg_root, orphan_release_done);
constexpr uint32_t kNeededSize = kDoneAt + sizeof(uint64_t);

Status ReadU64(TargetMemory& m, uint64_t root, std::size_t at, uint64_t* out) {
  return m.Read(TargetAddr(root + at), sizeof *out, out);
}

struct Counters {
  uint64_t asked = 0, done = 0, kept = 0, releases = 0;
};

Status ReadCounters(TargetMemory& m, uint64_t root, Counters* c) {
  for (auto [at, out] : {std::pair{kAskedAt, &c->asked}, std::pair{kDoneAt, &c->done},
                         std::pair{offsetof(mpidbg_root, orphan_count), &c->kept},
                         std::pair{offsetof(mpidbg_root, orphan_releases), &c->releases}}) {
    Status st = ReadU64(m, root, at, out);
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

}  // namespace

Result<ReleaseOutcome> AskOrphanRelease(int64_t pid, double wait_seconds) {
  TargetSpec spec;
  spec.pid = pid;
  auto target = OpenedTarget::Open(spec);
  if (!target.ok()) return target.status();
  OpenedTarget& t = **target;
  const std::optional<uint64_t> root = t.symbols().FindSymbol(MPIDBG_ROOT_SYMBOL);
  if (!root) {
    return Status::NoSupport("process " + std::to_string(pid) + " carries no mpidbg runtime (no " +
                             MPIDBG_ROOT_SYMBOL + ")");
  }
  uint64_t magic = 0;
  uint32_t size = 0;
  Status st = t.memory().Read(TargetAddr(*root), sizeof magic, &magic);
  if (st.ok()) st = t.memory().Read(TargetAddr(*root + offsetof(mpidbg_root, size)), sizeof size, &size);
  if (!st.ok()) return st;
  if (magic != MPIDBG_ROOT_MAGIC) {
    return Status::Unreadable("process " + std::to_string(pid) + ": the runtime's root is not " +
                              "initialised or damaged (bad magic)");
  }
  if (size < kNeededSize) {
    return Status::NoSupport("process " + std::to_string(pid) + " runs an mpidbg runtime older " +
                             "than release requests (root of " + std::to_string(size) + " bytes)");
  }
  Counters before;
  st = ReadCounters(t.memory(), *root, &before);
  if (!st.ok()) return st;
  ReleaseOutcome out;
  out.pid = pid;
  out.kept_before = before.kept;
  if (before.asked != before.done) {
    out.already_pending = true;
    out.request = before.asked;
  } else {
    out.request = before.done + 1;
    st = t.WriteLive(TargetAddr(*root + kAskedAt), sizeof out.request, &out.request);
    if (!st.ok()) return st;
  }
  st = t.Close();  // the process runs again: its clock thread can act
  if (!st.ok()) return st;

  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration<double>(wait_seconds > 0 ? wait_seconds : 0);
  for (;;) {
    Counters now;
    st = ReadUnstopped(pid, TargetAddr(*root + kDoneAt), sizeof now.done, &now.done);
    if (!st.ok()) return st;
    if (now.done == out.request) {
      uint64_t releases = 0;
      st = ReadUnstopped(pid, TargetAddr(*root + offsetof(mpidbg_root, orphan_releases)),
                         sizeof releases, &releases);
      if (!st.ok()) return st;
      out.done = true;
      out.released = releases - before.releases;
      return out;
    }
    if (std::chrono::steady_clock::now() >= deadline) return out;
    usleep(20000);
  }
}

}  // namespace mpidbg::host
