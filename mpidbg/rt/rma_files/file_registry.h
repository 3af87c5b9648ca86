// file_registry.h — file records (records.h: mpidbg_file_record): how the file was
// opened, its view, hints and errhandler. Not on a per-message path; updates of one
// file's record are serialised by a spinlock.
#ifndef MPIDBG_RT_FILE_REGISTRY_H
#define MPIDBG_RT_FILE_REGISTRY_H

#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

struct FileOpening {
  int32_t creator = MPIDBG_CALL_NONE;
  MPI_Comm comm = MPI_COMM_NULL;
  const char* filename = nullptr;
  int amode = 0;
  MPI_Info info = MPI_INFO_NULL;
};

void RecordFile(MPI_File file, const FileOpening& how);
// MPI_File_close succeeded: the record becomes an orphan.
void ForgetFile(uint64_t handle);

// The file's communicator (handle and job id), lock-free; false if not recorded.
bool FileComm(MPI_File file, uint64_t* comm_handle, uint64_t* comm_job_id);

void FileViewSet(MPI_File file, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                 const char* datarep, MPI_Info info);
void FileInfoSet(MPI_File file, MPI_Info info);
void FileErrhandlerSet(MPI_File file, MPI_Errhandler errhandler);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_FILE_REGISTRY_H
