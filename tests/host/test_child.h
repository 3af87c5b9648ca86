// test_child.h — a forked child of the test process to use as a target. Being a fork,
// it has the test's address space layout: the address of a global here is its address
// in the child.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

extern "C" {
// Set to kChildValue by the child after the fork, so a read that returns it came from
// the child and not from the test's own memory.
extern volatile uint64_t mpidbg_test_known_value;
// Incremented by the child's loop: shows the child runs.
extern volatile uint64_t mpidbg_test_counter;
extern const char mpidbg_test_string[];
void mpidbg_test_function(void);
}

namespace mpidbg::test {

constexpr uint64_t kParentValue = 0x1122334455667788ull;
constexpr uint64_t kChildValue = 0xfeedfacecafebeefull;

// A type whose layout the DWARF tests look up.
struct TestRecord {
  int32_t first;
  char pad[12];
  uint64_t second;
  union {
    int32_t anon_a;
    double anon_b;
  };
};

struct ChildOptions {
  int extra_threads = 0;
  // When set: the child allows core dumps and works in this directory, so a fatal
  // signal leaves a kernel core there.
  const char* dump_dir = nullptr;
};

// Forks a child that sets mpidbg_test_known_value, starts its threads, signals the
// parent and loops. Returns its pid once it is ready.
pid_t StartChild(const ChildOptions& options = {});
// A kernel core of a child (SIGSEGV with core dumps allowed) in a new directory under
// /tmp; "" when the kernel wrote none (core dumps piped elsewhere or disabled).
std::string KernelCore();
// SIGKILL and reap.
void StopChild(pid_t pid);
// The state letter of the child's main thread ('R', 'S', 'T', ...).
char ProcessState(pid_t pid);
// A pid that is not in use (a reaped child's).
pid_t UnusedPid();

}  // namespace mpidbg::test
