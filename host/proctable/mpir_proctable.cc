// mpir_proctable.cc — reading MPIR_proctable from a live launcher.
#include "host/proctable/mpir_proctable.h"

#include <unistd.h>

#include <cstring>

#include "host/symbols/symbol_index.h"
#include "host/target/target_live.h"

namespace mpidbg::host {
namespace {

constexpr size_t kMaxNameLength = 4096;
// MPIR_PROCDESC under LP64: two pointers, an int, 4 bytes of padding.
constexpr uint64_t kEntrySize = 24;
constexpr uint64_t kPidOffset = 16;


std::string ShortName(const std::string& name) { return name.substr(0, name.find('.')); }

}  // namespace

Result<std::vector<LauncherProcess>> DecodeProctable(TargetMemory& mem, TargetAddr table_var,
                                                     TargetAddr size_var) {
  int32_t size = 0;
  Status st = mem.Read(size_var, sizeof size, &size);
  if (!st.ok()) return st;
  if (size <= 0) return Status::NoSupport("MPIR_proctable is empty");
  if (size > kMaxProctableSize) {
    return Status::Unreadable("MPIR_proctable_size " + std::to_string(size) + " is implausible");
  }
  uint64_t table = 0;
  st = mem.Read(table_var, sizeof table, &table);
  if (!st.ok()) return st;
  if (table == 0) return Status::NoSupport("MPIR_proctable is empty");

  std::vector<LauncherProcess> out;
  out.reserve(static_cast<size_t>(size));
  for (int32_t i = 0; i < size; ++i) {
    TargetAddr entry;
    if (!TargetAddr(table).Advance(static_cast<uint64_t>(i) * kEntrySize, &entry)) {
      return Status::Unreadable("MPIR_proctable runs past the end of the address space");
    }
    unsigned char raw[kEntrySize];
    st = mem.Read(entry, sizeof raw, raw);
    if (!st.ok()) return st;
    uint64_t host_ptr = 0, exe_ptr = 0;
    int32_t pid = 0;
    std::memcpy(&host_ptr, raw, 8);
    std::memcpy(&exe_ptr, raw + 8, 8);
    std::memcpy(&pid, raw + kPidOffset, 4);
    LauncherProcess p;
    p.pid = pid;
    // Names are informative only: a bad pointer leaves them empty.
    if (host_ptr != 0 && !mem.ReadCString(TargetAddr(host_ptr), kMaxNameLength, &p.host_name).ok()) {
      p.host_name.clear();
    }
    if (exe_ptr != 0 &&
        !mem.ReadCString(TargetAddr(exe_ptr), kMaxNameLength, &p.executable_name).ok()) {
      p.executable_name.clear();
    }
    if (p.pid <= 0) {
      return Status::Unreadable("MPIR_proctable entry " + std::to_string(i) + " has pid " +
                                std::to_string(p.pid));
    }
    out.push_back(std::move(p));
  }
  return out;
}

Result<std::vector<LauncherProcess>> ReadLauncherProctable(int64_t launcher_pid) {
  auto symbols = SymbolIndex::ForLive(launcher_pid);
  if (!symbols.ok()) return symbols.status();
  std::optional<uint64_t> table_var = symbols.value()->FindSymbol("MPIR_proctable");
  std::optional<uint64_t> size_var = symbols.value()->FindSymbol("MPIR_proctable_size");
  if (!table_var || !size_var) {
    return Status::NoSupport(
        "launcher " + std::to_string(launcher_pid) +
        " has no MPIR_proctable/MPIR_proctable_size in its symbol tables (MPICH's Hydra "
        "mpiexec does not export them)");
  }
  auto live = LiveTarget::Attach(launcher_pid);
  if (!live.ok()) return live.status();
  auto table = DecodeProctable(*live.value(), TargetAddr(*table_var), TargetAddr(*size_var));
  live.value()->Detach();
  if (!table.ok()) {
    std::string why = table.status().message();
    if (table.status().kind() == ErrorKind::kNoSupport) {
      why += " (launchers fill it once the job has started, some only under a debugger)";
    }
    return Status::Error(table.status().kind(),
                         "launcher " + std::to_string(launcher_pid) + ": " + why);
  }
  return table;
}

bool IsLocalHost(const std::string& host_name) {
  if (host_name.empty() || host_name == "localhost" || host_name == "127.0.0.1") return true;
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return false;
  const std::string self = buf;
  return host_name == self || ShortName(host_name) == ShortName(self);
}

Result<std::vector<int64_t>> LocalRankPids(const std::vector<LauncherProcess>& table,
                                           std::vector<std::string>* remote) {
  std::vector<int64_t> pids;
  for (size_t rank = 0; rank < table.size(); ++rank) {
    if (IsLocalHost(table[rank].host_name)) {
      pids.push_back(table[rank].pid);
    } else if (remote != nullptr) {
      remote->push_back("rank " + std::to_string(rank) + " (pid " +
                        std::to_string(table[rank].pid) + " on " + table[rank].host_name + ")");
    }
  }
  if (pids.empty()) {
    return Status::NoSupport("no rank of the launcher's job runs on this host; run mpidbg on "
                             "the ranks' hosts with --pids");
  }
  return pids;
}

}  // namespace mpidbg::host
