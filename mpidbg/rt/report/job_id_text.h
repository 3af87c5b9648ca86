// job_id_text.h — a launcher's job id as part of a file name. Pure (no runtime state),
// so the unit tests link it alone.
#ifndef MPIDBG_RT_JOB_ID_TEXT_H
#define MPIDBG_RT_JOB_ID_TEXT_H

#include <stddef.h>

namespace mpidbg::rt {

// `job` with every byte outside [A-Za-z0-9._-] replaced by '_' (a file name part);
// "unknown" when empty. Writes at most `size` bytes, NUL included.
void SanitiseJobId(const char* job, char* out, size_t size);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_JOB_ID_TEXT_H
