// leaks_of_processes.h — the objects and requests running ranks (or their cores) hold
// and have not freed, from each rank's object listing (snapshot objects), summed over
// the ranks as the runtime's report at MPI_Finalize sums them, and kept apart by
// creation site as well.
#pragma once

#include <vector>

#include "host/leaks/leaks_file.h"
#include "host/model/snapshot.h"

namespace mpidbg::leaks {

// Objects neither predefined nor freed, requests neither completed nor freed, by (kind,
// creating call, creation site), largest count first. `source`: "processes" | "cores".
// Snapshots without a listing (no runtime, an older plugin) count as ranks holding none.
LeakReport LeaksOfSnapshots(const std::vector<model::ProcessSnapshot>& snapshots,
                            const std::string& source);

}  // namespace mpidbg::leaks
