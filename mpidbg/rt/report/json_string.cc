// json_string.cc — see json_string.h.
#include "rt/report/json_string.h"

#include <stdint.h>

namespace mpidbg::rt {
namespace {

// Length of the valid UTF-8 sequence starting at s[0] (s has `avail` bytes), 0 when
// the bytes there are not one.
size_t Utf8SequenceLength(const unsigned char* s, size_t avail) {
  const unsigned char c = s[0];
  size_t len;
  uint32_t min;
  uint32_t cp;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) {
    len = 2, min = 0x80, cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3, min = 0x800, cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4, min = 0x10000, cp = c & 0x07;
  } else {
    return 0;
  }
  if (len > avail) return 0;
  for (size_t i = 1; i < len; ++i) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

bool Put(GrowBuffer<char>* out, const char* s, size_t n) {
  return n == 0 || (n <= UINT32_MAX / 4 && out->Append(s, static_cast<uint32_t>(n)));
}

}  // namespace

bool AppendJsonString(GrowBuffer<char>* out, const char* s, size_t n) {
  static const char kHex[] = "0123456789abcdef";
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  if (!Put(out, "\"", 1)) return false;
  size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    bool ok;
    if (c == '"' || c == '\\') {
      const char esc[2] = {'\\', static_cast<char>(c)};
      ok = Put(out, esc, 2);
      ++i;
    } else if (c < 0x20) {
      switch (c) {
        case '\n': ok = Put(out, "\\n", 2); break;
        case '\t': ok = Put(out, "\\t", 2); break;
        case '\r': ok = Put(out, "\\r", 2); break;
        case '\b': ok = Put(out, "\\b", 2); break;
        case '\f': ok = Put(out, "\\f", 2); break;
        default: {
          const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
          ok = Put(out, esc, 6);
        }
      }
      ++i;
    } else if (c < 0x80) {
      // A run of plain ASCII at once.
      size_t j = i;
      while (j < n && p[j] >= 0x20 && p[j] < 0x80 && p[j] != '"' && p[j] != '\\') ++j;
      ok = Put(out, s + i, j - i);
      i = j;
    } else {
      const size_t len = Utf8SequenceLength(p + i, n - i);
      ok = len == 0 ? Put(out, "\\ufffd", 6) : Put(out, s + i, len);
      i += len == 0 ? 1 : len;
    }
    if (!ok) return false;
  }
  return Put(out, "\"", 1);
}

}  // namespace mpidbg::rt
