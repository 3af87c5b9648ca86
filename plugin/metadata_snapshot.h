// metadata_snapshot.h — the runtime's process metadata, decoded: the launcher/PMI view
// (mpidbg_launch_info) and the MPI_T catalogue (mpidbg_mpit_catalogue).
//
// Both are read on demand, not with every snapshot: the catalogue can be hundreds of
// kilobytes and a host that shows queues does not need it. The catalogue's own sequence
// counter says whether a refresh was rewriting it; a torn catalogue is read again, then
// refused.
#ifndef MPIDBG_PLUGIN_METADATA_SNAPSHOT_H
#define MPIDBG_PLUGIN_METADATA_SNAPSHOT_H

#include <cstdint>

#include "plugin/debugger_memory.h"
#include "mpidbg/records.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

struct MetadataLimits {
  uint32_t max_vars = 1u << 16;           // cvars, pvars, categories each
  uint32_t max_members = 1u << 20;        // category member indices
  uint32_t max_string_bytes = 16u << 20;  // the string pool
  int torn_retries = 3;
};

// kErrNoMetadata when root.launch is 0 (before MPI_Init, or an older runtime).
int decode_launch_info(TargetReader& reader, const mpidbg_root& root, mpidbg_launch_info* out);

struct MpitSnapshot {
  mpidbg_mpit_catalogue header{};
  Vec<mpidbg_mpit_cvar> cvars;
  Vec<mpidbg_mpit_pvar> pvars;
  Vec<mpidbg_mpit_category> categories;
  Vec<int32_t> members;
  Vec<char> strings;  // NUL-terminated at the end even if the target's pool is not

  // The string at `offset` in the pool, "" for MPIDBG_MPIT_NO_STRING or a bad offset.
  const char* string_at(uint32_t offset) const;
};

// kErrNoMetadata when root.mpit is 0.
int decode_mpit(TargetReader& reader, const mpidbg_root& root, const MetadataLimits& limits,
                MpitSnapshot* out);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_METADATA_SNAPSHOT_H
