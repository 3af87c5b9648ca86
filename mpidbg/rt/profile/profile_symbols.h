// profile_symbols.h — where a call site is: its module (path of the executable or
// shared object), its offset from that module's load base, and the nearest dynamic
// symbol when the dynamic linker knows one. Resolved in the process itself at
// MPI_Finalize, so ranks with different load addresses (ASLR) give the same
// module+offset for the same instruction.
#ifndef MPIDBG_RT_PROFILE_SYMBOLS_H
#define MPIDBG_RT_PROFILE_SYMBOLS_H

#include <stdint.h>

namespace mpidbg::rt {

struct SiteLocation {
  char module[1024];  // "" when no module contains the address
  uint64_t offset;    // from the module's load base (the address itself when no module)
  char symbol[512];   // "name+0x44" (names as the linker has them, not demangled)
  bool has_symbol;
};

// `address` is a return address: it is looked up one byte back, so a call that is the
// last instruction of its function is still found in that function.
void LocateSite(uint64_t address, SiteLocation* out);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_PROFILE_SYMBOLS_H
