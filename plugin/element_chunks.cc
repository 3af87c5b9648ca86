// element_chunks.cc — see element_chunks.h.
#include "plugin/element_chunks.h"

#include "plugin/errors.h"

namespace mpidbg::plugin {

ElementChunks::ElementChunks(TargetReader& reader, TargetAddr base, uint32_t count,
                             uint32_t elem_size)
    : reader_(reader), base_(base), count_(count), elem_size_(elem_size) {
  const size_t n = elem_size == 0 ? 1 : kChunkBytes / elem_size;
  per_chunk_ = n == 0 ? 1 : (n > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(n));
}

int ElementChunks::load(uint32_t first) {
  first_ = end_ = first;
  if (first >= count_ || elem_size_ == 0) return mqs_ok;
  const uint32_t n = count_ - first < per_chunk_ ? count_ - first : per_chunk_;
  const size_t bytes = size_t{n} * elem_size_;
  TargetAddr at;
  if (!base_.offset_by(uint64_t{first} * elem_size_, &at)) {
    set_error_detail(kErrReadFailed, "target array at 0x%llx runs past the address space",
                     static_cast<unsigned long long>(base_.value()));
    return kErrReadFailed;
  }
  if (!buf_.resize(bytes)) return kErrNoMemory;
  const int rc = reader_.read(at, bytes, buf_.data());
  if (rc != mqs_ok) return rc;
  end_ = first + n;
  return mqs_ok;
}

Decoder ElementChunks::element(uint32_t i) const {
  if (i < first_ || i >= end_) return Decoder(buf_.data(), 0, reader_.format().swap);
  return Decoder(buf_.data() + size_t{i - first_} * elem_size_, elem_size_, reader_.format().swap);
}

}  // namespace mpidbg::plugin
