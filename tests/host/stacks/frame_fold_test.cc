// Folding the runtime's and the MPI library's frames into one frame per MPI call, over
// synthetic stacks as MPICH, Open MPI and a static link give them.
#include <gtest/gtest.h>

#include "host/stacks/frame_fold.h"

namespace mpidbg::host {
namespace {

model::Frame F(const char* function, const char* module, uint64_t pc = 0x1000,
               const char* file = nullptr, int line = 0) {
  model::Frame f;
  if (function != nullptr) f.function = function;
  f.module = module;
  f.pc = pc;
  if (file != nullptr) {
    f.file = file;
    f.line = line;
  }
  return f;
}

std::vector<std::string> Names(const std::vector<model::Frame>& frames) {
  std::vector<std::string> out;
  for (const model::Frame& f : frames) out.push_back(f.function.value_or("?"));
  return out;
}

TEST(FrameFold, CallNames) {
  EXPECT_EQ(MpiCallName("PMPI_Recv"), "MPI_Recv");
  EXPECT_EQ(MpiCallName("MPI_Barrier"), "MPI_Barrier");
  EXPECT_EQ(MpiCallName("MPIR_Recv_impl"), "");
  EXPECT_EQ(MpiCallName("MPI_"), "");
  EXPECT_EQ(MpiCallName("main"), "");
}

TEST(FrameFold, Origins) {
  EXPECT_EQ(ClassifyFrame(F("MPIDI_progress", "libmpich.so.12")), FrameOrigin::kMpi);
  EXPECT_EQ(ClassifyFrame(F("x", "mca_pml_ob1.so")), FrameOrigin::kMpi);
  EXPECT_EQ(ClassifyFrame(F("MPI_Recv", "libmpidbg_rt_openmpi.so")), FrameOrigin::kMpi);
  EXPECT_EQ(ClassifyFrame(F("poll", "libc.so.6")), FrameOrigin::kSystem);
  EXPECT_EQ(ClassifyFrame(F("PMPI_Send", "static_app")), FrameOrigin::kMpi);
  EXPECT_EQ(ClassifyFrame(F("main", "hang")), FrameOrigin::kProgram);
}

// MPICH under the runtime: poll in libc, the progress engine, PMPI_Recv, the wrapper.
TEST(FrameFold, RuntimeWrapperAndLibraryBecomeOneFrame) {
  const std::vector<model::Frame> in = {
      F("__GI___poll", "libc.so.6"),
      F("MPID_nem_tcp_connpoll", "libmpich.so.12"),
      F("MPIDI_CH3I_Progress", "libmpich.so.12"),
      F("PMPI_Recv", "libmpich.so.12", 0x2000),
      F("mpidbg_hook_enter", "libmpidbg_rt_mpich.so"),
      F("MPI_Recv", "libmpidbg_rt_mpich.so", 0x3000),
      F("wait_for_token", "hang", 0x4000, "/src/hang.c", 7),
      F("main", "hang", 0x4100, "/src/hang.c", 20),
      F("__libc_start_call_main", "libc.so.6"),
  };
  const std::vector<model::Frame> out = FoldMpiFrames(in);
  ASSERT_EQ(Names(out), (std::vector<std::string>{"MPI_Recv", "wait_for_token", "main",
                                                   "__libc_start_call_main"}));
  EXPECT_EQ(out[0].module, "libmpidbg_rt_mpich.so");
  EXPECT_EQ(out[0].pc, 0x3000u);
  EXPECT_FALSE(out[0].file.has_value());
  EXPECT_FALSE(out[0].line.has_value());
  EXPECT_EQ(out[1].file, "/src/hang.c");
  EXPECT_EQ(out[1].line, 7);
}

// Open MPI without the runtime: the library's own PMPI_ name, shown without its P.
TEST(FrameFold, LibraryAloneIsNamedWithoutP) {
  const std::vector<model::Frame> in = {
      F("opal_progress", "libopen-pal.so.40"),
      F("mca_pml_ob1_recv", "mca_pml_ob1.so"),
      F("PMPI_Recv", "libmpi.so.40"),
      F("main", "app", 0x10, "app.c", 3),
  };
  EXPECT_EQ(Names(FoldMpiFrames(in)), (std::vector<std::string>{"MPI_Recv", "main"}));
}

// A user's reduction operator called from inside MPI_Allreduce stays visible, and the
// MPI frames on either side of it fold separately only where a call names them.
TEST(FrameFold, ProgramCodeCalledFromMpiStays) {
  const std::vector<model::Frame> in = {
      F("my_op", "app", 0x10, "app.c", 5),
      F("MPIR_Reduce_local", "libmpich.so.12"),
      F("PMPI_Allreduce", "libmpich.so.12"),
      F("main", "app", 0x20, "app.c", 9),
  };
  EXPECT_EQ(Names(FoldMpiFrames(in)),
            (std::vector<std::string>{"my_op", "MPI_Allreduce", "main"}));
}

// An MPI library's progress thread has no MPI_ frame: nothing is folded.
TEST(FrameFold, RunsWithoutAnMpiCallStay) {
  const std::vector<model::Frame> in = {
      F("epoll_wait", "libc.so.6"),
      F("opal_libevent2022_event_base_loop", "libopen-pal.so.40"),
      F("progress_engine", "libopen-pal.so.40"),
      F("start_thread", "libc.so.6"),
  };
  EXPECT_EQ(Names(FoldMpiFrames(in)), Names(in));
}

// System frames outside a fold (sleep called by the program) are kept.
TEST(FrameFold, SystemFramesOutsideMpiStay) {
  const std::vector<model::Frame> in = {
      F("clock_nanosleep", "libc.so.6"),
      F("sleep", "libc.so.6"),
      F("main", "app", 0x20, "app.c", 9),
  };
  EXPECT_EQ(Names(FoldMpiFrames(in)), Names(in));
  EXPECT_TRUE(FoldMpiFrames({}).empty());
}

// The outermost MPI name wins: MPI_Wait inside MPI_Sendrecv's implementation is not
// what the program called.
TEST(FrameFold, OutermostCallNamesTheFold) {
  const std::vector<model::Frame> in = {
      F("PMPI_Wait", "libmpich.so.12"),
      F("MPIC_Sendrecv", "libmpich.so.12"),
      F("PMPI_Sendrecv", "libmpich.so.12"),
      F("MPI_Sendrecv", "libmpidbg_rt_mpich.so"),
      F(nullptr, "app", 0x30),
  };
  const std::vector<model::Frame> out = FoldMpiFrames(in);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].function, "MPI_Sendrecv");
  EXPECT_FALSE(out[1].function.has_value());
}

}  // namespace
}  // namespace mpidbg::host
