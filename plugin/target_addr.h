// target_addr.h — an address in the target process.
//
// Target addresses are never host pointers: they are 64-bit numbers the plugin hands back
// to the debugger's fetch callback. A distinct type keeps the two from mixing.
#ifndef MPIDBG_PLUGIN_TARGET_ADDR_H
#define MPIDBG_PLUGIN_TARGET_ADDR_H

#include <cstdint>

namespace mpidbg::plugin {

class TargetAddr {
 public:
  constexpr TargetAddr() = default;
  constexpr explicit TargetAddr(uint64_t value) : value_(value) {}

  constexpr uint64_t value() const { return value_; }
  constexpr bool is_null() const { return value_ == 0; }

  // `*this + offset`, or false when the sum does not fit in 64 bits.
  bool offset_by(uint64_t offset, TargetAddr* out) const {
    if (offset > UINT64_MAX - value_) return false;
    *out = TargetAddr(value_ + offset);
    return true;
  }

  friend constexpr bool operator==(TargetAddr a, TargetAddr b) { return a.value_ == b.value_; }
  friend constexpr bool operator!=(TargetAddr a, TargetAddr b) { return a.value_ != b.value_; }
  friend constexpr bool operator<(TargetAddr a, TargetAddr b) { return a.value_ < b.value_; }

 private:
  uint64_t value_ = 0;
};

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_TARGET_ADDR_H
