// leaks_file.h — the "mpidbg.leaks/1" report the runtime writes at MPI_Finalize
// (MPIDBG_LEAKS, docs/OUTPUT.md "Leak report") read into a model, and shown as text.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "host/util/status.h"

namespace mpidbg::leaks {

struct LeakLine {
  std::string kind;     // "comm", "datatype", ..., "request"
  std::string creator;  // the creating call, "" when not known
  std::string site;     // where the program made them ("app.c:42 in main"), "" when not
                        // known (the runtime's report at MPI_Finalize has none)
  uint64_t count = 0;   // over all ranks
  uint64_t ranks = 0;   // ranks holding at least one
};

struct LeakReport {
  std::string source = "finalize";  // "finalize" (the runtime's file) | "processes" | "cores"
  int ranks = 0;
  uint64_t total = 0;
  double report_seconds = 0;
  std::vector<LeakLine> leaks;  // largest count first, as written
};

// Errors are "cannot be read" (exit status 3), one sentence naming `name` and the key.
host::Result<LeakReport> LeaksFromJson(const nlohmann::json& doc, const std::string& name);
host::Result<LeakReport> LoadLeaksFile(const std::string& path);

// The report as the runtime prints it at MPI_Finalize, one line per (kind, creator,
// site); a report of processes or cores says the objects are live now.
std::string LeaksToText(const LeakReport& report);
// The report as "mpidbg.leaks/1" (a report of processes or cores: with "source" and
// each line's "site").
nlohmann::json LeaksToJson(const LeakReport& report);

}  // namespace mpidbg::leaks
