// target_core.cc — reading a core file with libelf.
//
// The notes are parsed with bounds checks on every field (a core is untrusted input):
// NT_PRSTATUS gives the threads, NT_PRPSINFO the pid and command name, NT_FILE the
// mapped files, NT_AUXV the address of the executable's program headers.
#include "host/target/target_core.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/procfs.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>

#include "host/target/core_executable_check.h"

namespace mpidbg::host {
namespace {

#if defined(__x86_64__)
constexpr int kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr int kHostMachine = EM_AARCH64;
#elif defined(__powerpc64__)
constexpr int kHostMachine = EM_PPC64;
#else
constexpr int kHostMachine = EM_NONE;  // not checked
#endif

constexpr size_t kMaxPath = 4096;

uint64_t LoadU64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::string Basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

Result<std::unique_ptr<CoreTarget>> CoreTarget::Open(const std::string& core_path,
                                                     const std::string& exe_override) {
  std::unique_ptr<CoreTarget> t(new CoreTarget());
  t->path_ = core_path;
  Status st = t->Load(exe_override);
  if (!st.ok()) return st;
  return t;
}

CoreTarget::~CoreTarget() {
  if (elf_ != nullptr) elf_end(elf_);
  if (fd_ >= 0) close(fd_);
  for (auto& [path, fd] : file_fds_) {
    if (fd >= 0) close(fd);
  }
}

Status CoreTarget::Load(const std::string& exe_override) {
  fd_ = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    return Status::Unreadable("cannot open core file " + path_ + ": " + std::strerror(errno));
  }
  struct stat sb;
  if (fstat(fd_, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    return Status::Unreadable(path_ + " is not a regular file");
  }
  file_size_ = static_cast<uint64_t>(sb.st_size);
  mtime_ns_ = static_cast<int64_t>(sb.st_mtim.tv_sec) * 1000000000 + sb.st_mtim.tv_nsec;

  elf_version(EV_CURRENT);
  char magic[SELFMAG] = {};
  if (pread(fd_, magic, SELFMAG, 0) != SELFMAG || std::memcmp(magic, ELFMAG, SELFMAG) != 0) {
    return Status::Unreadable(path_ + " is not a core file (not an ELF file)");
  }
  if (file_size_ < sizeof(Elf64_Ehdr)) {
    return Status::Unreadable("core file " + path_ + " is truncated: it has " +
                              std::to_string(file_size_) + " bytes, less than an ELF header");
  }
  elf_ = elf_begin(fd_, ELF_C_READ_MMAP, nullptr);
  if (elf_ == nullptr || elf_kind(elf_) != ELF_K_ELF) {
    return Status::Unreadable("cannot read core file " + path_ + ": " + elf_errmsg(-1));
  }
  GElf_Ehdr ehdr;
  if (gelf_getehdr(elf_, &ehdr) == nullptr) {
    return Status::Unreadable(path_ + " is not a core file (unreadable ELF header: " +
                              elf_errmsg(-1) + ")");
  }
  if (ehdr.e_type != ET_CORE) {
    return Status::Unreadable(path_ + " is not a core file (ELF type " +
                              std::to_string(ehdr.e_type) + ", a core has type 4)");
  }
  if (ehdr.e_ident[EI_CLASS] != ELFCLASS64 ||
      (kHostMachine != EM_NONE && ehdr.e_machine != kHostMachine)) {
    return Status::Unreadable("core file " + path_ + " is for another architecture (ELF machine " +
                              std::to_string(ehdr.e_machine) + ")");
  }

  size_t phnum = 0;
  if (elf_getphdrnum(elf_, &phnum) != 0) {
    return Status::Unreadable("core file " + path_ + " is truncated or corrupt: " +
                              elf_errmsg(-1));
  }
  uint64_t needed = 0;
  for (size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(elf_, static_cast<int>(i), &ph) == nullptr) {
      return Status::Unreadable("core file " + path_ + " is truncated or corrupt: program header " +
                                std::to_string(i) + " unreadable");
    }
    if (ph.p_type != PT_LOAD && ph.p_type != PT_NOTE) continue;
    if (ph.p_offset + ph.p_filesz < ph.p_offset) {
      return Status::Unreadable("core file " + path_ + " is corrupt: segment " +
                                std::to_string(i) + " has an impossible size");
    }
    needed = std::max<uint64_t>(needed, ph.p_offset + ph.p_filesz);
    if (ph.p_type == PT_LOAD) {
      if (ph.p_memsz == 0) continue;
      Segment seg{ph.p_vaddr, ph.p_memsz, ph.p_offset, std::min(ph.p_filesz, ph.p_memsz)};
      segments_.push_back(seg);
    }
  }
  if (needed > file_size_) {
    return Status::Unreadable("core file " + path_ + " is truncated: it has " +
                              std::to_string(file_size_) + " bytes but its segments need " +
                              std::to_string(needed) +
                              " (was the dump cut short, e.g. by ulimit -c or a full disk?)");
  }
  std::sort(segments_.begin(), segments_.end(),
            [](const Segment& a, const Segment& b) { return a.vaddr < b.vaddr; });
  for (size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(elf_, static_cast<int>(i), &ph) == nullptr || ph.p_type != PT_NOTE) continue;
    Status st = ParseNotes(ph.p_offset, ph.p_filesz);
    if (!st.ok()) return st;
  }
  if (pid_ == 0 && !tids_.empty()) pid_ = tids_.front();
  ChooseExecutable("");
  if (!exe_override.empty()) {
    // A wrong --exe would resolve the program's symbols at wrong addresses silently.
    Status exe = CheckCoreExecutable(*this, executable_, exe_override);
    if (!exe.ok()) return exe;
    ChooseExecutable(exe_override);
  }
  return Status::Ok();
}

Status CoreTarget::ParseNotes(uint64_t offset, uint64_t size) {
  Elf_Data* data = elf_getdata_rawchunk(elf_, static_cast<int64_t>(offset), size, ELF_T_NHDR);
  if (data == nullptr) {
    return Status::Unreadable("core file " + path_ + " has an unreadable note segment: " +
                              elf_errmsg(-1));
  }
  size_t pos = 0;
  GElf_Nhdr nhdr;
  size_t name_off = 0;
  size_t desc_off = 0;
  while (pos < data->d_size) {
    size_t next = gelf_getnote(data, pos, &nhdr, &name_off, &desc_off);
    if (next == 0) break;
    pos = next;
    const char* base = static_cast<const char*>(data->d_buf);
    const char* desc = base + desc_off;
    size_t dsz = nhdr.n_descsz;
    bool is_core = nhdr.n_namesz == 5 && std::memcmp(base + name_off, "CORE", 5) == 0;
    if (!is_core) continue;
    switch (nhdr.n_type) {
      case NT_PRSTATUS:
        if (dsz >= offsetof(struct elf_prstatus, pr_pid) + sizeof(int32_t)) {
          int32_t tid;
          std::memcpy(&tid, desc + offsetof(struct elf_prstatus, pr_pid), sizeof tid);
          tids_.push_back(tid);
        }
        break;
      case NT_PRPSINFO:
        if (dsz >= offsetof(struct elf_prpsinfo, pr_fname) + sizeof(elf_prpsinfo::pr_fname)) {
          int32_t pid;
          std::memcpy(&pid, desc + offsetof(struct elf_prpsinfo, pr_pid), sizeof pid);
          pid_ = pid;
          const char* fname = desc + offsetof(struct elf_prpsinfo, pr_fname);
          command_name_.assign(fname, strnlen(fname, sizeof(elf_prpsinfo::pr_fname)));
        }
        break;
      case NT_FILE:
        ParseFileNote(desc, dsz);
        break;
      case NT_AUXV:
        ParseAuxv(desc, dsz);
        break;
      default:
        break;
    }
  }
  return Status::Ok();
}

// NT_FILE: count, page size, count × {start, end, page offset}, then count file names.
void CoreTarget::ParseFileNote(const char* desc, size_t size) {
  if (size < 16) return;
  uint64_t count = LoadU64(desc);
  uint64_t page_size = LoadU64(desc + 8);
  // The count is untrusted: it must fit the note before it sizes anything.
  if (count == 0 || count > (size - 16) / 24) return;
  const char* names = desc + 16 + count * 24;
  const char* end = desc + size;
  for (uint64_t i = 0; i < count && names < end; ++i) {
    const char* entry = desc + 16 + i * 24;
    size_t len = strnlen(names, static_cast<size_t>(end - names));
    MappedFile mf;
    mf.start = LoadU64(entry);
    mf.end = LoadU64(entry + 8);
    uint64_t pages = LoadU64(entry + 16);
    if (page_size != 0 && pages > UINT64_MAX / page_size) pages = 0;
    mf.file_offset = pages * page_size;
    mf.path.assign(names, std::min(len, kMaxPath));
    names += len + 1;
    if (mf.end > mf.start) files_.push_back(std::move(mf));
  }
}

void CoreTarget::ParseAuxv(const char* desc, size_t size) {
  for (size_t off = 0; off + 16 <= size; off += 16) {
    uint64_t type = LoadU64(desc + off);
    if (type == AT_NULL) break;
    if (type == AT_PHDR) at_phdr_ = LoadU64(desc + off + 8);
  }
}

void CoreTarget::ChooseExecutable(const std::string& exe_override) {
  if (!exe_override.empty()) {
    executable_ = exe_override;
    return;
  }
  if (at_phdr_ != 0) {
    if (const MappedFile* mf = FindMappedFile(at_phdr_)) {
      executable_ = mf->path;
      return;
    }
  }
  // pr_fname is the first 15 characters of the executable's name.
  if (!command_name_.empty()) {
    for (const MappedFile& mf : files_) {
      if (Basename(mf.path).compare(0, command_name_.size(), command_name_) == 0) {
        executable_ = mf.path;
        return;
      }
    }
  }
}

const CoreTarget::Segment* CoreTarget::FindSegment(uint64_t addr) const {
  auto it = std::upper_bound(segments_.begin(), segments_.end(), addr,
                             [](uint64_t a, const Segment& s) { return a < s.vaddr; });
  if (it == segments_.begin()) return nullptr;
  --it;
  return addr - it->vaddr < it->memsz ? &*it : nullptr;
}

const CoreTarget::MappedFile* CoreTarget::FindMappedFile(uint64_t addr) const {
  for (const MappedFile& mf : files_) {
    if (addr >= mf.start && addr < mf.end) return &mf;
  }
  return nullptr;
}

bool CoreTarget::ReadMappedFile(const MappedFile& mf, uint64_t addr, size_t size, char* out) {
  auto it = file_fds_.find(mf.path);
  if (it == file_fds_.end()) {
    it = file_fds_.emplace(mf.path, open(mf.path.c_str(), O_RDONLY | O_CLOEXEC)).first;
  }
  int fd = it->second;
  if (fd < 0) return false;
  uint64_t pos = mf.file_offset + (addr - mf.start);
  size_t done = 0;
  while (done < size) {
    ssize_t n = pread(fd, out + done, size - done, static_cast<off_t>(pos + done));
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  std::memset(out + done, 0, size - done);  // past the end of the file
  return true;
}

Status CoreTarget::Read(TargetAddr addr, size_t size, void* out) {
  TargetAddr end;
  if (!addr.Advance(size, &end)) {
    return Status::Unreadable("address range at " + HexAddr(addr) + " wraps around");
  }
  auto* dst = static_cast<char*>(out);
  uint64_t cur = addr.value;
  size_t left = size;
  while (left > 0) {
    const Segment* seg = FindSegment(cur);
    const MappedFile* mf = FindMappedFile(cur);
    size_t chunk = left;
    if (seg != nullptr) {
      uint64_t in_seg = cur - seg->vaddr;
      if (in_seg < seg->filesz) {
        chunk = static_cast<size_t>(std::min<uint64_t>(left, seg->filesz - in_seg));
        ssize_t n = pread(fd_, dst, chunk, static_cast<off_t>(seg->offset + in_seg));
        if (n != static_cast<ssize_t>(chunk)) {
          return Status::Unreadable("core file " + path_ + " is truncated at " +
                                    HexAddr(TargetAddr(cur)));
        }
      } else {
        chunk = static_cast<size_t>(std::min<uint64_t>(left, seg->memsz - in_seg));
        if (mf != nullptr) chunk = static_cast<size_t>(std::min<uint64_t>(chunk, mf->end - cur));
        // Omitted from the dump: the mapped file has the bytes, else they were zero.
        if (mf == nullptr || !ReadMappedFile(*mf, cur, chunk, dst)) std::memset(dst, 0, chunk);
      }
    } else if (mf != nullptr) {
      chunk = static_cast<size_t>(std::min<uint64_t>(left, mf->end - cur));
      // Stop at the next dumped segment: the core's copy wins over the file.
      auto next = std::upper_bound(segments_.begin(), segments_.end(), cur,
                                   [](uint64_t a, const Segment& s) { return a < s.vaddr; });
      if (next != segments_.end()) chunk = static_cast<size_t>(std::min<uint64_t>(chunk, next->vaddr - cur));
      if (!ReadMappedFile(*mf, cur, chunk, dst)) {
        return Status::Unreadable("address " + HexAddr(TargetAddr(cur)) +
                                  " is not in the core and its mapped file " + mf->path +
                                  " cannot be opened");
      }
    } else {
      return Status::Unreadable("address " + HexAddr(TargetAddr(cur)) +
                                " is not in the memory of core file " + path_);
    }
    dst += chunk;
    cur += chunk;
    left -= chunk;
  }
  return Status::Ok();
}

}  // namespace mpidbg::host
