// metadata_snapshot.cc — see metadata_snapshot.h.
#include "plugin/metadata_snapshot.h"

#include <cstddef>
#include <cstring>

#include "plugin/errors.h"
#include "plugin/record_decode.h"

namespace mpidbg::plugin {
namespace {

// Reads an array of `a.count` elements of at least `min_elem` bytes each and decodes
// every element with decode(decoder, &out[i]).
template <typename T, typename DecodeFn>
int read_array(TargetReader& reader, const mpidbg_array& a, uint32_t max_count, size_t min_elem,
               DecodeFn decode, Vec<T>* out) {
  out->clear();
  if (a.count == 0) return mqs_ok;
  if (a.address == 0 || a.count > max_count || a.elem_size < min_elem || a.elem_size > 4096) {
    set_error_detail(kErrMetadataDamaged,
                     "a metadata array is implausible (%u elements of %u bytes at 0x%llx)",
                     a.count, a.elem_size, static_cast<unsigned long long>(a.address));
    return kErrMetadataDamaged;
  }
  if (!out->resize(a.count)) return kErrNoMemory;
  Vec<uint8_t> buf;
  const size_t per_read = TargetReader::kMaxReadBytes / a.elem_size;
  for (size_t first = 0; first < a.count; first += per_read) {
    const size_t n = a.count - first < per_read ? a.count - first : per_read;
    TargetAddr at;
    if (!TargetAddr(a.address).offset_by(uint64_t(first) * a.elem_size, &at)) return kErrReadFailed;
    if (!buf.resize(n * a.elem_size)) return kErrNoMemory;
    const int rc = reader.read(at, n * a.elem_size, buf.data());
    if (rc != mqs_ok) return rc;
    for (size_t i = 0; i < n; ++i) {
      decode(Decoder(buf.data() + i * a.elem_size, a.elem_size, reader.format().swap),
             &(*out)[first + i]);
    }
  }
  return mqs_ok;
}

void decode_i32(const Decoder& d, int32_t* out) { *out = d.i32(0); }

// The string pool, as raw bytes.
int read_strings(TargetReader& reader, const mpidbg_array& a, uint32_t max_bytes, Vec<char>* out) {
  out->clear();
  if (a.count == 0) return mqs_ok;
  if (a.address == 0 || a.count > max_bytes || a.elem_size != 1) {
    set_error_detail(kErrMetadataDamaged, "the MPI_T string pool is implausible (%u bytes at 0x%llx)",
                     a.count, static_cast<unsigned long long>(a.address));
    return kErrMetadataDamaged;
  }
  if (!out->resize(a.count)) return kErrNoMemory;
  for (size_t first = 0; first < a.count; first += TargetReader::kMaxReadBytes) {
    const size_t n = a.count - first < TargetReader::kMaxReadBytes ? a.count - first
                                                                    : TargetReader::kMaxReadBytes;
    TargetAddr at;
    if (!TargetAddr(a.address).offset_by(first, &at)) return kErrReadFailed;
    const int rc = reader.read(at, n, out->data() + first);
    if (rc != mqs_ok) return rc;
  }
  return mqs_ok;
}

int decode_mpit_once(TargetReader& reader, TargetAddr at, const MetadataLimits& limits,
                     MpitSnapshot* out, uint32_t* seq_before) {
  uint8_t raw[sizeof(mpidbg_mpit_catalogue)];
  int rc = reader.read(at, sizeof raw, raw);
  if (rc != mqs_ok) return rc;
  const bool swap = reader.format().swap;
  const uint32_t written = Decoder(raw, sizeof raw, swap).u32(offsetof(mpidbg_mpit_catalogue, size));
  if (written < offsetof(mpidbg_mpit_catalogue, strings) + sizeof(mpidbg_array) ||
      written > (1u << 16)) {
    set_error_detail(kErrMetadataDamaged, "the MPI_T catalogue has an implausible size (%u)",
                     written);
    return kErrMetadataDamaged;
  }
  decode_mpit_header(Decoder(raw, written < sizeof raw ? written : sizeof raw, swap), &out->header);
  *seq_before = out->header.seq;
  if (out->header.seq % 2 != 0) return kErrMetadataDamaged;
  const mpidbg_mpit_catalogue& h = out->header;
  rc = read_array(reader, h.cvars, limits.max_vars,
                  offsetof(mpidbg_mpit_cvar, value_text) + sizeof(uint32_t), decode_mpit_cvar,
                  &out->cvars);
  if (rc != mqs_ok) return rc;
  rc = read_array(reader, h.pvars, limits.max_vars,
                  offsetof(mpidbg_mpit_pvar, flags) + sizeof(uint32_t), decode_mpit_pvar,
                  &out->pvars);
  if (rc != mqs_ok) return rc;
  rc = read_array(reader, h.categories, limits.max_vars,
                  offsetof(mpidbg_mpit_category, first_member) + sizeof(uint32_t),
                  decode_mpit_category, &out->categories);
  if (rc != mqs_ok) return rc;
  rc = read_array(reader, h.members, limits.max_members, sizeof(int32_t), decode_i32,
                  &out->members);
  if (rc != mqs_ok) return rc;
  rc = read_strings(reader, h.strings, limits.max_string_bytes, &out->strings);
  if (rc != mqs_ok) return rc;
  if (!out->strings.push_back('\0')) return kErrNoMemory;
  return mqs_ok;
}

}  // namespace

const char* MpitSnapshot::string_at(uint32_t offset) const {
  if (offset == MPIDBG_MPIT_NO_STRING || offset >= strings.size()) return "";
  return strings.data() + offset;
}

int decode_launch_info(TargetReader& reader, const mpidbg_root& root, mpidbg_launch_info* out) {
  std::memset(out, 0, sizeof *out);
  if (root.launch == 0) return kErrNoMetadata;
  uint8_t raw[sizeof(mpidbg_launch_info)];
  const int rc = reader.read(TargetAddr(root.launch), sizeof raw, raw);
  if (rc != mqs_ok) return rc;
  const bool swap = reader.format().swap;
  const uint32_t written = Decoder(raw, sizeof raw, swap).u32(offsetof(mpidbg_launch_info, size));
  if (written < offsetof(mpidbg_launch_info, job_id) || written > (1u << 16)) {
    set_error_detail(kErrMetadataDamaged, "the launch information has an implausible size (%u)",
                     written);
    return kErrMetadataDamaged;
  }
  decode_launch(Decoder(raw, written < sizeof raw ? written : sizeof raw, swap), out);
  return mqs_ok;
}

int decode_mpit(TargetReader& reader, const mpidbg_root& root, const MetadataLimits& limits,
                MpitSnapshot* out) {
  if (root.mpit == 0) return kErrNoMetadata;
  int rc = kErrMetadataDamaged;
  for (int attempt = 0; attempt <= limits.torn_retries; ++attempt) {
    uint32_t seq_before = 1;
    rc = decode_mpit_once(reader, TargetAddr(root.mpit), limits, out, &seq_before);
    if (rc != mqs_ok && seq_before % 2 == 0) return rc;  // damaged, not torn
    if (rc != mqs_ok) continue;
    // The catalogue must not have been rewritten while its arrays were read.
    uint32_t seq_after = 0;
    TargetAddr seq_at;
    if (!TargetAddr(root.mpit).offset_by(offsetof(mpidbg_mpit_catalogue, seq), &seq_at)) {
      return kErrReadFailed;
    }
    rc = reader.read_u32(seq_at, &seq_after);
    if (rc != mqs_ok) return rc;
    if (seq_after == seq_before) return mqs_ok;
    rc = kErrMetadataDamaged;
  }
  set_error_detail(kErrMetadataDamaged, "the MPI_T catalogue was being rewritten while read");
  return rc;
}

}  // namespace mpidbg::plugin
