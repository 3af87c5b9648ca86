// core_executable_check.cc — comparing build IDs of --exe and of the dumped program.
//
// The dumped program's build ID is read from the core's memory: the ELF header at the
// start of the program's first mapping (cores keep that page: coredump_filter bit 4,
// gcore likewise), its program headers, its PT_NOTE segments. Every count and offset
// comes from the core and is bounded before use.
#include "host/target/core_executable_check.h"

#include <elf.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mpidbg::host {
namespace {

constexpr uint16_t kMaxProgramHeaders = 256;
constexpr uint64_t kMaxNoteBytes = 1 << 16;

std::string Hex(const unsigned char* bytes, size_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

// The GNU build ID note among `size` bytes of notes, "" when absent.
std::string BuildIdInNotes(const unsigned char* notes, uint64_t size) {
  uint64_t pos = 0;
  while (pos + sizeof(Elf64_Nhdr) <= size) {
    Elf64_Nhdr nh;
    std::memcpy(&nh, notes + pos, sizeof nh);
    uint64_t name_at = pos + sizeof nh;
    uint64_t desc_at = name_at + ((nh.n_namesz + 3ull) & ~3ull);
    uint64_t next = desc_at + ((nh.n_descsz + 3ull) & ~3ull);
    if (next > size || next <= pos) return "";
    if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
        std::memcmp(notes + name_at, "GNU", 4) == 0 && nh.n_descsz > 0) {
      return Hex(notes + desc_at, nh.n_descsz);
    }
    pos = next;
  }
  return "";
}

// The build ID of the ELF image mapped at `start` in the core, "" when not found.
std::string MemoryBuildId(TargetMemory& memory, uint64_t start) {
  Elf64_Ehdr eh;
  if (!memory.Read(TargetAddr(start), sizeof eh, &eh).ok()) return "";
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum > kMaxProgramHeaders) {
    return "";
  }
  Elf64_Phdr ph[kMaxProgramHeaders];
  TargetAddr at;
  if (!TargetAddr(start).Advance(eh.e_phoff, &at) ||
      !memory.Read(at, eh.e_phnum * sizeof(Elf64_Phdr), ph).ok()) {
    return "";
  }
  // Load bias: where the segment holding file offset 0 was placed, minus its vaddr.
  bool have_base = false;
  uint64_t bias = 0;
  for (uint16_t i = 0; i < eh.e_phnum && !have_base; ++i) {
    if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) {
      bias = start - ph[i].p_vaddr;
      have_base = true;
    }
  }
  if (!have_base) return "";
  for (uint16_t i = 0; i < eh.e_phnum; ++i) {
    if (ph[i].p_type != PT_NOTE || ph[i].p_filesz == 0 || ph[i].p_filesz > kMaxNoteBytes) continue;
    std::string notes(ph[i].p_filesz, '\0');
    if (!memory.Read(TargetAddr(bias + ph[i].p_vaddr), notes.size(), notes.data()).ok()) continue;
    std::string id =
        BuildIdInNotes(reinterpret_cast<const unsigned char*>(notes.data()), notes.size());
    if (!id.empty()) return id;
  }
  return "";
}

}  // namespace

std::string FileBuildId(const std::string& path, std::string* error) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = std::strerror(errno);
    return "";
  }
  elf_version(EV_CURRENT);
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  GElf_Ehdr eh;
  std::string id;
  if (elf == nullptr || elf_kind(elf) != ELF_K_ELF || gelf_getehdr(elf, &eh) == nullptr ||
      (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)) {
    *error = "not an ELF program";
  } else {
    const void* bits = nullptr;
    ssize_t n = dwelf_elf_gnu_build_id(elf, &bits);
    if (n > 0) id = Hex(static_cast<const unsigned char*>(bits), static_cast<size_t>(n));
  }
  if (elf != nullptr) elf_end(elf);
  close(fd);
  return id;
}

Status CheckCoreExecutable(CoreTarget& core, const std::string& recorded,
                           const std::string& given) {
  std::string error;
  std::string given_id = FileBuildId(given, &error);
  if (!error.empty()) {
    return Status::Usage("--exe " + given + " cannot be used: " + error);
  }
  if (recorded.empty() || given_id.empty()) return Status::Ok();
  // The program's first mapping: the lowest one of its file at offset 0.
  const CoreTarget::MappedFile* first = nullptr;
  for (const CoreTarget::MappedFile& mf : core.mapped_files()) {
    if (mf.path == recorded && mf.file_offset == 0 &&
        (first == nullptr || mf.start < first->start)) {
      first = &mf;
    }
  }
  if (first == nullptr) return Status::Ok();
  std::string core_id = MemoryBuildId(core, first->start);
  if (core_id.empty() || core_id == given_id) return Status::Ok();
  return Status::Usage("--exe " + given + " is not the program core file " + core.path() +
                       " was dumped from: its build ID is " + given_id + ", the dumped " +
                       recorded + " had " + core_id);
}

}  // namespace mpidbg::host
