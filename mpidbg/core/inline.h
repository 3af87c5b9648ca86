// inline.h — MPIDBG_ALWAYS_INLINE, for the small steps of the per-message path.
//
// The generated wrappers file defines hundreds of functions; past its growth limits the
// compiler stops inlining even one-line helpers declared `inline` (a record's seq store,
// a counter add), and a call per step then costs more than the step. The helpers every
// message runs say so explicitly.
#ifndef MPIDBG_CORE_INLINE_H
#define MPIDBG_CORE_INLINE_H

#define MPIDBG_ALWAYS_INLINE inline __attribute__((always_inline))

namespace mpidbg::core {

// `p` itself, but the compiler no longer knows where it points. A function that stores
// through the same pointer before and after a call it cannot see into (a wrapper around
// its PMPI call) otherwise computes each field's address once and keeps every one
// across the call, spilled to the stack; through an opaque copy it addresses the fields
// from the one pointer it keeps.
template <typename T>
MPIDBG_ALWAYS_INLINE T* Opaque(T* p) {
  __asm__("" : "+r"(p));
  return p;
}

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_INLINE_H
