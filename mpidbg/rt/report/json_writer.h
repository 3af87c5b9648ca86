// json_writer.h — the JSON text writer of the runtime's report files (the monitoring
// and profile files, docs/OUTPUT.md): no exceptions, no allocation beyond one growing
// buffer, strings escaped by rt/report/json_string.h (bytes that are not valid UTF-8
// become U+FFFD, so any path or symbol name gives valid JSON). A failed allocation makes
// ok() false and every later call a no-op, so a caller checks once at the end. Cold path
// only (MPI_Finalize, mpidbg_monitor_write).
//
// Objects and arrays nest up to kMaxDepth; commas are placed by the writer. Two layouts:
// indented (the profile) puts each member on its own line, indented by depth, except in
// objects and arrays opened with `inline_items`, which keep theirs on one line after
// ", " and ": "; compact (the monitoring file) writes no whitespace at all.
#ifndef MPIDBG_RT_JSON_WRITER_H
#define MPIDBG_RT_JSON_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "rt/grow_buffer.h"

namespace mpidbg::rt {

enum class JsonLayout { kIndented, kCompact };

class JsonWriter {
 public:
  static constexpr int kMaxDepth = 16;

  // Indented; `indent`: the depth this text will sit at when Raw() puts it into another
  // writer's text (so its lines line up there).
  explicit JsonWriter(int indent = 0) : indent_(indent) {}
  explicit JsonWriter(JsonLayout layout) : compact_(layout == JsonLayout::kCompact) {}

  void BeginObject(bool inline_items = false) { Open('{', inline_items); }
  void EndObject() { Close('}'); }
  void BeginArray(bool inline_items = false) { Open('[', inline_items); }
  void EndArray() { Close(']'); }
  // The key of the next member of the current object.
  void Key(const char* name);

  void String(const char* s);  // nullptr writes null
  void StringN(const char* s, size_t n);
  // At most `max_len` bytes of `s`, up to its first NUL: a fixed-size record field,
  // which a truncated name fills without a terminator.
  void BoundedString(const char* s, size_t max_len);
  void Uint(uint64_t v);
  void Int(int64_t v);
  void Bool(bool v);
  void Null();
  // A finite number with `decimals` digits after the point (nan/inf write null).
  void Fixed(double v, int decimals);
  // A value already rendered as JSON (another writer's Text()).
  void Raw(const char* json, size_t n);
  // Text outside any value, appended as it is: the fixed frame of a file whose values
  // are written one by one (between them, at depth 0).
  void Verbatim(const char* text);

  // The text so far (NUL-terminated), and false once memory ran out or the nesting was
  // wrong (the text is then not to be used).
  const char* Text();
  // The same bytes, not NUL-terminated.
  const char* Data() const { return text_.data(); }
  size_t Size() const { return text_.size(); }
  bool ok() const { return ok_ && depth_ == 0; }

 private:
  void BeforeValue();
  void Quote(const char* s, size_t n);  // the quoted, escaped string, nothing else
  void Open(char c, bool inline_items);
  void Close(char c);
  void NewLine();
  void Put(const char* s, size_t n);
  void PutChar(char c) { Put(&c, 1); }

  GrowBuffer<char> text_;
  int indent_ = 0;
  bool compact_ = false;
  bool ok_ = true;
  bool after_key_ = false;
  int depth_ = 0;
  bool has_items_[kMaxDepth + 1] = {};
  bool inline_[kMaxDepth + 1] = {};
};

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_JSON_WRITER_H
