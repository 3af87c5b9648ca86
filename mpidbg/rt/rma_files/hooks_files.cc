// hooks_files.cc — MPI-IO calls (gen/calls_files.def). PMPI_* only.
#include "rt/rma_files/hooks_files.h"

#include "rt/comms/comm_registry.h"
#include "rt/hot/datatype_info.h"
#include "rt/datatypes/datatype_lifetime.h"
#include "rt/rma_files/file_registry.h"
#include "rt/handle_widening.h"
#include "rt/monitor/monitor.h"
#include "rt/hot/operation_registry.h"

namespace mpidbg::rt {
namespace {

void ShowFileComm(CallScope& scope, MPI_File file) {
  uint64_t handle = 0, job_id = 0;
  if (file == MPI_FILE_NULL || !FileComm(file, &handle, &job_id)) return;
  CallDetail& d = scope.detail();
  d.comm_handle = handle;
  d.comm_job_id = job_id;
}

}  // namespace

void PreFileOpen(CallScope& scope, FileOpenArgs& args) { scope.SetComm(LookupComm(args.comm)); }

void PostFileOpen(CallScope& scope, FileOpenArgs& args, int rc) {
  if (rc != MPI_SUCCESS || args.file == nullptr || *args.file == MPI_FILE_NULL) return;
  if (MonitorOn()) MonitorFileOpened(args.filename);
  FileOpening how;
  how.creator = scope.call();
  how.comm = args.comm;
  how.filename = args.filename;
  how.amode = args.amode;
  how.info = args.info;
  RecordFile(*args.file, how);
}

void PreFileClose(CallScope& scope, FileCloseArgs& args) {
  if (args.file == nullptr) return;
  args.saved = HandleToU64(*args.file);
  ShowFileComm(scope, *args.file);
}

// A closed file's view no longer keeps its types: freed ones may be released now.
void PostFileClose(CallScope&, FileCloseArgs& args, int rc) {
  if (rc == MPI_SUCCESS && args.saved != 0) ForgetFile(args.saved);
  RecheckFreedDatatypes();
}

void PreFileSetView(CallScope& scope, FileSetViewArgs& args) { ShowFileComm(scope, args.file); }

// The view's etype and filetype stay in use by MPI until the next view or the close
// (datatype_lifetime.h); freed types the old view kept may be released now.
void PostFileSetView(CallScope&, FileSetViewArgs& args, int rc) {
  if (rc == MPI_SUCCESS)
    FileViewSet(args.file, args.disp, args.etype, args.filetype, args.datarep, args.info);
  RecheckFreedDatatypes();
}

void PreFileSetInfo(CallScope& scope, FileSetInfoArgs& args) { ShowFileComm(scope, args.file); }

void PostFileSetInfo(CallScope&, FileSetInfoArgs& args, int rc) {
  if (rc == MPI_SUCCESS) FileInfoSet(args.file, args.info);
}

void PreFileSetErrhandler(CallScope&, FileErrhandlerArgs&) {}

void PostFileSetErrhandler(CallScope&, FileErrhandlerArgs& args, int rc) {
  if (rc == MPI_SUCCESS) FileErrhandlerSet(args.file, args.errhandler);
}

void PreFileIo(CallScope& scope, FileIoArgs& args) {
  ShowFileComm(scope, args.file);
  CallDetail& d = scope.detail();
  d.count = args.count;
  if (args.datatype == MPI_DATATYPE_NULL) return;
  DatatypeInfo info;
  DescribeDatatype(args.datatype, &info);
  d.datatype = HandleToU64(args.datatype);
  static_assert(sizeof d.datatype_name == sizeof info.name, "name sizes");
  for (unsigned i = 0; i < sizeof info.name; ++i) d.datatype_name[i] = info.name[i];
}

void PostFileIo(CallScope& scope, FileIoArgs& args, int rc) {
  if (MonitorOn() && rc == MPI_SUCCESS) MonitorFileIo(scope.thread(), scope.call(), args);
  if (rc != MPI_SUCCESS || args.request == nullptr || *args.request == MPI_REQUEST_NULL) return;
  CommView comm;  // handle and job id only: file I/O has no peer
  FileComm(args.file, &comm.handle, &comm.job_id);
  OperationDescription d;
  d.call = scope.call();
  d.direction = MPIDBG_OPERATION_FILE;
  d.buffer = args.buf;
  d.count = args.count;
  d.datatype = args.datatype;
  d.peer = MPIDBG_RANK_UNKNOWN;
  d.tag = MPIDBG_TAG_ANY;
  d.comm = &comm;
  d.object = HandleToU64(args.file);
  d.file_offset = args.offset;  // -1 unless an *_at call
  TrackRequest(HandleToU64(*args.request), d, 0, scope.thread()->tid);
}

void PreFilePlain(CallScope& scope, FilePlainArgs& args) { ShowFileComm(scope, args.file); }

void PostFilePlain(CallScope&, FilePlainArgs&, int) {}

}  // namespace mpidbg::rt
