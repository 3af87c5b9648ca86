// core_fixture.h — one gcore dump of a forked child, shared by the core tests.
#pragma once

#include <string>

namespace mpidbg::test {

// Path of a core of a child made by StartChild (with 2 extra threads), created on first
// use with gdb's gcore; "" if gcore is not available. `child_pid` receives its pid.
const std::string& SharedCore(int* child_pid = nullptr);
// A fresh temporary directory.
std::string MakeTempDir();

}  // namespace mpidbg::test
