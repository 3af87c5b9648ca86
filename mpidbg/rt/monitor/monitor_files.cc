// monitor_files.cc — file I/O counted by file name (records.h: mpidbg_monitor_file).
//
// The table is the block's accumulated file array, filled from index 0 upwards so a
// reader stops at the first entry that is not READY. A name is found by its hash (a
// private array beside the block) and then compared; a new name claims the next index
// lock-free: the claimer moves `g_next` from n to n+1 by compare-and-swap after it has
// compared every entry below n, so two threads opening the same new name never both
// claim it (the loser rescans and finds the winner's entry). An entry is CLAIMED while
// its name is written and READY (release) after. Past capacity, calls are counted in
// files_dropped. No lock, no allocation, no system call.
#include <mpi.h>
#include <string.h>

#include "core/concurrency.h"
#include "core/record_write.h"
#include "mpidbg/call_ids.h"
#include "rt/handle_widening.h"
#include "rt/hot/hook_args_files.h"
#include "rt/monitor/monitor.h"
#include "rt/process/registry.h"
#include "rt/hot/type_cache.h"

namespace mpidbg::rt {
namespace {

mpidbg_monitor_file* g_table = nullptr;
uint64_t* g_hashes = nullptr;
uint32_t g_capacity = 0;
uint32_t g_next = 0;  // entries claimed (the next free index)

constexpr uint32_t kNameBytes = sizeof(mpidbg_monitor_file::name);

// FNV-1a over the name as the table stores it (at most kNameBytes - 1 characters);
// never 0, so 0 marks "not yet hashed".
uint64_t NameHash(const char* name) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  for (uint32_t i = 0; i + 1 < kNameBytes && name[i] != '\0'; ++i) {
    h ^= static_cast<unsigned char>(name[i]);
    h *= UINT64_C(0x100000001b3);
  }
  return h == 0 ? 1 : h;
}

bool SameName(const char* stored, const char* name) {
  return strncmp(stored, name, kNameBytes - 1) == 0;
}

void Pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Waits out another thread's fill of entry i (a name copy).
void WaitReady(uint32_t i) {
  while (__atomic_load_n(&g_table[i].state, __ATOMIC_ACQUIRE) != MPIDBG_MONITOR_FILE_READY) Pause();
}

// The entry of `name`, claimed if new; nullptr (counted as dropped) when there is no room.
mpidbg_monitor_file* EntryOf(const char* name) {
  const uint64_t hash = NameHash(name);
  uint32_t scanned = 0;
  for (;;) {
    const uint32_t n = __atomic_load_n(&g_next, __ATOMIC_ACQUIRE);
    for (; scanned < n; ++scanned) {
      WaitReady(scanned);
      if (g_hashes[scanned] == hash && SameName(g_table[scanned].name, name)) {
        return &g_table[scanned];
      }
    }
    if (n >= g_capacity) break;
    uint32_t expected = n;
    if (__atomic_compare_exchange_n(&g_next, &expected, n + 1, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
      mpidbg_monitor_file* f = &g_table[n];
      __atomic_store_n(&f->state, MPIDBG_MONITOR_FILE_CLAIMED, __ATOMIC_RELAXED);
      core::CopyName(f->name, kNameBytes, name);
      g_hashes[n] = hash;
      __atomic_store_n(&f->state, MPIDBG_MONITOR_FILE_READY, __ATOMIC_RELEASE);
      return f;
    }
    // Another thread claimed index n first: compare its name too, then try again.
  }
  core::CounterAdd(&MonitorBlock().files_dropped, uint64_t{1});
  return nullptr;
}

bool IsWrite(int32_t call) {
  switch (call) {
    case MPIDBG_CALL_MPI_File_write:
    case MPIDBG_CALL_MPI_File_write_at:
    case MPIDBG_CALL_MPI_File_write_all:
    case MPIDBG_CALL_MPI_File_write_at_all:
    case MPIDBG_CALL_MPI_File_iwrite:
    case MPIDBG_CALL_MPI_File_iwrite_at:
      return true;
    default:
      return false;
  }
}

}  // namespace

void MonitorFilesInit(mpidbg_monitor_file* files, uint64_t* hashes, uint32_t capacity) {
  g_table = files;
  g_hashes = hashes;
  g_capacity = capacity;
}

uint32_t MonitorFilesUsed() {
  const uint32_t n = __atomic_load_n(&g_next, __ATOMIC_ACQUIRE);
  return n < g_capacity ? n : g_capacity;
}

void MonitorFileOpened(const char* name) {
  if (name == nullptr || g_table == nullptr) return;
  mpidbg_monitor_file* f = EntryOf(name);
  if (f != nullptr) core::CounterAdd(&f->opens, uint64_t{1});
}

// The file's name comes from its record (rt/rma_files/file_registry.cc, the name given to
// MPI_File_open), so a file opened before monitoring started is counted too.
void MonitorFileIo(ThreadState* ts, int32_t call, const FileIoArgs& args) {
  if (g_table == nullptr || args.file == MPI_FILE_NULL) return;
  mpidbg_object_head* head = g_files.FindLive(HandleToU64(args.file));
  if (head == nullptr) return;
  mpidbg_monitor_file* f = EntryOf(core::As<mpidbg_file_record>(head)->filename);
  if (f == nullptr) return;
  const int64_t size = args.datatype == MPI_DATATYPE_NULL ? 0 : DatatypeOf(ts, args.datatype).size;
  const uint64_t bytes = MonitorBytes(int64_t{args.count} * size);
  const bool concurrent = core::Concurrent();
  if (IsWrite(call)) {
    core::CounterAdd(&f->write_operations, uint64_t{1}, concurrent);
    core::CounterAdd(&f->write_bytes, bytes, concurrent);
  } else {
    core::CounterAdd(&f->read_operations, uint64_t{1}, concurrent);
    core::CounterAdd(&f->read_bytes, bytes, concurrent);
  }
}

}  // namespace mpidbg::rt
