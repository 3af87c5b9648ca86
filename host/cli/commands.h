// commands.h — the mpidbg commands. Each takes the arguments after its own name and
// returns the exit status of OUTPUT.md.
#pragma once

#include <string>
#include <vector>

namespace mpidbg::cli {

int SnapshotCommand(const std::vector<std::string>& args);
int QueuesCommand(const std::vector<std::string>& args);
int ThreadsCommand(const std::vector<std::string>& args);
int JobCommand(const std::vector<std::string>& args);
int GdbScriptCommand(const std::vector<std::string>& args);
int HandleCommand(const std::vector<std::string>& args);
int MatrixCommand(const std::vector<std::string>& args);
int ProfileCommand(const std::vector<std::string>& args);

}  // namespace mpidbg::cli
