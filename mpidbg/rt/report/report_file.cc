// report_file.cc — see report_file.h.
#include "rt/report/report_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

namespace mpidbg::rt {
namespace {

bool WriteAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    const ssize_t w = write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

}  // namespace

bool WriteReportFile(const char* path, const char* text, size_t n) {
  char tmp[1200];
  if (snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, static_cast<int>(getpid())) >= static_cast<int>(sizeof tmp)) {
    errno = ENAMETOOLONG;
    return false;
  }
  const int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const bool written = WriteAll(fd, text, n) && WriteAll(fd, "\n", 1);
  const int write_errno = errno;
  const bool closed = close(fd) == 0;
  if (!written || !closed) {
    const int e = written ? errno : write_errno;
    unlink(tmp);
    errno = e;
    return false;
  }
  if (rename(tmp, path) != 0) {
    const int e = errno;
    unlink(tmp);
    errno = e;
    return false;
  }
  return true;
}

}  // namespace mpidbg::rt
