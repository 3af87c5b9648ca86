// target_checks.h — the checks every kind of target (live child, gcore dump, kernel
// core) must pass, written once so each backend is held to the same expectations.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "host/target/target_memory.h"
#include "test_child.h"

namespace mpidbg::host::test_checks {

// The test child is a fork, so a global's address here is its address in the target.
inline TargetAddr AddrOf(const volatile void* p) {
  return TargetAddr(reinterpret_cast<uintptr_t>(p));
}

// Reads the value only the child sets and the child's constant string.
inline void ExpectReadsChildData(TargetMemory& memory) {
  uint64_t v = 0;
  Status st = memory.Read(AddrOf(&mpidbg_test_known_value), sizeof v, &v);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(v, test::kChildValue);
  std::string s;
  ASSERT_TRUE(memory.ReadCString(AddrOf(mpidbg_test_string), 64, &s).ok());
  EXPECT_EQ(s, "mpidbg test string");
}

}  // namespace mpidbg::host::test_checks
