// run_command.h — `mpidbg run [--flavour F] [--runtime LIB] [--dry-run] -- COMMAND...`
#pragma once

namespace mpidbg::cli {

// argv[0] is "run"; the rest are the command's own arguments. Execs the launcher on
// success (does not return); returns an exit status (2 usage, 1 no runtime) otherwise.
int RunCommand(int argc, char** argv);

}  // namespace mpidbg::cli
