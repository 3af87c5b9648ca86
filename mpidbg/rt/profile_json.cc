// profile_json.cc — see profile_json.h.
#include "rt/profile_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

namespace mpidbg::rt {
namespace {

// Length of the valid UTF-8 sequence at s (n bytes left), 0 if it is not one.
size_t Utf8Length(const unsigned char* s, size_t n) {
  const unsigned char c = s[0];
  size_t len = 0;
  uint32_t min = 0;
  uint32_t cp = 0;
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2, min = 0x80, cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3, min = 0x800, cp = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4, min = 0x10000, cp = c & 0x07;
  } else {
    return 0;
  }
  if (len > n) return 0;
  for (size_t i = 1; i < len; ++i) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return len;
}

}  // namespace

void JsonWriter::Put(const char* s, size_t n) {
  if (!ok_ || n == 0) return;
  if (n > UINT32_MAX / 4 || !text_.Append(s, static_cast<uint32_t>(n))) ok_ = false;
}

void JsonWriter::NewLine() {
  PutChar('\n');
  for (int i = 0; i < indent_ + depth_; ++i) PutChar(' ');
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (depth_ == 0) return;
  if (has_items_[depth_]) PutChar(',');
  if (inline_[depth_]) {
    if (has_items_[depth_]) PutChar(' ');
  } else {
    NewLine();
  }
  has_items_[depth_] = true;
}

void JsonWriter::Open(char c, bool inline_items) {
  BeforeValue();
  PutChar(c);
  if (depth_ >= kMaxDepth) {
    ok_ = false;
    return;
  }
  ++depth_;
  has_items_[depth_] = false;
  // Inside an inline container everything stays on the line.
  inline_[depth_] = inline_items || inline_[depth_ - 1];
}

void JsonWriter::Close(char c) {
  if (depth_ == 0 || after_key_) {
    ok_ = false;
    return;
  }
  const bool items = has_items_[depth_];
  const bool on_line = inline_[depth_];
  --depth_;
  if (items && !on_line) NewLine();
  PutChar(c);
}

void JsonWriter::Key(const char* name) {
  BeforeValue();
  Quote(name, strlen(name));
  Put(": ", 2);
  after_key_ = true;
}

void JsonWriter::String(const char* s) {
  if (s == nullptr) {
    Null();
    return;
  }
  StringN(s, strlen(s));
}

void JsonWriter::StringN(const char* s, size_t n) {
  BeforeValue();
  Quote(s, n);
}

void JsonWriter::Quote(const char* s, size_t n) {
  PutChar('"');
  const auto* u = reinterpret_cast<const unsigned char*>(s);
  size_t i = 0;
  while (i < n) {
    const unsigned char c = u[i];
    if (c == '"' || c == '\\') {
      const char esc[2] = {'\\', static_cast<char>(c)};
      Put(esc, 2);
      ++i;
    } else if (c < 0x20 || c == 0x7f) {
      char esc[8];
      if (c == '\n') {
        Put("\\n", 2);
      } else if (c == '\t') {
        Put("\\t", 2);
      } else if (c == '\r') {
        Put("\\r", 2);
      } else {
        snprintf(esc, sizeof esc, "\\u%04x", c);
        Put(esc, 6);
      }
      ++i;
    } else if (c < 0x80) {
      PutChar(static_cast<char>(c));
      ++i;
    } else {
      const size_t len = Utf8Length(u + i, n - i);
      if (len == 0) {
        Put("\\ufffd", 6);
        ++i;
      } else {
        Put(s + i, len);
        i += len;
      }
    }
  }
  PutChar('"');
}

void JsonWriter::Uint(uint64_t v) {
  BeforeValue();
  char buf[24];
  const int n = snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  Put(buf, static_cast<size_t>(n));
}

void JsonWriter::Int(int64_t v) {
  BeforeValue();
  char buf[24];
  const int n = snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  Put(buf, static_cast<size_t>(n));
}

void JsonWriter::Bool(bool v) {
  BeforeValue();
  if (v) {
    Put("true", 4);
  } else {
    Put("false", 5);
  }
}

void JsonWriter::Null() {
  BeforeValue();
  Put("null", 4);
}

void JsonWriter::Fixed(double v, int decimals) {
  if (!isfinite(v)) {
    Null();
    return;
  }
  BeforeValue();
  if (decimals < 0) decimals = 0;
  if (decimals > 9) decimals = 9;
  char buf[64];
  const int n = snprintf(buf, sizeof buf, "%.*f", decimals, v);
  if (n <= 0 || static_cast<size_t>(n) >= sizeof buf) {
    Put("null", 4);
    return;
  }
  Put(buf, static_cast<size_t>(n));
}

void JsonWriter::Raw(const char* json, size_t n) {
  BeforeValue();
  Put(json, n);
}

const char* JsonWriter::Text() {
  // A NUL after the text, not counted in Size().
  if (!text_.Reserve(1)) {
    ok_ = false;
    return "";
  }
  text_.data()[text_.size()] = '\0';
  return text_.data();
}

}  // namespace mpidbg::rt
