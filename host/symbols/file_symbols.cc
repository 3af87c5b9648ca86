// file_symbols.cc — see file_symbols.h.
#include "host/symbols/file_symbols.h"

#include <elf.h>
#include <gelf.h>
#include <sys/stat.h>

#include <cstdio>
#include <mutex>

namespace mpidbg::host {
namespace {

int BindingRank(int binding) {
  switch (binding) {
    case STB_GLOBAL:
      return 3;
    case STB_WEAK:
      return 2;
    default:
      return 1;
  }
}

void KeepBetter(std::unordered_map<std::string, FileSymbol>& table, const char* name,
                const FileSymbol& s) {
  auto [it, inserted] = table.emplace(name, s);
  if (!inserted && s.rank > it->second.rank) it->second = s;
}

// "" when the file cannot be told apart from another with certainty.
std::string FileKey(Dwfl_Module* mod) {
  const char* mainfile = nullptr;
  dwfl_module_info(mod, nullptr, nullptr, nullptr, nullptr, nullptr, &mainfile, nullptr);
  if (mainfile == nullptr || *mainfile != '/') return "";
  struct stat st {};
  if (stat(mainfile, &st) != 0 || !S_ISREG(st.st_mode)) return "";
  char buf[160];
  std::snprintf(buf, sizeof buf, "|%llu:%llu:%lld:%lld.%09ld|",
                static_cast<unsigned long long>(st.st_dev),
                static_cast<unsigned long long>(st.st_ino), static_cast<long long>(st.st_size),
                static_cast<long long>(st.st_mtim.tv_sec), st.st_mtim.tv_nsec);
  std::string key = std::string(mainfile) + buf;
  const unsigned char* bits = nullptr;
  GElf_Addr vaddr = 0;
  const int n = dwfl_module_build_id(mod, &bits, &vaddr);
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < n; ++i) {
    key += kHex[bits[i] >> 4];
    key += kHex[bits[i] & 15];
  }
  return key;
}

struct Cache {
  std::mutex mu;
  std::unordered_map<std::string, std::unique_ptr<FileSymbols>> files;
};

Cache& TheCache() {
  // Never destroyed: freeing every table at exit cost as much as building them, and
  // the process is about to end anyway.
  static Cache* cache = new Cache();
  return *cache;
}

}  // namespace

std::unique_ptr<FileSymbols> FileSymbols::Build(Dwfl_Module* mod, uint64_t bias) {
  std::unique_ptr<FileSymbols> out(new FileSymbols());
  const int n = dwfl_module_getsymtab(mod);
  if (n > 0) out->any_.reserve(static_cast<size_t>(n));
  for (int i = 1; i < n; ++i) {
    GElf_Sym sym;
    GElf_Addr addr = 0;
    GElf_Word shndx = 0;
    const char* name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, nullptr, nullptr);
    if (name == nullptr || *name == '\0' || shndx == SHN_UNDEF) continue;
    const int type = GELF_ST_TYPE(sym.st_info);
    if (type == STT_SECTION || type == STT_FILE || type == STT_TLS) continue;
    FileSymbol s;
    s.absolute = shndx == SHN_ABS;
    s.value = s.absolute ? addr : addr - bias;
    s.is_function = (type == STT_FUNC || type == STT_GNU_IFUNC);
    s.rank = BindingRank(GELF_ST_BIND(sym.st_info));
    KeepBetter(out->any_, name, s);
    if (s.is_function) KeepBetter(out->functions_, name, s);
  }
  return out;
}

const FileSymbol* FileSymbols::Find(const std::string& name, bool functions_only) const {
  const auto& table = functions_only ? functions_ : any_;
  auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

const FileSymbols* SharedFileSymbols(Dwfl_Module* mod, uint64_t* bias,
                                     std::unique_ptr<FileSymbols>* unshared) {
  Dwarf_Addr elf_bias = 0;
  if (dwfl_module_getelf(mod, &elf_bias) == nullptr) return nullptr;  // not an ELF module
  *bias = elf_bias;
  const std::string key = FileKey(mod);
  if (key.empty()) {
    *unshared = FileSymbols::Build(mod, elf_bias);
    return unshared->get();
  }
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mu);
  std::unique_ptr<FileSymbols>& slot = cache.files[key];
  if (!slot) slot = FileSymbols::Build(mod, elf_bias);
  return slot.get();
}

}  // namespace mpidbg::host
