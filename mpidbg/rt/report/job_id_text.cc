// job_id_text.cc — see job_id_text.h.
#include "rt/report/job_id_text.h"

#include <stdio.h>

namespace mpidbg::rt {

void SanitiseJobId(const char* job, char* out, size_t size) {
  if (size == 0) return;
  size_t n = 0;
  for (; job != nullptr && job[n] != '\0' && n + 1 < size; ++n) {
    const char ch = job[n];
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
    out[n] = keep ? ch : '_';
  }
  out[n] = '\0';
  if (n == 0) snprintf(out, size, "unknown");
}

}  // namespace mpidbg::rt
