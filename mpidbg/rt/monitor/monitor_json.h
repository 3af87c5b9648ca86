// monitor_json.h — JSON text written by hand into a growing buffer, for the files the
// runtime writes at MPI_Finalize (docs/OUTPUT.md). No exceptions: a failed allocation
// makes ok() false and every later call a no-op, so a caller checks once at the end.
//
// Strings are escaped by rt/report/json_string.h (untrusted bytes; not UTF-8 becomes U+FFFD),
// so the output always parses. Not on a per-call path.
#ifndef MPIDBG_RT_MONITOR_JSON_H
#define MPIDBG_RT_MONITOR_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "rt/grow_buffer.h"

namespace mpidbg::rt {

class JsonText {
 public:
  bool ok() const { return ok_; }
  uint32_t size() const { return text_.size(); }
  const char* data() const { return text_.data(); }
  // Forgets the text (keeps the memory) and clears a failure.
  void Clear() {
    text_.Resize(0);
    ok_ = true;
  }

  // Appends bytes as they are (punctuation, keys known to need no escaping).
  void Raw(const char* s);
  void Raw(const char* s, size_t len);
  void Char(char c) { Raw(&c, 1); }
  // A quoted, escaped string of at most `max_len` bytes (stops at a NUL).
  void String(const char* s, size_t max_len);
  void String(const char* s);
  void U64(uint64_t v);
  void I64(int64_t v);
  void Bool(bool v) { Raw(v ? "true" : "false"); }
  // `"key":` (the key is written as given: callers pass literals).
  void Key(const char* key);
  // Appends another text whole.
  void Append(const JsonText& other) { Raw(other.data(), other.size()); }

 private:
  GrowBuffer<char> text_;
  bool ok_ = true;
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_MONITOR_JSON_H
