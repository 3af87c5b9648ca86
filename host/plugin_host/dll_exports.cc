// dll_exports.cc — a shared library's exported names through libelf.
#include "host/plugin_host/dll_exports.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mpidbg::host {

bool DynamicSymbols(const std::string& path, std::set<std::string>* names, std::string* error) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = std::strerror(errno);
    return false;
  }
  elf_version(EV_CURRENT);
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  GElf_Ehdr ehdr;
  bool ok = elf != nullptr && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &ehdr) != nullptr &&
            ehdr.e_type == ET_DYN;
  if (!ok) *error = "not an ELF shared library";
  for (Elf_Scn* scn = nullptr; ok && (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type != SHT_DYNSYM) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr || shdr.sh_entsize == 0) continue;
    size_t count = shdr.sh_size / shdr.sh_entsize;
    for (size_t i = 1; i < count; ++i) {
      GElf_Sym sym;
      if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) break;
      if (sym.st_shndx == SHN_UNDEF) continue;
      const char* name = elf_strptr(elf, shdr.sh_link, sym.st_name);
      if (name != nullptr) names->insert(name);
    }
  }
  if (elf != nullptr) elf_end(elf);
  close(fd);
  return ok;
}

}  // namespace mpidbg::host
