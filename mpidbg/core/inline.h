// inline.h — MPIDBG_ALWAYS_INLINE, for the small steps of the per-message path.
//
// The generated wrappers file defines hundreds of functions; past its growth limits the
// compiler stops inlining even one-line helpers declared `inline` (a record's seq store,
// a counter add), and a call per step then costs more than the step. The helpers every
// message runs say so explicitly.
#ifndef MPIDBG_CORE_INLINE_H
#define MPIDBG_CORE_INLINE_H

#define MPIDBG_ALWAYS_INLINE inline __attribute__((always_inline))

#endif  // MPIDBG_CORE_INLINE_H
