# cpack.cmake — `cpack -G DEB` (from the build directory) makes a .deb of what
# `cmake --install` installs, at the configured prefix: configure with
# -DCMAKE_INSTALL_PREFIX=/usr for a package that follows Debian's layout (and whose gdb
# auto-load scripts gdb finds by itself). Dependencies are computed by dpkg-shlibdeps.
set(MPIDBG_PACKAGE_MAINTAINER "mpidbg developers <mpidbg@localhost>" CACHE STRING
    "Maintainer field of the .deb")

set(CPACK_PACKAGE_NAME mpidbg)
set(CPACK_PACKAGE_VENDOR mpidbg)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "see inside a hung or crashed MPI job, on stock MPICH and Open MPI")
set(CPACK_PACKAGE_DESCRIPTION
    "mpidbg shows communicators, pending sends and receives, what each rank is blocked in \
and why a job cannot move, for live processes and core files, and explains deadlocks \
across a whole job. It ships a PMPI runtime per MPI flavour, a message-queue DLL for \
debuggers, the mpidbg command and a gdb extension.")
set(CPACK_PACKAGE_CONTACT "${MPIDBG_PACKAGE_MAINTAINER}")
set(CPACK_GENERATOR DEB)
# The package installs where `cmake --install` would: the compiled-in paths (the gdb
# auto-load scripts, the runtimes' plugin path) are the configured prefix's.
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${MPIDBG_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gdb")
# No debug information in the package: the runtime and the plugin are read through
# their dynamic symbols, and the command is 80 MB with it.
set(CPACK_STRIP_FILES ON)
include(CPack)
