// variable_types.h — the DWARF type of a program's global variable, for `mpidbg handle
// --expr`: which MPI handle type it holds (MPI_Comm, MPI_Datatype, ...) and its size.
//
// The variable's address comes from the symbol table (SymbolIndex); this only answers
// "what is it", from whichever module's debug information defines it. Absent debug
// information is normal: the answer is then "unknown", not an error.
#pragma once

#include <cstdint>
#include <string>

#include "host/util/status.h"

namespace mpidbg::host {

struct VariableType {
  bool found = false;     // a definition with debug information was found
  std::string type_name;  // the MPI typedef met first ("MPI_Comm"), "" when none
  int64_t size = -1;      // bytes of the variable (of one element when `element`)
  bool is_array = false;
  int64_t element_size = -1;  // for arrays
  int64_t array_length = -1;  // for arrays with a known bound
};

// Looks `name` up in the DWARF of a live process's modules.
VariableType LiveVariableType(int64_t pid, const std::string& name);
// The same for a core file; `executable` as for SymbolIndex::ForCore.
VariableType CoreVariableType(const std::string& core_path, const std::string& executable,
                              const std::string& name);

// "comm" for "MPI_Comm", ..., "status" for "MPI_Status"; "" for any other name.
std::string HandleKindOfTypeName(const std::string& type_name);

}  // namespace mpidbg::host
