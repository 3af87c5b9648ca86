// fortran_entry.h — the MPI library's own Fortran entry point behind a runtime wrapper.
//
// The runtime defines Fortran entry points (mpi_send_, MPI_SEND, mpi_send_f08_, ...) so
// that the Fortran bindings of both MPIs are seen; each wrapper records and then calls
// the definition the MPI library exports under the same name (the next one after the
// runtime in the search order, dlsym(RTLD_NEXT)). The bindings' semantics (sentinels,
// logical values, string lengths) therefore stay the library's own.
//
// Resolution is lazy: a program that never calls a Fortran name (every C program, and
// every name one of the two MPIs lacks) never looks it up, so loading the runtime never
// depends on which Fortran symbols the MPI library has. A name called but defined by no
// library after the runtime stops the process with a message naming it.
#ifndef MPIDBG_RT_FORTRAN_FORTRAN_ENTRY_H
#define MPIDBG_RT_FORTRAN_FORTRAN_ENTRY_H

#include <atomic>

namespace mpidbg::rt {

struct FortranEntry {
  const char* name;
  std::atomic<void*> fn{nullptr};
};

// Looks `entry.name` up after the runtime; never returns null (aborts with a message).
void* ResolveFortranEntry(FortranEntry& entry);

inline void* FortranNext(FortranEntry& entry) {
  void* fn = entry.fn.load(std::memory_order_acquire);
  return fn != nullptr ? fn : ResolveFortranEntry(entry);
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_FORTRAN_FORTRAN_ENTRY_H
