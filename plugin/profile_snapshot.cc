// profile_snapshot.cc — see profile_snapshot.h.
#include "plugin/profile_snapshot.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "plugin/element_chunks.h"
#include "plugin/errors.h"

namespace mpidbg::plugin {
namespace {

// A block must reach the site array's address; site_count after it is informational.
constexpr uint32_t kMinBlock = offsetof(mpidbg_profile, sites) + sizeof(uint64_t);
constexpr uint32_t kMinFunction = sizeof(mpidbg_profile_function);
constexpr uint32_t kMinSite = sizeof(mpidbg_profile_site);

void decode_header(const Decoder& d, mpidbg_profile* out) {
  std::memset(out, 0, sizeof *out);
#define PROF(field, getter) out->field = d.getter(offsetof(mpidbg_profile, field))
  PROF(size, u32);
  PROF(site_size, u32);
  PROF(function_size, u32);
  PROF(active, i32);
  PROF(period_ns, i64);
  PROF(signal, i32);
  PROF(clock, i32);
  PROF(start_time_ns, i64);
  PROF(stop_time_ns, i64);
  PROF(lost, u64);
  PROF(threads, u64);
  PROF(functions, u64);
  PROF(function_count, u32);
  PROF(site_capacity, u32);
  PROF(sites, u64);
  PROF(site_count, u64);
#undef PROF
  for (int s = 0; s < 3; ++s) {
    out->samples[s] = d.u64(offsetof(mpidbg_profile, samples) + 8 * static_cast<size_t>(s));
  }
}

void decode_site(const Decoder& d, mpidbg_profile_site* out) {
  out->state = d.u32(offsetof(mpidbg_profile_site, state));
  out->call = d.i32(offsetof(mpidbg_profile_site, call));
  out->address = d.u64(offsetof(mpidbg_profile_site, address));
  out->working = d.u64(offsetof(mpidbg_profile_site, working));
  out->blocked = d.u64(offsetof(mpidbg_profile_site, blocked));
}

int damaged(const char* what, unsigned long long value) {
  set_error_detail(kErrMetadataDamaged,
                   "the runtime's sampling block is damaged: %s %llu is implausible", what, value);
  return kErrMetadataDamaged;
}

bool element_size_ok(uint32_t size, uint32_t min, const ProfileLimits& limits) {
  return size >= min && size <= limits.max_element_size && size % 8 == 0;
}

int check_header(const mpidbg_profile& h, const ProfileLimits& limits) {
  if (h.function_count > limits.max_functions) {
    return damaged("function count", h.function_count);
  }
  if (h.function_count > 0) {
    if (!element_size_ok(h.function_size, kMinFunction, limits)) {
      return damaged("function element size", h.function_size);
    }
    if (h.functions == 0) return damaged("function array address", 0);
  }
  // The runtime sizes its open-addressing table as a power of two.
  if (h.site_capacity > limits.max_sites || (h.site_capacity & (h.site_capacity - 1)) != 0) {
    return damaged("site capacity", h.site_capacity);
  }
  if (h.site_capacity > 0) {
    if (!element_size_ok(h.site_size, kMinSite, limits)) {
      return damaged("site element size", h.site_size);
    }
    if (h.sites == 0) return damaged("site array address", 0);
  }
  return mqs_ok;
}

int read_header(TargetReader& reader, TargetAddr block, const ProfileLimits& limits,
                mpidbg_profile* out) {
  uint32_t written = 0;
  int rc = reader.read_u32(block, &written);
  if (rc != mqs_ok) return rc;
  if (written < kMinBlock || written > limits.max_block_size) {
    return damaged("block size", written);
  }
  uint8_t raw[sizeof(mpidbg_profile)];
  const size_t len = written < sizeof raw ? written : sizeof raw;
  rc = reader.read(block, len, raw);
  if (rc != mqs_ok) return rc;
  decode_header(Decoder(raw, len, reader.format().swap), out);
  return check_header(*out, limits);
}

int read_functions(TargetReader& reader, const mpidbg_profile& h, ProfileSnapshot* out) {
  ElementChunks fns(reader, TargetAddr(h.functions), h.function_count, h.function_size);
  for (uint32_t first = 0; first < h.function_count; first += fns.per_chunk()) {
    const int rc = fns.load(first);
    if (rc != mqs_ok) return rc;
    for (uint32_t i = first; i < fns.loaded_end(); ++i) {
      const Decoder d = fns.element(i);
      ProfileFunction f;
      std::memset(&f, 0, sizeof f);
      f.call = static_cast<int32_t>(i);
      f.working = d.u64(offsetof(mpidbg_profile_function, working));
      f.blocked = d.u64(offsetof(mpidbg_profile_function, blocked));
      if (f.working == 0 && f.blocked == 0) continue;
      if (!out->functions.push_back(f)) return kErrNoMemory;
    }
  }
  return mqs_ok;
}

// Samples of a site, saturating (garbage must not wrap the order around).
uint64_t samples(const mpidbg_profile_site& s) {
  return s.working > UINT64_MAX - s.blocked ? UINT64_MAX : s.working + s.blocked;
}

int read_sites(TargetReader& reader, const mpidbg_profile& h, ProfileSnapshot* out) {
  ElementChunks sites(reader, TargetAddr(h.sites), h.site_capacity, h.site_size);
  for (uint32_t first = 0; first < h.site_capacity; first += sites.per_chunk()) {
    const int rc = sites.load(first);
    if (rc != mqs_ok) return rc;
    for (uint32_t i = first; i < sites.loaded_end(); ++i) {
      mpidbg_profile_site s;
      std::memset(&s, 0, sizeof s);
      decode_site(sites.element(i), &s);
      if (s.state != MPIDBG_PROFILE_SITE_READY || samples(s) == 0) continue;
      if (!out->sites.push_back(s)) return kErrNoMemory;
    }
  }
  std::sort(out->sites.begin(), out->sites.end(),
            [](const mpidbg_profile_site& a, const mpidbg_profile_site& b) {
              if (samples(a) != samples(b)) return samples(a) > samples(b);
              if (a.address != b.address) return a.address < b.address;
              return a.call < b.call;
            });
  return mqs_ok;
}

}  // namespace

int decode_profile(TargetReader& reader, TargetAddr block, const ProfileLimits& limits,
                   ProfileSnapshot* out) {
  std::memset(&out->header, 0, sizeof out->header);
  out->functions.clear();
  out->sites.clear();
  if (block.is_null()) return kErrNoMetadata;
  int rc = read_header(reader, block, limits, &out->header);
  if (rc != mqs_ok) return rc;
  rc = read_functions(reader, out->header, out);
  if (rc != mqs_ok) return rc;
  return read_sites(reader, out->header, out);
}

}  // namespace mpidbg::plugin
