// target_memory.cc — helpers shared by every TargetMemory backend.
#include "host/target/target_memory.h"

#include <cinttypes>
#include <cstdio>

namespace mpidbg::host {

std::string HexAddr(TargetAddr addr) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, addr.value);
  return buf;
}

Status TargetMemory::ReadCString(TargetAddr addr, size_t max_len, std::string* out) {
  out->clear();
  const TargetAddr start = addr;
  constexpr size_t kStep = 64;
  char chunk[kStep];
  while (out->size() < max_len) {
    // Never read across a 64-byte boundary: a string ending just before an unmapped
    // page must not fail because the chunk ran past it.
    size_t room = kStep - static_cast<size_t>(addr.value % kStep);
    Status st = Read(addr, room, chunk);
    if (!st.ok()) return st;
    for (size_t i = 0; i < room; ++i) {
      if (chunk[i] == '\0') return Status::Ok();
      if (out->size() >= max_len) break;
      out->push_back(chunk[i]);
    }
    if (!addr.Advance(room, &addr)) break;
  }
  return Status::Unreadable("string at " + HexAddr(start) + " has no terminator within " +
                            std::to_string(max_len) + " bytes");
}

}  // namespace mpidbg::host
