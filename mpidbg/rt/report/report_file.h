// report_file.h — writing a report file (profile, leaks) so that a reader never sees
// half of one: the text goes to path.tmp.<pid>, then is renamed over `path`.
#ifndef MPIDBG_RT_REPORT_FILE_H
#define MPIDBG_RT_REPORT_FILE_H

#include <stddef.h>

namespace mpidbg::rt {

// `text` (n bytes) and a newline into `path`; false with errno set when it failed (the
// temporary file is removed).
bool WriteReportFile(const char* path, const char* text, size_t n);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_REPORT_FILE_H
