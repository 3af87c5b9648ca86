// monitor_json.cc — see monitor_json.h.
#include "rt/monitor/monitor_json.h"

#include <string.h>

#include "rt/report/json_string.h"

namespace mpidbg::rt {

void JsonText::Raw(const char* s, size_t len) {
  if (!ok_ || len == 0) return;
  if (len > UINT32_MAX / 4 || !text_.Append(s, static_cast<uint32_t>(len))) ok_ = false;
}

void JsonText::Raw(const char* s) { Raw(s, strlen(s)); }

void JsonText::String(const char* s) { String(s, s == nullptr ? 0 : strlen(s)); }

void JsonText::String(const char* s, size_t max_len) {
  if (!ok_) return;
  const size_t n = s == nullptr ? 0 : strnlen(s, max_len);
  if (!AppendJsonString(&text_, s, n)) ok_ = false;
}

void JsonText::U64(uint64_t v) {
  char digits[24];
  size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  char out[24];
  for (size_t i = 0; i < n; ++i) out[i] = digits[n - 1 - i];
  Raw(out, n);
}

void JsonText::I64(int64_t v) {
  if (v < 0) {
    Char('-');
    // Two's complement negation in unsigned arithmetic: INT64_MIN has no positive twin.
    U64(0 - static_cast<uint64_t>(v));
  } else {
    U64(static_cast<uint64_t>(v));
  }
}

void JsonText::Key(const char* key) {
  Char('"');
  Raw(key);
  Raw("\":");
}

}  // namespace mpidbg::rt
