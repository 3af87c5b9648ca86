// profile_pack.cc — see profile_pack.h.
#include "rt/profile/profile_pack.h"

#include <string.h>

namespace mpidbg::rt {

static_assert(sizeof(ProfileRankHeader) % 8 == 0 && sizeof(ProfilePackedFunction) % 8 == 0 &&
                  sizeof(ProfilePackedSite) % 8 == 0,
              "packed parts keep 8-byte alignment");

bool ProfilePackBuilder::AddFunction(int32_t call, uint64_t working, uint64_t blocked) {
  ProfilePackedFunction f = {call, 0, working, blocked};
  ok_ = ok_ && functions_.Push(f);
  return ok_;
}

uint32_t ProfilePackBuilder::AddString(const char* s) {
  if (s == nullptr) return kProfileNoString;
  size_t n = strnlen(s, kProfileMaxString - 1);
  const uint32_t at = pool_.size();
  const char nul = '\0';
  ok_ = ok_ && pool_.Append(s, static_cast<uint32_t>(n)) && pool_.Push(nul);
  return at;
}

bool ProfilePackBuilder::AddSite(int32_t call, uint64_t address, const char* module,
                                 uint64_t offset, const char* symbol, uint64_t working,
                                 uint64_t blocked) {
  ProfilePackedSite s = {};
  s.call = call;
  s.module = AddString(module != nullptr ? module : "");
  s.symbol = AddString(symbol);
  s.address = address;
  s.offset = offset;
  s.working = working;
  s.blocked = blocked;
  ok_ = ok_ && sites_.Push(s);
  return ok_;
}

bool ProfilePackBuilder::Finish(GrowBuffer<unsigned char>* out) {
  if (!ok_) return false;
  header.magic = kProfilePackMagic;
  header.size = sizeof(ProfileRankHeader);
  header.function_count = functions_.size();
  header.site_count = sites_.size();
  // Padded so the next rank's view (or anything after) stays aligned; the pool ends in
  // NUL either way.
  const char nul = '\0';
  while (pool_.size() % 8 != 0 || pool_.size() == 0) {
    if (!pool_.Push(nul)) return false;
  }
  header.pool_size = pool_.size();
  const uint64_t bytes = sizeof header + uint64_t{functions_.size()} * sizeof(ProfilePackedFunction) +
                         uint64_t{sites_.size()} * sizeof(ProfilePackedSite) + pool_.size();
  if (bytes > kProfileMaxPackBytes || !out->Resize(static_cast<uint32_t>(bytes))) return false;
  unsigned char* p = out->data();
  memcpy(p, &header, sizeof header);
  p += sizeof header;
  if (functions_.size() > 0) {
    memcpy(p, functions_.data(), functions_.size() * sizeof(ProfilePackedFunction));
    p += functions_.size() * sizeof(ProfilePackedFunction);
  }
  if (sites_.size() > 0) {
    memcpy(p, sites_.data(), sites_.size() * sizeof(ProfilePackedSite));
    p += sites_.size() * sizeof(ProfilePackedSite);
  }
  memcpy(p, pool_.data(), pool_.size());
  return true;
}

bool UnpackRank(const void* data, size_t size, ProfileRankView* out) {
  if (data == nullptr || size < sizeof(ProfileRankHeader) || size > kProfileMaxPackBytes) return false;
  if (reinterpret_cast<uintptr_t>(data) % 8 != 0) return false;
  ProfileRankHeader h;
  memcpy(&h, data, sizeof h);
  if (h.magic != kProfilePackMagic || h.size != sizeof h) return false;
  if (h.function_count > kProfileMaxPackedSites || h.site_count > kProfileMaxPackedSites) return false;
  const uint64_t need = sizeof h + uint64_t{h.function_count} * sizeof(ProfilePackedFunction) +
                        uint64_t{h.site_count} * sizeof(ProfilePackedSite) + h.pool_size;
  if (need != size || h.pool_size == 0) return false;
  const auto* p = static_cast<const unsigned char*>(data) + sizeof h;
  out->header = h;
  out->header.host[sizeof h.host - 1] = '\0';
  out->functions = reinterpret_cast<const ProfilePackedFunction*>(p);
  p += uint64_t{h.function_count} * sizeof(ProfilePackedFunction);
  out->sites = reinterpret_cast<const ProfilePackedSite*>(p);
  p += uint64_t{h.site_count} * sizeof(ProfilePackedSite);
  out->pool = reinterpret_cast<const char*>(p);
  out->pool_size = h.pool_size;
  if (out->pool[h.pool_size - 1] != '\0') return false;
  for (uint32_t i = 0; i < h.site_count; ++i) {
    const ProfilePackedSite& s = out->sites[i];
    if (s.module >= h.pool_size) return false;
    if (s.symbol != kProfileNoString && s.symbol >= h.pool_size) return false;
  }
  return true;
}

}  // namespace mpidbg::rt
