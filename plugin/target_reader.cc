#include "plugin/target_reader.h"

#include <climits>
#include <cstring>

#include "plugin/errors.h"

namespace mpidbg::plugin {

uint16_t byte_swap16(uint16_t v) { return static_cast<uint16_t>((v >> 8) | (v << 8)); }
uint32_t byte_swap32(uint32_t v) { return __builtin_bswap32(v); }
uint64_t byte_swap64(uint64_t v) { return __builtin_bswap64(v); }

bool byte_order_from_debugger(mqs_process* process, const mqs_process_callbacks* cb, bool* swap) {
  if (cb == nullptr || cb->mqs_target_to_host_fp == nullptr) return false;
  const unsigned char pattern[4] = {0x01, 0x02, 0x03, 0x04};
  uint32_t raw;
  std::memcpy(&raw, pattern, sizeof raw);
  uint32_t converted = 0;
  cb->mqs_target_to_host_fp(process, pattern, &converted, static_cast<int>(sizeof converted));
  if (converted == raw) {
    *swap = false;
    return true;
  }
  if (converted == byte_swap32(raw)) {
    *swap = true;
    return true;
  }
  return false;
}

int pointer_size_from_debugger(mqs_process* process, const mqs_image_callbacks* image_cb,
                               int fallback) {
  if (image_cb == nullptr || image_cb->mqs_get_type_sizes_fp == nullptr) return fallback;
  mqs_target_type_sizes sizes;
  std::memset(&sizes, 0, sizeof sizes);
  image_cb->mqs_get_type_sizes_fp(process, &sizes);
  if (sizes.pointer_size == 4 || sizes.pointer_size == 8) return sizes.pointer_size;
  return fallback;
}

bool TargetReader::valid_range(TargetAddr addr, size_t len) const {
  const uint64_t limit = format_.pointer_size == 4 ? UINT64_C(0xffffffff) : UINT64_MAX;
  if (addr.is_null() || addr.value() > limit) return false;
  if (len == 0) return true;
  return len - 1 <= limit - addr.value();
}

int TargetReader::read(TargetAddr addr, size_t len, void* out) {
  if (cb_ == nullptr || cb_->mqs_fetch_data_fp == nullptr) return kErrNoCallbacks;
  if (len == 0) return mqs_ok;
  if (len > kMaxReadBytes || len > INT_MAX || !valid_range(addr, len) ||
      addr.value() > static_cast<uint64_t>(static_cast<mqs_taddr_t>(-1))) {
    set_error_detail(kErrReadFailed,
                     "target read refused at 0x%llx: %zu bytes lie outside the target's "
                     "address space or exceed the read limit",
                     static_cast<unsigned long long>(addr.value()), len);
    return kErrReadFailed;
  }
  ++reads_;
  const int rc = cb_->mqs_fetch_data_fp(process_, static_cast<mqs_taddr_t>(addr.value()),
                                        static_cast<int>(len), out);
  if (rc != mqs_ok) {
    set_error_detail(kErrReadFailed, "target read failed at 0x%llx (%zu bytes)",
                     static_cast<unsigned long long>(addr.value()), len);
    return kErrReadFailed;
  }
  bytes_ += len;
  return mqs_ok;
}

int TargetReader::read_u32(TargetAddr addr, uint32_t* out) {
  unsigned char buf[4];
  const int rc = read(addr, sizeof buf, buf);
  if (rc != mqs_ok) return rc;
  *out = Decoder(buf, sizeof buf, format_.swap).u32(0);
  return mqs_ok;
}

int TargetReader::read_u64(TargetAddr addr, uint64_t* out) {
  unsigned char buf[8];
  const int rc = read(addr, sizeof buf, buf);
  if (rc != mqs_ok) return rc;
  *out = Decoder(buf, sizeof buf, format_.swap).u64(0);
  return mqs_ok;
}

uint8_t Decoder::u8(size_t offset) const { return has(offset, 1) ? data_[offset] : 0; }

uint16_t Decoder::u16(size_t offset) const {
  if (!has(offset, 2)) return 0;
  uint16_t v;
  std::memcpy(&v, data_ + offset, sizeof v);
  return swap_ ? byte_swap16(v) : v;
}

uint32_t Decoder::u32(size_t offset) const {
  if (!has(offset, 4)) return 0;
  uint32_t v;
  std::memcpy(&v, data_ + offset, sizeof v);
  return swap_ ? byte_swap32(v) : v;
}

uint64_t Decoder::u64(size_t offset) const {
  if (!has(offset, 8)) return 0;
  uint64_t v;
  std::memcpy(&v, data_ + offset, sizeof v);
  return swap_ ? byte_swap64(v) : v;
}

void Decoder::str(size_t offset, size_t len, char* out) const {
  if (len == 0) return;
  std::memset(out, 0, len);
  if (offset >= size_) return;
  size_t avail = size_ - offset;
  size_t n = len - 1 < avail ? len - 1 : avail;
  for (size_t i = 0; i < n; ++i) {
    const char c = static_cast<char>(data_[offset + i]);
    if (c == '\0') break;
    out[i] = c;
  }
}

Decoder Decoder::sub(size_t offset, size_t len) const {
  if (offset > size_) return Decoder(data_ + size_, 0, swap_);
  const size_t avail = size_ - offset;
  return Decoder(data_ + offset, len < avail ? len : avail, swap_);
}

}  // namespace mpidbg::plugin
