// thread_state.cc — see thread_state.h (same hot-path rules): the thread-local pointer,
// mpidbg_thread_mpi_state() and pausing a thread's recording. CallScope is inline in the
// header; the thread's first MPI call, its exit and scratch growth are in thread_setup.cc.
#include "rt/hot/thread_state.h"

#include "mpidbg/runtime_api.h"
#include "rt/hot/pause_drain.h"

namespace mpidbg::rt {

__thread ThreadState* t_state __attribute__((tls_model("initial-exec"))) = nullptr;

}  // namespace mpidbg::rt

// Exported (mpidbg/runtime_api.h). Async-signal-safe: one thread-local load and two
// loads of words only this thread writes; no lock, allocation or system call.
extern "C" __attribute__((visibility("default"))) int mpidbg_thread_mpi_state(int32_t* call) {
  using mpidbg::rt::t_state;
  int32_t state = MPIDBG_THREAD_NOT_IN_MPI;
  int32_t current = MPIDBG_CALL_NONE;
  if (mpidbg::rt::ThreadState* ts = t_state) {
    state = __atomic_load_n(&ts->live.state, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (state != MPIDBG_THREAD_NOT_IN_MPI) current = __atomic_load_n(&ts->live.call, __ATOMIC_RELAXED);
  }
  if (call != nullptr) *call = current;
  return state;
}

namespace {
// The thread's pauses in its live words (records.h, `paused`), with a generation step: a
// debugger that finds the thread outside MPI must know its calls are not being recorded.
int PublishPauses(mpidbg::rt::ThreadState* ts) {
  __atomic_store_n(&ts->live.paused, ts->paused, __ATOMIC_RELAXED);
  mpidbg::rt::g_thread_table.BumpGenerationHot();
  return ts->paused;
}
}  // namespace

// Exported (mpidbg/runtime_api.h). A pause is one more level of the thread's call depth:
// every wrapper already passes a nested call straight to MPI, so a paused call costs what
// a nested one does and the recording path carries no test for it. Completion calls test
// one word more, for requests pending at the pause (rt/hot/pause_drain.h).
extern "C" __attribute__((visibility("default"))) int mpidbg_pause_recording(void) {
  mpidbg::rt::ThreadState* ts = mpidbg::rt::CurrentThread();
  if (ts == nullptr) return -1;
  // Noted before the calls stop being recorded: what is pending now is collected by
  // completion calls that still record (rt/hot/pause_drain.h).
  if (ts->paused == 0) mpidbg::rt::NotePausePending(ts);
  ++ts->depth;
  ++ts->paused;
  return PublishPauses(ts);
}

extern "C" __attribute__((visibility("default"))) int mpidbg_resume_recording(void) {
  mpidbg::rt::ThreadState* ts = mpidbg::rt::t_state;
  if (ts == nullptr || ts->paused == 0) return -1;
  --ts->depth;
  --ts->paused;
  if (ts->paused == 0) mpidbg::rt::ForgetPausePending(ts);
  return PublishPauses(ts);
}
