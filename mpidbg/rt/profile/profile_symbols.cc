// profile_symbols.cc — see profile_symbols.h.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt/profile/profile_symbols.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/record_write.h"

namespace mpidbg::rt {
namespace {

struct MainProgramQuery {
  uintptr_t address;
  bool first_seen;
  bool inside;
};

// dl_iterate_phdr lists the main program first; is the address in one of its segments?
int CheckMainProgram(struct dl_phdr_info* info, size_t, void* data) {
  auto* q = static_cast<MainProgramQuery*>(data);
  if (q->first_seen) return 1;
  q->first_seen = true;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    const uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (q->address >= start && q->address - start < ph.p_memsz) q->inside = true;
  }
  return 1;
}

bool InMainProgram(uintptr_t address) {
  MainProgramQuery q = {address, false, false};
  dl_iterate_phdr(CheckMainProgram, &q);
  return q.inside;
}

// The module's path as a file name a reader can open: the main program through
// /proc/self/exe (the dynamic linker names it by argv[0], possibly relative), others as
// the dynamic linker found them, made absolute where they are not.
void ModulePath(const char* name, uintptr_t address, char* out, size_t size) {
  if (InMainProgram(address)) {
    const ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n > 0) {
      out[n] = '\0';
      return;
    }
  }
  if (name != nullptr && name[0] != '/' && name[0] != '\0') {
    char resolved[PATH_MAX];
    if (realpath(name, resolved) != nullptr) {
      core::CopyName(out, static_cast<uint32_t>(size), resolved);
      return;
    }
  }
  core::CopyName(out, static_cast<uint32_t>(size), name != nullptr ? name : "");
}

}  // namespace

void LocateSite(uint64_t address, SiteLocation* out) {
  out->module[0] = '\0';
  out->offset = address;
  out->symbol[0] = '\0';
  out->has_symbol = false;
  if (address == 0) return;
  const auto pc = static_cast<uintptr_t>(address);
  Dl_info info = {};
  if (dladdr(reinterpret_cast<void*>(pc - 1), &info) == 0) return;
  ModulePath(info.dli_fname, pc - 1, out->module, sizeof out->module);
  out->offset = address - reinterpret_cast<uintptr_t>(info.dli_fbase);
  if (info.dli_sname != nullptr && info.dli_saddr != nullptr) {
    const uintptr_t sym = reinterpret_cast<uintptr_t>(info.dli_saddr);
    snprintf(out->symbol, sizeof out->symbol, "%s+0x%llx", info.dli_sname,
             static_cast<unsigned long long>(pc - sym));
    out->has_symbol = true;
  }
}

}  // namespace mpidbg::rt
