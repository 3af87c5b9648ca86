// monitor_entry.h — one rank's element of the "ranks" list of an mpidbg.monitor/1 file
// (docs/OUTPUT.md, last section), and the file's opening and closing text.
//
// The entry is sparse (peers with a non-zero counter only), so it is also what a rank
// sends to world rank 0 when the job's file is written (monitor_write.cc). Counters
// come through a MonitorSource: the runtime's public read functions in the process, a
// hand-made block in unit tests.
#ifndef MPIDBG_RT_MONITOR_ENTRY_H
#define MPIDBG_RT_MONITOR_ENTRY_H

#include <stdint.h>

#include "mpidbg/records.h"
#include "rt/report/json_writer.h"

namespace mpidbg::rt {

struct MonitorSource {
  // The block (header, mpit_* fields), nullptr when monitoring never started here:
  // the entry then says so with zero counters.
  const mpidbg_monitor* block;
  int32_t world_size;
  // runtime_api.h's mpidbg_monitor_read_peer / _read_collective / _read_file.
  int (*read_peer)(int world_rank, int which, mpidbg_monitor_peer* out);
  int (*read_collective)(int kind, int which, mpidbg_monitor_coll* out);
  int (*read_file)(int index, int which, mpidbg_monitor_file* out);
};

struct RankIdentity {
  int32_t rank;
  int32_t pid;
  const char* host;  // may be nullptr
};

// Appends the rank's JSON object (no trailing separator) at depth 0 of `out`, a
// compact writer (JsonLayout::kCompact: the file has no whitespace inside a rank's
// entry). `which` is MPIDBG_MONITOR_ACCUMULATED or MPIDBG_MONITOR_CURRENT. False when
// memory ran out.
bool AppendRankEntry(const MonitorSource& source, const RankIdentity& who, int which,
                     JsonWriter* out);

struct JobIdentity {
  const char* id;           // may be nullptr
  int32_t world_size;
  const char* flavour;      // "mpich", "openmpi"
  const char* mpi_library;  // may be nullptr
  int64_t written_time_ns;
  int which;
};

// `{"schema":...,"job":{...},"ranks":[` and, after the entries (separated by
// MonitorEntrySeparator()), `]}` and a newline.
bool AppendFileOpening(const JobIdentity& job, JsonWriter* out);
const char* MonitorEntrySeparator();
const char* MonitorFileClosing();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_MONITOR_ENTRY_H
