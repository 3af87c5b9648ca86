// handle_text.h — `mpidbg handle` without --json: one summary line, then indented
// details, from the "mpidbg.handle/1" document.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace mpidbg::host {

std::string HandleText(const nlohmann::json& doc);

}  // namespace mpidbg::host
