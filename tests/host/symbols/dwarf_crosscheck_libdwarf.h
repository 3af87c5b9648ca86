// dwarf_crosscheck_libdwarf.h — type layouts of an ELF file read with libdwarf, a DWARF
// reader independent of the elfutils code the host uses, for cross-checking the host.
//
// It lists what the host's type lookup answers for: named struct, class, union,
// typedef, base and enumeration types at the top level of compilation units and in
// namespaces, complete definitions only (a typedef counts when the type behind it is
// complete). For each: the size and the offset of every data member, members of
// anonymous struct/union members included; bitfields are left out.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mpidbg::xcheck {

struct Layout {
  std::string tag;  // "struct", "class", "union", "typedef", "base", "enum"
  uint64_t die_offset = 0;
  int64_t size = -1;  // -1: no size (function types, arrays without bounds)
  // Name -> offset; the first member of a name in declaration order, as a lookup by
  // name finds it.
  std::map<std::string, int64_t> members;
  std::vector<std::string> bitfields;  // named bitfields (not compared)
};

using Layouts = std::map<std::string, std::vector<Layout>>;

// Every definition of each name, in the order of the DWARF (compilation units, then
// DIEs). False with `error` when the file cannot be read with libdwarf.
//
// libdwarf and elfutils' libdw export functions of the same names (dwarf_tag,
// dwarf_child, ...), so the two cannot share a process: ReadLayouts runs in the tool
// mpidbg_xcheck_libdwarf (dwarf_crosscheck_dump.cc), which prints the layouts as text
// (FormatLayouts) for the test to parse (ParseLayouts).
bool ReadLayouts(const std::string& path, Layouts* out, std::string* error);

// One line per type, "T\tNAME\tTAG\tDIE_OFFSET\tSIZE", each followed by its members,
// "M\tNAME\tOFFSET", and bitfields, "B\tNAME". Names hold no tabs or newlines.
std::string FormatLayouts(const Layouts& layouts);
bool ParseLayouts(const std::string& text, Layouts* out);

}  // namespace mpidbg::xcheck
