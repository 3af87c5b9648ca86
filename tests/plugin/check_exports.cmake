# cmake -DPLUGIN=<libmpidbg_plugin.so> -DNM=<nm> -P check_exports.cmake
# The plugin's dynamic symbol table must hold exactly the interface: every mqs_* and
# mpidbg_* function, and nothing else (no C++ runtime, no internal helper).
execute_process(COMMAND ${NM} -D --defined-only ${PLUGIN}
  OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${PLUGIN}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(found "")
set(bad "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-fA-F]* *([A-Za-z]) ([^ ]+)$")
    set(name "${CMAKE_MATCH_2}")
    string(REGEX REPLACE "@.*" "" name "${name}")
    if(name MATCHES "^(mqs|mpidbg)_[a-z_]+$")
      list(APPEND found ${name})
    else()
      list(APPEND bad ${name})
    endif()
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "unexpected exported symbols: ${bad}")
endif()
set(expected
  mqs_setup_basic_callbacks mqs_version_string mqs_version_compatibility mqs_dll_taddr_width
  mqs_dll_error_string mqs_setup_image mqs_image_has_queues mqs_destroy_image_info
  mqs_setup_process mqs_process_has_queues mqs_destroy_process_info
  mqs_update_communicator_list mqs_setup_communicator_iterator mqs_get_communicator
  mqs_get_comm_group mqs_next_communicator mqs_setup_operation_iterator mqs_next_operation
  mpidbg_ext_version mpidbg_process_get_summary mpidbg_thread_count mpidbg_thread_get
  mpidbg_thread_waited_operation mpidbg_comm_get_detail mpidbg_comm_get_remote_group
  mpidbg_operation_get_detail mpidbg_traffic_read mpidbg_traffic_get mpidbg_logged_send_get
  mpidbg_process_get_launch mpidbg_mpit_read mpidbg_mpit_cvar_get mpidbg_mpit_pvar_get
  mpidbg_mpit_category_get mpidbg_mpit_category_member)
foreach(name IN LISTS expected)
  list(FIND found ${name} at)
  if(at EQUAL -1)
    message(FATAL_ERROR "missing export: ${name}")
  endif()
endforeach()
list(LENGTH found n)
list(LENGTH expected m)
if(NOT n EQUAL m)
  message(FATAL_ERROR "exports ${found} differ from the interface ${expected}")
endif()
message(STATUS "exports are exactly the ${m} interface functions")
