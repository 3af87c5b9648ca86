// handle_query.h — asking a handle session about one handle: Fortran conversion, the
// query of the handle's kind, names of the handles it refers to, each result turned
// into JSON (host/output/handle_json.h) and freed.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "host/plugin_host/handle_session.h"

namespace mpidbg::host {

class HandleQuery {
 public:
  explicit HandleQuery(HandleSession* session) : s_(session) {}

  // enum mpidbg_handle_kind for "comm", ...; 0 for "status" and unknown names.
  static int KindNumber(const std::string& kind);

  // The C handle (or, for "status", the C status address) of a Fortran value.
  Result<uint64_t> FortranToC(const std::string& kind, uint64_t fortran_value);
  // The JSON object of the handle (or status address) `value` of `kind`.
  Result<nlohmann::json> Describe(const std::string& kind, uint64_t value, int max_map_entries);
  // Name of a handle of kind `kind` (enum mpidbg_handle_kind): the DLL's name map for
  // predefined handles, else the name the handle's own query reports; null if none.
  nlohmann::json NameOf(int kind, uint64_t handle);

 private:
  Status Failure(int rc, const std::string& what) const;
  const std::map<uint64_t, std::string>& NameMap(int kind);

  HandleSession* s_;
  std::map<int, std::map<uint64_t, std::string>> maps_;
  std::map<std::pair<int, uint64_t>, nlohmann::json> names_;
};

}  // namespace mpidbg::host
