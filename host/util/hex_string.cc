// hex_string.cc — the hex spellings of OUTPUT.md.
#include "host/util/hex_string.h"

#include <cinttypes>
#include <cstdio>

namespace mpidbg::host {

std::string HexString(uint64_t value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, value);
  return buf;
}

std::string CommIdString(uint64_t id) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, id);
  return buf;
}

}  // namespace mpidbg::host
