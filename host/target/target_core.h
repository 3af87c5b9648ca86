// target_core.h — a core file (from the kernel or gcore) as a target.
//
// Memory comes from the core's PT_LOAD segments. Where the core omits bytes (p_filesz
// < p_memsz, or no segment at all, as for read-only text the kernel does not dump),
// the file that was mapped there per the NT_FILE note supplies them; what neither has
// reads as zeros inside a segment and as an error outside one.
#pragma once

#include <libelf.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host/target/target_memory.h"

namespace mpidbg::host {

class CoreTarget : public TargetMemory {
 public:
  struct MappedFile {
    uint64_t start = 0;
    uint64_t end = 0;
    uint64_t file_offset = 0;  // bytes
    std::string path;
  };

  // Opens and checks the core. `exe_override` ("" for none) replaces the executable
  // the core names. Errors: not ELF, not a core, another architecture, truncated.
  static Result<std::unique_ptr<CoreTarget>> Open(const std::string& core_path,
                                                  const std::string& exe_override);
  ~CoreTarget() override;
  CoreTarget(const CoreTarget&) = delete;
  CoreTarget& operator=(const CoreTarget&) = delete;

  Status Read(TargetAddr addr, size_t size, void* out) override;

  // The core as libelf sees it, for dwfl_core_file_report. Owned by this object.
  Elf* elf() const { return elf_; }
  const std::string& path() const { return path_; }
  int64_t pid() const { return pid_; }
  const std::vector<int64_t>& tids() const { return tids_; }
  // The executable: the override, else the file mapped at the program headers
  // (NT_AUXV AT_PHDR within NT_FILE), else a mapped file named like NT_PRPSINFO's
  // pr_fname; "" when none is known.
  const std::string& executable() const { return executable_; }
  const std::string& command_name() const { return command_name_; }
  const std::vector<MappedFile>& mapped_files() const { return files_; }
  // Modification time of the core file, i.e. about when the process was dumped.
  int64_t mtime_ns() const { return mtime_ns_; }

 private:
  struct Segment {
    uint64_t vaddr = 0;
    uint64_t memsz = 0;
    uint64_t offset = 0;
    uint64_t filesz = 0;
  };

  CoreTarget() = default;
  Status Load(const std::string& exe_override);
  Status ParseNotes(uint64_t offset, uint64_t size);
  void ParseFileNote(const char* desc, size_t size);
  void ParseAuxv(const char* desc, size_t size);
  void ChooseExecutable(const std::string& exe_override);
  const Segment* FindSegment(uint64_t addr) const;
  const MappedFile* FindMappedFile(uint64_t addr) const;
  // Reads from the mapped file; bytes past its end read as zeros.
  bool ReadMappedFile(const MappedFile& mf, uint64_t addr, size_t size, char* out);

  std::string path_;
  int fd_ = -1;
  Elf* elf_ = nullptr;
  uint64_t file_size_ = 0;
  int64_t mtime_ns_ = 0;
  int64_t pid_ = 0;
  std::vector<int64_t> tids_;
  std::string executable_;
  std::string command_name_;
  uint64_t at_phdr_ = 0;
  std::vector<Segment> segments_;  // sorted by vaddr
  std::vector<MappedFile> files_;
  std::map<std::string, int> file_fds_;  // -1: could not be opened
};

}  // namespace mpidbg::host
