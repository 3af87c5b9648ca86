// object_listing.h — every MPI object of a process through the DLL's listing query
// (mpidbg_object_list_query), each with where the program created it: the creating
// call's return address symbolized on the host (function, file:line where the program
// has line info) and its age. Shared by `mpidbg handles` and `snapshot`'s handles[].
#pragma once

#include <elfutils/libdwfl.h>

#include <string>

#include "host/model/snapshot.h"
#include "host/plugin_host/handle_session.h"
#include "host/util/status.h"
#include <nlohmann/json.hpp>

namespace mpidbg::host {

// The kinds the listing knows, by name ("comm", ... "session"); 0 for "" (all kinds),
// -1 for an unknown name.
int ObjectKindNumber(const std::string& kind);
std::string ObjectKindName(int kind);

struct ListingClock {
  bool live = false;   // a live process: ages against `now_ns`
  int64_t now_ns = 0;  // CLOCK_REALTIME at the read (live only)
};

// Lists `kind` (0: all) through `session`; `dwfl` (may be null: no sites) symbolizes
// creation sites. kNoSupport when the DLL has no listing query.
Result<model::ObjectListing> ListObjects(HandleSession& session, Dwfl* dwfl, int kind,
                                         const ListingClock& clock);

// One object as OUTPUT.md's handles[] entry (kind, handle, name, freed, predefined and
// the listing's keys).
nlohmann::json ObjectToJson(const model::ObjectHandle& o);

// The same entry as JSON text appended to `out` (compact, keys in ObjectToJson's
// order): `mpidbg handles --json` writes 100,000 of them, where building a json value
// per object costs seconds.
void AppendObjectJson(const model::ObjectHandle& o, std::string* out);

// "created by MPI_Comm_dup at app.c:42 in main, 12.5 s ago" (the parts that are known).
std::string CreationText(const model::ObjectHandle& o);

}  // namespace mpidbg::host
