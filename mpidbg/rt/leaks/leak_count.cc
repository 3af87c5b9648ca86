// leak_count.cc — see leak_count.h.
#include "rt/leaks/leak_count.h"

#include "rt/process/registry.h"

namespace mpidbg::rt {
namespace {

const char* const kNames[kLeakKinds] = {"comm", "group", "datatype", "op",      "errhandler", "info",
                                        "win",  "file",  "message",  "session", "request"};

bool Live(const mpidbg_record_header& h) {
  return (h.flags & (MPIDBG_REC_PREDEFINED | MPIDBG_REC_FREED)) == 0;
}

void Count(uint64_t* counts, int kind, int32_t creator) {
  if (creator < 0 || creator >= MPIDBG_CALL_ID_LIMIT) creator = MPIDBG_CALL_NONE;
  ++counts[static_cast<size_t>(kind) * MPIDBG_CALL_ID_LIMIT + static_cast<size_t>(creator)];
}

void CountObjects(const mpidbg_table& table, int kind, uint64_t* counts) {
  ForEachRecord(table, [&](mpidbg_record_header* h) {
    const auto* head = reinterpret_cast<const mpidbg_object_head*>(h);
    if (Live(*h)) Count(counts, kind, head->creator);
  });
}

}  // namespace

const char* LeakKindName(int kind) {
  return kind >= 0 && kind < kLeakKinds ? kNames[kind] : "unknown";
}

void CountLeaks(const mpidbg_root& root, uint64_t* counts) {
  ForEachRecord(root.comms, [&](mpidbg_record_header* h) {
    if (Live(*h)) Count(counts, kLeakComm, reinterpret_cast<const mpidbg_comm_record*>(h)->creator);
  });
  CountObjects(root.groups, kLeakGroup, counts);
  CountObjects(root.datatypes, kLeakDatatype, counts);
  CountObjects(root.reduce_ops, kLeakOp, counts);
  CountObjects(root.errhandlers, kLeakErrhandler, counts);
  CountObjects(root.infos, kLeakInfo, counts);
  CountObjects(root.windows, kLeakWin, counts);
  CountObjects(root.files, kLeakFile, counts);
  CountObjects(root.messages, kLeakMessage, counts);
  CountObjects(root.sessions, kLeakSession, counts);
  ForEachRecord(root.operations, [&](mpidbg_record_header* h) {
    // A blocking call in progress has a record but no request to free.
    if (!Live(*h) || (h->flags & MPIDBG_OPERATION_BLOCKING) != 0) return;
    Count(counts, kLeakRequest, reinterpret_cast<const mpidbg_operation_record*>(h)->call);
  });
}

}  // namespace mpidbg::rt
