// handle_describer.h — one handle as the JSON object of "mpidbg.handle/1": the query of
// the handle's kind (the extended one when the DLL has it), its result rendered
// (handle_json.h) while the DLL's result is alive, and the handles it refers to named.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "host/plugin_host/handle_query.h"

namespace mpidbg::host {

class HandleDescriber {
 public:
  explicit HandleDescriber(HandleQuery* query) : q_(*query) {}

  // The JSON object of the handle (or status address) `value` of `kind`.
  Result<nlohmann::json> Describe(const std::string& kind, uint64_t value, int max_map_entries);
  // Name of a handle of kind `kind` (enum mpidbg_handle_kind): the DLL's name map for
  // predefined handles, else the name the handle's own query reports; null if none.
  nlohmann::json NameOf(int kind, uint64_t handle);

 private:
  HandleQuery& q_;
  std::map<std::pair<int, uint64_t>, nlohmann::json> names_;
};

}  // namespace mpidbg::host
