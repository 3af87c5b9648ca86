# Spack recipe for mpidbg: `spack repo add <mpidbg>/packaging/spack`, then
# `spack install mpidbg +mpich` (or +openmpi, or both). Tested without Spack by
# tests/packaging/spack_recipe_test.py, which checks every CMake option passed here
# exists in the project's CMakeLists.

from spack.package import *


class Mpidbg(CMakePackage):
    """See inside a hung or crashed MPI job, on stock MPICH and Open MPI: communicators,
    pending sends and receives, what each rank is blocked in, and deadlocks across the
    job, for live processes and core files. A PMPI runtime per MPI, a message-queue DLL
    for debuggers, the mpidbg command and a gdb extension."""

    # Where the project's repository is published; set it for your site's mirror.
    git = "https://example.org/mpidbg/mpidbg.git"

    version("main", branch="main")

    # One runtime library per MPI flavour (MPICH's integer handles and Open MPI's
    # pointer handles are different ABIs); each variant builds one.
    variant("mpich", default=True, description="Build the runtime for MPICH")
    variant("openmpi", default=False, description="Build the runtime for Open MPI")
    conflicts("~mpich~openmpi", msg="mpidbg needs at least one MPI flavour")

    depends_on("cmake@3.18:", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("python@3:", type="build")
    depends_on("nlohmann-json@3:", type="build")
    depends_on("elfutils")
    depends_on("mpich", when="+mpich")
    depends_on("openmpi", when="+openmpi")
    depends_on("googletest", type="test")
    depends_on("gdb", type="test")

    def cmake_args(self):
        return [
            self.define_from_variant("MPIDBG_WITH_MPICH", "mpich"),
            self.define_from_variant("MPIDBG_WITH_OPENMPI", "openmpi"),
            # A flavour asked for is a flavour built, or the build fails.
            self.define("MPIDBG_REQUIRE_FLAVOURS", True),
            self.define("BUILD_TESTING", self.run_tests),
            # lib, not lib64: the paths below and the modulefile's are lib/.
            self.define("CMAKE_INSTALL_LIBDIR", "lib"),
            # The gdb extension's auto-load scripts stay inside the prefix.
            self.define("MPIDBG_GDB_AUTOLOAD_DIR", join_path(self.prefix.share, "gdb", "auto-load")),
        ]

    def setup_run_environment(self, env):
        # What the modulefile sets too (packaging/modules/mpidbg.tcl.in).
        env.set("MPIDBG_ROOT", self.prefix)
        env.set("MPIDBG_RUNTIME_DIR", self.prefix.lib)
        env.set("MPIDBG_GDB_SCRIPT", join_path(self.prefix.share, "mpidbg", "gdb", "mpidbg-gdb.py"))
        env.set("MPIDBG_GDB_AUTOLOAD_DIR", join_path(self.prefix.share, "gdb", "auto-load"))
        for flavour in ("mpich", "openmpi"):
            if self.spec.satisfies("+" + flavour):
                env.set("MPIDBG_RUNTIME_" + flavour.upper(),
                        join_path(self.prefix.lib, "libmpidbg_rt_%s.so" % flavour))
