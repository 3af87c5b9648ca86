// target_core_test.cc — reading a gcore dump of a forked child, and refusing cores that
// are truncated or not cores at all.
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include <gtest/gtest.h>

#include "core_fixture.h"
#include "host/target/target_core.h"
#include "target_checks.h"
#include "test_child.h"

namespace mpidbg::host {
namespace {

using test_checks::AddrOf;

std::string SelfExe() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

#define REQUIRE_CORE(path, pid)                                   \
  int pid = 0;                                                    \
  const std::string& path = test::SharedCore(&pid);               \
  if (path.empty()) GTEST_SKIP() << "gcore could not make a core"

TEST(TargetCore, ReadsAKnownVariable) {
  REQUIRE_CORE(core, pid);
  auto t = CoreTarget::Open(core, "");
  ASSERT_TRUE(t.ok()) << t.status().message();
  test_checks::ExpectReadsChildData(*t.value());
}

TEST(TargetCore, KnowsPidThreadsAndExecutable) {
  REQUIRE_CORE(core, pid);
  auto t = CoreTarget::Open(core, "");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t.value()->pid(), pid);
  EXPECT_EQ(t.value()->tids().size(), 3u);
  EXPECT_EQ(t.value()->executable(), SelfExe());
  EXPECT_FALSE(t.value()->mapped_files().empty());
  EXPECT_GT(t.value()->mtime_ns(), 0);
}

TEST(TargetCore, ExeOverrideWins) {
  REQUIRE_CORE(core, pid);
  // The same program under another path (a copy) is accepted and named.
  std::string dir = test::MakeTempDir();
  std::string copy = dir + "/same_program";
  {
    std::ifstream in(SelfExe(), std::ios::binary);
    std::ofstream out(copy, std::ios::binary);
    out << in.rdbuf();
  }
  auto t = CoreTarget::Open(core, copy);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t.value()->executable(), copy);
  unlink(copy.c_str());
  rmdir(dir.c_str());
}

TEST(TargetCore, ExeOfAnotherProgramIsRefused) {
  REQUIRE_CORE(core, pid);
  auto t = CoreTarget::Open(core, "/bin/true");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().kind(), ErrorKind::kUsage);
  EXPECT_NE(t.status().message().find("is not the program core file"), std::string::npos)
      << t.status().message();
}

TEST(TargetCore, ReadsCodeBytesLikeTheFile) {
  // Text may be omitted from a core; then the mapped file supplies it.
  REQUIRE_CORE(core, pid);
  auto t = CoreTarget::Open(core, "");
  ASSERT_TRUE(t.ok());
  unsigned char from_core[16];
  auto fn = reinterpret_cast<uintptr_t>(&mpidbg_test_function);
  ASSERT_TRUE(t.value()->Read(TargetAddr(fn), sizeof from_core, from_core).ok());
  EXPECT_EQ(std::memcmp(from_core, reinterpret_cast<const void*>(fn), sizeof from_core), 0);
}

TEST(TargetCore, AddressOutsideTheCoreIsAnError) {
  REQUIRE_CORE(core, pid);
  auto t = CoreTarget::Open(core, "");
  ASSERT_TRUE(t.ok());
  uint64_t v = 0;
  Status st = t.value()->Read(TargetAddr(16), sizeof v, &v);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("not in the memory of core file"), std::string::npos) << st.message();
}

TEST(TargetCore, TruncatedCoreIsRefusedClearly) {
  REQUIRE_CORE(core, pid);
  std::string dir = test::MakeTempDir();
  std::string cut = dir + "/truncated.core";
  {
    std::ifstream in(core, std::ios::binary);
    std::ofstream out(cut, std::ios::binary);
    out << in.rdbuf();
  }
  struct stat sb;
  ASSERT_EQ(stat(cut.c_str(), &sb), 0);
  ASSERT_EQ(truncate(cut.c_str(), sb.st_size / 2), 0);
  auto t = CoreTarget::Open(cut, "");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().kind(), ErrorKind::kUnreadable);
  EXPECT_NE(t.status().message().find("truncated"), std::string::npos) << t.status().message();
  unlink(cut.c_str());
  rmdir(dir.c_str());
}

TEST(TargetCore, ExecutableIsNotACore) {
  auto t = CoreTarget::Open(SelfExe(), "");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().kind(), ErrorKind::kUnreadable);
  EXPECT_NE(t.status().message().find("is not a core file"), std::string::npos)
      << t.status().message();
}

TEST(TargetCore, TextFileIsNotACore) {
  std::string dir = test::MakeTempDir();
  std::string path = dir + "/notes.txt";
  std::ofstream(path) << "not an ELF file at all\n";
  auto t = CoreTarget::Open(path, "");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("not an ELF file"), std::string::npos)
      << t.status().message();
  unlink(path.c_str());
  rmdir(dir.c_str());
}

TEST(TargetCore, MissingFileIsAnError) {
  auto t = CoreTarget::Open("/nonexistent/core.1", "");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("cannot open core file"), std::string::npos);
}

}  // namespace
}  // namespace mpidbg::host

namespace mpidbg::host {
namespace {

// A kernel core omits file-backed read-only mappings (coredump_filter's default): the
// mapped files per NT_FILE must supply them.
class KernelCore : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    path_ = new std::string(test::SanitizedBuild() ? "" : test::KernelCore());
  }
  static void TearDownTestSuite() {
    if (!path_->empty()) {
      std::string dir = path_->substr(0, path_->rfind('/'));
      unlink(path_->c_str());
      rmdir(dir.c_str());
    }
    delete path_;
  }
  static std::string* path_;
};
std::string* KernelCore::path_ = nullptr;

TEST_F(KernelCore, ReadsDataAndOmittedText) {
  if (path_->empty()) GTEST_SKIP() << "the kernel wrote no core here";
  auto t = CoreTarget::Open(*path_, "");
  ASSERT_TRUE(t.ok()) << t.status().message();
  test_checks::ExpectReadsChildData(*t.value());
  unsigned char code[32];
  auto fn = reinterpret_cast<uintptr_t>(&mpidbg_test_function);
  Status st = t.value()->Read(TargetAddr(fn), sizeof code, code);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(std::memcmp(code, reinterpret_cast<const void*>(fn), sizeof code), 0);
  // Text of a shared library, too.
  auto lib_fn = reinterpret_cast<uintptr_t>(&getpid);
  ASSERT_TRUE(t.value()->Read(TargetAddr(lib_fn), sizeof code, code).ok());
  EXPECT_EQ(std::memcmp(code, reinterpret_cast<const void*>(lib_fn), sizeof code), 0);
  EXPECT_EQ(t.value()->executable(), SelfExe());
}

}  // namespace
}  // namespace mpidbg::host
