// monitor_write.cc — see monitor_write.h.
#include "rt/monitor/monitor_write.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "mpidbg/records.h"
#include "mpidbg/runtime_api.h"
#include "rt/grow_buffer.h"
#include "rt/monitor/monitor_entry.h"
#include "rt/report/json_writer.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {
namespace {

constexpr int kTagGo = 1;     // rank 0 -> rank r: send your entry now
constexpr int kTagSize = 2;   // rank r -> rank 0: the entry's size in bytes
constexpr int kTagPiece = 3;  // rank r -> rank 0: a piece of the entry
// Largest piece of an entry in one message: bounds rank 0's buffer and keeps counts in
// an int.
constexpr int64_t kPieceBytes = int64_t{1} << 24;

const char* FlavourName() {
  return MPIDBG_RT_FLAVOUR == MPIDBG_FLAVOUR_OPENMPI ? "openmpi" : "mpich";
}

MonitorSource ProcessSource(int world_size) {
  uint64_t a = __atomic_load_n(&mpidbg_runtime_root.monitor, __ATOMIC_ACQUIRE);
  return MonitorSource{reinterpret_cast<const mpidbg_monitor*>(static_cast<uintptr_t>(a)),
                       world_size, mpidbg_monitor_read_peer, mpidbg_monitor_read_collective,
                       mpidbg_monitor_read_file};
}

// This rank's entry; false when memory ran out.
bool BuildEntry(int rank, int world_size, int which, JsonWriter* entry) {
  const mpidbg_root& root = mpidbg_runtime_root;
  char host[sizeof root.hostname + 1];
  memcpy(host, root.hostname, sizeof root.hostname);
  host[sizeof root.hostname] = '\0';
  if (host[0] == '\0') gethostname(host, sizeof host - 1);
  RankIdentity who{rank, root.pid != 0 ? root.pid : static_cast<int32_t>(getpid()), host};
  return AppendRankEntry(ProcessSource(world_size), who, which, entry);
}

bool WriteAll(FILE* f, const char* data, size_t size) {
  return size == 0 || fwrite(data, 1, size, f) == size;
}

// Rank 0: the file's opening and its own entry.
bool WriteOpening(FILE* f, int world_size, int which, const JsonWriter& own) {
  const mpidbg_root& root = mpidbg_runtime_root;
  uint64_t launch_address = __atomic_load_n(&root.launch, __ATOMIC_ACQUIRE);
  const auto* launch =
      reinterpret_cast<const mpidbg_launch_info*>(static_cast<uintptr_t>(launch_address));
  JobIdentity job{launch != nullptr ? launch->job_id : nullptr,
                  world_size,
                  FlavourName(),
                  root.mpi_library,
                  core::RealtimeNs(),
                  which};
  JsonWriter opening(JsonLayout::kCompact);
  if (!AppendFileOpening(job, &opening)) return false;
  return WriteAll(f, opening.Data(), opening.Size()) && WriteAll(f, own.Data(), own.Size());
}

// Rank 0: asks rank r for its entry, learns its size (-1: the rank could not build
// it) and copies it into the file piece by piece. The pieces are always received (the
// sender cannot know of a write error).
bool CopyEntry(MPI_Comm comm, int r, FILE* f, GrowBuffer<char>* piece) {
  int go = 1;
  int64_t bytes = -1;
  if (PMPI_Send(&go, 1, MPI_INT, r, kTagGo, comm) != MPI_SUCCESS ||
      PMPI_Recv(&bytes, 1, MPI_INT64_T, r, kTagSize, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
    return false;
  }
  bool ok = bytes >= 0 &&
            WriteAll(f, MonitorEntrySeparator(), strlen(MonitorEntrySeparator()));
  for (int64_t done = 0; done < bytes;) {
    int n = static_cast<int>(bytes - done < kPieceBytes ? bytes - done : kPieceBytes);
    if (!piece->Resize(static_cast<uint32_t>(n))) return false;  // the job is stuck anyway
    if (PMPI_Recv(piece->data(), n, MPI_CHAR, r, kTagPiece, comm, MPI_STATUS_IGNORE) !=
        MPI_SUCCESS) {
      return false;
    }
    ok = ok && WriteAll(f, piece->data(), static_cast<size_t>(n));
    done += n;
  }
  return ok;
}

// Ranks other than 0: waits to be asked, then sends the entry's size and the entry in
// pieces.
bool SendEntry(MPI_Comm comm, const JsonWriter& entry, bool built) {
  int go = 0;
  if (PMPI_Recv(&go, 1, MPI_INT, 0, kTagGo, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) return false;
  int64_t bytes = built ? static_cast<int64_t>(entry.Size()) : -1;
  if (PMPI_Send(&bytes, 1, MPI_INT64_T, 0, kTagSize, comm) != MPI_SUCCESS) return false;
  for (int64_t done = 0; done < bytes;) {
    int n = static_cast<int>(bytes - done < kPieceBytes ? bytes - done : kPieceBytes);
    if (PMPI_Send(entry.Data() + done, n, MPI_CHAR, 0, kTagPiece, comm) != MPI_SUCCESS) {
      return false;
    }
    done += n;
  }
  return true;
}

// Rank 0's part once the temporary file is open: its own entry, then every other
// rank's in rank order, one rank at a time.
bool GatherToFile(MPI_Comm comm, int world_size, int which, const JsonWriter& own, FILE* f) {
  bool ok = WriteOpening(f, world_size, which, own);
  GrowBuffer<char> piece;
  for (int r = 1; r < world_size; ++r) {
    // Every rank is asked even after an error: each one waits for its turn.
    if (!CopyEntry(comm, r, f, &piece)) ok = false;
  }
  return ok && WriteAll(f, MonitorFileClosing(), strlen(MonitorFileClosing()));
}

int Write(const char* path, int which) {
  int initialized = 0, finalized = 0;
  if (PMPI_Initialized(&initialized) != MPI_SUCCESS || !initialized ||
      PMPI_Finalized(&finalized) != MPI_SUCCESS || finalized) {
    return -1;
  }
  if (which != MPIDBG_MONITOR_ACCUMULATED && which != MPIDBG_MONITOR_CURRENT) return -1;
  MPI_Comm comm;
  if (PMPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS) return -1;
  int rank = 0, world_size = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &world_size);

  JsonWriter entry(JsonLayout::kCompact);
  bool built = BuildEntry(rank, world_size, which, &entry);

  // Rank 0 decides whether to go on: its own entry and the temporary file.
  FILE* f = nullptr;
  char* tmp_path = nullptr;
  int proceed = 0;
  if (rank == 0 && built && path != nullptr && path[0] != '\0') {
    size_t len = strlen(path);
    tmp_path = static_cast<char*>(malloc(len + 5));
    if (tmp_path != nullptr) {
      memcpy(tmp_path, path, len);
      memcpy(tmp_path + len, ".tmp", 5);
      f = fopen(tmp_path, "w");
    }
    proceed = f != nullptr;
  }
  PMPI_Bcast(&proceed, 1, MPI_INT, 0, comm);

  int result = -1;
  if (proceed) {
    if (rank == 0) {
      bool ok = GatherToFile(comm, world_size, which, entry, f);
      ok = fflush(f) == 0 && ok;
      ok = fclose(f) == 0 && ok;
      f = nullptr;
      ok = ok && rename(tmp_path, path) == 0;
      if (!ok) unlink(tmp_path);
      result = ok ? 0 : -1;
    } else {
      SendEntry(comm, entry, built);
    }
  }
  free(tmp_path);
  PMPI_Bcast(&result, 1, MPI_INT, 0, comm);
  PMPI_Comm_free(&comm);
  return result;
}

}  // namespace

int WriteMonitorFile(const char* path, int which) { return Write(path, which); }

}  // namespace mpidbg::rt

extern "C" __attribute__((visibility("default"))) int mpidbg_monitor_write(const char* path,
                                                                           int which) {
  return mpidbg::rt::WriteMonitorFile(path, which);
}
