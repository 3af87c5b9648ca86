# check_exports.cmake — fails unless LIB's dynamic symbol table defines only MPI_*
# wrappers, the Fortran entry-point wrappers (mpi_send_, mpi_send__, mpi_send, MPI_SEND,
# mpi_send_f08_, mpi_send_f08ts_, ..._large_: functions, mpidbg/gen/fortran/),
# mpidbg_runtime_root, the functions of include/mpidbg/runtime_api.h and the MPIR
# debugger symbols (the runtime exports nothing else).
#   cmake -DNM=<nm> -DLIB=<path> -P check_exports.cmake
execute_process(COMMAND ${NM} -D --defined-only ${LIB}
                OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIB}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(bad "")
set(have_root FALSE)
set(wrappers 0)
set(fortran 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  string(REGEX REPLACE "^.* " "" sym "${line}")
  if(sym STREQUAL "mpidbg_runtime_root")
    set(have_root TRUE)
  elseif(sym MATCHES "^MPI_[A-Z][a-z0-9_]*$")
    math(EXPR wrappers "${wrappers} + 1")
  elseif(sym MATCHES "^(mpi_[a-z0-9_]+|MPI_[A-Z0-9_]+)$" AND line MATCHES " T [^ ]+$")
    # A Fortran entry point: lower case with the compilers' underscores, or upper case.
    math(EXPR fortran "${fortran} + 1")
  elseif(sym MATCHES "^mpidbg_(release_orphans|thread_mpi_state|refresh_mpit|pause_recording|resume_recording)$" OR
         sym MATCHES "^mpidbg_monitor_(start|stop|reset|active|read_peer|read_collective|read_file|refresh_mpit|write)$")
    # runtime_api.h
  elseif(sym MATCHES "^(MPIR_dll_name|MPIR_being_debugged|MPIR_debug_gate|MPIR_debug_typedefs_sizeof|mpimsgq_dll_locations|mpidbg_dll_locations)$")
    # INTERFACES.md §3

  else()
    list(APPEND bad "${sym}")
  endif()
endforeach()
if(NOT have_root)
  message(FATAL_ERROR "${LIB}: mpidbg_runtime_root is not exported")
endif()
if(wrappers LESS 50)
  message(FATAL_ERROR "${LIB}: only ${wrappers} MPI_* wrappers exported")
endif()
if(fortran LESS 200)
  message(FATAL_ERROR "${LIB}: only ${fortran} Fortran entry points exported")
endif()
if(bad)
  message(FATAL_ERROR "${LIB}: unexpected exported symbols: ${bad}")
endif()
message(STATUS "${LIB}: mpidbg_runtime_root, ${wrappers} MPI_* wrappers and ${fortran} Fortran entry points, nothing else")
