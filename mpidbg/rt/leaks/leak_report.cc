// leak_report.cc — see leak_report.h.
#include "rt/leaks/leak_report.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "mpidbg/call_ids.h"
#include "rt/leaks/leak_count.h"
#include "rt/process/registry.h"
#include "rt/report/job_file_name.h"
#include "rt/report/json_writer.h"
#include "rt/report/report_file.h"

namespace mpidbg::rt {
namespace {

// One (kind, creating call) with leaks, summed over the job.
struct LeakLine {
  int kind;
  int call;
  uint64_t count;  // objects (requests) over all ranks
  uint64_t ranks;  // ranks holding at least one
};

int ByCountThenKind(const void* a, const void* b) {
  const auto* x = static_cast<const LeakLine*>(a);
  const auto* y = static_cast<const LeakLine*>(b);
  if (x->count != y->count) return x->count > y->count ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  return x->call < y->call ? -1 : (x->call > y->call);
}

const char* CallText(int call) {
  const char* name = mpidbg_call_name(call);
  return name != nullptr ? name : "an unknown call";
}

void PrintReport(const LeakLine* lines, size_t n, uint64_t total, int world_size,
                 const char* path, bool written) {
  if (n == 0) {
    fprintf(stderr, "mpidbg: at MPI_Finalize every MPI object and request the program made "
                    "was freed (%d rank%s)\n", world_size, world_size == 1 ? "" : "s");
  } else {
    fprintf(stderr, "mpidbg: at MPI_Finalize %llu MPI object%s and request%s were never freed "
                    "(%d rank%s):\n", static_cast<unsigned long long>(total),
            total == 1 ? "" : "s", total == 1 ? "" : "s", world_size, world_size == 1 ? "" : "s");
    for (size_t i = 0; i < n; ++i) {
      fprintf(stderr, "  %8llu %-10s made by %s, on %llu rank%s\n",
              static_cast<unsigned long long>(lines[i].count), LeakKindName(lines[i].kind),
              CallText(lines[i].call), static_cast<unsigned long long>(lines[i].ranks),
              lines[i].ranks == 1 ? "" : "s");
    }
  }
  if (written) {
    fprintf(stderr, "mpidbg: leak report written to %s\n", path);
  } else {
    fprintf(stderr, "mpidbg: leak report not written to %s: %s\n", path, strerror(errno));
  }
}

bool WriteJson(const char* path, const LeakLine* lines, size_t n, uint64_t total,
               int world_size, double seconds) {
  JsonWriter w;
  w.BeginObject();
  w.Key("schema");
  w.String("mpidbg.leaks/1");
  w.Key("source");
  w.String("finalize");
  w.Key("ranks");
  w.Int(world_size);
  w.Key("total");
  w.Uint(total);
  w.Key("report_seconds");
  w.Fixed(seconds, 6);
  w.Key("leaks");
  w.BeginArray();
  for (size_t i = 0; i < n; ++i) {
    w.BeginObject(/*inline_items=*/true);
    w.Key("kind");
    w.String(LeakKindName(lines[i].kind));
    w.Key("creator");
    w.String(mpidbg_call_name(lines[i].call));
    w.Key("count");
    w.Uint(lines[i].count);
    w.Key("ranks");
    w.Uint(lines[i].ranks);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  if (!w.ok()) {
    errno = ENOMEM;
    return false;
  }
  return WriteReportFile(path, w.Text(), w.Size());
}

}  // namespace

void LeaksBeforeFinalize() {
  const char* value = getenv("MPIDBG_LEAKS");
  if (value == nullptr || value[0] == '\0' || strcmp(value, "0") == 0) return;
  const int64_t start = core::ClockNs(CLOCK_MONOTONIC);
  // Two halves: the counts, then 1 where this rank has any, so one reduction gives
  // both the job's counts and how many ranks hold each.
  auto* mine = static_cast<uint64_t*>(calloc(2 * kLeakSlots, sizeof(uint64_t)));
  auto* job = static_cast<uint64_t*>(calloc(2 * kLeakSlots, sizeof(uint64_t)));
  if (mine != nullptr) {
    CountLeaks(mpidbg_runtime_root, mine);
    for (size_t i = 0; i < kLeakSlots; ++i) mine[kLeakSlots + i] = mine[i] != 0;
  }
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  const bool ok = mine != nullptr && job != nullptr;
  int all_ok = ok ? 1 : 0;
  // Whether every rank has its buffers, agreed first: a rank without them cannot take
  // part in a reduction of this size.
  const int64_t counted = core::ClockNs(CLOCK_MONOTONIC);
  PMPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  // The report's own time leaves out the wait in that first reduction for ranks still
  // busy before MPI_Finalize.
  const int64_t together = core::ClockNs(CLOCK_MONOTONIC);
  if (all_ok == 1) {
    PMPI_Reduce(mine, job, static_cast<int>(2 * kLeakSlots), MPI_UINT64_T, MPI_SUM, 0,
                MPI_COMM_WORLD);
  }
  if (rank == 0) {
    if (all_ok != 1) {
      fprintf(stderr, "mpidbg: no leak report: a rank ran out of memory for it\n");
    } else {
      LeakLine* lines = static_cast<LeakLine*>(calloc(kLeakSlots, sizeof(LeakLine)));
      size_t n = 0;
      uint64_t total = 0;
      for (size_t i = 0; lines != nullptr && i < kLeakSlots; ++i) {
        if (job[i] == 0) continue;
        lines[n++] = LeakLine{static_cast<int>(i / MPIDBG_CALL_ID_LIMIT),
                              static_cast<int>(i % MPIDBG_CALL_ID_LIMIT), job[i],
                              job[kLeakSlots + i]};
        total += job[i];
      }
      if (lines != nullptr) {
        qsort(lines, n, sizeof *lines, ByCountThenKind);
        char path[1024];
        if (strcmp(value, "1") == 0) {
          JobFileName("leaks", path, sizeof path);
        } else {
          snprintf(path, sizeof path, "%s", value);
        }
        const double seconds =
            static_cast<double>((counted - start) + (core::ClockNs(CLOCK_MONOTONIC) - together)) * 1e-9;
        const bool written = WriteJson(path, lines, n, total, size, seconds);
        PrintReport(lines, n, total, size, path, written);
      }
      free(lines);
    }
  }
  free(mine);
  free(job);
}

}  // namespace mpidbg::rt
