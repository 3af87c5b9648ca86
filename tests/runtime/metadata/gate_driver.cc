// gate_driver.cc — drives a job held by MPIDBG_DEBUG_GATE=1 from outside, as a debugger
// would, and checks that the ranks stay in MPI_Init until released.
//
//   gate_driver --ranks N --plugin PATH [--gdb GDB] [--timeout S] -- <launch command...>
//
// Any argument "@DIR@" of the launch command becomes a fresh directory in which the
// ranks (gate_rank) leave pid.<pid> before MPI_Init and released.<pid> after it.
//  1. start the launch command in a process group of its own;
//  2. wait for N pid files; in each rank, find mpidbg_runtime_root and MPIR_debug_gate
//     in the dynamic symbol table of the runtime library mapped there (/proc/<pid>/maps
//     and the library's ELF file) and wait until root.debug_gate_hold is 1;
//  3. one second later every rank must still be held and none released;
//  4. release: with --gdb, rank pid #0 through gdb (which must resolve MPIR_dll_name to
//     the runtime and read the plugin path in it), the others by writing
//     MPIR_debug_gate = 1 with process_vm_writev;
//  5. the job must end with status 0 and every rank released, within the timeout.
// On any failure the launcher's process group and the ranks are killed by their ids.
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstddef>
#include <string>
#include <vector>

#include "mpidbg/records.h"

namespace {

int g_failures = 0;

#define DRIVER_CHECK(cond, ...)                                    \
  do {                                                             \
    if (!(cond)) {                                                 \
      fprintf(stderr, "gate_driver: check failed: %s: ", #cond);   \
      fprintf(stderr, __VA_ARGS__);                                \
      fprintf(stderr, "\n");                                       \
      ++g_failures;                                                \
    }                                                              \
  } while (0)

double NowS() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

void SleepS(double s) {
  struct timespec ts = {static_cast<time_t>(s), static_cast<long>((s - static_cast<time_t>(s)) * 1e9)};
  nanosleep(&ts, nullptr);
}

std::vector<std::string> FilesWithPrefix(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (struct dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) == 0 && name.find(".tmp") == std::string::npos) {
      out.push_back(name.substr(prefix.size()));
    }
  }
  closedir(d);
  return out;
}

// ---- where a symbol of the runtime library is in a running process ----

bool ReadFile(const std::string& path, std::vector<unsigned char>* out) {
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  unsigned char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out->insert(out->end(), buf, buf + n);
  fclose(f);
  return true;
}

template <typename T>
bool ReadAt(const std::vector<unsigned char>& file, uint64_t offset, T* out) {
  if (offset > file.size() || file.size() - offset < sizeof(T)) return false;
  memcpy(out, file.data() + offset, sizeof(T));
  return true;
}

// st_value of `name` in the .dynsym of a 64-bit ELF file, and the vaddr of its first
// PT_LOAD (subtracted to get an offset from the load base).
bool DynamicSymbol(const std::vector<unsigned char>& file, const char* name, uint64_t* value) {
  Elf64_Ehdr eh;
  if (!ReadAt(file, 0, &eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64) {
    return false;
  }
  uint64_t first_load = UINT64_MAX;
  for (uint16_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    if (!ReadAt(file, eh.e_phoff + uint64_t{i} * eh.e_phentsize, &ph)) return false;
    if (ph.p_type == PT_LOAD && ph.p_vaddr < first_load) first_load = ph.p_vaddr & ~uint64_t{0xfff};
  }
  for (uint16_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    if (!ReadAt(file, eh.e_shoff + uint64_t{i} * eh.e_shentsize, &sh)) return false;
    if (sh.sh_type != SHT_DYNSYM || sh.sh_entsize != sizeof(Elf64_Sym)) continue;
    Elf64_Shdr strtab;
    if (!ReadAt(file, eh.e_shoff + uint64_t{sh.sh_link} * eh.e_shentsize, &strtab)) return false;
    for (uint64_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); ++k) {
      Elf64_Sym sym;
      if (!ReadAt(file, sh.sh_offset + k * sizeof(Elf64_Sym), &sym)) return false;
      if (sym.st_shndx == SHN_UNDEF || sym.st_name >= strtab.sh_size) continue;
      const char* s = reinterpret_cast<const char*>(file.data() + strtab.sh_offset + sym.st_name);
      size_t room = strtab.sh_size - sym.st_name;
      if (strnlen(s, room) < room && strcmp(s, name) == 0) {
        *value = sym.st_value - (first_load == UINT64_MAX ? 0 : first_load);
        return true;
      }
    }
  }
  return false;
}

struct RankTarget {
  pid_t pid = 0;
  uint64_t root = 0;  // address of mpidbg_runtime_root
  uint64_t gate = 0;  // address of the runtime's MPIR_debug_gate
};

// The runtime library mapped in `pid`: its path and load base.
bool FindRuntimeMapping(pid_t pid, std::string* path, uint64_t* base) {
  std::string maps = "/proc/" + std::to_string(pid) + "/maps";
  FILE* f = fopen(maps.c_str(), "r");
  if (f == nullptr) return false;
  char line[4096];
  bool found = false;
  while (fgets(line, sizeof line, f) != nullptr) {
    unsigned long long start, end, offset;
    char perms[8], dev[32];
    unsigned long inode;
    char file[3000] = "";
    if (sscanf(line, "%llx-%llx %7s %llx %31s %lu %2999s", &start, &end, perms, &offset, dev,
               &inode, file) < 7) {
      continue;
    }
    if (strstr(file, "libmpidbg_rt_") != nullptr && offset == 0) {
      *path = file;
      *base = start;
      found = true;
      break;
    }
  }
  fclose(f);
  return found;
}

bool Locate(pid_t pid, RankTarget* t) {
  std::string path;
  uint64_t base = 0;
  if (!FindRuntimeMapping(pid, &path, &base)) return false;
  std::vector<unsigned char> file;
  uint64_t root = 0, gate = 0;
  if (!ReadFile(path, &file) || !DynamicSymbol(file, MPIDBG_ROOT_SYMBOL, &root) ||
      !DynamicSymbol(file, "MPIR_debug_gate", &gate)) {
    return false;
  }
  t->pid = pid;
  t->root = base + root;
  t->gate = base + gate;
  return true;
}

bool ReadRemote(pid_t pid, uint64_t address, void* out, size_t size) {
  struct iovec local = {out, size};
  struct iovec remote = {reinterpret_cast<void*>(address), size};
  return process_vm_readv(pid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(size);
}

bool WriteRemote(pid_t pid, uint64_t address, const void* in, size_t size) {
  struct iovec local = {const_cast<void*>(in), size};
  struct iovec remote = {reinterpret_cast<void*>(address), size};
  return process_vm_writev(pid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(size);
}

// root.debug_gate_hold of the rank, or -1 when unreadable.
int HoldOf(const RankTarget& t) {
  mpidbg_root root;
  if (!ReadRemote(t.pid, t.root, &root, sizeof root) || root.magic != MPIDBG_ROOT_MAGIC) return -1;
  return root.debug_gate_hold;
}

// ---- gdb ----

std::string RunCapture(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// Releases `pid` the way a user of gdb would; checks what gdb says about MPIR_dll_name.
void ReleaseWithGdb(const std::string& gdb, pid_t pid, const std::string& plugin) {
  std::string command = "timeout -k 5 60 " + gdb + " -nx -batch -p " + std::to_string(pid) +
                        " -ex 'info symbol &MPIR_dll_name'"
                        " -ex 'printf \"DLL=%s\\n\", (char *) &MPIR_dll_name'"
                        " -ex 'set var *(int *) &MPIR_debug_gate = 1' 2>&1";
  std::string out = RunCapture(command);
  // "<name> in section .data of <object>" (gdb names any symbol at that address).
  bool in_runtime = out.find(" in section .data of ") != std::string::npos &&
                    out.find("libmpidbg_rt_") != std::string::npos;
  DRIVER_CHECK(in_runtime, "gdb resolves MPIR_dll_name elsewhere:\n%s", out.c_str());
  DRIVER_CHECK(out.find("DLL=" + plugin + "\n") != std::string::npos,
               "gdb reads MPIR_dll_name as something else than %s:\n%s", plugin.c_str(),
               out.c_str());
}

// ---- the job ----

struct Job {
  pid_t launcher = -1;
  std::vector<pid_t> ranks;
  int status = -1;

  bool Running() {
    if (launcher <= 0) return false;
    pid_t r = waitpid(launcher, &status, WNOHANG);
    if (r == launcher) {
      launcher = -1;
      return false;
    }
    return true;
  }

  // The ranks by their pids, then the launcher's process group.
  void Kill() {
    for (pid_t p : ranks) kill(p, SIGKILL);
    if (launcher > 0) {
      kill(-launcher, SIGTERM);
      SleepS(2);
      kill(-launcher, SIGKILL);
      kill(launcher, SIGKILL);
      waitpid(launcher, &status, 0);
      launcher = -1;
    }
  }
};

pid_t Launch(std::vector<std::string> argv) {
  pid_t child = fork();
  if (child == 0) {
    setpgid(0, 0);
    std::vector<char*> args;
    for (std::string& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  if (child > 0) setpgid(child, child);
  return child;
}

void RemoveDirectory(const std::string& dir) {
  for (const char* prefix : {"pid.", "released."}) {
    for (const std::string& suffix : FilesWithPrefix(dir, prefix)) {
      unlink((dir + "/" + prefix + suffix).c_str());
    }
  }
  rmdir(dir.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  int ranks = 2;
  double timeout = 60;
  std::string plugin, gdb;
  std::vector<std::string> command;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      command.assign(argv + i + 1, argv + argc);
      break;
    } else if (a == "--ranks" && i + 1 < argc) {
      ranks = atoi(argv[++i]);
    } else if (a == "--timeout" && i + 1 < argc) {
      timeout = atof(argv[++i]);
    } else if (a == "--plugin" && i + 1 < argc) {
      plugin = argv[++i];
    } else if (a == "--gdb" && i + 1 < argc) {
      gdb = argv[++i];
    }
  }
  if (command.empty() || plugin.empty()) {
    fprintf(stderr, "usage: gate_driver --ranks N --plugin PATH [--gdb GDB] [--timeout S] -- cmd...\n");
    return 2;
  }
  char dir_template[] = "/tmp/mpidbg_gate_XXXXXX";
  if (mkdtemp(dir_template) == nullptr) return 2;
  std::string dir = dir_template;
  for (std::string& a : command) {
    if (a == "@DIR@") a = dir;
  }

  const double deadline = NowS() + timeout;
  Job job;
  job.launcher = Launch(command);
  DRIVER_CHECK(job.launcher > 0, "cannot start %s", command[0].c_str());

  // 2. Every rank announced itself and is held.
  std::vector<RankTarget> targets;
  while (g_failures == 0 && NowS() < deadline && job.Running()) {
    std::vector<std::string> pids = FilesWithPrefix(dir, "pid.");
    if (static_cast<int>(pids.size()) == ranks) {
      job.ranks.clear();
      for (const std::string& p : pids) job.ranks.push_back(static_cast<pid_t>(atoi(p.c_str())));
      break;
    }
    SleepS(0.05);
  }
  DRIVER_CHECK(static_cast<int>(job.ranks.size()) == ranks, "%zu of %d ranks started",
               job.ranks.size(), ranks);
  for (pid_t pid : job.ranks) {
    RankTarget t;
    bool held = false;
    while (g_failures == 0 && NowS() < deadline && job.Running()) {
      if (t.pid == 0) Locate(pid, &t);  // the runtime may not be mapped yet
      if (t.pid != 0 && HoldOf(t) == 1) {
        held = true;
        break;
      }
      SleepS(0.05);
    }
    DRIVER_CHECK(held, "rank pid %d never held at the gate", static_cast<int>(pid));
    targets.push_back(t);
  }

  // 3. Still held a second later, and nobody left MPI_Init.
  if (g_failures == 0) {
    SleepS(1.0);
    for (const RankTarget& t : targets) {
      DRIVER_CHECK(HoldOf(t) == 1, "rank pid %d no longer held", static_cast<int>(t.pid));
    }
    DRIVER_CHECK(FilesWithPrefix(dir, "released.").empty(), "a rank left MPI_Init unreleased");
    DRIVER_CHECK(job.Running(), "the job ended while held");
  }

  // 4. Release.
  if (g_failures == 0) {
    for (size_t i = 0; i < targets.size(); ++i) {
      if (i == 0 && !gdb.empty()) {
        ReleaseWithGdb(gdb, targets[i].pid, plugin);
      } else {
        const int one = 1;
        DRIVER_CHECK(WriteRemote(targets[i].pid, targets[i].gate, &one, sizeof one),
                     "cannot write MPIR_debug_gate of pid %d", static_cast<int>(targets[i].pid));
      }
    }
  }

  // 5. The job completes.
  while (g_failures == 0 && NowS() < deadline && job.Running()) SleepS(0.05);
  if (g_failures == 0) {
    DRIVER_CHECK(job.launcher == -1, "the job did not end within %.0f s", timeout);
    DRIVER_CHECK(WIFEXITED(job.status) && WEXITSTATUS(job.status) == 0,
                 "the job ended with status 0x%x", job.status);
    DRIVER_CHECK(static_cast<int>(FilesWithPrefix(dir, "released.").size()) == ranks,
                 "not every rank left MPI_Init");
  }
  if (g_failures != 0 || job.launcher > 0) job.Kill();
  RemoveDirectory(dir);
  if (g_failures != 0) {
    fprintf(stderr, "gate_driver: FAIL (%d checks failed)\n", g_failures);
    return 1;
  }
  printf("gate_driver: %d ranks held in MPI_Init and released%s; all checks passed\n", ranks,
         gdb.empty() ? "" : " (one by gdb)");
  return 0;
}
