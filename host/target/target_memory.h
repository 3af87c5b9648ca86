// target_memory.h — the one interface through which the host reads a target's memory.
//
// Backends: a live process (target_live), a core file (target_core), and fakes in
// tests. Decoders never see a backend, only this interface. Target addresses are a
// type of their own so a host pointer cannot be passed where a target address is meant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "host/util/status.h"

namespace mpidbg::host {

struct TargetAddr {
  uint64_t value = 0;
  constexpr TargetAddr() = default;
  constexpr explicit TargetAddr(uint64_t v) : value(v) {}
  // Overflow-checked offset; false when the range would wrap.
  bool Advance(uint64_t delta, TargetAddr* out) const {
    if (value + delta < value) return false;
    *out = TargetAddr(value + delta);
    return true;
  }
};

std::string HexAddr(TargetAddr addr);

class TargetMemory {
 public:
  virtual ~TargetMemory() = default;

  // Reads exactly `size` bytes at `addr` into `out`. Anything short of all bytes is an
  // error whose message names the address.
  virtual Status Read(TargetAddr addr, size_t size, void* out) = 0;

  // Reads a NUL-terminated string of at most `max_len` bytes (without the NUL). Reads in
  // small steps so a string at the end of a mapping is still found.
  Status ReadCString(TargetAddr addr, size_t max_len, std::string* out);
};

}  // namespace mpidbg::host
