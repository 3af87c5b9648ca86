// symbols_test.cc — symbol and DWARF type lookup in a forked child, live and from a core.
#include <dlfcn.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "core_fixture.h"
#include "host/symbols/symbol_index.h"
#include "host/target/target_core.h"
#include "test_child.h"

namespace mpidbg::host {
namespace {

uint64_t Addr(const volatile void* p) { return reinterpret_cast<uintptr_t>(p); }

void ExpectKnownSymbols(SymbolIndex& syms) {
  auto value = syms.FindSymbol("mpidbg_test_known_value");
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(*value, Addr(&mpidbg_test_known_value));
  auto fn = syms.FindFunction("mpidbg_test_function");
  ASSERT_TRUE(fn.has_value());
  EXPECT_EQ(*fn, reinterpret_cast<uintptr_t>(&mpidbg_test_function));
  // A data symbol is not a function.
  EXPECT_FALSE(syms.FindFunction("mpidbg_test_known_value").has_value());
  EXPECT_FALSE(syms.FindSymbol("mpidbg_no_such_symbol_anywhere").has_value());
  // An exported symbol of a shared library: the module's load bias is applied.
  auto in_libc = syms.FindFunction("getpid");
  ASSERT_TRUE(in_libc.has_value());
  EXPECT_EQ(*in_libc, reinterpret_cast<uintptr_t>(dlsym(RTLD_DEFAULT, "getpid")));
}

void ExpectTestRecordType(SymbolIndex& syms) {
  DwarfTypes& types = syms.types();
  TypeInfo* t = types.Find("TestRecord");
  ASSERT_NE(t, nullptr) << "test binary built without debug info?";
  EXPECT_EQ(types.SizeOf(t), static_cast<int>(sizeof(test::TestRecord)));
  EXPECT_EQ(types.FieldOffset(t, "first"), static_cast<int>(offsetof(test::TestRecord, first)));
  EXPECT_EQ(types.FieldOffset(t, "second"), static_cast<int>(offsetof(test::TestRecord, second)));
  EXPECT_EQ(types.FieldOffset(t, "anon_b"), static_cast<int>(offsetof(test::TestRecord, anon_b)));
  EXPECT_EQ(types.FieldOffset(t, "no_such_field"), -1);
  EXPECT_EQ(types.Find("struct TestRecord"), t);
  EXPECT_EQ(types.Find("NoSuchTypeAnywhere"), nullptr);
  EXPECT_EQ(types.SizeOf(nullptr), -1);
}

TEST(Symbols, LiveChild) {
  pid_t child = test::StartChild();
  auto syms = SymbolIndex::ForLive(child);
  ASSERT_TRUE(syms.ok()) << syms.status().message();
  ExpectKnownSymbols(*syms.value());
  ExpectTestRecordType(*syms.value());
  bool has_libc = false;
  for (const std::string& m : syms.value()->ModuleNames()) {
    has_libc = has_libc || m.find("libc.so") != std::string::npos;
  }
  EXPECT_TRUE(has_libc);
  test::StopChild(child);
}

TEST(Symbols, NoSuchProcess) {
  auto syms = SymbolIndex::ForLive(test::UnusedPid());
  EXPECT_FALSE(syms.ok());
}

TEST(Symbols, Core) {
  const std::string& core_path = test::SharedCore();
  if (core_path.empty()) GTEST_SKIP() << "gcore could not make a core";
  auto core = CoreTarget::Open(core_path, "");
  ASSERT_TRUE(core.ok()) << core.status().message();
  auto syms = SymbolIndex::ForCore(core.value()->elf(), core.value()->executable());
  ASSERT_TRUE(syms.ok()) << syms.status().message();
  ExpectKnownSymbols(*syms.value());
  ExpectTestRecordType(*syms.value());
}

// A process running /bin/sleep (exec'd: its libraries are placed anew, apart from
// another's when address randomisation is on); -1 when it did not start.
pid_t StartSleeper() {
  pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sleep", "sleep", "30", static_cast<char*>(nullptr));
    _exit(127);
  }
  const std::string exe = "/proc/" + std::to_string(pid) + "/exe";
  for (int i = 0; i < 500; ++i) {
    char buf[256] = {};
    ssize_t n = readlink(exe.c_str(), buf, sizeof buf - 1);
    if (n > 0 && std::string(buf).find("sleep") != std::string::npos) return pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

void StopSleeper(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

// The lowest address at which `pid` maps its libc; in `code`, whether `address` lies in
// one of its executable libc mappings.
uint64_t LibcStart(pid_t pid, uint64_t address = 0, bool* code = nullptr) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  uint64_t lowest = 0;
  for (std::string line; std::getline(maps, line);) {
    if (line.find("/libc.so") == std::string::npos) continue;
    const std::size_t dash = line.find('-');
    const uint64_t start = std::stoull(line.substr(0, dash), nullptr, 16);
    const uint64_t end = std::stoull(line.substr(dash + 1), nullptr, 16);
    if (lowest == 0 || start < lowest) lowest = start;
    const bool exec = line.find(" r-xp ") != std::string::npos;
    if (code != nullptr && exec && address >= start && address < end) *code = true;
  }
  return lowest;
}

// Symbol tables are built once per file and shared by every index of the run
// (file_symbols.h): the second process's lookup uses the first one's libc table and must
// still land in its own libc.
TEST(Symbols, SharedFileTableIsRelocatedPerProcess) {
  pid_t a = StartSleeper();
  pid_t b = StartSleeper();
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  auto first = SymbolIndex::ForLive(a);
  auto second = SymbolIndex::ForLive(b);
  ASSERT_TRUE(first.ok() && second.ok());
  auto in_a = first.value()->FindFunction("getpid");
  auto in_b = second.value()->FindFunction("getpid");
  bool a_in_code = false, b_in_code = false;
  const uint64_t libc_a = LibcStart(a, in_a.value_or(0), &a_in_code);
  const uint64_t libc_b = LibcStart(b, in_b.value_or(0), &b_in_code);
  StopSleeper(a);
  StopSleeper(b);
  ASSERT_TRUE(in_a.has_value() && in_b.has_value());
  ASSERT_NE(libc_a, 0u);
  EXPECT_TRUE(a_in_code);
  EXPECT_TRUE(b_in_code);
  EXPECT_EQ(*in_a - libc_a, *in_b - libc_b);
}

}  // namespace
}  // namespace mpidbg::host
