// fixed_string.h — the text of a fixed-width char field of a DLL record, which may fill
// the field without a NUL. Both the readers into the model and the handle renderer read
// such fields.
#pragma once

#include <cstddef>
#include <string>

namespace mpidbg::host {

// A NUL-terminated copy of a fixed char array that may lack the NUL.
template <size_t N>
std::string FixedString(const char (&text)[N]) {
  size_t n = 0;
  while (n < N && text[n] != '\0') ++n;
  return std::string(text, n);
}

}  // namespace mpidbg::host
