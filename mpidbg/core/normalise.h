// normalise.h — turning an MPI library's own rank/tag encodings into the normalised
// values of records.h, and communicator ranks into MPI_COMM_WORLD ranks.
#ifndef MPIDBG_CORE_NORMALISE_H
#define MPIDBG_CORE_NORMALISE_H

#include <stdint.h>

#include "core/inline.h"
#include "mpidbg/records.h"

namespace mpidbg::core {

// The library's values of the wildcards (they differ: MPICH's ANY_SOURCE is -2, Open
// MPI's is -1).
struct MpiEncodings {
  int32_t any_source;
  int32_t proc_null;
  int32_t any_tag;
};

MPIDBG_ALWAYS_INLINE int32_t NormaliseRank(int32_t rank, const MpiEncodings& enc) {
  if (rank == enc.any_source) return MPIDBG_RANK_ANY_SOURCE;
  if (rank == enc.proc_null) return MPIDBG_RANK_PROC_NULL;
  if (rank < 0) return MPIDBG_RANK_UNKNOWN;
  return rank;
}

MPIDBG_ALWAYS_INLINE int32_t NormaliseTag(int32_t tag, const MpiEncodings& enc) {
  if (tag == enc.any_tag) return MPIDBG_TAG_ANY;
  return tag;
}

// World rank of a normalised communicator rank, given the communicator's (or, for an
// intercommunicator, the remote group's) world-rank table. Wildcards stay as they are.
MPIDBG_ALWAYS_INLINE int32_t PeerWorldRank(int32_t normalised_rank, const int32_t* world_ranks,
                                           int32_t size) {
  if (normalised_rank < 0) return normalised_rank;
  if (world_ranks == nullptr || normalised_rank >= size) return MPIDBG_RANK_UNKNOWN;
  return world_ranks[normalised_rank];
}

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_NORMALISE_H
