// frame_symbols.h — a raw frame's pc as a function, a source line and a module: the
// line table where the module has DWARF (its own or separate debug info libdwfl finds),
// the symbol table where it has none.
#pragma once

#include <elfutils/libdwfl.h>

#include "host/model/snapshot.h"
#include "host/stacks/unwind.h"

namespace mpidbg::host {

// Looks a caller's frame up at pc - 1 (inside its call instruction, whose return
// address may already belong to the next line or function); `pc` stays the raw one.
model::Frame DescribeFrame(Dwfl* dwfl, const RawFrame& raw);

}  // namespace mpidbg::host
