// target_reader.h — the one way the plugin reads the target, and the one way it
// interprets the bytes it read.
//
// TargetReader fetches raw bytes through the debugger's mqs_fetch_data, with the range
// checked against the target's pointer size and a cap on one read. Decoder interprets a
// fetched buffer: fixed-width integers at offsets in the target's byte order, strings of
// bounded length; fields outside the buffer read as zero, which is exactly the
// "zero-fill what an older writer did not have" rule of the record contract.
#ifndef MPIDBG_PLUGIN_TARGET_READER_H
#define MPIDBG_PLUGIN_TARGET_READER_H

#include <cstddef>
#include <cstdint>

#include "mpidbg/mqs_interface.h"
#include "plugin/target_addr.h"

namespace mpidbg::plugin {

// How the target lays out numbers.
struct TargetFormat {
  bool swap = false;     // target byte order differs from the host's
  int pointer_size = 8;  // 4 or 8; limits the valid address range
};

// Byte order as the debugger reports it: converts a known 4-byte pattern with
// mqs_target_to_host. Returns false when the callback is missing or the answer is
// neither the identity nor a byte swap.
bool byte_order_from_debugger(mqs_process* process, const mqs_process_callbacks* cb, bool* swap);

// Pointer size from mqs_get_type_sizes (4 or 8); `fallback` when not reported sensibly.
int pointer_size_from_debugger(mqs_process* process, const mqs_image_callbacks* image_cb,
                               int fallback);

class TargetReader {
 public:
  // The largest single fetch; bigger structures are read in parts or refused.
  static constexpr size_t kMaxReadBytes = size_t{64} << 20;

  TargetReader() = default;
  TargetReader(mqs_process* process, const mqs_process_callbacks* cb, TargetFormat format)
      : process_(process), cb_(cb), format_(format) {}

  // Reads `len` bytes at `addr` into `out`. mqs_ok, or kErrReadFailed with the address
  // recorded for the error message.
  int read(TargetAddr addr, size_t len, void* out);

  // Typed single values, in the target's byte order.
  int read_u32(TargetAddr addr, uint32_t* out);
  int read_u64(TargetAddr addr, uint64_t* out);

  // True when [addr, addr+len) lies within the target's address space.
  bool valid_range(TargetAddr addr, size_t len) const;

  const TargetFormat& format() const { return format_; }
  void set_swap(bool swap) { format_.swap = swap; }

  uint64_t read_count() const { return reads_; }
  uint64_t bytes_read() const { return bytes_; }

 private:
  mqs_process* process_ = nullptr;
  const mqs_process_callbacks* cb_ = nullptr;
  TargetFormat format_;
  uint64_t reads_ = 0;
  uint64_t bytes_ = 0;
};

uint16_t byte_swap16(uint16_t v);
uint32_t byte_swap32(uint32_t v);
uint64_t byte_swap64(uint64_t v);

// Interprets a fetched buffer. Every accessor is bounds-checked: a field that does not
// lie wholly inside the buffer reads as zero.
class Decoder {
 public:
  Decoder(const void* data, size_t size, bool swap)
      : data_(static_cast<const uint8_t*>(data)), size_(size), swap_(swap) {}

  bool has(size_t offset, size_t len) const { return offset <= size_ && len <= size_ - offset; }

  uint8_t u8(size_t offset) const;
  uint16_t u16(size_t offset) const;
  uint32_t u32(size_t offset) const;
  uint64_t u64(size_t offset) const;
  int32_t i32(size_t offset) const { return static_cast<int32_t>(u32(offset)); }
  int64_t i64(size_t offset) const { return static_cast<int64_t>(u64(offset)); }
  // Copies at most `len` bytes of a char field into out[0..len-1] and always
  // NUL-terminates (the last byte is dropped if the target wrote none).
  void str(size_t offset, size_t len, char* out) const;

  // A decoder over [offset, offset+len) of this one (clipped to the buffer).
  Decoder sub(size_t offset, size_t len) const;

  size_t size() const { return size_; }
  bool swap() const { return swap_; }

 private:
  const uint8_t* data_;
  size_t size_;
  bool swap_;
};

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_TARGET_READER_H
