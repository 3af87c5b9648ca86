// mpi_library.cc — see mpi_library.h.
#include "host/target/mpi_library.h"

#include <cstdint>
#include <optional>

#include "mpidbg/records.h"

namespace mpidbg::host {
namespace {

std::string Basename(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string MpiLibraryModule(OpenedTarget& target) {
  for (const char* name : {"PMPI_Init", "MPI_Init"}) {
    std::optional<uint64_t> addr = target.symbols().FindFunction(name);
    if (!addr) continue;
    std::optional<CodeLocation> where = target.symbols().DescribeAddress(*addr);
    return where && !where->module.empty() ? Basename(where->module) : std::string("MPI");
  }
  return "";
}

// What it is, in one short sentence: the module list of the general refusal ("looked for
// ... in orterun, libpmix..., and 56 more") says nothing more of a launcher.
Status NotMpiProcess(OpenedTarget& target) {
  const std::string program = Basename(target.image_name());
  return Status::NotMpi("process " + std::to_string(target.pid()) +
                        (program.empty() ? "" : " (" + program + ")") +
                        " is not an MPI process: it loads no MPI library (no MPI_Init or "
                        "PMPI_Init) and has no MPI debugging support (no symbol " +
                        MPIDBG_ROOT_SYMBOL + " or MPIR_dll_name)");
}

}  // namespace mpidbg::host
