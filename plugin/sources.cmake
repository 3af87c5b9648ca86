# sources.cmake — the one list of libmpidbg_plugin's sources, for the plugin's own build
# (plugin/CMakeLists.txt) and for the fuzzer (fuzz/CMakeLists.txt), which compiles the
# same sources with sanitizers.
#
#   include(<root>/plugin/sources.cmake)   sets MPIDBG_PLUGIN_SOURCES
#
# Globbed per layer so that a new file joins the library (and the fuzzer) by existing:
#   plugin/      the core: bounded target reader, record decoding, the per-process session
#   mqs/         face: the MPI Forum message-queue interface (mqs_* of mqs_interface.h)
#   handles/     face: the handle interface (mpidbg_* of mpidbg_handles.h)
#   extensions/  face: the message-queue extensions (mpidbg_* of mpidbg_ext.h)
get_filename_component(_mpidbg_plugin_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
file(GLOB MPIDBG_PLUGIN_SOURCES CONFIGURE_DEPENDS
  ${_mpidbg_plugin_root}/plugin/*.cc
  ${_mpidbg_plugin_root}/mqs/*.cc
  ${_mpidbg_plugin_root}/handles/*.cc
  ${_mpidbg_plugin_root}/extensions/*.cc)
list(SORT MPIDBG_PLUGIN_SOURCES)
