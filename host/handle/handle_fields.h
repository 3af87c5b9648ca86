// handle_fields.h — a handle's object ("mpidbg.handle/1" `handle`, handle_describer.h) as
// the named children a debugger's variable view expands: an IDE drives gdb through MI,
// where any value with children prints as "{...}", so the children must carry what the
// summary line says. Each value is an integer, a string, an array of integers or an
// array of strings — what every variable view can show — or {"address": "0x..."} for
// an address in the target, which a debugger shows as a pointer.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mpidbg::host {

struct HandleField {
  std::string name;
  nlohmann::json value;
};

// Per kind, what its summary line says and what a reader looks for next (a comm's name,
// size, rank, world ranks, topology ...; a request's state, peer, tag, bytes ...), then
// creator, predefined and freed. Unknown (null) keys are left out; booleans become 0/1;
// a type map's runs read "MPI_INT x2 @16"; an info object's pairs are children named by
// their keys; nested objects are flattened as PARENT_KEY.
std::vector<HandleField> HandleFields(const nlohmann::json& handle);

// The fields as a JSON array of [name, value] pairs (the describer library's form).
nlohmann::json HandleFieldsJson(const std::vector<HandleField>& fields);

}  // namespace mpidbg::host
