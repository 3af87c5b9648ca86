// file_registry.cc — see file_registry.h.
#include "rt/rma_files/file_registry.h"

#include "core/record_write.h"
#include "core/spinlock.h"
#include "mpidbg/records.h"
#include "rt/comms/comm_registry.h"
#include "rt/handle_widening.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {
namespace {

core::SpinLock g_lock;  // serialises updates of file records

mpidbg_file_record* LiveFile(MPI_File file) {
  mpidbg_object_head* head = g_files.FindLive(HandleToU64(file));
  return head != nullptr ? core::As<mpidbg_file_record>(head) : nullptr;
}

uint64_t InfoValue(MPI_Info info) { return info == MPI_INFO_NULL ? 0 : HandleToU64(info); }

// The errhandler MPI gives a newly opened file (by default the one of MPI_FILE_NULL);
// the reference MPI_File_get_errhandler adds is given back at once.
uint64_t CurrentErrhandler(MPI_File file) {
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  if (PMPI_File_get_errhandler(file, &eh) != MPI_SUCCESS || eh == MPI_ERRHANDLER_NULL) return 0;
  uint64_t value = HandleToU64(eh);
  PMPI_Errhandler_free(&eh);
  return value;
}

}  // namespace

void RecordFile(MPI_File file, const FileOpening& how) {
  const CommView comm = LookupComm(how.comm);
  mpidbg_object_head* head = g_files.BeginCreate(HandleToU64(file), how.creator, 0);
  if (head == nullptr) return;
  auto* rec = core::As<mpidbg_file_record>(head);
  rec->create_pc = (head->hdr.flags & MPIDBG_REC_PREDEFINED) != 0 ? 0 : CurrentCallSite();
  rec->comm_handle = comm.handle;
  rec->comm_job_id = comm.job_id;
  rec->info = InfoValue(how.info);
  rec->errhandler = CurrentErrhandler(file);
  // The view every file starts with (MPI standard, MPI_FILE_OPEN).
  rec->view_disp = 0;
  rec->etype = HandleToU64(MPI_BYTE);
  rec->filetype = HandleToU64(MPI_BYTE);
  core::CopyName(rec->datarep, sizeof rec->datarep, "native");
  rec->amode = how.amode;
  core::CopyName(rec->filename, sizeof rec->filename, how.filename);
  rec->obj.fortran_index = static_cast<int32_t>(PMPI_File_c2f(file));
  g_files.EndCreate(head);
}

void ForgetFile(uint64_t handle) { g_files.MarkFreed(handle, /*released_now=*/true); }

bool FileComm(MPI_File file, uint64_t* comm_handle, uint64_t* comm_job_id) {
  const mpidbg_file_record* rec = LiveFile(file);
  if (rec == nullptr) return false;
  *comm_handle = rec->comm_handle;
  *comm_job_id = rec->comm_job_id;
  return true;
}

void FileViewSet(MPI_File file, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                 const char* datarep, MPI_Info info) {
  core::SpinGuard guard(g_lock);
  mpidbg_file_record* rec = LiveFile(file);
  if (rec == nullptr) return;
  g_files.BeginUpdate(&rec->obj);
  rec->view_disp = disp;
  rec->etype = etype == MPI_DATATYPE_NULL ? 0 : HandleToU64(etype);
  rec->filetype = filetype == MPI_DATATYPE_NULL ? 0 : HandleToU64(filetype);
  core::CopyName(rec->datarep, sizeof rec->datarep, datarep);
  if (info != MPI_INFO_NULL) rec->info = InfoValue(info);  // hints given with the view
  g_files.EndUpdate(&rec->obj);
}

void FileInfoSet(MPI_File file, MPI_Info info) {
  core::SpinGuard guard(g_lock);
  mpidbg_file_record* rec = LiveFile(file);
  if (rec == nullptr) return;
  g_files.BeginUpdate(&rec->obj);
  rec->info = InfoValue(info);
  g_files.EndUpdate(&rec->obj);
}

void FileErrhandlerSet(MPI_File file, MPI_Errhandler errhandler) {
  core::SpinGuard guard(g_lock);
  mpidbg_file_record* rec = LiveFile(file);
  if (rec == nullptr) return;
  g_files.BeginUpdate(&rec->obj);
  rec->errhandler = errhandler == MPI_ERRHANDLER_NULL ? 0 : HandleToU64(errhandler);
  g_files.EndUpdate(&rec->obj);
}

}  // namespace mpidbg::rt
