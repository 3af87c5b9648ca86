// json_string.h — one quoted JSON string from untrusted bytes, for the JSON writer of
// the runtime's report files (rt/report/json_writer.h).
//
// Quote and backslash are escaped, control characters too (\n \t \r \b \f by name,
// others as \u00XX); a byte sequence that is not UTF-8 (bad lead or continuation byte,
// overlong form, surrogate, beyond U+10FFFF) becomes U+FFFD one byte at a time, so the
// output always parses whatever the bytes (paths, symbol names). Cold path only.
#ifndef MPIDBG_RT_JSON_STRING_H
#define MPIDBG_RT_JSON_STRING_H

#include <stddef.h>

#include "rt/grow_buffer.h"

namespace mpidbg::rt {

// Appends `n` bytes of `s` as a quoted JSON string; false when memory ran out (what was
// appended before stays).
bool AppendJsonString(GrowBuffer<char>* out, const char* s, size_t n);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_JSON_STRING_H
