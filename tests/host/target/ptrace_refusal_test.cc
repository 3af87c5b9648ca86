// ptrace_refusal_test.cc — the sentence for each reason ptrace may be refused,
// including Yama settings this machine may not have.
#include "host/target/ptrace_refusal.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace mpidbg::host {
namespace {

PtraceFacts Facts() {
  PtraceFacts f;
  f.pid = 4242;
  return f;
}

TEST(PtraceRefusal, AnotherTracerComesFirst) {
  PtraceFacts f = Facts();
  f.tracer = 77;
  f.tracer_name = "gdb";
  f.yama_scope = 3;
  f.other_user = true;
  EXPECT_EQ(PtraceRefusal(f),
            "process 4242 is already traced by process 77 (gdb), and a process can have only "
            "one tracer; detach that debugger first");
}

TEST(PtraceRefusal, YamaScopes) {
  PtraceFacts f = Facts();
  f.yama_scope = 1;
  EXPECT_EQ(PtraceRefusal(f),
            "ptrace of process 4242 is refused by Yama: /proc/sys/kernel/yama/ptrace_scope is 1, "
            "which lets a process trace only its descendants; run mpidbg as root or with "
            "CAP_SYS_PTRACE, start the job under it, or set ptrace_scope to 0");
  f.yama_scope = 2;
  EXPECT_EQ(PtraceRefusal(f),
            "ptrace of process 4242 needs root or CAP_SYS_PTRACE here: "
            "/proc/sys/kernel/yama/ptrace_scope is 2");
  f.yama_scope = 3;
  f.privileged = true;  // scope 3 stops root too
  EXPECT_NE(PtraceRefusal(f).find("ptrace is disabled on this system "
                                  "(/proc/sys/kernel/yama/ptrace_scope is 3, which only a reboot "
                                  "undoes)"),
            std::string::npos);
}

TEST(PtraceRefusal, AnotherUsersProcess) {
  PtraceFacts f = Facts();
  f.other_user = true;
  f.target_uid = 1001;
  f.yama_scope = 1;
  EXPECT_EQ(PtraceRefusal(f),
            "process 4242 belongs to another user (uid 1001); reading it needs root or "
            "CAP_SYS_PTRACE");
}

TEST(PtraceRefusal, NoPolicyExplainsWhatIsLeft) {
  PtraceFacts f = Facts();
  std::string s = PtraceRefusal(f);
  EXPECT_NE(s.find("Yama is not active"), std::string::npos) << s;
  EXPECT_NE(s.find("non-dumpable"), std::string::npos) << s;
  f.privileged = true;
  s = PtraceRefusal(f);
  EXPECT_NE(s.find("although mpidbg has CAP_SYS_PTRACE"), std::string::npos) << s;
}

TEST(PtraceRefusal, FactsOfThisMachine) {
  PtraceFacts f = GatherPtraceFacts(getpid());
  EXPECT_EQ(f.pid, getpid());
  EXPECT_EQ(f.tracer, 0);
  EXPECT_FALSE(f.other_user);
  EXPECT_EQ(f.target_uid, static_cast<int64_t>(getuid()));
  if (access("/proc/sys/kernel/yama/ptrace_scope", R_OK) != 0) {
    EXPECT_EQ(f.yama_scope, -1);
  }
}

}  // namespace
}  // namespace mpidbg::host
