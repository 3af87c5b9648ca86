// job_file_name.h — the default names of the report files the runtime writes at
// MPI_Finalize ("mpidbg-monitor.<job>.json", "mpidbg-profile.<job>.json",
// "mpidbg-leaks.<job>.json"): one name per job, the same on every rank, so rank 0's
// file is found next to the launch.
#ifndef MPIDBG_RT_JOB_FILE_NAME_H
#define MPIDBG_RT_JOB_FILE_NAME_H

#include <stddef.h>

namespace mpidbg::rt {

// "mpidbg-<what>.<job>.json" for this process's job: the launch record's job id,
// sanitised (job_id_text.h), or the pid when there is none.
void JobFileName(const char* what, char* out, size_t size);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_JOB_FILE_NAME_H
