// plugin_host_test.cc — the host's side of the message-queue interface against a fake
// DLL: loading and checks, every callback, the snapshot reader, the choice of DLL, and
// the isolation of foreign DLLs that crash or hang.
#include <stdlib.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "core_fixture.h"
#include "host/snapshot/extensions_to_model.h"
#include "host/plugin_host/plugin_choice.h"
#include "host/snapshot/snapshot_reader.h"
#include "mpidbg/records.h"
#include "child_target.h"

namespace mpidbg::host {
namespace {

using test::ChildTarget;

TEST(MqDllLoad, ResolvesEntryPointsAndExtensions) {
  auto dll = MqDll::Load(FAKE_DLL_PATH);
  ASSERT_TRUE(dll.ok()) << dll.status().message();
  EXPECT_TRUE(dll.value()->has_thread_extension());
  EXPECT_EQ(dll.value()->version(), "fake 1.0");
  EXPECT_EQ(dll.value()->ErrorString(mqs_first_user_code), "fake: type lookup gave wrong answers");
  EXPECT_EQ(dll.value()->ErrorString(kHostErrRead), HostErrorString(kHostErrRead));
  auto foreign = MqDll::Load(FAKE_FOREIGN_DLL_PATH);
  ASSERT_TRUE(foreign.ok()) << foreign.status().message();
  EXPECT_FALSE(foreign.value()->has_thread_extension());
}

TEST(MqDllLoad, RefusesWhatIsNotADll) {
  auto missing = MqDll::Load("/nonexistent/libnothing.so");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNoSupport);
  EXPECT_NE(missing.status().message().find("cannot load"), std::string::npos);
  auto libm = MqDll::Load("libm.so.6");
  ASSERT_FALSE(libm.ok());
  EXPECT_NE(libm.status().message().find("does not export mqs_setup_basic_callbacks"),
            std::string::npos)
      << libm.status().message();
}

TEST_F(ChildTarget, ReadsASnapshotInProcess) {
  auto target = OpenedTarget::Open(Spec(""));
  ASSERT_TRUE(target.ok()) << target.status().message();
  auto dll = MqDll::Load(FAKE_DLL_PATH);
  ASSERT_TRUE(dll.ok());
  TargetContext ctx;
  ctx.memory = &target.value()->memory();
  ctx.symbols = &target.value()->symbols();
  auto session = MqSession::Start(dll.value().get(), &ctx, "test");
  ASSERT_TRUE(session.ok()) << session.status().message();
  CaptureFacts facts;
  facts.pid = child_;
  facts.source = "live";
  facts.capture_time_ns = RealtimeNowNs();
  auto snap = ReadSnapshot(*session.value(), ctx, facts);
  ASSERT_TRUE(snap.ok()) << snap.status().message();
  const model::ProcessSnapshot& s = snap.value();
  EXPECT_EQ(s.process.pid, child_);
  EXPECT_EQ(s.process.hostname, "fakehost");
  EXPECT_EQ(s.process.size, 2);
  EXPECT_EQ(s.process.thread_level, "MPI_THREAD_SINGLE");
  EXPECT_EQ(s.process.state, "running");
  EXPECT_EQ(ctx.global_rank, 0);
  ASSERT_EQ(s.communicators.size(), 1u);
  const model::Communicator& c = s.communicators[0];
  // The id is the value the DLL read from the child with fetch_data.
  EXPECT_EQ(c.id, CommIdString(test::kChildValue));
  EXPECT_EQ(c.name, "FAKE_WORLD");
  EXPECT_EQ(c.handle, 0x44000000u);
  EXPECT_TRUE(c.predefined);
  EXPECT_EQ(c.world_ranks, (std::vector<int>{0, 1}));
  ASSERT_EQ(c.pending_sends.size(), 1u);
  EXPECT_EQ(c.pending_sends[0].call, "MPI_Isend");
  EXPECT_EQ(c.pending_sends[0].peer, model::Rank::Of(1));
  EXPECT_EQ(c.pending_sends[0].tag.value, 7);
  EXPECT_EQ(c.pending_sends[0].mode, std::optional<std::string>("standard"));
  ASSERT_EQ(c.pending_receives.size(), 1u);
  EXPECT_EQ(c.pending_receives[0].peer, model::Rank::AnySource());
  EXPECT_FALSE(c.unexpected.has_value());
  ASSERT_EQ(s.threads.size(), 1u);
  const model::Thread& t = s.threads[0];
  EXPECT_EQ(t.state, "blocked");
  EXPECT_EQ(t.call, std::optional<std::string>("MPI_Recv"));
  ASSERT_TRUE(t.seconds_in_call.has_value());
  EXPECT_GT(*t.seconds_in_call, 1e6);
  ASSERT_TRUE(t.operation.has_value());
  EXPECT_TRUE(t.operation->blocking);
  EXPECT_EQ(t.waited.size(), 1u);
  EXPECT_EQ(t.waited_unknown, 1);
}

TEST_F(ChildTarget, ForeignDllRunsIsolatedAndWorks) {
  auto snap = ReadTarget(Spec(FAKE_FOREIGN_DLL_PATH));
  ASSERT_TRUE(snap.ok()) << snap.status().message();
  const model::ProcessSnapshot& s = snap.value();
  EXPECT_EQ(s.process.pid, child_);
  EXPECT_EQ(s.process.source, "live");
  ASSERT_EQ(s.threads.size(), 1u);
  EXPECT_EQ(s.threads[0].state, "unknown");
  ASSERT_EQ(s.communicators.size(), 1u);
  EXPECT_EQ(s.communicators[0].id, CommIdString(test::kChildValue));
  ASSERT_EQ(s.communicators[0].pending_sends.size(), 1u);
  EXPECT_EQ(s.communicators[0].pending_sends[0].peer, model::Rank::Of(1));
  EXPECT_EQ(s.communicators[0].pending_receives[0].peer, model::Rank::AnySource());
  EXPECT_TRUE(s.communicators[0].pending_receives[0].tag.any);
  EXPECT_TRUE(ChildRuns());
}

TEST_F(ChildTarget, CrashingDllEndsInOneSentence) {
  setenv("MPIDBG_FAKE_DLL_MODE", "crash", 1);
  auto snap = ReadTarget(Spec(FAKE_FOREIGN_DLL_PATH));
  unsetenv("MPIDBG_FAKE_DLL_MODE");
  ASSERT_FALSE(snap.ok());
  EXPECT_EQ(snap.status().kind(), ErrorKind::kNoSupport);
  // Under AddressSanitizer its handler turns the crash into an exit with a report.
  const char* expected = test::SanitizedBuild() ? "ended without a result" : "crashed (signal 11";
  EXPECT_NE(snap.status().message().find(expected), std::string::npos)
      << snap.status().message();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(ChildRuns());
}

TEST_F(ChildTarget, HangingDllIsStopped) {
  setenv("MPIDBG_FAKE_DLL_MODE", "hang", 1);
  setenv("MPIDBG_DLL_TIMEOUT", "1", 1);
  auto snap = ReadTarget(Spec(FAKE_FOREIGN_DLL_PATH));
  unsetenv("MPIDBG_FAKE_DLL_MODE");
  unsetenv("MPIDBG_DLL_TIMEOUT");
  ASSERT_FALSE(snap.ok());
  EXPECT_NE(snap.status().message().find("did not finish"), std::string::npos)
      << snap.status().message();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(ChildRuns());
}

// The child loads no MPI library: refused as no MPI process at all (Status::not_mpi),
// named with its program and what was looked for.
TEST_F(ChildTarget, NoDebuggingSupportNamesWhatWasLookedFor) {
  auto snap = ReadTarget(Spec(""));
  ASSERT_FALSE(snap.ok());
  EXPECT_EQ(snap.status().kind(), ErrorKind::kNoSupport);
  EXPECT_TRUE(snap.status().not_mpi());
  const std::string& m = snap.status().message();
  EXPECT_EQ(m, "process " + std::to_string(child_) + " (mpidbg_host_tests) is not an MPI "
               "process: it loads no MPI library (no MPI_Init or PMPI_Init) and has no MPI "
               "debugging support (no symbol mpidbg_runtime_root or MPIR_dll_name)");
  EXPECT_TRUE(ChildRuns());
}

TEST(PluginHostCore, FakeDllReadsACore) {
  const std::string& core = test::SharedCore();
  if (core.empty()) GTEST_SKIP() << "gcore could not make a core";
  TargetSpec spec;
  spec.core = core;
  spec.plugin = FAKE_DLL_PATH;
  auto snap = ReadTarget(spec);
  ASSERT_TRUE(snap.ok()) << snap.status().message();
  EXPECT_EQ(snap.value().process.source, "core");
  ASSERT_EQ(snap.value().communicators.size(), 1u);
  EXPECT_EQ(snap.value().communicators[0].id, CommIdString(test::kChildValue));
}

TEST(ExtensionsToModel, NormalisedValues) {
  EXPECT_EQ(RankFromNormalised(-1), model::Rank::AnySource());
  EXPECT_EQ(RankFromNormalised(-2), model::Rank::ProcNull());
  EXPECT_EQ(RankFromNormalised(-3), model::Rank::Unknown());
  EXPECT_EQ(RankFromNormalised(4), model::Rank::Of(4));
  EXPECT_TRUE(TagFromNormalised(-1).any);
  EXPECT_EQ(TagFromNormalised(9).value, 9);
  EXPECT_EQ(CommIdString(0xab), "0x00000000000000ab");
  EXPECT_EQ(ThreadLevelName(3), "MPI_THREAD_MULTIPLE");
}

TEST(ExtensionsToModel, ThreadOutsideMpiHasNoCall) {
  mpidbg_thread_info info{};
  info.tid = 5;
  info.state = MPIDBG_THREAD_NOT_IN_MPI;
  info.root = -1;
  model::Thread t = ThreadFromExtension(info, 100);
  EXPECT_EQ(t.state, "not_in_mpi");
  EXPECT_FALSE(t.call.has_value());
  EXPECT_FALSE(t.seconds_in_call.has_value());
  EXPECT_FALSE(t.root.has_value());
}

TEST(ExtensionsToModel, ForeignOperationUsesTheForumEncoding) {
  mqs_pending_operation op{};
  op.status = mqs_st_pending;
  op.desired_local_rank = -1;
  op.desired_global_rank = -1;
  op.tag_wild = 1;
  op.desired_length = 16;
  model::Operation recv = OperationFromMqs(op, mqs_pending_receives);
  EXPECT_EQ(recv.peer, model::Rank::AnySource());
  EXPECT_TRUE(recv.tag.any);
  EXPECT_EQ(recv.bytes, 16);
  EXPECT_FALSE(recv.is_send);
}

}  // namespace
}  // namespace mpidbg::host
