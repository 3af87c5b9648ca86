// window_state.cc — see window_state.h.
#include "rt/rma_files/window_state.h"

#include <stdlib.h>
#include <string.h>

#include "core/handle_map.h"
#include "core/record_arrays.h"
#include "core/record_write.h"
#include "core/spinlock.h"
#include "rt/comms/comm_registry.h"
#include "rt/handle_widening.h"
#include "rt/hot/operation_registry.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {
namespace {

static_assert(sizeof(int) == sizeof(int32_t), "ranks are stored as int32_t");

struct WindowState {
  mpidbg_window_record* rec;
  uint64_t comm_handle;
  uint64_t comm_job_id;
  int32_t size;          // ranks in the window's communicator
  int32_t* world_ranks;  // comm rank -> MPI_COMM_WORLD rank
  int32_t* locks;        // comm rank -> enum mpidbg_win_lock (what target_locks copies)
};

core::SpinLock g_lock;         // guards g_states, the states and every record update
core::HandleMap g_states(16);  // window handle -> WindowState*

WindowState* StateLocked(MPI_Win win) {
  uint64_t value = 0;
  if (!g_states.Find(HandleToU64(win), &value) || value == 0) return nullptr;
  return reinterpret_cast<WindowState*>(static_cast<uintptr_t>(value));
}

mpidbg_window_record* Rec(WindowState* s) { return s->rec; }

// Ranks, in `to`, of the members of `from` (MPIDBG_RANK_UNKNOWN for non-members);
// malloc'd, *n gets the count. nullptr when the group is empty or unreadable.
int32_t* TranslateGroup(MPI_Group from, MPI_Group to, int* n) {
  *n = 0;
  int size = 0;
  if (from == MPI_GROUP_NULL || PMPI_Group_size(from, &size) != MPI_SUCCESS || size <= 0)
    return nullptr;
  int* in = static_cast<int*>(malloc(sizeof(int) * static_cast<size_t>(size)));
  int* out = static_cast<int*>(malloc(sizeof(int) * static_cast<size_t>(size)));
  if (in == nullptr || out == nullptr) {
    free(in);
    free(out);
    return nullptr;
  }
  for (int i = 0; i < size; ++i) in[i] = i;
  if (PMPI_Group_translate_ranks(from, size, in, to, out) != MPI_SUCCESS) {
    for (int i = 0; i < size; ++i) out[i] = MPIDBG_RANK_UNKNOWN;
  }
  for (int i = 0; i < size; ++i) {
    if (out[i] == MPI_UNDEFINED || out[i] < 0) out[i] = MPIDBG_RANK_UNKNOWN;
  }
  free(in);
  *n = size;
  return reinterpret_cast<int32_t*>(out);
}

// `group`'s members as ranks of the window's communicator (the window's group).
mpidbg_array GroupAsWindowRanks(MPI_Win win, MPI_Group group) {
  mpidbg_array a{0, 0, sizeof(int32_t)};
  MPI_Group window_group = MPI_GROUP_NULL;
  if (PMPI_Win_get_group(win, &window_group) != MPI_SUCCESS) return a;
  int n = 0;
  int32_t* ranks = TranslateGroup(group, window_group, &n);
  PMPI_Group_free(&window_group);
  a = core::MakeArray(ranks, static_cast<uint64_t>(n), sizeof(int32_t));
  free(ranks);
  return a;
}

int32_t* WorldRanksOf(MPI_Win win, int32_t* size) {
  *size = 0;
  MPI_Group window_group = MPI_GROUP_NULL, world_group = MPI_GROUP_NULL;
  if (PMPI_Win_get_group(win, &window_group) != MPI_SUCCESS) return nullptr;
  int32_t* ranks = nullptr;
  if (PMPI_Comm_group(MPI_COMM_WORLD, &world_group) == MPI_SUCCESS) {
    int n = 0;
    ranks = TranslateGroup(window_group, world_group, &n);
    *size = n;
    PMPI_Group_free(&world_group);
  }
  PMPI_Group_free(&window_group);
  return ranks;
}

int64_t AttrAint(MPI_Win win, int key) {
  MPI_Aint* value = nullptr;
  int flag = 0;
  if (PMPI_Win_get_attr(win, key, &value, &flag) != MPI_SUCCESS || !flag || value == nullptr)
    return 0;
  return *value;
}

int32_t AttrInt(MPI_Win win, int key) {
  int* value = nullptr;
  int flag = 0;
  if (PMPI_Win_get_attr(win, key, &value, &flag) != MPI_SUCCESS || !flag || value == nullptr)
    return 0;
  return *value;
}

uint64_t AttrBase(MPI_Win win) {
  void* base = nullptr;
  int flag = 0;
  if (PMPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag) != MPI_SUCCESS || !flag) return 0;
  return AddressOf(base);
}

void ReadWinName(MPI_Win win, char* out, uint32_t out_size) {
  char name[MPI_MAX_OBJECT_NAME];
  int len = 0;
  name[0] = '\0';
  if (PMPI_Win_get_name(win, name, &len) != MPI_SUCCESS) name[0] = '\0';
  name[MPI_MAX_OBJECT_NAME - 1] = '\0';
  core::CopyName(out, out_size, name);
}

// The errhandler MPI gives a new window; the reference MPI_Win_get_errhandler adds is
// given back at once (MPI standard, MPI_WIN_GET_ERRHANDLER).
uint64_t CurrentErrhandler(MPI_Win win) {
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  if (PMPI_Win_get_errhandler(win, &eh) != MPI_SUCCESS || eh == MPI_ERRHANDLER_NULL) return 0;
  uint64_t value = HandleToU64(eh);
  PMPI_Errhandler_free(&eh);
  return value;
}

// Replaces one array field inside an open update window; the old one is returned for
// FreeArray once the window is closed.
mpidbg_array Swap(mpidbg_array* field, mpidbg_array fresh) {
  mpidbg_array old = *field;
  *field = fresh;
  return old;
}

// Publishes the working copy of the lock states with the given access epoch.
void PublishLocksLocked(WindowState* s, int32_t access_epoch) {
  mpidbg_window_record* rec = Rec(s);
  mpidbg_array fresh = core::MakeArray(s->locks, static_cast<uint64_t>(s->size), sizeof(int32_t));
  g_windows.BeginUpdate(&rec->obj);
  mpidbg_array old = Swap(&rec->target_locks, fresh);
  rec->access_epoch = access_epoch;
  g_windows.EndUpdate(&rec->obj);
  core::FreeArray(old);
}

bool AnyLockedLocked(const WindowState* s) {
  for (int32_t i = 0; i < s->size; ++i) {
    if (s->locks[i] != MPIDBG_LOCK_NONE) return true;
  }
  return false;
}

void SetGroupLocked(WindowState* s, bool access, mpidbg_array group, int32_t epoch) {
  mpidbg_window_record* rec = Rec(s);
  g_windows.BeginUpdate(&rec->obj);
  mpidbg_array old = Swap(access ? &rec->access_group : &rec->exposure_group, group);
  if (access) {
    rec->access_epoch = epoch;
  } else {
    rec->exposure_epoch = epoch;
  }
  g_windows.EndUpdate(&rec->obj);
  core::FreeArray(old);
}

void FreeState(WindowState* s) {
  free(s->world_ranks);
  free(s->locks);
  free(s);
}

}  // namespace

void RecordWindow(MPI_Win win, const WindowOrigin& origin) {
  auto* s = static_cast<WindowState*>(malloc(sizeof(WindowState)));
  if (s == nullptr) return;
  *s = WindowState{};
  s->world_ranks = WorldRanksOf(win, &s->size);
  s->locks = static_cast<int32_t*>(calloc(s->size > 0 ? s->size : 1, sizeof(int32_t)));
  const CommView comm = LookupComm(origin.comm);
  s->comm_handle = comm.handle;
  s->comm_job_id = comm.job_id;

  mpidbg_object_head* head = g_windows.BeginCreate(HandleToU64(win), origin.creator, 0);
  if (head == nullptr || s->locks == nullptr) {
    if (head != nullptr) g_windows.Discard(head);
    FreeState(s);
    return;
  }
  auto* rec = core::As<mpidbg_window_record>(head);
  rec->create_pc = (head->hdr.flags & MPIDBG_REC_PREDEFINED) != 0 ? 0 : CurrentCallSite();
  rec->comm_handle = comm.handle;
  rec->comm_job_id = comm.job_id;
  rec->base = AttrBase(win);
  rec->size = AttrAint(win, MPI_WIN_SIZE);
  rec->disp_unit = AttrInt(win, MPI_WIN_DISP_UNIT);
  rec->errhandler = CurrentErrhandler(win);
  rec->info = origin.info == MPI_INFO_NULL ? 0 : HandleToU64(origin.info);
  rec->target_locks = core::MakeArray(s->locks, static_cast<uint64_t>(s->size), sizeof(int32_t));
  rec->access_group = mpidbg_array{0, 0, sizeof(int32_t)};
  rec->exposure_group = mpidbg_array{0, 0, sizeof(int32_t)};
  rec->attached = mpidbg_array{0, 0, sizeof(int64_t)};
  rec->flavor = origin.flavor;
  rec->access_epoch = MPIDBG_EPOCH_NONE;
  rec->exposure_epoch = MPIDBG_EPOCH_NONE;
  rec->comm_size = s->size;
  ReadWinName(win, rec->obj.name, sizeof rec->obj.name);
  rec->obj.fortran_index = static_cast<int32_t>(PMPI_Win_c2f(win));
  s->rec = rec;

  WindowState* previous = nullptr;
  {
    core::SpinGuard guard(g_lock);
    uint64_t old = 0;
    if (!g_states.Insert(HandleToU64(win), AddressOf(s), &old)) {
      g_windows.Discard(head);
      FreeState(s);
      return;
    }
    previous = reinterpret_cast<WindowState*>(static_cast<uintptr_t>(old));
    g_windows.EndCreate(head);
  }
  // A state left from a window freed where the runtime could not see it.
  if (previous != nullptr) FreeState(previous);
}

void ForgetWindow(uint64_t handle) {
  WindowState* s = nullptr;
  {
    core::SpinGuard guard(g_lock);
    uint64_t value = 0;
    if (g_states.Erase(handle, &value)) s = reinterpret_cast<WindowState*>(static_cast<uintptr_t>(value));
  }
  if (s != nullptr) FreeState(s);
  g_windows.MarkFreed(handle, /*released_now=*/true);
}

bool WindowComm(MPI_Win win, uint64_t* comm_handle, uint64_t* comm_job_id) {
  mpidbg_object_head* head = g_windows.FindLive(HandleToU64(win));
  if (head == nullptr) return false;
  const auto* rec = core::As<mpidbg_window_record>(head);
  *comm_handle = rec->comm_handle;
  *comm_job_id = rec->comm_job_id;
  return true;
}

void WindowRenamed(MPI_Win win) {
  char name[sizeof(mpidbg_object_head::name)];
  ReadWinName(win, name, sizeof name);
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr) return;
  g_windows.BeginUpdate(&Rec(s)->obj);
  core::CopyName(Rec(s)->obj.name, sizeof Rec(s)->obj.name, name);
  g_windows.EndUpdate(&Rec(s)->obj);
}

void WindowErrhandlerSet(MPI_Win win, MPI_Errhandler errhandler) {
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr) return;
  g_windows.BeginUpdate(&Rec(s)->obj);
  Rec(s)->errhandler = errhandler == MPI_ERRHANDLER_NULL ? 0 : HandleToU64(errhandler);
  g_windows.EndUpdate(&Rec(s)->obj);
}

void WindowAttached(MPI_Win win, const void* base, MPI_Aint size) {
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr) return;
  mpidbg_window_record* rec = Rec(s);
  const uint32_t pairs = rec->attached.count / 2;
  auto* data = static_cast<int64_t*>(malloc(sizeof(int64_t) * 2 * (pairs + 1)));
  if (data == nullptr) return;
  if (pairs > 0) memcpy(data, core::ArrayData<int64_t>(rec->attached), sizeof(int64_t) * 2 * pairs);
  data[2 * pairs] = static_cast<int64_t>(AddressOf(base));
  data[2 * pairs + 1] = size;
  mpidbg_array fresh = core::MakeArray(data, 2 * (pairs + 1), sizeof(int64_t));
  free(data);
  g_windows.BeginUpdate(&rec->obj);
  mpidbg_array old = Swap(&rec->attached, fresh);
  g_windows.EndUpdate(&rec->obj);
  core::FreeArray(old);
}

void WindowDetached(MPI_Win win, const void* base) {
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr) return;
  mpidbg_window_record* rec = Rec(s);
  const uint32_t pairs = rec->attached.count / 2;
  const int64_t* old_data = core::ArrayData<int64_t>(rec->attached);
  auto* data = static_cast<int64_t*>(malloc(sizeof(int64_t) * 2 * (pairs > 0 ? pairs : 1)));
  if (data == nullptr) return;
  uint32_t kept = 0;
  bool removed = false;
  for (uint32_t i = 0; i < pairs; ++i) {
    if (!removed && old_data[2 * i] == static_cast<int64_t>(AddressOf(base))) {
      removed = true;  // one region per detach, the first attached at that base
      continue;
    }
    data[2 * kept] = old_data[2 * i];
    data[2 * kept + 1] = old_data[2 * i + 1];
    ++kept;
  }
  mpidbg_array fresh = core::MakeArray(data, 2 * kept, sizeof(int64_t));
  free(data);
  g_windows.BeginUpdate(&rec->obj);
  mpidbg_array old = Swap(&rec->attached, fresh);
  g_windows.EndUpdate(&rec->obj);
  core::FreeArray(old);
}

void WindowFenceEntered(MPI_Win win) {
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr) return;
  g_windows.BeginUpdate(&Rec(s)->obj);
  Rec(s)->fence_count += 1;
  g_windows.EndUpdate(&Rec(s)->obj);
}

void WindowFenced(MPI_Win win, int assert_bits) {
  // A fence asserting MPI_MODE_NOSUCCEED starts no epoch; any other opens both.
  const int32_t epoch =
      (assert_bits & MPI_MODE_NOSUCCEED) != 0 ? MPIDBG_EPOCH_NONE : MPIDBG_EPOCH_FENCE;
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr) return;
  g_windows.BeginUpdate(&Rec(s)->obj);
  Rec(s)->access_epoch = epoch;
  Rec(s)->exposure_epoch = epoch;
  g_windows.EndUpdate(&Rec(s)->obj);
}

void WindowLocked(MPI_Win win, int rank, int lock_type) {
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr || rank < 0 || rank >= s->size) return;  // MPI_PROC_NULL: no epoch
  s->locks[rank] = lock_type == MPI_LOCK_EXCLUSIVE ? MPIDBG_LOCK_EXCLUSIVE : MPIDBG_LOCK_SHARED;
  PublishLocksLocked(s, MPIDBG_EPOCH_LOCK);
}

void WindowUnlocked(MPI_Win win, int rank) {
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr || rank < 0 || rank >= s->size) return;
  s->locks[rank] = MPIDBG_LOCK_NONE;
  PublishLocksLocked(s, AnyLockedLocked(s) ? MPIDBG_EPOCH_LOCK : MPIDBG_EPOCH_NONE);
}

void WindowLockedAll(MPI_Win win) {
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr) return;
  // MPI_Win_lock_all takes a shared lock on every process of the window.
  for (int32_t i = 0; i < s->size; ++i) s->locks[i] = MPIDBG_LOCK_SHARED;
  PublishLocksLocked(s, MPIDBG_EPOCH_LOCK_ALL);
}

void WindowUnlockedAll(MPI_Win win) {
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr) return;
  for (int32_t i = 0; i < s->size; ++i) s->locks[i] = MPIDBG_LOCK_NONE;
  PublishLocksLocked(s, MPIDBG_EPOCH_NONE);
}

namespace {

// A PSCW group epoch begins (access: MPI_Win_start; exposure: MPI_Win_post).
void GroupEpochStarted(MPI_Win win, MPI_Group group, bool access, int32_t epoch) {
  mpidbg_array ranks = GroupAsWindowRanks(win, group);
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr) {
    core::FreeArray(ranks);
    return;
  }
  SetGroupLocked(s, access, ranks, epoch);
}

void GroupEpochEnded(MPI_Win win, bool access) {
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr) return;
  SetGroupLocked(s, access, mpidbg_array{0, 0, sizeof(int32_t)}, MPIDBG_EPOCH_NONE);
}

}  // namespace

void WindowAccessStarted(MPI_Win win, MPI_Group group) {
  GroupEpochStarted(win, group, /*access=*/true, MPIDBG_EPOCH_START);
}

void WindowAccessEnded(MPI_Win win) { GroupEpochEnded(win, /*access=*/true); }

void WindowExposureStarted(MPI_Win win, MPI_Group group) {
  GroupEpochStarted(win, group, /*access=*/false, MPIDBG_EPOCH_POST);
}

void WindowExposureEnded(MPI_Win win) { GroupEpochEnded(win, /*access=*/false); }

void CountRma(MPI_Win win) {
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  if (s == nullptr) return;
  g_windows.BeginUpdate(&Rec(s)->obj);
  Rec(s)->rma_count += 1;
  g_windows.EndUpdate(&Rec(s)->obj);
}

void TrackRmaRequest(MPI_Win win, uint64_t request, OperationDescription& d, uint64_t tid) {
  core::SpinGuard guard(g_lock);
  WindowState* s = StateLocked(win);
  CommView comm;
  d.object = HandleToU64(win);
  if (s != nullptr) {
    comm.handle = s->comm_handle;
    comm.job_id = s->comm_job_id;
    comm.world_ranks = s->world_ranks;  // kept until MPI_Win_free, which takes g_lock
    comm.size = s->world_ranks != nullptr ? s->size : 0;
    d.comm = &comm;
    g_windows.BeginUpdate(&Rec(s)->obj);
    Rec(s)->rma_count += 1;
    g_windows.EndUpdate(&Rec(s)->obj);
  }
  TrackRequest(request, d, 0, tid);
  d.comm = nullptr;
}

}  // namespace mpidbg::rt
