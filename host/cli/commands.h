// commands.h — the mpidbg commands. Each takes the arguments after its own name and
// returns the exit status of OUTPUT.md.
#pragma once

#include <string>
#include <vector>

namespace mpidbg::cli {

// `job`: the output was written, but some rank or input could not be read, so the
// verdict covers only part of the job (OUTPUT.md). The failures' own statuses are 1-3.
inline constexpr int kExitIncomplete = 4;

int SnapshotCommand(const std::vector<std::string>& args);
int QueuesCommand(const std::vector<std::string>& args);
int ThreadsCommand(const std::vector<std::string>& args);
int JobCommand(const std::vector<std::string>& args);
int CollectCommand(const std::vector<std::string>& args);
int GdbScriptCommand(const std::vector<std::string>& args);
int HandleCommand(const std::vector<std::string>& args);
int HandlesCommand(const std::vector<std::string>& args);
int MatrixCommand(const std::vector<std::string>& args);
int ProfileCommand(const std::vector<std::string>& args);
int ReleaseCommand(const std::vector<std::string>& args);
int LeaksCommand(const std::vector<std::string>& args);
// `mpidbg run [--flavour F] [--runtime LIB] [--dry-run] -- COMMAND...`: argv[0] is "run",
// the rest are the command's own arguments. Execs the launcher on success (does not
// return); returns an exit status (2 usage, 1 no runtime) otherwise.
int RunCommand(int argc, char** argv);

}  // namespace mpidbg::cli
