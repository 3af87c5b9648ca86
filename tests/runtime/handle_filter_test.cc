// The runtime's may-contain set of handle values (core/handle_filter.h): no false "no",
// for MPICH-like indices and Open MPI-like addresses, concurrently added to; and few
// false "yes" while it is sparse, which is what makes it worth asking.
#include "core/handle_filter.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace {

using Filter = mpidbg::core::HandleFilter<64>;

TEST(HandleFilter, NeverSaysNoToAnAddedHandle) {
  static Filter f;  // static: as the runtime's, zero-initialised
  EXPECT_FALSE(f.MayContain(0x8c000005));
  f.Add(0x8c000005);
  f.Add(0x7f3a00001240);
  EXPECT_TRUE(f.MayContain(0x8c000005));
  EXPECT_TRUE(f.MayContain(0x7f3a00001240));
  for (uint64_t i = 0; i < 1000; ++i) f.Add(0x8c100000 + i);
  for (uint64_t i = 0; i < 1000; ++i) EXPECT_TRUE(f.MayContain(0x8c100000 + i));
}

TEST(HandleFilter, FewFalseYesWhileSparse) {
  static Filter f;
  for (uint64_t i = 0; i < 64; ++i) f.Add(0x8c000000 + i);             // MPICH indices
  for (uint64_t i = 0; i < 64; ++i) f.Add(0x7f3a00000000 + i * 0x40);  // addresses
  int false_yes = 0;
  for (uint64_t i = 0; i < 10000; ++i) false_yes += f.MayContain(0x8c010000 + i) ? 1 : 0;
  for (uint64_t i = 0; i < 10000; ++i) false_yes += f.MayContain(0x7f3b00000000 + i * 0x40);
  // 128 of 4096 bits set: about 3 % of other values collide.
  EXPECT_LT(false_yes, 20000 / 10);
}

TEST(HandleFilter, ConcurrentAddsLoseNothing) {
  static Filter f;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      for (uint64_t i = 0; i < 2000; ++i) f.Add((static_cast<uint64_t>(t) << 32) + i * 7);
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) {
    for (uint64_t i = 0; i < 2000; ++i) ASSERT_TRUE(f.MayContain((static_cast<uint64_t>(t) << 32) + i * 7));
  }
}

}  // namespace
