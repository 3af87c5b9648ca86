// symbols_test.cc — symbol and DWARF type lookup in a forked child, live and from a core.
#include <dlfcn.h>

#include <cstddef>

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

}  // namespace
}  // namespace mpidbg::host
