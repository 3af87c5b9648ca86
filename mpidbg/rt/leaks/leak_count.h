// leak_count.h — this process's live objects and requests, counted by kind and
// creating call from its record tables (what a debugger would list as still live).
#ifndef MPIDBG_RT_LEAK_COUNT_H
#define MPIDBG_RT_LEAK_COUNT_H

#include <stddef.h>
#include <stdint.h>

#include "mpidbg/call_ids.h"
#include "mpidbg/records.h"

namespace mpidbg::rt {

// The kinds a leak report counts, in report order.
enum LeakKind {
  kLeakComm, kLeakGroup, kLeakDatatype, kLeakOp, kLeakErrhandler, kLeakInfo, kLeakWin,
  kLeakFile, kLeakMessage, kLeakSession, kLeakRequest, kLeakKinds
};
const char* LeakKindName(int kind);

// counts[kind * MPIDBG_CALL_ID_LIMIT + creating call]: records of `root` that are
// live (not predefined, not freed by the application): objects never freed, requests
// neither completed nor freed (blocking calls in progress are no requests). `counts`
// has kLeakKinds * MPIDBG_CALL_ID_LIMIT zeroed elements.
constexpr size_t kLeakSlots = size_t{kLeakKinds} * MPIDBG_CALL_ID_LIMIT;
void CountLeaks(const mpidbg_root& root, uint64_t* counts);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_LEAK_COUNT_H
