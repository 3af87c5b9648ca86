// window_state.h — window records (records.h: mpidbg_window_record) and the
// synchronisation state they show: fence count, access and exposure epochs, the lock
// held on each target, the PSCW groups as ranks of the window's communicator, the
// regions attached to a dynamic window, and the RMA operations issued.
//
// Beside each record the runtime keeps the window's communicator as world ranks (for
// the peer_world of request-based RMA) and a working copy of the lock states; arrays in
// the record are replaced whole on every change (records.h: mpidbg_array). One
// spinlock guards all windows: synchronisation calls are not per message, and RMA
// operations only bump a counter under it.
#ifndef MPIDBG_RT_WINDOW_STATE_H
#define MPIDBG_RT_WINDOW_STATE_H

#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

struct OperationDescription;

struct WindowOrigin {
  int32_t creator = MPIDBG_CALL_NONE;
  int32_t flavor = MPIDBG_WIN_CREATE;  // enum mpidbg_win_flavor
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Info info = MPI_INFO_NULL;
};

// A window was created (collectively); its record reads base, size and disp_unit from
// the window's attributes.
void RecordWindow(MPI_Win win, const WindowOrigin& origin);
// MPI_Win_free succeeded: the record becomes an orphan.
void ForgetWindow(uint64_t handle);

// The window's communicator (handle and job id), lock-free; false if not recorded.
bool WindowComm(MPI_Win win, uint64_t* comm_handle, uint64_t* comm_job_id);

void WindowRenamed(MPI_Win win);
void WindowErrhandlerSet(MPI_Win win, MPI_Errhandler errhandler);
void WindowAttached(MPI_Win win, const void* base, MPI_Aint size);
void WindowDetached(MPI_Win win, const void* base);

// Synchronisation. Calls that may wait show the state the wait belongs to: a fence
// counts when entered, start and post show their group and epoch while they run,
// complete/wait/unlock end theirs when they return.
void WindowFenceEntered(MPI_Win win);
void WindowFenced(MPI_Win win, int assert_bits);
void WindowLocked(MPI_Win win, int rank, int lock_type);
void WindowUnlocked(MPI_Win win, int rank);
void WindowLockedAll(MPI_Win win);
void WindowUnlockedAll(MPI_Win win);
void WindowAccessStarted(MPI_Win win, MPI_Group group);
void WindowAccessEnded(MPI_Win win);
void WindowExposureStarted(MPI_Win win, MPI_Group group);
void WindowExposureEnded(MPI_Win win);

// An RMA operation was issued on the window.
void CountRma(MPI_Win win);
// A request-based one: counted, and its request recorded with the window's
// communicator and the window as the op's object (fills d.comm and d.object).
void TrackRmaRequest(MPI_Win win, uint64_t request, OperationDescription& d, uint64_t tid);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_WINDOW_STATE_H
