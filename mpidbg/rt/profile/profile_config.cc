// profile_config.cc — see profile_config.h.
#include "rt/profile/profile_config.h"
#include "rt/report/job_id_text.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/record_write.h"
#include "mpidbg/records.h"

namespace mpidbg::rt {
namespace {

// A whole decimal number (no sign, no trailing text); false otherwise.
bool ParseUnsigned(const char* text, unsigned long long* out) {
  if (text == nullptr || *text < '0' || *text > '9') return false;
  char* end = nullptr;
  *out = strtoull(text, &end, 10);
  return *end == '\0';
}

bool IsOneOf(const char* text, const char* const* words) {
  for (; *words != nullptr; ++words) {
    if (strcasecmp(text, *words) == 0) return true;
  }
  return false;
}

}  // namespace

int ParseProfileSignal(const char* text) {
  if (text == nullptr || *text == '\0') return 0;
  int sig = 0;
  unsigned long long n = 0;
  if (ParseUnsigned(text, &n)) {
    sig = n <= 1024 ? static_cast<int>(n) : 0;
  } else {
    const char* name = strncasecmp(text, "SIG", 3) == 0 ? text + 3 : text;
    if (strcasecmp(name, "PROF") == 0) sig = SIGPROF;
    else if (strcasecmp(name, "ALRM") == 0) sig = SIGALRM;
    else if (strcasecmp(name, "VTALRM") == 0) sig = SIGVTALRM;
    else if (strcasecmp(name, "USR1") == 0) sig = SIGUSR1;
    else if (strcasecmp(name, "USR2") == 0) sig = SIGUSR2;
    else if (strncasecmp(name, "RTMIN", 5) == 0 || strncasecmp(name, "RTMAX", 5) == 0) {
      const bool from_min = strncasecmp(name, "RTMIN", 5) == 0;
      const char* rest = name + 5;
      unsigned long long k = 0;
      if (*rest == '\0') {
        sig = from_min ? SIGRTMIN : SIGRTMAX;
      } else if (((from_min && *rest == '+') || (!from_min && *rest == '-')) &&
                 ParseUnsigned(rest + 1, &k) && k <= 64) {
        sig = from_min ? SIGRTMIN + static_cast<int>(k) : SIGRTMAX - static_cast<int>(k);
      }
    }
  }
  const bool allowed = sig == SIGPROF || sig == SIGALRM || sig == SIGVTALRM || sig == SIGUSR1 ||
                       sig == SIGUSR2 || (sig >= SIGRTMIN && sig <= SIGRTMAX);
  return allowed ? sig : 0;
}

ProfileConfig ReadProfileConfig(EnvLookup lookup, void* context) {
  ProfileConfig c;
  const char* on = lookup(context, "MPIDBG_PROFILE");
  if (on == nullptr || *on == '\0' || strcmp(on, "0") == 0) return c;
  static const char* const kYes[] = {"1", "on", "yes", "true", nullptr};
  unsigned long long hz = 0;
  if (IsOneOf(on, kYes)) {
    c.hz = kProfileDefaultHz;
  } else if (ParseUnsigned(on, &hz) && hz > 0) {
    c.hz = hz > kProfileMaxHz ? kProfileMaxHz : static_cast<int>(hz);
  } else {
    c.bad_value = true;
    return c;
  }
  c.enabled = true;
  c.period_ns = 1000000000 / c.hz;
  const char* clock = lookup(context, "MPIDBG_PROFILE_CLOCK");
  c.clock = clock != nullptr && strcasecmp(clock, "cpu") == 0 ? MPIDBG_PROFILE_CPU : MPIDBG_PROFILE_WALL;
  c.signal = ParseProfileSignal(lookup(context, "MPIDBG_PROFILE_SIGNAL"));
  const char* out = lookup(context, "MPIDBG_PROFILE_OUT");
  if (out != nullptr) core::CopyName(c.out, sizeof c.out, out);
  return c;
}

void DefaultProfilePath(const char* job, char* out, size_t size) {
  char safe[160];
  SanitiseJobId(job, safe, sizeof safe);
  snprintf(out, size, "mpidbg-profile.%s.json", safe);
}

}  // namespace mpidbg::rt
