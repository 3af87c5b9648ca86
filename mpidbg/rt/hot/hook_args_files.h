// hook_args_files.h — what the file wrappers (gen/calls_files.def) hand their hooks.
#ifndef MPIDBG_RT_HOOK_ARGS_FILES_H
#define MPIDBG_RT_HOOK_ARGS_FILES_H

#include <mpi.h>
#include <stdint.h>

namespace mpidbg::rt {

struct FileOpenArgs {
  MPI_Comm comm = MPI_COMM_NULL;
  const char* filename = nullptr;
  int amode = 0;
  MPI_Info info = MPI_INFO_NULL;
  MPI_File* file = nullptr;
};

// MPI_File_close (sets the handle to MPI_FILE_NULL).
struct FileCloseArgs {
  MPI_File* file = nullptr;
  uint64_t saved = 0;
};

struct FileSetViewArgs {
  MPI_File file = MPI_FILE_NULL;
  MPI_Offset disp = 0;
  MPI_Datatype etype = MPI_DATATYPE_NULL;
  MPI_Datatype filetype = MPI_DATATYPE_NULL;
  const char* datarep = nullptr;
  MPI_Info info = MPI_INFO_NULL;
};

struct FileSetInfoArgs {
  MPI_File file = MPI_FILE_NULL;
  MPI_Info info = MPI_INFO_NULL;
};

struct FileErrhandlerArgs {
  MPI_File file = MPI_FILE_NULL;
  MPI_Errhandler errhandler = MPI_ERRHANDLER_NULL;
};

// Reads and writes: blocking ones appear as thread state, nonblocking ones as requests.
struct FileIoArgs {
  MPI_File file = MPI_FILE_NULL;
  MPI_Offset offset = -1;  // explicit offset of the *_at calls, -1 otherwise
  const void* buf = nullptr;
  int64_t count = 0;  // int, or MPI_Count for the large-count (_c) calls
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  MPI_Request* request = nullptr;
};

// Calls recorded as thread state only (MPI_File_sync, MPI_File_delete).
struct FilePlainArgs {
  MPI_File file = MPI_FILE_NULL;
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOK_ARGS_FILES_H
