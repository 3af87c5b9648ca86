// elf_needed.cc — DT_NEEDED through libelf: the dynamic section's string offsets
// resolved in the section its sh_link names.
#include "host/run/elf_needed.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

namespace mpidbg::launch {
namespace {

// Closes the descriptor and the Elf handle on every path out.
struct ElfFile {
  int fd = -1;
  Elf* elf = nullptr;
  ~ElfFile() {
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
  }
};

}  // namespace

bool ReadNeededLibraries(const std::string& path, std::vector<std::string>* needed,
                         std::string* error) {
  needed->clear();
  if (elf_version(EV_CURRENT) == EV_NONE) {
    *error = "libelf is unusable";
    return false;
  }
  ElfFile file;
  file.fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file.fd < 0) {
    *error = "cannot open " + path;
    return false;
  }
  file.elf = elf_begin(file.fd, ELF_C_READ, nullptr);
  if (!file.elf || elf_kind(file.elf) != ELF_K_ELF) {
    *error = path + " is not an ELF file";
    return false;
  }
  bool found_dynamic = false;
  for (Elf_Scn* scn = elf_nextscn(file.elf, nullptr); scn; scn = elf_nextscn(file.elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC) continue;
    found_dynamic = true;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (!data || shdr.sh_entsize == 0) break;
    const size_t entries = shdr.sh_size / shdr.sh_entsize;
    for (size_t i = 0; i < entries; ++i) {
      GElf_Dyn dyn;
      if (!gelf_getdyn(data, static_cast<int>(i), &dyn)) break;
      if (dyn.d_tag == DT_NULL) break;
      if (dyn.d_tag != DT_NEEDED) continue;
      const char* name = elf_strptr(file.elf, shdr.sh_link, dyn.d_un.d_val);
      if (name) needed->emplace_back(name);
    }
    break;
  }
  if (!found_dynamic) {
    *error = path + " is not dynamically linked";
    return false;
  }
  return true;
}

}  // namespace mpidbg::launch
