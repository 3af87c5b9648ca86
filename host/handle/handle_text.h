// handle_text.h — `mpidbg handle` without --json: one summary line, then indented
// details, from the "mpidbg.handle/1" document.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace mpidbg::host {

std::string HandleText(const nlohmann::json& doc);

// The summary line of a handle object (the document's `handle`) alone, without its
// newline: the first line HandleText writes.
std::string HandleSummary(const nlohmann::json& handle);

}  // namespace mpidbg::host
