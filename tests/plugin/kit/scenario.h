// scenario.h — the main test scenario: rank 1 of a 4-rank job with a few communicators,
// pending sends and receives of every kind, and threads blocked in MPI.
#ifndef MPIDBG_TESTS_PLUGIN_SCENARIO_H
#define MPIDBG_TESTS_PLUGIN_SCENARIO_H

#include <cstdint>
#include <memory>

#include "fake_target.h"

namespace mpidbg::test {

// Handles and ids the tests check against.
constexpr uint64_t kWorldHandle = 0x44000000;
constexpr uint64_t kSelfHandle = 0x44000001;
constexpr uint64_t kDupHandle = 0x84000002;
constexpr uint64_t kSplitHandle = 0x84000003;
constexpr uint64_t kInterHandle = 0x84000004;
constexpr uint64_t kFreedBusyHandle = 0x84000005;  // freed, a receive still pending
constexpr uint64_t kFreedIdleHandle = 0x84000006;  // freed, nothing pending: not listed

constexpr uint64_t kWorldJob = 0x1000;
constexpr uint64_t kSelfJob = 0x2001;
constexpr uint64_t kDupJob = 0x3000;
constexpr uint64_t kSplitJob = 0x4000;
constexpr uint64_t kInterJob = 0x5000;
constexpr uint64_t kFreedBusyJob = 0x6000;
constexpr uint64_t kFreedIdleJob = 0x7000;

// Requests as the MPI saw them; the 4-byte ones have the top bit set like MPICH's.
constexpr uint64_t kIsendRequest = 0xac000001;
constexpr uint64_t kIrecvAnyRequest = 0xac000002;
constexpr uint64_t kIbsendRequest = 0xac000003;
constexpr uint64_t kMatchedRequest = 0xac000004;

constexpr uint64_t kBigBytes = (uint64_t{5} << 30) + 12;  // beyond 32 bits

constexpr uint64_t kBlockedRecvTid = 1234;
constexpr uint64_t kWaitallTid = 1240;
constexpr uint64_t kIdleTid = 1250;

struct Scenario {
  std::unique_ptr<FakeTarget> target;
  std::unique_ptr<ImageBuilder> builder;
  uint32_t handle_size = 4;
  uint64_t dup_comm_slot = 0;
  uint64_t dup_op_slot = 0;
  uint64_t blocked_recv_op_slot = 0;
  uint64_t world_ranks = 0;
};

// A fresh target of `kind` holding the scenario, committed. Handles of `handle_size`
// bytes (4 like MPICH, 8 like Open MPI); 8-byte request handles get high bits so that
// truncation would show. `options` lay the image out differently (an older runtime's
// record sizes, slab geometry).
Scenario build_main_scenario(const TargetKind& kind, uint32_t handle_size,
                             const ImageBuilder::Options& options = ImageBuilder::Options());

// A request handle as stored for `handle_size`.
uint64_t request_value(uint64_t base, uint32_t handle_size);

// Where a target of this kind keeps its runtime (above 4 GiB for 8-byte targets).
uint64_t base_address(const TargetKind& kind);

// The MPI_Status layout each MPI publishes in the root (status_* fields): MPICH's 20
// bytes with the count split low/high and the cancelled bit, or Open MPI's source, tag,
// error, cancelled and a size_t count of the target's pointer width.
void set_status_layout(mpidbg_root& r, bool mpich, int pointer_size);

}  // namespace mpidbg::test

#endif  // MPIDBG_TESTS_PLUGIN_SCENARIO_H
