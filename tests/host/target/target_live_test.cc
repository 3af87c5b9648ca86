// target_live_test.cc — ptrace attach/read/detach against a forked child.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "host/target/target_live.h"
#include "target_checks.h"
#include "test_child.h"

namespace mpidbg::host {
namespace {

using test::StartChild;
using test::StopChild;

using test_checks::AddrOf;

bool IsStoppedLetter(char c) { return c == 'T' || c == 't'; }

TEST(TargetLive, ReadsTheChildsValueNotOurs) {
  pid_t child = StartChild();
  auto t = LiveTarget::Attach(child);
  ASSERT_TRUE(t.ok()) << t.status().message();
  test_checks::ExpectReadsChildData(*t.value());
  t.value().reset();
  StopChild(child);
}

TEST(TargetLive, ReadOfUnmappedAddressIsAnError) {
  pid_t child = StartChild();
  auto t = LiveTarget::Attach(child);
  ASSERT_TRUE(t.ok()) << t.status().message();
  uint64_t v = 0;
  Status st = t.value()->Read(TargetAddr(8), sizeof v, &v);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.kind(), ErrorKind::kUnreadable);
  EXPECT_NE(st.message().find("0x8"), std::string::npos) << st.message();
  t.value().reset();
  StopChild(child);
}

// 100 attach/detach cycles, running and stopped: attach_cycles_test.cc.

TEST(TargetLive, AStoppedChildStaysStopped) {
  pid_t child = StartChild(test::ChildOptions{2});
  kill(child, SIGSTOP);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, WUNTRACED), child);
  ASSERT_TRUE(WIFSTOPPED(status));
  {
    auto t = LiveTarget::Attach(child);
    ASSERT_TRUE(t.ok()) << t.status().message();
    EXPECT_TRUE(t.value()->was_stopped());
    EXPECT_EQ(t.value()->tids().size(), 3u);
    uint64_t v = 0;
    ASSERT_TRUE(t.value()->Read(AddrOf(&mpidbg_test_known_value), sizeof v, &v).ok());
    EXPECT_EQ(v, test::kChildValue);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(test::ProcessState(child), 'T');
  // Every thread stays stopped, and a second cycle changes nothing.
  auto again = LiveTarget::Attach(child);
  ASSERT_TRUE(again.ok());
  std::vector<int64_t> tids = again.value()->tids();
  again.value().reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  for (int64_t tid : tids) EXPECT_EQ(ThreadStateLetter(child, tid), 'T') << "thread " << tid;
  kill(child, SIGCONT);
  StopChild(child);
}

TEST(TargetLive, AttachesToEveryThread) {
  pid_t child = StartChild(test::ChildOptions{3});
  auto t = LiveTarget::Attach(child);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t.value()->tids().size(), 4u);
  for (int64_t tid : t.value()->tids()) {
    EXPECT_EQ(ThreadStateLetter(child, tid), 't') << "thread " << tid << " not in a trace stop";
  }
  t.value().reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(IsStoppedLetter(test::ProcessState(child)));
  StopChild(child);
}

TEST(TargetLive, NonexistentPidIsAnErrorValue) {
  pid_t gone = test::UnusedPid();
  auto t = LiveTarget::Attach(gone);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().kind(), ErrorKind::kUnreadable);
  EXPECT_EQ(t.status().message(), "no process " + std::to_string(gone));
}

TEST(TargetLive, OwnProcessIsRefused) {
  auto t = LiveTarget::Attach(getpid());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().kind(), ErrorKind::kUsage);
}

TEST(TargetLive, PermissionHintNamesThePolicy) {
  std::string hint = PtracePermissionHint(1);
  EXPECT_NE(hint.find("CAP_SYS_PTRACE"), std::string::npos) << hint;
}

}  // namespace
}  // namespace mpidbg::host

namespace mpidbg::host {
namespace {

TEST(TargetLive, ZombieIsReportedAsExited) {
  pid_t child = fork();
  if (child == 0) _exit(0);
  // Wait until it is a zombie, without reaping it.
  for (int i = 0; i < 1000 && test::ProcessState(child) != 'Z'; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  auto t = LiveTarget::Attach(child);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("has exited"), std::string::npos) << t.status().message();
  int status = 0;
  waitpid(child, &status, 0);
}

}  // namespace
}  // namespace mpidbg::host
