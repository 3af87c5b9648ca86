// profile_pack.h — one rank's sampling results as bytes, symbolised on that rank, as
// MPI_Finalize sends them to world rank 0 (rt/profile/profile_report.cc), and the validating
// view rank 0 reads them through. MPI-free (unit-tested).
//
// Layout: header | functions[function_count] | sites[site_count] | string pool
// (pool_size bytes, NUL-terminated strings; site module and symbol are offsets into it).
#ifndef MPIDBG_RT_PROFILE_PACK_H
#define MPIDBG_RT_PROFILE_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "rt/grow_buffer.h"

namespace mpidbg::rt {

constexpr uint32_t kProfilePackMagic = 0x6d707066;  // "mppf"
constexpr uint32_t kProfileNoString = UINT32_MAX;
// Bounds a receiver accepts (a sender never exceeds them: its site table has 4096
// entries and its strings are cut to kProfileMaxString).
constexpr uint32_t kProfileMaxPackedSites = 1u << 16;
constexpr uint32_t kProfileMaxString = 1024;
constexpr uint64_t kProfileMaxPackBytes = 64u << 20;

struct ProfileRankHeader {
  uint32_t magic;
  uint32_t size;  // sizeof(ProfileRankHeader)
  int32_t rank;
  int32_t pid;
  int32_t signal;
  int32_t clock;
  int64_t period_ns;
  int64_t start_time_ns;
  int64_t stop_time_ns;
  uint64_t samples[3];
  uint64_t lost;
  uint64_t threads;
  uint32_t function_count;
  uint32_t site_count;
  uint32_t pool_size;
  int32_t sampled;  // 1 when sampling ran on the rank
  char host[64];
};

struct ProfilePackedFunction {
  int32_t call;
  uint32_t reserved;
  uint64_t working;
  uint64_t blocked;
};

struct ProfilePackedSite {
  int32_t call;
  uint32_t module;  // pool offset
  uint32_t symbol;  // pool offset or kProfileNoString
  uint32_t reserved;
  uint64_t address; // in the sending process
  uint64_t offset;  // from the module's load base
  uint64_t working;
  uint64_t blocked;
};

// Collects one rank's results, then serialises them.
class ProfilePackBuilder {
 public:
  ProfileRankHeader header = {};
  bool AddFunction(int32_t call, uint64_t working, uint64_t blocked);
  // symbol may be nullptr; strings longer than kProfileMaxString - 1 bytes are cut.
  bool AddSite(int32_t call, uint64_t address, const char* module, uint64_t offset,
               const char* symbol, uint64_t working, uint64_t blocked);
  // The bytes to send; false when memory ran out.
  bool Finish(GrowBuffer<unsigned char>* out);

 private:
  uint32_t AddString(const char* s);
  GrowBuffer<ProfilePackedFunction> functions_;
  GrowBuffer<ProfilePackedSite> sites_;
  GrowBuffer<char> pool_;
  bool ok_ = true;
};

// A received rank's results. Valid while the bytes it was made from are.
struct ProfileRankView {
  ProfileRankHeader header;
  const ProfilePackedFunction* functions;
  const ProfilePackedSite* sites;
  const char* pool;
  uint32_t pool_size;
  // The string at a pool offset; nullptr for kProfileNoString (or a bad offset).
  const char* String(uint32_t offset) const {
    return offset < pool_size ? pool + offset : nullptr;
  }
};

// Checks the bytes (magic, sizes, counts, every string offset, the pool's final NUL)
// and fills `out`; false if anything is wrong. `data` must be 8-byte aligned.
bool UnpackRank(const void* data, size_t size, ProfileRankView* out);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_PROFILE_PACK_H
