// record_write.h — the writer side of the record sequence protocol (records.h).
//
// A record is written as: seq odd, fields, seq even. A debugger may stop the process at
// any instruction; it then sees either an even seq with consistent fields, or an odd seq
// (or a seq that changed while it read) and knows the record is torn. The fences keep the
// compiler (and weakly ordered CPUs, for in-process readers) from moving field stores
// outside the odd window.
#ifndef MPIDBG_CORE_RECORD_WRITE_H
#define MPIDBG_CORE_RECORD_WRITE_H

#include <stdint.h>

#include "core/inline.h"
#include "mpidbg/records.h"

namespace mpidbg::core {

MPIDBG_ALWAYS_INLINE void BeginRecordWrite(mpidbg_record_header* h) {
  uint32_t seq = __atomic_load_n(&h->seq, __ATOMIC_RELAXED);
  __atomic_store_n(&h->seq, seq | 1u, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
}

MPIDBG_ALWAYS_INLINE void EndRecordWrite(mpidbg_record_header* h) {
  uint32_t seq = __atomic_load_n(&h->seq, __ATOMIC_RELAXED);
  __atomic_store_n(&h->seq, (seq | 1u) + 1u, __ATOMIC_RELEASE);
}

inline bool RecordSeqIsStable(uint32_t seq) { return (seq & 1u) == 0; }

// Bounded, always NUL-terminated string copy into a fixed record field.
inline void CopyName(char* dst, uint32_t dst_size, const char* src) {
  if (dst_size == 0) return;
  uint32_t i = 0;
  if (src != nullptr) {
    for (; i + 1 < dst_size && src[i] != '\0'; ++i) dst[i] = src[i];
  }
  for (uint32_t j = i; j < dst_size; ++j) dst[j] = '\0';
}

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_RECORD_WRITE_H
