// symbol_index.cc — libdwfl set-up for live processes and cores, and symbol lookup over
// every module's .dynsym/.symtab through the run's shared file tables. libdwfl errors are captured right
// after the failing call: its error state is per thread and the next call resets it.
#include "host/symbols/symbol_index.h"

#include <elf.h>
#include <gelf.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace mpidbg::host {
namespace {

char* g_debuginfo_path = nullptr;

const Dwfl_Callbacks kLiveCallbacks = {
    dwfl_linux_proc_find_elf,
    dwfl_standard_find_debuginfo,
    nullptr,
    &g_debuginfo_path,
};

const Dwfl_Callbacks kCoreCallbacks = {
    dwfl_build_id_find_elf,
    dwfl_standard_find_debuginfo,
    nullptr,
    &g_debuginfo_path,
};

std::string DwflError() {
  const char* msg = dwfl_errmsg(-1);
  return msg != nullptr ? msg : "unknown libdwfl error";
}


}  // namespace

SymbolIndex::SymbolIndex(Dwfl* dwfl) : dwfl_(dwfl), types_(new DwarfTypes(dwfl)) {}

SymbolIndex::~SymbolIndex() {
  types_.reset();
  if (dwfl_ != nullptr) dwfl_end(dwfl_);
}

Result<std::unique_ptr<SymbolIndex>> SymbolIndex::ForLive(int64_t pid) {
  Dwfl* dwfl = dwfl_begin(&kLiveCallbacks);
  if (dwfl == nullptr) return Status::Unreadable("libdwfl: " + DwflError());
  std::unique_ptr<SymbolIndex> index(new SymbolIndex(dwfl));
  dwfl_report_begin(dwfl);
  int r = dwfl_linux_proc_report(dwfl, static_cast<pid_t>(pid));
  std::string err = r < 0 ? DwflError() : (r > 0 ? std::strerror(r) : "");
  dwfl_report_end(dwfl, nullptr, nullptr);
  if (r != 0) {
    if (r == ENOENT || r == ESRCH) return Status::Unreadable("no process " + std::to_string(pid));
    return Status::Unreadable("cannot list the modules of process " + std::to_string(pid) +
                              ": " + err);
  }
  return index;
}

Result<std::unique_ptr<SymbolIndex>> SymbolIndex::ForCore(Elf* core, const std::string& executable) {
  Dwfl* dwfl = dwfl_begin(&kCoreCallbacks);
  if (dwfl == nullptr) return Status::Unreadable("libdwfl: " + DwflError());
  std::unique_ptr<SymbolIndex> index(new SymbolIndex(dwfl));
  dwfl_report_begin(dwfl);
  int r = dwfl_core_file_report(dwfl, core, executable.empty() ? nullptr : executable.c_str());
  std::string err = r < 0 ? DwflError() : "";
  dwfl_report_end(dwfl, nullptr, nullptr);
  if (r < 0) return Status::Unreadable("cannot list the modules of the core: " + err);
  return index;
}

std::vector<Dwfl_Module*> SymbolIndex::Modules() const {
  std::vector<Dwfl_Module*> mods;
  auto collect = [](Dwfl_Module* mod, void**, const char*, Dwarf_Addr, void* arg) -> int {
    static_cast<std::vector<Dwfl_Module*>*>(arg)->push_back(mod);
    return DWARF_CB_OK;
  };
  dwfl_getmodules(dwfl_, collect, &mods, 0);
  return mods;
}

std::vector<std::string> SymbolIndex::ModuleNames() const {
  std::vector<std::string> names;
  for (Dwfl_Module* mod : Modules()) {
    // Mapped files that are not ELF (locale archives, caches) are not modules to name.
    Dwarf_Addr bias = 0;
    if (dwfl_module_getelf(mod, &bias) == nullptr) continue;
    const char* name = dwfl_module_info(mod, nullptr, nullptr, nullptr, nullptr, nullptr,
                                        nullptr, nullptr);
    if (name != nullptr) names.emplace_back(name);
  }
  return names;
}

std::optional<CodeLocation> SymbolIndex::DescribeAddress(uint64_t address) const {
  Dwfl_Module* mod = dwfl_addrmodule(dwfl_, address);
  if (mod == nullptr) return std::nullopt;
  Dwarf_Addr start = 0;
  const char* name = dwfl_module_info(mod, nullptr, &start, nullptr, nullptr, nullptr, nullptr,
                                      nullptr);
  CodeLocation where;
  where.module = name != nullptr ? name : "";
  where.offset = address - start;
  GElf_Off off = 0;
  GElf_Sym sym;
  const char* symbol = dwfl_module_addrinfo(mod, address, &off, &sym, nullptr, nullptr, nullptr);
  if (symbol != nullptr && *symbol != '\0') {
    char buf[32];
    std::snprintf(buf, sizeof buf, "+0x%llx", static_cast<unsigned long long>(off));
    where.symbol = std::string(symbol) + buf;
  }
  return where;
}

std::optional<std::pair<std::string, int>> SymbolIndex::SourceLineAt(uint64_t address) const {
  Dwfl_Module* mod = dwfl_addrmodule(dwfl_, address);
  if (mod == nullptr) return std::nullopt;
  Dwfl_Line* line = dwfl_module_getsrc(mod, address);
  if (line == nullptr) return std::nullopt;
  int lineno = 0;
  const char* file = dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr);
  if (file == nullptr || *file == '\0' || lineno <= 0) return std::nullopt;
  return std::make_pair(std::string(file), lineno);
}

void SymbolIndex::FindTables() {
  tables_found_ = true;
  for (Dwfl_Module* mod : Modules()) {
    ModuleTable t;
    std::unique_ptr<FileSymbols> unshared;
    t.symbols = SharedFileSymbols(mod, &t.bias, &unshared);
    if (t.symbols == nullptr) continue;
    if (unshared) unshared_.push_back(std::move(unshared));
    tables_.push_back(t);
  }
}

std::optional<uint64_t> SymbolIndex::Lookup(const std::string& name, bool functions_only) {
  if (!tables_found_) FindTables();
  const FileSymbol* best = nullptr;
  uint64_t best_bias = 0;
  for (const ModuleTable& t : tables_) {
    const FileSymbol* s = t.symbols->Find(name, functions_only);
    if (s != nullptr && (best == nullptr || s->rank > best->rank)) {
      best = s;
      best_bias = t.bias;
    }
  }
  if (best == nullptr) return std::nullopt;
  return best->absolute ? best->value : best->value + best_bias;
}

std::optional<uint64_t> SymbolIndex::FindSymbol(const std::string& name) {
  return Lookup(name, false);
}

std::optional<uint64_t> SymbolIndex::FindFunction(const std::string& name) {
  return Lookup(name, true);
}

}  // namespace mpidbg::host
