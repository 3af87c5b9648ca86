// hooks_objects.cc — see hooks_objects.h.
//
// Info records hold the object's entries, re-read from MPI after every change (so they
// are what MPI has, whatever a call did). Errhandler and op records hold the user
// function's address. Freeing a handle turns its record into an orphan
// (core/object_registry.h); an errhandler MPI still uses (attached to a live object)
// stays unreleased until the last object lets go of it.
#include <stddef.h>
#include <stdlib.h>

#include "core/record_arrays.h"
#include "core/record_write.h"
#include "core/spinlock.h"
#include "rt/comms/comm_registry.h"
#include "rt/handle_widening.h"
#include "rt/objects/hooks_objects.h"
#include "rt/objects/info_entries.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {
namespace {

// Serialises replacing an info record's entries (two threads changing one info object
// at once is the application's race, but must not make the runtime free twice).
core::SpinLock g_info_lock;

// ---- info ----

// Creates the record of `info` with entries already read (ownership passes).
void CreateInfoRecord(MPI_Info info, int32_t creator, uint32_t flags, const char* name,
                      mpidbg_array entries, int32_t nkeys) {
  mpidbg_object_head* head = g_infos.BeginCreate(HandleToU64(info), creator, flags);
  if (head == nullptr) {
    core::FreeArray(entries);
    return;
  }
  auto* rec = core::As<mpidbg_info_record>(head);
  rec->create_pc = (head->hdr.flags & MPIDBG_REC_PREDEFINED) != 0 ? 0 : CurrentCallSite();
  rec->obj.fortran_index = static_cast<int32_t>(PMPI_Info_c2f(info));
  core::CopyName(rec->obj.name, sizeof rec->obj.name, name);
  rec->entries = entries;
  rec->nkeys = nkeys;
  g_infos.EndCreate(head);
}

void RecordInfo(MPI_Info info, int32_t creator, uint32_t flags, const char* name) {
  mpidbg_array entries;
  int32_t nkeys = 0;
  if (!ReadInfoEntries(info, &entries, &nkeys)) {
    entries = mpidbg_array{0, 0, 1};
    nkeys = 0;
  }
  CreateInfoRecord(info, creator, flags, name, entries, nkeys);
}

// After MPI_Info_set/delete: the record gets MPI's entries. An info object the runtime
// did not see created (e.g. from MPI_Comm_get_info) gets a record now, creator unknown.
void RefreshInfo(MPI_Info info) {
  mpidbg_array entries;
  int32_t nkeys = 0;
  if (!ReadInfoEntries(info, &entries, &nkeys)) return;
  mpidbg_array old{0, 0, 1};
  bool updated = false;
  {
    core::SpinGuard guard(g_info_lock);
    if (mpidbg_object_head* head = g_infos.FindLive(HandleToU64(info))) {
      auto* rec = core::As<mpidbg_info_record>(head);
      old = rec->entries;
      g_infos.BeginUpdate(head);
      rec->entries = entries;
      rec->nkeys = nkeys;
      g_infos.EndUpdate(head);
      updated = true;
    }
  }
  if (updated) {
    core::FreeArray(old);  // after the record stopped pointing at it
  } else {
    CreateInfoRecord(info, MPIDBG_CALL_NONE, 0, "", entries, nkeys);
  }
}

// ---- errhandlers ----

bool NamedBy(const mpidbg_table& table, uint64_t errhandler, size_t offset) {
  bool used = false;
  ForEachRecord(table, [&](mpidbg_record_header* h) {
    const auto* field = reinterpret_cast<const uint64_t*>(reinterpret_cast<const char*>(h) + offset);
    if (!used && (__atomic_load_n(&h->flags, __ATOMIC_RELAXED) & MPIDBG_REC_FREED) == 0 &&
        __atomic_load_n(field, __ATOMIC_RELAXED) == errhandler)
      used = true;
  });
  return used;
}

bool ErrhandlerInUse(uint64_t errhandler) {
  const mpidbg_root& r = mpidbg_runtime_root;
  return CommsUseErrhandler(errhandler) ||
         NamedBy(r.windows, errhandler, offsetof(mpidbg_window_record, errhandler)) ||
         NamedBy(r.files, errhandler, offsetof(mpidbg_file_record, errhandler)) ||
         NamedBy(r.sessions, errhandler, offsetof(mpidbg_session_record, errhandler));
}

void RecordErrhandler(uint64_t handle, int32_t fortran_index, int32_t creator, uint32_t flags,
                      uint64_t function, int32_t target, const char* name) {
  mpidbg_object_head* head = g_errhandlers.BeginCreate(handle, creator, flags);
  if (head == nullptr) return;
  auto* rec = core::As<mpidbg_errhandler_record>(head);
  rec->create_pc = (head->hdr.flags & MPIDBG_REC_PREDEFINED) != 0 ? 0 : CurrentCallSite();
  rec->obj.fortran_index = fortran_index;
  core::CopyName(rec->obj.name, sizeof rec->obj.name, name);
  rec->function = function;
  rec->target = target;
  g_errhandlers.EndCreate(head);
}

void RecordPredefinedErrhandler(MPI_Errhandler eh, const char* name) {
  RecordErrhandler(HandleToU64(eh), static_cast<int32_t>(PMPI_Errhandler_c2f(eh)),
                   MPIDBG_CALL_MPIDBG_PREDEFINED, MPIDBG_REC_PREDEFINED, 0, MPIDBG_ERRH_ANY, name);
}

// ---- reduction ops ----

void RecordOp(MPI_Op op, int32_t creator, uint32_t flags, uint64_t function, int commute,
              const char* name) {
  mpidbg_object_head* head = g_reduce_ops.BeginCreate(HandleToU64(op), creator, flags);
  if (head == nullptr) return;
  auto* rec = core::As<mpidbg_reduce_op_record>(head);
  rec->create_pc = (head->hdr.flags & MPIDBG_REC_PREDEFINED) != 0 ? 0 : CurrentCallSite();
  rec->obj.fortran_index = static_cast<int32_t>(PMPI_Op_c2f(op));
  core::CopyName(rec->obj.name, sizeof rec->obj.name, name);
  rec->function = function;
  rec->commute = commute != 0 ? 1 : 0;
  g_reduce_ops.EndCreate(head);
}

}  // namespace

uint64_t InfoValue(MPI_Info info) { return info == MPI_INFO_NULL ? 0 : HandleToU64(info); }

uint64_t ErrhandlerValue(MPI_Errhandler errhandler) {
  return errhandler == MPI_ERRHANDLER_NULL ? 0 : HandleToU64(errhandler);
}

void PreInfo(CallFacts, InfoArgs& args) {
  if (args.freed != nullptr) args.saved = HandleToU64(*args.freed);
}

void PostInfo(CallFacts call, InfoArgs& args, int rc) {
  if (rc != MPI_SUCCESS) return;
  switch (call.call) {
    case MPIDBG_CALL_MPI_Info_create:
    case MPIDBG_CALL_MPI_Info_dup:
      if (args.newinfo != nullptr && *args.newinfo != MPI_INFO_NULL)
        RecordInfo(*args.newinfo, call.call, 0, "");
      return;
    case MPIDBG_CALL_MPI_Info_set:
    case MPIDBG_CALL_MPI_Info_delete:
      if (args.info != MPI_INFO_NULL) RefreshInfo(args.info);
      return;
    case MPIDBG_CALL_MPI_Info_free:
      // MPI copies what it keeps of an info object: freeing it releases it.
      if (args.saved != 0) g_infos.MarkFreed(args.saved, /*released_now=*/true);
      return;
    default:
      // Every other call that hands out a new info object (the hints in use of a
      // communicator, window, file or session; the environment's info).
      if (args.newinfo != nullptr && *args.newinfo != MPI_INFO_NULL)
        RecordInfo(*args.newinfo, call.call, 0, "");
      return;
  }
}

void PreErrhandler(CallFacts, ErrhandlerArgs& args) {
  if (args.freed != nullptr) args.saved = HandleToU64(*args.freed);
}

void PostErrhandler(CallFacts call, ErrhandlerArgs& args, int rc) {
  if (rc != MPI_SUCCESS) return;
  if (call.call == MPIDBG_CALL_MPI_Errhandler_free) {
    if (args.saved != 0) g_errhandlers.MarkFreed(args.saved, !ErrhandlerInUse(args.saved));
    return;
  }
  if (args.newerrhandler == nullptr || *args.newerrhandler == MPI_ERRHANDLER_NULL) return;
  const MPI_Errhandler eh = *args.newerrhandler;
  RecordErrhandler(HandleToU64(eh), static_cast<int32_t>(PMPI_Errhandler_c2f(eh)), call.call,
                   0, args.function, args.target, "");
}

const mpidbg_errhandler_record* FindErrhandler(uint64_t errhandler) {
  mpidbg_object_head* head = g_errhandlers.FindLive(errhandler);
  return head == nullptr ? nullptr : core::As<mpidbg_errhandler_record>(head);
}

void ErrhandlerDetached(uint64_t errhandler) {
  if (errhandler == 0) return;
  mpidbg_object_head* head = g_errhandlers.Find(errhandler);
  if (head == nullptr || (head->hdr.flags & MPIDBG_REC_FREED) == 0 ||
      (head->hdr.flags & MPIDBG_REC_RELEASED) != 0)
    return;
  if (!ErrhandlerInUse(errhandler)) g_errhandlers.MarkHandleReleased(errhandler);
}

void PreReduceOp(CallFacts, ReduceOpArgs& args) {
  if (args.freed != nullptr) args.saved = HandleToU64(*args.freed);
}

void PostReduceOp(CallFacts call, ReduceOpArgs& args, int rc) {
  if (rc != MPI_SUCCESS) return;
  if (call.call == MPIDBG_CALL_MPI_Op_free) {
    if (args.saved != 0) g_reduce_ops.MarkFreed(args.saved, /*released_now=*/true);
    return;
  }
  if (args.newop != nullptr && *args.newop != MPI_OP_NULL)
    RecordOp(*args.newop, call.call, 0, args.function, args.commute, "");
}

#if MPI_VERSION >= 4
void PreSession(CallFacts, SessionArgs& args) {
  if (args.freed == nullptr) return;
  args.saved = HandleToU64(*args.freed);
  mpidbg_object_head* head = g_sessions.FindLive(args.saved);
  if (head != nullptr) args.saved_errhandler = core::As<mpidbg_session_record>(head)->errhandler;
}

void PostSession(CallFacts call, SessionArgs& args, int rc) {
  if (rc != MPI_SUCCESS) return;
  if (call.call == MPIDBG_CALL_MPI_Session_finalize) {
    if (args.saved == 0) return;
    g_sessions.MarkFreed(args.saved, /*released_now=*/true);
    ErrhandlerDetached(args.saved_errhandler);
    return;
  }
  if (args.newsession == nullptr || *args.newsession == MPI_SESSION_NULL) return;
  // A program of the sessions model may never call MPI_Init, where the orphan budget
  // is otherwise read.
  if (__atomic_load_n(&mpidbg_runtime_root.process_state, __ATOMIC_ACQUIRE) ==
      MPIDBG_PROCESS_BEFORE_INIT)
    ConfigureOrphans();
  const MPI_Session session = *args.newsession;
  mpidbg_object_head* head = g_sessions.BeginCreate(HandleToU64(session), call.call, 0);
  if (head == nullptr) return;
  auto* rec = core::As<mpidbg_session_record>(head);
  rec->create_pc = (head->hdr.flags & MPIDBG_REC_PREDEFINED) != 0 ? 0 : CurrentCallSite();
  rec->obj.fortran_index = static_cast<int32_t>(PMPI_Session_c2f(session));
  rec->info = InfoValue(args.info);
  rec->errhandler = ErrhandlerValue(args.errhandler);
  g_sessions.EndCreate(head);
}
#endif

void RegisterPredefinedObjects() {
  const struct {
    MPI_Op op;
    const char* name;
  } ops[] = {
      {MPI_MAX, "MPI_MAX"},       {MPI_MIN, "MPI_MIN"},       {MPI_SUM, "MPI_SUM"},
      {MPI_PROD, "MPI_PROD"},     {MPI_LAND, "MPI_LAND"},     {MPI_BAND, "MPI_BAND"},
      {MPI_LOR, "MPI_LOR"},       {MPI_BOR, "MPI_BOR"},       {MPI_LXOR, "MPI_LXOR"},
      {MPI_BXOR, "MPI_BXOR"},     {MPI_MINLOC, "MPI_MINLOC"}, {MPI_MAXLOC, "MPI_MAXLOC"},
      {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"},
  };
  // Every predefined operation is commutative (MPI standard, "Predefined Reduction
  // Operations").
  for (const auto& o : ops) RecordOp(o.op, MPIDBG_CALL_MPIDBG_PREDEFINED, MPIDBG_REC_PREDEFINED, 0, 1, o.name);

  RecordPredefinedErrhandler(MPI_ERRORS_ARE_FATAL, "MPI_ERRORS_ARE_FATAL");
  RecordPredefinedErrhandler(MPI_ERRORS_RETURN, "MPI_ERRORS_RETURN");
#ifdef MPI_ERRORS_ABORT
  RecordPredefinedErrhandler(MPI_ERRORS_ABORT, "MPI_ERRORS_ABORT");
#endif

  RecordInfo(MPI_INFO_ENV, MPIDBG_CALL_MPIDBG_PREDEFINED, MPIDBG_REC_PREDEFINED, "MPI_INFO_ENV");
}

}  // namespace mpidbg::rt
