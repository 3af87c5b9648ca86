// dwarf_crosscheck_dump.cc — mpidbg_xcheck_libdwarf FILE: the type layouts of FILE's
// DWARF as libdwarf reads them, as text on stdout (see FormatLayouts). Exit 1 when
// the file cannot be read.
#include <cstdio>
#include <iostream>

#include "dwarf_crosscheck_libdwarf.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: mpidbg_xcheck_libdwarf FILE\n";
    return 2;
  }
  mpidbg::xcheck::Layouts layouts;
  std::string error;
  if (!mpidbg::xcheck::ReadLayouts(argv[1], &layouts, &error)) {
    std::cerr << argv[1] << ": " << error << "\n";
    return 1;
  }
  std::cout << mpidbg::xcheck::FormatLayouts(layouts);
  return 0;
}
