// profile_snapshot.h — the runtime's MPI-state sampling counters (records.h,
// mpidbg_profile), decoded.
//
// The counters grow with every sample without moving the root's generation, so each
// mpidbg_profile_read reads them afresh. Kept: the functions with samples, in call-id
// order, and the READY call sites with samples, most samples (working + blocked) first,
// ties by address. Counters only grow and each is one 64-bit word, so a read racing the
// signal handler sees old values, never torn ones; a site still CLAIMED is left out.
#ifndef MPIDBG_PLUGIN_PROFILE_SNAPSHOT_H
#define MPIDBG_PLUGIN_PROFILE_SNAPSHOT_H

#include <cstdint>

#include "plugin/debugger_memory.h"
#include "mpidbg/records.h"
#include "plugin/target_addr.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

struct ProfileLimits {
  uint32_t max_functions = 1u << 12;     // function_count (call ids)
  uint32_t max_sites = 1u << 20;         // site_capacity
  uint32_t max_block_size = 1u << 16;    // bytes of the block as written
  uint32_t max_element_size = 1u << 12;  // bytes of one function or site as written
};

struct ProfileFunction {
  int32_t call;  // enum mpidbg_call_id
  int32_t reserved;
  uint64_t working;
  uint64_t blocked;
};

struct ProfileSnapshot {
  mpidbg_profile header{};
  Vec<ProfileFunction> functions;  // samples > 0, by call id
  Vec<mpidbg_profile_site> sites;  // READY with samples > 0, most samples first
};

// Reads the block at `block` (root.profile). kErrNoMetadata when `block` is 0;
// kErrMetadataDamaged (with a detail) for implausible sizes and counts; the reader's
// error when an array cannot be read.
int decode_profile(TargetReader& reader, TargetAddr block, const ProfileLimits& limits,
                   ProfileSnapshot* out);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_PROFILE_SNAPSHOT_H
