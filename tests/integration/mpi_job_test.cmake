# mpi_job_test.cmake — mpidbg_add_mpi_job_test(): a GoogleTest program that starts real
# MPI jobs under `mpidbg run` with this folder's job helpers (mpi_job, process_util)
# compiled in. The mpidbg command, the plugin, every runtime flavour and the testapps it
# names are built first; its tests run one at a time (each launches a job).
#
#   mpidbg_add_mpi_job_test(<target> SOURCES <file>... APPS <testapp>...
#                           PREFIX <ctest prefix> TIMEOUT <seconds> LABEL <label>)
function(mpidbg_add_mpi_job_test target)
  cmake_parse_arguments(T "" "PREFIX;TIMEOUT;LABEL" "SOURCES;APPS" ${ARGN})
  find_package(nlohmann_json 3 REQUIRED)
  set(helpers ${PROJECT_SOURCE_DIR}/tests/integration)
  add_executable(${target} ${T_SOURCES} ${helpers}/mpi_job.cc ${helpers}/process_util.cc)
  target_include_directories(${target} PRIVATE ${helpers})
  target_link_libraries(${target} PRIVATE nlohmann_json::nlohmann_json GTest::gtest_main)
  string(REPLACE ";" "," flavours_csv "${MPIDBG_RUNTIME_FLAVOURS}")
  target_compile_definitions(${target} PRIVATE
    MPIDBG_EXE="$<TARGET_FILE:mpidbg>"
    MPIDBG_TESTAPPS_DIR="${PROJECT_BINARY_DIR}/testapps"
    MPIDBG_TEST_FLAVOURS="${flavours_csv}")
  foreach(flavour IN LISTS MPIDBG_RUNTIME_FLAVOURS)
    foreach(app IN LISTS T_APPS)
      add_dependencies(${target} testapp_${flavour}_${app})
    endforeach()
    add_dependencies(${target} mpidbg_rt_${flavour})
  endforeach()
  add_dependencies(${target} mpidbg mpidbg_plugin)
  gtest_discover_tests(${target} TEST_PREFIX "${T_PREFIX}" DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT ${T_TIMEOUT} RUN_SERIAL TRUE LABELS ${T_LABEL})
endfunction()
