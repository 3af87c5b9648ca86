// iteration_bench.cc — how long a debugger's full message-queue walk takes on a big
// process, and how much it reads.
//
// A fake 8-byte little-endian target holds N pending requests spread over N/10
// communicators (4 ranks each). One "walk" is what a debugger does at a stop:
// mqs_update_communicator_list, then for every communicator mqs_get_communicator,
// mqs_get_comm_group and the pending-send and pending-receive iterators to the end.
// The program walks the base size and ten times the base size (cold: first walk after
// the stop; warm: a second walk with nothing changed) and prints one JSON object:
//   {"base":{"requests":..,"comms":..,"cold_s":..,"warm_s":..,"reads":..,"bytes":..},
//    "x10":{...},"time_ratio_x10":..}
// Targets: base cold walk under 0.5 s; ten times the work within twelve times the time.
//
// Usage: mpidbg_plugin_iteration_bench [BASE_REQUESTS]   (default 100000)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "fake_target.h"
#include "plugin_api.h"
#include "scenario.h"
#include "test_kinds.h"

namespace mpidbg::test {
namespace {

struct WalkFigures {
  long requests = 0;
  long comms = 0;
  double cold_s = 0;
  double warm_s = 0;
  uint64_t cold_reads = 0;
  uint64_t cold_bytes = 0;
  uint64_t warm_reads = 0;
  long operations_seen = 0;
};

// The process a debugger stops at: `requests` pending operations round-robin over
// `comms` communicators, alternating sends and receives.
std::unique_ptr<FakeTarget> build_target(long requests, long comms, uint64_t* root_addr) {
  const TargetKind kind = kTargetKinds[0];  // 8-byte pointers, little endian
  auto target = std::make_unique<FakeTarget>(kind.pointer_size, kind.big_endian);
  ImageBuilder::Options options;
  options.slab_capacity = 256;
  ImageBuilder builder(target.get(), base_address(kind), options);
  builder.root.handle_size = 4;
  builder.root.flavour = MPIDBG_FLAVOUR_MPICH;
  builder.root.process_state = MPIDBG_PROCESS_RUNNING;
  builder.root.world_rank = 1;
  builder.root.world_size = 4;
  builder.root.generation = 7;
  const uint64_t ranks = builder.add_int32_array({0, 1, 2, 3});
  for (long c = 0; c < comms; ++c) {
    char name[32];
    std::snprintf(name, sizeof name, "comm %ld", c);
    builder.add_comm(make_comm(0x84000000u + c, 0x10000u + c, 1, 4, ranks, c + 1, name));
  }
  for (long r = 0; r < requests; ++r) {
    const long c = r % comms;
    const bool send = r % 2 == 0;
    mpidbg_operation_record op = make_op(send ? MPIDBG_CALL_MPI_Isend : MPIDBG_CALL_MPI_Irecv,
                                  send ? MPIDBG_OPERATION_SEND : MPIDBG_OPERATION_RECV, 0x84000000u + c,
                                  0x10000u + c, r + 1, static_cast<int32_t>(r % 4),
                                  static_cast<int32_t>(r % 4), static_cast<int32_t>(r % 100));
    op.request = 0xac000000u + r;
    op.count = 8;
    op.bytes = 64;
    builder.add_op(op);
  }
  builder.commit();
  *root_addr = builder.root_addr();
  return target;
}

// One debugger walk; returns the operations seen, or -1 when a call failed.
long walk(const PluginApi& p, mqs_process* process) {
  if (p.mqs_update_communicator_list(process) != mqs_ok) return -1;
  if (p.mqs_setup_communicator_iterator(process) != mqs_ok) return -1;
  long seen = 0;
  std::vector<int> group;
  for (;;) {
    mqs_communicator comm{};
    if (p.mqs_get_communicator(process, &comm) != mqs_ok) return -1;
    group.assign(static_cast<size_t>(comm.size > 0 ? comm.size : 1), 0);
    p.mqs_get_comm_group(process, group.data());
    for (int op_class : {mqs_pending_sends, mqs_pending_receives}) {
      if (p.mqs_setup_operation_iterator(process, op_class) != mqs_ok) return -1;
      mqs_pending_operation op;
      while (p.mqs_next_operation(process, &op) == mqs_ok) ++seen;
    }
    const int rc = p.mqs_next_communicator(process);
    if (rc == mqs_end_of_list) break;
    if (rc != mqs_ok) return -1;
  }
  return seen;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool measure(long requests, WalkFigures* out) {
  out->requests = requests;
  out->comms = requests / 10 > 0 ? requests / 10 : 1;
  uint64_t root = 0;
  std::unique_ptr<FakeTarget> target = build_target(requests, out->comms, &root);
  const PluginApi& p = plugin();
  FakeDebugger debugger(target.get());
  p.mqs_setup_basic_callbacks(FakeDebugger::basic_callbacks());
  if (p.mqs_setup_image(debugger.image(), FakeDebugger::image_callbacks()) != mqs_ok ||
      p.mqs_setup_process(debugger.process(), FakeDebugger::process_callbacks()) != mqs_ok) {
    std::fprintf(stderr, "set-up failed\n");
    return false;
  }
  char* message = nullptr;
  if (p.mqs_process_has_queues(debugger.process(), &message) != mqs_ok) {
    std::fprintf(stderr, "no queues: %s\n", message != nullptr ? message : "");
    return false;
  }
  target->reads = target->bytes_read = 0;
  auto start = std::chrono::steady_clock::now();
  out->operations_seen = walk(p, debugger.process());
  out->cold_s = seconds_since(start);
  out->cold_reads = target->reads;
  out->cold_bytes = target->bytes_read;
  target->reads = 0;
  start = std::chrono::steady_clock::now();
  const long again = walk(p, debugger.process());
  out->warm_s = seconds_since(start);
  out->warm_reads = target->reads;
  p.mqs_destroy_process_info(debugger.process_info);
  p.mqs_destroy_image_info(debugger.image_info);
  if (out->operations_seen != requests || again != requests) {
    std::fprintf(stderr, "walk saw %ld then %ld operations of %ld\n", out->operations_seen,
                 again, requests);
    return false;
  }
  return true;
}

void print(const char* key, const WalkFigures& f) {
  std::printf(
      "\"%s\":{\"requests\":%ld,\"comms\":%ld,\"cold_s\":%.4f,\"warm_s\":%.4f,"
      "\"reads\":%llu,\"bytes\":%llu,\"warm_reads\":%llu}",
      key, f.requests, f.comms, f.cold_s, f.warm_s,
      static_cast<unsigned long long>(f.cold_reads),
      static_cast<unsigned long long>(f.cold_bytes),
      static_cast<unsigned long long>(f.warm_reads));
}

}  // namespace
}  // namespace mpidbg::test

int main(int argc, char** argv) {
  using namespace mpidbg::test;
  const long base = argc > 1 ? std::atol(argv[1]) : 100000;
  if (base < 10) {
    std::fprintf(stderr, "usage: %s [BASE_REQUESTS >= 10]\n", argv[0]);
    return 2;
  }
  WalkFigures small, large;
  if (!measure(base, &small) || !measure(base * 10, &large)) return 1;
  std::printf("{");
  print("base", small);
  std::printf(",");
  print("x10", large);
  std::printf(",\"time_ratio_x10\":%.2f}\n", small.cold_s > 0 ? large.cold_s / small.cold_s : 0.0);
  return 0;
}
