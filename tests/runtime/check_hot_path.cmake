# check_hot_path.cmake — enforces the runtime's rules on its object files:
#  - no object calls an MPI_* function (the runtime must call PMPI_*, or it would
#    re-enter its own wrappers);
#  - hot-path objects (every MPI call runs them) reference no heap allocator, mutex or
#    raw system call. They are the objects compiled from mpidbg/rt/hot/ (an object's
#    path holds its source's, e.g. .../rt/hot/traffic.cc.o) and the generated C and
#    Fortran wrappers:
#    a file is checked by where it sits, so one added to rt/hot/ is checked too.
#   cmake -DNM=<nm> -DOBJECTS="a.o|b.o|..." -P check_hot_path.cmake
set(hot_path_object_regex "/rt/hot/[^/]+\\.o$|/(mpi|fortran)_wrappers\\.cc\\.o$")
set(forbidden_on_hot_path
  "^malloc$" "^calloc$" "^realloc$" "^_Znwm$" "^_Znam$" "^pthread_mutex_lock$" "^syscall$")

string(REPLACE "|" ";" objects "${OBJECTS}")
set(problems "")
set(checked 0)
set(checked_hot 0)
foreach(obj IN LISTS objects)
  execute_process(COMMAND ${NM} -u ${obj} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nm failed on ${obj}")
  endif()
  math(EXPR checked "${checked} + 1")
  get_filename_component(name "${obj}" NAME)
  set(hot FALSE)
  if(obj MATCHES "${hot_path_object_regex}")
    set(hot TRUE)
    math(EXPR checked_hot "${checked_hot} + 1")
  endif()
  string(REPLACE "\n" ";" lines "${out}")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^ *U +" "" sym "${line}")
    if(sym MATCHES "^MPI_")
      list(APPEND problems "${name} calls ${sym} (use P${sym})")
    endif()
    if(hot)
      foreach(f IN LISTS forbidden_on_hot_path)
        if(sym MATCHES "${f}")
          list(APPEND problems "${name} (hot path) references ${sym}")
        endif()
      endforeach()
    endif()
  endforeach()
endforeach()
if(checked LESS 10)
  message(FATAL_ERROR "only ${checked} object files given")
endif()
# The wrappers and rt/hot/'s sources: fewer means the objects' paths no longer say
# where their sources sit, and the rule would check nothing.
if(checked_hot LESS 5)
  message(FATAL_ERROR "only ${checked_hot} hot-path objects found among ${checked}")
endif()
if(problems)
  string(REPLACE ";" "\n  " text "${problems}")
  message(FATAL_ERROR "runtime rule violations:\n  ${text}")
endif()
message(STATUS "${checked} runtime objects follow the PMPI-only rule, ${checked_hot} of them (rt/hot/, mpi_wrappers, fortran_wrappers) the hot-path rule")
