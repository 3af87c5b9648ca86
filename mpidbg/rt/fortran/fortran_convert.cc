// fortran_convert.cc — the cold parts of the Fortran argument conversions: finding the
// MPI library's Fortran sentinels, heap storage for long arrays, string copies.
#include "rt/fortran/fortran_convert.h"

#include <dlfcn.h>
#include <stdlib.h>

namespace mpidbg::rt {
namespace {

// Where each MPI keeps the Fortran sentinels (from the libraries' dynamic symbol
// tables). `indirect`: the symbol is a C pointer variable holding the sentinel's address
// (MPICH fills its MPIR_F_* and MPI_F_*_IGNORE on the first Fortran call, so they are
// read at each use); otherwise the symbol itself is the sentinel (a common block or an
// mpi_f08 module variable). A symbol this MPI lacks is simply absent.
struct SentinelSymbol {
  const char* name;
  bool indirect;
};
constexpr int kSymbolsPerKind = 4;
constexpr SentinelSymbol kSentinelSymbols[kFortranSentinelKinds][kSymbolsPerKind] = {
    // kFortranInPlace: MPICH mpif.h/use mpi, MPICH mpi_f08, Open MPI (every binding)
    {{"MPIR_F_MPI_IN_PLACE", true}, {"MPIR_F08_MPI_IN_PLACE", false},
     {"mpi_fortran_in_place_", false}, {nullptr, false}},
    // kFortranBottom
    {{"MPIR_F_MPI_BOTTOM", true}, {"MPIR_F08_MPI_BOTTOM", false},
     {"mpi_fortran_bottom_", false}, {nullptr, false}},
    // kFortranStatusIgnore: both MPIs' MPI_F_STATUS_IGNORE, MPICH's mpi_f08 object and
    // pointer, Open MPI's common block (all its bindings)
    {{"MPI_F_STATUS_IGNORE", true}, {"MPI_F08_STATUS_IGNORE", true},
     {"MPIR_F08_MPI_STATUS_IGNORE_OBJ", false}, {"mpi_fortran_status_ignore_", false}},
    // kFortranStatusesIgnore
    {{"MPI_F_STATUSES_IGNORE", true}, {"MPI_F08_STATUSES_IGNORE", true},
     {"MPIR_F08_MPI_STATUSES_IGNORE_OBJ", false}, {"mpi_fortran_statuses_ignore_", false}},
};

struct ResolvedSentinel {
  const void* address;  // the symbol's address, null when this MPI lacks it
  bool indirect;
};
struct SentinelTable {
  ResolvedSentinel at[kFortranSentinelKinds][kSymbolsPerKind];
};

SentinelTable ResolveSentinels() {
  SentinelTable t;
  for (int k = 0; k < kFortranSentinelKinds; ++k) {
    for (int i = 0; i < kSymbolsPerKind; ++i) {
      const SentinelSymbol& s = kSentinelSymbols[k][i];
      t.at[k][i] = {s.name != nullptr ? dlsym(RTLD_DEFAULT, s.name) : nullptr, s.indirect};
    }
  }
  return t;
}

// Looked up on first use (a Fortran call, so the MPI's Fortran libraries are loaded).
const SentinelTable& Sentinels() {
  static const SentinelTable table = ResolveSentinels();
  return table;
}

}  // namespace

bool IsFortranSentinel(FortranSentinel kind, const void* p) {
  if (p == nullptr) return false;
  for (const ResolvedSentinel& s : Sentinels().at[kind]) {
    if (s.address == nullptr) continue;
    const void* sentinel = s.indirect ? *static_cast<void* const*>(s.address) : s.address;
    if (sentinel != nullptr && sentinel == p) return true;
  }
  return false;
}

void* FortranHeapAlloc(size_t bytes) {
  void* p = malloc(bytes != 0 ? bytes : 1);
  if (p == nullptr) abort();  // as the C bindings of both MPIs do when out of memory
  return p;
}

void FortranHeapFree(void* p) { free(p); }

FortranString::FortranString(const char* f, size_t len) {
  while (len > 0 && f[len - 1] == ' ') --len;
  s_ = len < sizeof inline_ ? inline_ : static_cast<char*>(FortranHeapAlloc(len + 1));
  if (len > 0) memcpy(s_, f, len);
  s_[len] = '\0';
}

FortranString::~FortranString() {
  if (s_ != inline_) FortranHeapFree(s_);
}

int FortranPeerCount(MPI_Comm comm) {
  int inter = 0, n = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) return 0;
  if ((inter ? PMPI_Comm_remote_size(comm, &n) : PMPI_Comm_size(comm, &n)) != MPI_SUCCESS) return 0;
  return n;
}

}  // namespace mpidbg::rt
