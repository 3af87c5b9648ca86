// file_symbols.h — the defined symbols of one module file, built once per file and
// shared by every target of one mpidbg run (issue 16).
//
// Ranks of a job map the same files (executable, libmpi, libc ...). Building a name
// table of every module for every target cost 33 ms of CPU per MPICH rank (libmpich's
// table is large), and freeing it 17 ms more: 80% of reading 16 stopped ranks. A file's
// table does not depend on the process: addresses are kept relative to the file's load
// bias (ELF addresses), so each process adds its own bias.
#pragma once

#include <elfutils/libdwfl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

namespace mpidbg::host {

struct FileSymbol {
  uint64_t value = 0;      // the address less the module's load bias, or as is (absolute)
  bool absolute = false;   // SHN_ABS: not moved with the module
  bool is_function = false;
  int rank = 0;            // 3 global, 2 weak, 1 local
};

class FileSymbols {
 public:
  // Every defined symbol of `mod` (.dynsym, or .symtab where libdwfl finds one) whose
  // load bias is `bias`; a global definition wins over a weak or local one, and among
  // equals the first in the table.
  static std::unique_ptr<FileSymbols> Build(Dwfl_Module* mod, uint64_t bias);

  // The symbol of that name, restricted to functions when asked; nullptr when none.
  const FileSymbol* Find(const std::string& name, bool functions_only) const;
  size_t size() const { return any_.size(); }

 private:
  // Objects and functions are kept apart so a data symbol never hides a function of
  // the same name in another module and the reverse.
  std::unordered_map<std::string, FileSymbol> any_;
  std::unordered_map<std::string, FileSymbol> functions_;
};

// The table of `mod`'s file, built on first use and kept for the rest of the run, and
// in `bias` the module's load bias in this target. The file is known by what libdwfl opened for the module: its path,
// device, inode, size and modification time, and its build ID when it has one. A
// module with no file behind it (the vDSO, an ELF read from memory) is not shared:
// its table goes to `unshared`, which the caller keeps. nullptr: the module has no ELF.
const FileSymbols* SharedFileSymbols(Dwfl_Module* mod, uint64_t* bias,
                                     std::unique_ptr<FileSymbols>* unshared);

}  // namespace mpidbg::host
