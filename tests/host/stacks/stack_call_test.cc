// A thread's MPI call from its folded stack, for the stacks view (stack_call.h).
#include "host/stacks/stack_call.h"

#include <gtest/gtest.h>

namespace mpidbg::host {
namespace {

model::Frame F(const char* function, const char* module, uint64_t pc = 0x1000) {
  model::Frame f;
  if (function != nullptr) f.function = function;
  f.module = module;
  f.pc = pc;
  return f;
}

TEST(StackCall, BlockingCalls) {
  for (const char* call : {"MPI_Send", "MPI_Ssend", "MPI_Recv", "MPI_Sendrecv", "MPI_Probe",
                           "MPI_Wait", "MPI_Waitall", "MPI_Barrier", "MPI_Allreduce",
                           "MPI_Comm_split", "MPI_Finalize", "MPI_Win_fence",
                           "MPI_Neighbor_alltoall"}) {
    EXPECT_TRUE(IsBlockingCall(call)) << call;
  }
  for (const char* call : {"MPI_Isend", "MPI_Irecv", "MPI_Iprobe", "MPI_Test", "MPI_Testall",
                           "MPI_Ibarrier", "MPI_Comm_idup", "MPI_Send_init", "MPI_Start",
                           "MPI_Comm_rank", "MPI_Init", "MPI_Isendrecv", "MPI_Type_commit"}) {
    EXPECT_FALSE(IsBlockingCall(call)) << call;
  }
  EXPECT_EQ(CallClassName("MPI_Recv"), "p2p");
  EXPECT_EQ(CallClassName("MPI_Waitany"), "wait");
  EXPECT_EQ(CallClassName("MPI_Bcast"), "coll");
  EXPECT_EQ(CallClassName("MPI_Comm_rank"), "");
}

TEST(StackCall, InnermostBlockingCallIsBlocked) {
  model::Thread t = ThreadFromStack(
      7, {F("MPI_Ssend", "libmpich.so.12"), F("main", "prog"), F("__libc_start_main", "libc.so.6")},
      std::nullopt);
  EXPECT_EQ(t.tid, 7);
  EXPECT_EQ(t.state, "blocked");
  EXPECT_EQ(t.call, "MPI_Ssend");
  EXPECT_EQ(t.call_class, "p2p");
  EXPECT_EQ(t.frames.size(), 3u);
}

TEST(StackCall, NonblockingCallIsInMpi) {
  model::Thread t = ThreadFromStack(7, {F("MPI_Test", "libmpi.so.40"), F("main", "prog")}, {});
  EXPECT_EQ(t.state, "in_mpi");
  EXPECT_EQ(t.call, "MPI_Test");
}

TEST(StackCall, ProgramCallbackInsideMpiIsInMpiNotBlocked) {
  // A user reduction op running inside MPI_Allreduce: the thread computes, it does not wait.
  model::Thread t = ThreadFromStack(
      7, {F("my_op", "prog"), F("MPI_Allreduce", "libmpich.so.12"), F("main", "prog")}, {});
  EXPECT_EQ(t.state, "in_mpi");
  EXPECT_EQ(t.call, "MPI_Allreduce");
}

TEST(StackCall, OutsideMpiAndNotUnwound) {
  EXPECT_EQ(ThreadFromStack(7, {F("sleep", "libc.so.6"), F("main", "prog")}, {}).state,
            "not_in_mpi");
  model::Thread none = ThreadFromStack(7, {}, std::string("no CFI"));
  EXPECT_EQ(none.state, "unknown");
  EXPECT_EQ(none.stack_error, "no CFI");
  // A statically linked MPI: the program's module, the MPI call's name.
  EXPECT_EQ(ThreadFromStack(7, {F("MPI_Recv", "prog"), F("main", "prog")}, {}).state, "blocked");
}

// A thread of the full view that paused recording: its records say "not_in_mpi"
// whatever it does, so its stack decides; a thread not paused, or one whose records
// already put it in MPI, keeps what the records say.
TEST(StackCall, APausedThreadTakesItsStateFromItsStack) {
  model::Thread t;
  t.tid = 7;
  t.recording_paused = true;
  t.frames = {F("MPI_Recv", "libmpich.so.12"), F("main", "prog")};
  StateFromStackWhenPaused(&t);
  EXPECT_EQ(t.state, "blocked");
  EXPECT_EQ(t.call, "MPI_Recv");
  EXPECT_EQ(t.call_class, "p2p");
  EXPECT_EQ(t.state_from, "stack");
  EXPECT_EQ(t.frames.size(), 2u);  // the frames stay

  model::Thread computing = t;
  computing.state = "not_in_mpi";
  computing.call.reset();
  computing.call_class.clear();
  computing.state_from.clear();
  computing.frames = {F("solve", "prog"), F("main", "prog")};
  StateFromStackWhenPaused(&computing);
  EXPECT_EQ(computing.state, "not_in_mpi");  // its stack says so too
  EXPECT_FALSE(computing.call);
  EXPECT_EQ(computing.state_from, "stack");

  model::Thread unwound_not = t;
  unwound_not.state = "not_in_mpi";
  unwound_not.call.reset();
  unwound_not.state_from.clear();
  unwound_not.frames.clear();
  unwound_not.stack_error = "stacks turned off";
  StateFromStackWhenPaused(&unwound_not);
  EXPECT_EQ(unwound_not.state, "unknown");  // no records, no stack: not known
  EXPECT_EQ(unwound_not.state_from, "");

  model::Thread not_paused;
  not_paused.frames = {F("MPI_Recv", "libmpich.so.12"), F("main", "prog")};
  StateFromStackWhenPaused(&not_paused);
  EXPECT_EQ(not_paused.state, "not_in_mpi");  // the records' word stands
  EXPECT_EQ(not_paused.state_from, "");

  model::Thread in_records = t;
  in_records.state = "in_mpi";
  in_records.call = "MPI_Isend";
  in_records.state_from.clear();
  StateFromStackWhenPaused(&in_records);
  EXPECT_EQ(in_records.call, "MPI_Isend");
  EXPECT_EQ(in_records.state_from, "");
}

TEST(StackCall, LibraryThreadsHaveNoProgramFrame) {
  EXPECT_FALSE(HasProgramFrame({F("epoll_wait", "libc.so.6"), F("opal_libevent2022_event_base_loop",
                                                                 "libopen-pal.so.40"),
                                F("start_thread", "libc.so.6"), F("clone3", "libc.so.6")}));
  EXPECT_TRUE(HasProgramFrame({F("MPI_Recv", "libmpich.so.12"), F("main", "prog")}));
  // An unnamed frame in no module is not the program's either way: classified by module.
  EXPECT_TRUE(HasProgramFrame({F(nullptr, "prog")}));
}

}  // namespace
}  // namespace mpidbg::host
