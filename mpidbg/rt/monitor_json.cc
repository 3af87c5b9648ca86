// monitor_json.cc — see monitor_json.h.
#include "rt/monitor_json.h"

#include <string.h>

namespace mpidbg::rt {
namespace {

// Length of the valid UTF-8 sequence starting at s[0] (s has `avail` bytes), 0 when
// the bytes there are not one (bad lead byte, bad or missing continuation, overlong
// form, surrogate, beyond U+10FFFF).
size_t Utf8SequenceLength(const unsigned char* s, size_t avail) {
  unsigned char c = s[0];
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

}  // namespace

void JsonText::Raw(const char* s, size_t len) {
  if (!ok_ || len == 0) return;
  if (len > UINT32_MAX / 4 || !text_.Append(s, static_cast<uint32_t>(len))) ok_ = false;
}

void JsonText::Raw(const char* s) { Raw(s, strlen(s)); }

void JsonText::String(const char* s) { String(s, s == nullptr ? 0 : strlen(s)); }

void JsonText::String(const char* s, size_t max_len) {
  static const char kHex[] = "0123456789abcdef";
  Char('"');
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s);
  size_t n = p == nullptr ? 0 : strnlen(s, max_len);
  size_t i = 0;
  while (i < n && ok_) {
    unsigned char c = p[i];
    if (c == '"' || c == '\\') {
      char esc[2] = {'\\', static_cast<char>(c)};
      Raw(esc, 2);
      ++i;
    } else if (c < 0x20) {
      switch (c) {
        case '\n': Raw("\\n"); break;
        case '\t': Raw("\\t"); break;
        case '\r': Raw("\\r"); break;
        case '\b': Raw("\\b"); break;
        case '\f': Raw("\\f"); break;
        default: {
          char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
          Raw(esc, 6);
        }
      }
      ++i;
    } else if (c < 0x80) {
      // A run of plain ASCII at once.
      size_t j = i;
      while (j < n && p[j] >= 0x20 && p[j] < 0x80 && p[j] != '"' && p[j] != '\\') ++j;
      Raw(s + i, j - i);
      i = j;
    } else {
      size_t len = Utf8SequenceLength(p + i, n - i);
      if (len == 0) {
        Raw("\\ufffd");
        ++i;
      } else {
        Raw(s + i, len);
        i += len;
      }
    }
  }
  Char('"');
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
