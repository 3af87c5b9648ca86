// core_executable_check.h — whether the executable given with --exe is the program a
// core file was dumped from: same GNU build ID as the one in the core's copy of the
// program's first page. A wrong --exe would otherwise resolve symbols at wrong
// addresses without a word.
#pragma once

#include <string>
#include <vector>

#include "host/target/target_core.h"

namespace mpidbg::host {

// `recorded` is the program's path as the core records it ("" when unknown). Errors are
// usage errors naming both files; when either build ID cannot be found the check
// passes (there is nothing to compare).
Status CheckCoreExecutable(CoreTarget& core, const std::string& recorded, const std::string& given);

// The GNU build ID of the ELF file at `path` as hex, "" when it has none; `error`
// receives why the file is not an ELF program (then the result is "").
std::string FileBuildId(const std::string& path, std::string* error);

}  // namespace mpidbg::host
