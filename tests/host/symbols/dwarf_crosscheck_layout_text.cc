// dwarf_crosscheck_layout_text.cc — layouts as text between the libdwarf tool and the
// test (they cannot share a process, see dwarf_crosscheck_libdwarf.h).
#include <sstream>
#include <vector>

#include "dwarf_crosscheck_libdwarf.h"

namespace mpidbg::xcheck {

std::string FormatLayouts(const Layouts& layouts) {
  std::ostringstream out;
  for (const auto& [name, defs] : layouts) {
    for (const Layout& l : defs) {
      out << "T\t" << name << "\t" << l.tag << "\t" << l.die_offset << "\t" << l.size << "\n";
      for (const auto& [member, offset] : l.members)
        out << "M\t" << member << "\t" << offset << "\n";
      for (const std::string& b : l.bitfields) out << "B\t" << b << "\n";
    }
  }
  return out.str();
}

bool ParseLayouts(const std::string& text, Layouts* out) {
  std::istringstream in(text);
  Layout* current = nullptr;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string part; std::getline(fields, part, '\t');) f.push_back(part);
    if (f.size() == 5 && f[0] == "T") {
      Layout l;
      l.tag = f[2];
      l.die_offset = std::stoull(f[3]);
      l.size = std::stoll(f[4]);
      (*out)[f[1]].push_back(std::move(l));
      current = &(*out)[f[1]].back();
    } else if (f.size() == 3 && f[0] == "M" && current != nullptr) {
      current->members.emplace(f[1], std::stoll(f[2]));
    } else if (f.size() == 2 && f[0] == "B" && current != nullptr) {
      current->bitfields.push_back(f[1]);
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace mpidbg::xcheck
