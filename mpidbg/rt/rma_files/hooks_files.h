// hooks_files.h — hooks of the file calls (gen/calls_files.def).
#ifndef MPIDBG_RT_HOOKS_FILES_H
#define MPIDBG_RT_HOOKS_FILES_H

#include "rt/hot/hook_args_files.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

#define MPIDBG_DECLARE_FILE_HOOKS(Category, Args)   \
  void Pre##Category(CallScope& scope, Args& args); \
  void Post##Category(CallScope& scope, Args& args, int rc);

MPIDBG_DECLARE_FILE_HOOKS(FileOpen, FileOpenArgs)
MPIDBG_DECLARE_FILE_HOOKS(FileClose, FileCloseArgs)
MPIDBG_DECLARE_FILE_HOOKS(FileSetView, FileSetViewArgs)
MPIDBG_DECLARE_FILE_HOOKS(FileSetInfo, FileSetInfoArgs)
MPIDBG_DECLARE_FILE_HOOKS(FileSetErrhandler, FileErrhandlerArgs)
MPIDBG_DECLARE_FILE_HOOKS(FileIo, FileIoArgs)
MPIDBG_DECLARE_FILE_HOOKS(FilePlain, FilePlainArgs)

#undef MPIDBG_DECLARE_FILE_HOOKS

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_HOOKS_FILES_H
