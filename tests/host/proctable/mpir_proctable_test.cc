// mpir_proctable_test.cc — decoding MPIR_proctable from (fake) launcher memory.
#include "host/proctable/mpir_proctable.h"

#include <unistd.h>

#include <cstring>
#include <map>

#include <gtest/gtest.h>

namespace mpidbg::host {
namespace {

// Sparse fake address space: byte ranges at fixed addresses.
class FakeMemory : public TargetMemory {
 public:
  void Put(uint64_t addr, const void* data, size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < size; ++i) bytes_[addr + i] = p[i];
  }
  // Strings are read in aligned 64-byte chunks: map the whole chunk, zero-padded.
  void PutString(uint64_t addr, const std::string& s) {
    std::string padded = s;
    padded.resize(((addr + s.size()) / 64 + 1) * 64 - addr, '\0');
    Put(addr, padded.data(), padded.size());
  }
  Status Read(TargetAddr addr, size_t size, void* out) override {
    auto* o = static_cast<unsigned char*>(out);
    for (size_t i = 0; i < size; ++i) {
      auto it = bytes_.find(addr.value + i);
      if (it == bytes_.end()) return Status::Unreadable("cannot read " + HexAddr(addr));
      o[i] = it->second;
    }
    return Status::Ok();
  }

 private:
  std::map<uint64_t, unsigned char> bytes_;
};

constexpr uint64_t kTableVar = 0x1000, kSizeVar = 0x1008, kTable = 0x2000;

void PutEntry(FakeMemory& m, int i, uint64_t host, uint64_t exe, int32_t pid) {
  unsigned char raw[24] = {};
  std::memcpy(raw, &host, 8);
  std::memcpy(raw + 8, &exe, 8);
  std::memcpy(raw + 16, &pid, 4);
  m.Put(kTable + 24 * static_cast<uint64_t>(i), raw, sizeof raw);
}

void PutHeader(FakeMemory& m, uint64_t table, int32_t size) {
  m.Put(kTableVar, &table, 8);
  m.Put(kSizeVar, &size, 4);
}

TEST(LauncherProctable, DecodesEntriesInRankOrder) {
  FakeMemory m;
  PutHeader(m, kTable, 3);
  m.PutString(0x3000, "node1");
  m.PutString(0x3100, "/bin/app");
  for (int i = 0; i < 3; ++i) PutEntry(m, i, 0x3000, 0x3100, 500 + i);
  auto table = DecodeProctable(m, TargetAddr(kTableVar), TargetAddr(kSizeVar));
  ASSERT_TRUE(table.ok()) << table.status().message();
  ASSERT_EQ(table->size(), 3u);
  EXPECT_EQ((*table)[2].pid, 502);
  EXPECT_EQ((*table)[0].host_name, "node1");
  EXPECT_EQ((*table)[1].executable_name, "/bin/app");
}

TEST(LauncherProctable, EmptyTableIsNoSupport) {
  FakeMemory m;
  PutHeader(m, 0, 0);
  auto table = DecodeProctable(m, TargetAddr(kTableVar), TargetAddr(kSizeVar));
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().kind(), ErrorKind::kNoSupport);
}

TEST(LauncherProctable, NullTableWithSizeIsNoSupport) {
  FakeMemory m;
  PutHeader(m, 0, 4);
  auto table = DecodeProctable(m, TargetAddr(kTableVar), TargetAddr(kSizeVar));
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().kind(), ErrorKind::kNoSupport);
}

TEST(LauncherProctable, ImplausibleSizeAndTruncatedTableAreErrors) {
  FakeMemory m;
  PutHeader(m, kTable, kMaxProctableSize + 1);
  EXPECT_FALSE(DecodeProctable(m, TargetAddr(kTableVar), TargetAddr(kSizeVar)).ok());
  PutHeader(m, kTable, 2);
  PutEntry(m, 0, 0, 0, 77);  // entry 1 is missing
  auto table = DecodeProctable(m, TargetAddr(kTableVar), TargetAddr(kSizeVar));
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().kind(), ErrorKind::kUnreadable);
}

TEST(LauncherProctable, BadNamePointersLeaveNamesEmptyButBadPidFails) {
  FakeMemory m;
  PutHeader(m, kTable, 1);
  PutEntry(m, 0, 0xdead0000, 0, 42);
  auto table = DecodeProctable(m, TargetAddr(kTableVar), TargetAddr(kSizeVar));
  ASSERT_TRUE(table.ok());
  EXPECT_EQ((*table)[0].host_name, "");
  EXPECT_EQ((*table)[0].pid, 42);
  PutEntry(m, 0, 0, 0, 0);
  EXPECT_FALSE(DecodeProctable(m, TargetAddr(kTableVar), TargetAddr(kSizeVar)).ok());
}

TEST(LauncherProctable, KeepsOnlyLocalRanks) {
  char self[256] = {};
  ASSERT_EQ(gethostname(self, sizeof self - 1), 0);
  std::vector<LauncherProcess> table = {
      {self, "/bin/app", 10}, {"elsewhere.invalid", "/bin/app", 11}, {"localhost", "/bin/app", 12}};
  std::vector<std::string> remote;
  auto pids = LocalRankPids(table, &remote);
  ASSERT_TRUE(pids.ok());
  EXPECT_EQ(pids.value(), (std::vector<int64_t>{10, 12}));
  ASSERT_EQ(remote.size(), 1u);
  EXPECT_NE(remote[0].find("rank 1"), std::string::npos);

  auto none = LocalRankPids({{"elsewhere.invalid", "", 11}});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().kind(), ErrorKind::kNoSupport);
}

// This test program is no launcher: it has no MPIR_proctable (what --launcher does
// then, launcher_descendants_test.cc).
TEST(LauncherProctable, ProcessWithoutMpirSymbolsIsNoSupport) {
  auto table = ReadLauncherProctable(getpid());
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().kind(), ErrorKind::kNoSupport);
  EXPECT_NE(table.status().message().find("no MPIR_proctable"), std::string::npos)
      << table.status().message();
}

}  // namespace
}  // namespace mpidbg::host
