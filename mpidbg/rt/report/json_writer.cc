// json_writer.cc — see json_writer.h.
#include "rt/report/json_writer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rt/report/json_string.h"

namespace mpidbg::rt {

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
  if (compact_) {
    // nothing between items
  } else if (inline_[depth_]) {
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
  inline_[depth_] = compact_ || inline_items || inline_[depth_ - 1];
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
  if (compact_) {
    PutChar(':');
  } else {
    Put(": ", 2);
  }
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

void JsonWriter::BoundedString(const char* s, size_t max_len) {
  StringN(s, s == nullptr ? 0 : strnlen(s, max_len));
}

void JsonWriter::Quote(const char* s, size_t n) {
  if (!ok_) return;
  if (!AppendJsonString(&text_, s, n)) ok_ = false;
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

void JsonWriter::Verbatim(const char* text) {
  if (depth_ != 0 || after_key_) {
    ok_ = false;
    return;
  }
  Put(text, strlen(text));
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
