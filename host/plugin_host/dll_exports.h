// dll_exports.h — the names a shared library exports, read from its file without
// loading it (no constructor of a foreign library runs to answer).
#pragma once

#include <set>
#include <string>

namespace mpidbg::host {

// Defined names of the .dynsym section(s) of the ELF shared object at `path`. False,
// with `error` set (strerror, or "not an ELF shared library"), when it is none.
bool DynamicSymbols(const std::string& path, std::set<std::string>* names, std::string* error);

}  // namespace mpidbg::host
