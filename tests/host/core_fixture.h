// core_fixture.h — one gcore dump of a forked child, shared by the core tests.
#pragma once

#include <string>

namespace mpidbg::test {

// Path of a core of a child made by StartChild (with 2 extra threads), created on first
// use with gdb's gcore; "" if gcore is not available or SanitizedBuild(). `child_pid` receives its pid.
const std::string& SharedCore(int* child_pid = nullptr);
// True under AddressSanitizer: a dump of a sanitized process includes terabytes of
// shadow memory (gcore ignores MADV_DONTDUMP), so the core tests skip themselves.
bool SanitizedBuild();
// A fresh temporary directory.
std::string MakeTempDir();

}  // namespace mpidbg::test
