// fortran_entry.cc — lazy lookup of the MPI library's Fortran entry points (cold: once
// per name and process).
#include "rt/fortran/fortran_entry.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace mpidbg::rt {

void* ResolveFortranEntry(FortranEntry& entry) {
  // RTLD_NEXT: the definition after this library, i.e. the MPI library's, even though
  // the program's references bind to the runtime's wrapper of the same name.
  void* fn = dlsym(RTLD_NEXT, entry.name);
  if (fn == nullptr) {
    // Every MPI library defines the Fortran names its bindings call; reaching this
    // means the program called a name this MPI does not have (a mangling of another
    // compiler or MPI), which without the runtime would have failed to link or load.
    char msg[256];
    int n = snprintf(msg, sizeof msg,
                     "mpidbg: the program called the Fortran MPI entry point %s, which no "
                     "MPI library loaded after the runtime defines\n",
                     entry.name);
    if (n > 0) (void)!write(2, msg, strnlen(msg, sizeof msg));
    abort();
  }
  entry.fn.store(fn, std::memory_order_release);
  return fn;
}

}  // namespace mpidbg::rt
