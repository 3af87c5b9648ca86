// frame_symbols.h — a raw frame's pc as a function, a source line and a module: the
// line table where the module has DWARF (its own or separate debug info libdwfl finds),
// the symbol table where it has none.
#pragma once

#include <elfutils/libdwfl.h>

#include "host/model/snapshot.h"
#include "host/stacks/unwind.h"

namespace mpidbg::host {

// The module and function of a frame (no line: see AddSourceLine). Looks a caller's
// frame up at pc - 1 (inside its call instruction, whose return address may already
// belong to the next line or function); `pc` stays the raw one.
model::Frame DescribeFrame(Dwfl* dwfl, const RawFrame& raw);

// Adds file and line from the module's line table, where it has one. Separate because
// the first line looked up in a module loads its DWARF, which for a system library's
// separate debug file (libc6-dbg: compressed sections) costs tenths of a second.
void AddSourceLine(Dwfl* dwfl, const RawFrame& raw, model::Frame* frame);

}  // namespace mpidbg::host
