// hex_string.h — the hex spellings of addresses, handles and communicator ids that the
// documents of docs/OUTPUT.md share; readers fill them into results, renderers print
// them, so both take them from here.
#pragma once

#include <cstdint>
#include <string>

namespace mpidbg::host {

// "0x%" PRIx64: an address or handle, no padding ("0x7ffd1234").
std::string HexString(uint64_t value);
// "0x%016" PRIx64: a job-wide communicator id, always 16 digits.
std::string CommIdString(uint64_t id);

}  // namespace mpidbg::host
