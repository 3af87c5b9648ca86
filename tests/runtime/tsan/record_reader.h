// record_reader.h — a thread that reads the runtime's records the way a debugger does,
// continuously, while the program's threads make MPI calls.
//
// It walks every table from the exported root, copies each record, and keeps a copy
// only when the record's seq counter was even and unchanged across the copy (the
// protocol of records.h). Every kept copy must be self-consistent, and a slot's seq
// must never go backwards. A debugger reads through ptrace, outside the language's
// memory model; this reader lives in a translation unit built without
// ThreadSanitizer for the same reason, so that the sanitizer judges only the
// runtime's own threads against each other.
#ifndef MPIDBG_TESTS_RUNTIME_TSAN_RECORD_READER_H
#define MPIDBG_TESTS_RUNTIME_TSAN_RECORD_READER_H

#include <stdint.h>

struct ReaderReport {
  uint64_t passes = 0;        // complete walks over every table
  uint64_t records = 0;       // consistent copies checked
  uint64_t torn = 0;          // copies skipped: seq odd or changed during the copy
  uint64_t inconsistent = 0;  // stable copies that failed a check (must stay 0)
  uint64_t seq_backwards = 0; // a slot's seq lower than seen before (must stay 0)
  char first_problem[256] = {};
};

// Starts the reader thread; false if the runtime's root is not found.
bool StartRecordReader();
// Stops it after at least one more complete pass and returns what it saw.
ReaderReport StopRecordReader();

#endif  // MPIDBG_TESTS_RUNTIME_TSAN_RECORD_READER_H
