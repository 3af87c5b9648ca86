// symbol_index.h — the modules of a target (live or core) and their symbols, through
// libdwfl. The target is read with our own ptrace / core reader; libdwfl only needs to
// know the modules and their files.
#pragma once

#include <elfutils/libdwfl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "host/symbols/dwarf_types.h"
#include "host/symbols/file_symbols.h"
#include "host/util/status.h"

namespace mpidbg::host {

// Where a code address lies: the module (path as mapped), the offset from the
// module's load address, and the enclosing symbol as "name+0xOFF" when there is one.
struct CodeLocation {
  std::string module;
  uint64_t offset = 0;
  std::optional<std::string> symbol;
};

class SymbolIndex {
 public:
  // Modules from /proc/PID/maps. Needs no ptrace.
  static Result<std::unique_ptr<SymbolIndex>> ForLive(int64_t pid);
  // Modules from the core's notes and link map. `core` must outlive the index;
  // `executable` ("" if unknown) helps find the main program's file.
  static Result<std::unique_ptr<SymbolIndex>> ForCore(Elf* core, const std::string& executable);

  ~SymbolIndex();
  SymbolIndex(const SymbolIndex&) = delete;
  SymbolIndex& operator=(const SymbolIndex&) = delete;

  // The address of a defined symbol in any module's .dynsym or .symtab; a global
  // definition wins over a weak or local one, and among equals the first module's. Each
  // file's table is built once per run and shared by every target (file_symbols.h).
  std::optional<uint64_t> FindSymbol(const std::string& name);
  // The same, restricted to functions.
  std::optional<uint64_t> FindFunction(const std::string& name);
  // The module, offset and symbol of a code address; nullopt outside every module.
  std::optional<CodeLocation> DescribeAddress(uint64_t address) const;
  // The source line of a code address from its module's line table ("ring.c", 12);
  // nullopt where the module has no DWARF for it. For a return address pass address - 1.
  std::optional<std::pair<std::string, int>> SourceLineAt(uint64_t address) const;
  // Module names (file paths as the target mapped them), for messages.
  std::vector<std::string> ModuleNames() const;

  DwarfTypes& types() { return *types_; }
  // The libdwfl session, for the stack unwinder (host/stacks), which attaches its thread
  // state to the same modules instead of reporting them a second time.
  Dwfl* dwfl() const { return dwfl_; }

 private:
  // One module's file table and where this target loaded it.
  struct ModuleTable {
    const FileSymbols* symbols = nullptr;
    uint64_t bias = 0;
  };

  explicit SymbolIndex(Dwfl* dwfl);
  std::vector<Dwfl_Module*> Modules() const;
  void FindTables();
  std::optional<uint64_t> Lookup(const std::string& name, bool functions_only);

  Dwfl* dwfl_;
  bool tables_found_ = false;
  std::vector<ModuleTable> tables_;  // in libdwfl's module order
  std::vector<std::unique_ptr<FileSymbols>> unshared_;  // modules without a file
  std::unique_ptr<DwarfTypes> types_;
};

}  // namespace mpidbg::host
