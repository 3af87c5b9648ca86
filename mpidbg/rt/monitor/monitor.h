// monitor.h — communication monitoring (records.h: mpidbg_monitor; runtime_api.h's
// mpidbg_monitor_* functions; mpidbg/doc/monitoring.md): what this process sent to and
// received from each MPI_COMM_WORLD rank, its collectives by kind, its file I/O by file
// name, counted above PMPI while monitoring is active.
//
// HOT PATH: when monitoring is off every counting site costs one predictable branch on
// g_monitor_hot.on (MonitorOn()). When it is on: no lock, no allocation, no system call;
// plain adds below MPI_THREAD_MULTIPLE, relaxed atomic adds under it. The block and its
// arrays are allocated once, at the first start, and never move or go away, so a
// counter address once read stays valid.
//
// Files: monitor.cc (the block, start/stop/reset, the read functions, MPIDBG_MONITOR at
// MPI_Init), monitor_coll.cc (collective byte rules), monitor_rma.cc (one-sided
// targets), monitor_files.cc (the file-name table). Point-to-point sends and receives
// are counted from rt/hot/traffic.h (CountSend, CountReceived).
//
// The output side (monitor_output.cc, monitor_mpit.*) uses the exported C functions of
// runtime_api.h (mpidbg_monitor_read_peer/_collective/_file, mpidbg_monitor_active) and
// the block root.monitor points at (MonitorBlock() below gives it without the cast); it
// owns the block's mpit_* fields and needs nothing else from here.
#ifndef MPIDBG_RT_MONITOR_H
#define MPIDBG_RT_MONITOR_H

#include <mpi.h>
#include <stdint.h>

#include "core/concurrency.h"
#include "core/inline.h"
#include "mpidbg/records.h"

namespace mpidbg::rt {

struct ThreadState;
struct CollArgs;
struct RmaArgs;
struct FileIoArgs;

// What the inline counting sites read (monitor.cc owns it). `peers` and `world_size`
// are set once, before `on` is first set; `on` is true exactly while counting.
struct MonitorHot {
  bool on;
  mpidbg_monitor_peer* peers;  // the accumulated peer array, world_size elements
  int32_t world_size;
};
extern MonitorHot g_monitor_hot;

// The one branch every counting site takes when monitoring is off.
MPIDBG_ALWAYS_INLINE bool MonitorOn() {
  return __builtin_expect(__atomic_load_n(&g_monitor_hot.on, __ATOMIC_RELAXED), 0);
}

// records.h: bucket 0 holds 0 bytes, bucket k (1..64) holds [2^(k-1), 2^k).
MPIDBG_ALWAYS_INLINE uint32_t MonitorBucket(uint64_t bytes) {
  return bytes == 0 ? 0u : 64u - static_cast<uint32_t>(__builtin_clzll(bytes));
}

// The accumulated counters of world rank `world`, or nullptr when it is not a rank of
// MPI_COMM_WORLD (MPIDBG_RANK_UNKNOWN: a process outside it, or not translatable).
MPIDBG_ALWAYS_INLINE mpidbg_monitor_peer* MonitorPeer(int32_t world) {
  mpidbg_monitor_peer* peers = __atomic_load_n(&g_monitor_hot.peers, __ATOMIC_ACQUIRE);
  if (peers == nullptr || world < 0 || world >= g_monitor_hot.world_size) return nullptr;
  return &peers[world];
}

MPIDBG_ALWAYS_INLINE uint64_t MonitorBytes(int64_t bytes) {
  return bytes > 0 ? static_cast<uint64_t>(bytes) : 0;
}

// A user point-to-point send posted to `peer_world` (call only when MonitorOn()).
MPIDBG_ALWAYS_INLINE void MonitorSend(int32_t peer_world, int64_t bytes) {
  mpidbg_monitor_peer* p = MonitorPeer(peer_world);
  if (p == nullptr) return;
  const uint64_t b = MonitorBytes(bytes);
  const bool concurrent = core::Concurrent();
  core::CounterAdd(&p->sent_messages, uint64_t{1}, concurrent);
  core::CounterAdd(&p->sent_bytes, b, concurrent);
  core::CounterAdd(&p->sent_histogram[MonitorBucket(b)], uint64_t{1}, concurrent);
}

// A user point-to-point receive completed from `peer_world` (call only when MonitorOn()).
MPIDBG_ALWAYS_INLINE void MonitorReceive(int32_t peer_world, int64_t bytes) {
  mpidbg_monitor_peer* p = MonitorPeer(peer_world);
  if (p == nullptr) return;
  const bool concurrent = core::Concurrent();
  core::CounterAdd(&p->received_messages, uint64_t{1}, concurrent);
  core::CounterAdd(&p->received_bytes, MonitorBytes(bytes), concurrent);
}

// The world rank of communicator rank `source` of the communicator with `job_id`, when
// the receive's posted source was another rank (a wildcard receive) and no traffic
// entry already knows it: a lookup of the communicator by handle (monitor_rma.cc).
int32_t MonitorSourceWorld(uint64_t comm_handle, uint64_t job_id, int32_t source);

// Out of line, called only when MonitorOn() and the call succeeded:
// a collective posted (blocking, or a nonblocking post) — monitor_coll.cc;
void MonitorCollective(ThreadState* ts, int32_t call, const CollArgs& args);
// a one-sided Put/Get/Accumulate-family call (or its request form) — monitor_rma.cc;
void MonitorRma(ThreadState* ts, int32_t call, const RmaArgs& args);
// MPI_File_open of `name`, and a read or write call on a file — monitor_files.cc.
void MonitorFileOpened(const char* name);
void MonitorFileIo(ThreadState* ts, int32_t call, const FileIoArgs& args);

// The block (monitor.cc); its arrays exist once MonitorBlockReady() is true.
mpidbg_monitor& MonitorBlock();
bool MonitorBlockReady();

// The file-name table over the block's accumulated file array (monitor_files.cc):
// set up once by monitor.cc when the block is made; `hashes` has `capacity` words.
void MonitorFilesInit(mpidbg_monitor_file* files, uint64_t* hashes, uint32_t capacity);
// Entries claimed so far (at most capacity).
uint32_t MonitorFilesUsed();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_MONITOR_H
