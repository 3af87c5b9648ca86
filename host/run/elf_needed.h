// elf_needed.h — the shared libraries an ELF file names in its dynamic section.
#pragma once

#include <string>
#include <vector>

namespace mpidbg::launch {

// DT_NEEDED entries of `path`, in order. Returns false (and says why in `error`) when
// the file cannot be opened or is not a dynamically linked ELF file.
bool ReadNeededLibraries(const std::string& path, std::vector<std::string>* needed,
                         std::string* error);

}  // namespace mpidbg::launch
