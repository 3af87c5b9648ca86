#include "plugin/errors.h"

#include <cstdarg>
#include <cstdio>

namespace mpidbg::plugin {
namespace {

constexpr int kErrorCount = kErrEnd_ - mqs_first_user_code;

const char* const kMessages[kErrorCount] = {
#define MPIDBG_X_ERROR_TEXT(name, text) text,
    MPIDBG_PLUGIN_ERROR_LIST(MPIDBG_X_ERROR_TEXT)
#undef MPIDBG_X_ERROR_TEXT
};

// Detail texts, one per code; empty when none was recorded. Debuggers drive a DLL from
// one thread, so plain static storage is enough.
char g_detail[kErrorCount][192];
char g_unknown[64];

}  // namespace

void set_error_detail(int code, const char* format, ...) {
  if (code < mqs_first_user_code || code >= kErrEnd_) return;
  va_list args;
  va_start(args, format);
  std::vsnprintf(g_detail[code - mqs_first_user_code], sizeof g_detail[0], format, args);
  va_end(args);
}

const char* error_message(int code) {
  switch (code) {
    case mqs_ok:
      return "no error";
    case mqs_no_information:
      return "no information available";
    case mqs_end_of_list:
      return "end of list";
    default:
      break;
  }
  if (code >= mqs_first_user_code && code < kErrEnd_) {
    const int i = code - mqs_first_user_code;
    return g_detail[i][0] != '\0' ? g_detail[i] : kMessages[i];
  }
  std::snprintf(g_unknown, sizeof g_unknown, "unknown mpidbg plugin error code %d", code);
  return g_unknown;
}

}  // namespace mpidbg::plugin
