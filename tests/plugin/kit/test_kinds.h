// test_kinds.h — the target kinds every scenario runs on.
#ifndef MPIDBG_TESTS_PLUGIN_TEST_KINDS_H
#define MPIDBG_TESTS_PLUGIN_TEST_KINDS_H

#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "fake_target.h"

namespace mpidbg::test {

inline const TargetKind kTargetKinds[] = {
    {8, false, "ptr8_little"},
    {8, true, "ptr8_big"},
    {4, false, "ptr4_little"},
    {4, true, "ptr4_big"},
};

// A target kind with the size of the MPI's handles.
struct KindAndHandles {
  TargetKind kind;
  uint32_t handle_size;
};

// Readable names in test output instead of byte dumps.
inline void PrintTo(const TargetKind& kind, std::ostream* os) { *os << kind.name; }
inline void PrintTo(const KindAndHandles& k, std::ostream* os) {
  *os << k.kind.name << ", " << k.handle_size << "-byte handles";
}

inline std::string kind_name(const testing::TestParamInfo<KindAndHandles>& info) {
  return std::string(info.param.kind.name) + "_handle" + std::to_string(info.param.handle_size);
}

inline auto all_kinds_and_handles() {
  return testing::Values(KindAndHandles{kTargetKinds[0], 4}, KindAndHandles{kTargetKinds[0], 8},
                         KindAndHandles{kTargetKinds[1], 4}, KindAndHandles{kTargetKinds[1], 8},
                         KindAndHandles{kTargetKinds[2], 4}, KindAndHandles{kTargetKinds[2], 8},
                         KindAndHandles{kTargetKinds[3], 4}, KindAndHandles{kTargetKinds[3], 8});
}

}  // namespace mpidbg::test

#endif  // MPIDBG_TESTS_PLUGIN_TEST_KINDS_H
