// info_entries.h — the (key, value) pairs of an MPI_Info object in the encoding of
// records.h (mpidbg_info_record.entries: key NUL value NUL ..., sorted by key).
#ifndef MPIDBG_RT_INFO_ENTRIES_H
#define MPIDBG_RT_INFO_ENTRIES_H

#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

// Reads every entry of `info` through MPI (MPI_Info_get_nkeys/get_nthkey/get_valuelen/
// get). *entries gets a malloc'd byte array (empty when there are no keys), *nkeys the
// number of keys. False (and nothing allocated) when MPI refused or memory ran out.
bool ReadInfoEntries(MPI_Info info, mpidbg_array* entries, int32_t* nkeys);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_INFO_ENTRIES_H
