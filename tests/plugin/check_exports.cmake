# cmake -DPLUGIN=<libmpidbg_plugin.so> -DNM=<nm> -P check_exports.cmake
# The plugin's dynamic symbol table must hold exactly the interface: every mqs_* and
# mpidbg_* function, the handle interface's data, and nothing else (no C++ runtime, no
# internal helper).
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
    if(name MATCHES "^(mqs|mpidbg)_[a-z0-9_]+$")
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
  mpidbg_comm_get_neighbors
  mpidbg_comm_get_remote_job_group
  mpidbg_operation_get_detail mpidbg_traffic_read mpidbg_traffic_get mpidbg_logged_send_get
  mpidbg_process_get_launch mpidbg_mpit_read mpidbg_mpit_cvar_get mpidbg_mpit_pvar_get
  mpidbg_mpit_category_get mpidbg_mpit_category_member
  mpidbg_monitor_read mpidbg_monitor_peer_get mpidbg_monitor_coll_get mpidbg_monitor_file_get
  mpidbg_monitor_mpit_peer_get mpidbg_monitor_mpit_coll_get
  mpidbg_profile_read mpidbg_profile_function_get mpidbg_profile_site_get
  # the handle interface, version 1 (mpidbg_handles.h part 1)
  mpidbg_init_once mpidbg_interface_version_compatibility mpidbg_version_string
  mpidbg_dll_taddr_width mpidbg_init_per_image mpidbg_finalize_per_image
  mpidbg_init_per_process mpidbg_finalize_per_process
  mpidbg_comm_query mpidbg_comm_f2c mpidbg_comm_cxx2c
  mpidbg_errhandler_query mpidbg_errhandler_f2c mpidbg_errhandler_cxx2c
  mpidbg_request_query mpidbg_request_f2c mpidbg_request_cxx2c
  mpidbg_status_query mpidbg_status_f2c mpidbg_status_cxx2c
  mpidbg_dll_is_big_endian mpidbg_dll_bitness mpidbg_comm_capabilities mpidbg_comm_name_map
  mpidbg_errhandler_capabilities mpidbg_errhandler_name_map
  # and its extensions (part 2)
  mpidbg_handle_ext_version mpidbg_name_map_query mpidbg_comm_query_ext mpidbg_comm_query_remote_job
  mpidbg_request_query_ext mpidbg_status_query_ext
  mpidbg_datatype_query mpidbg_datatype_f2c mpidbg_group_query mpidbg_group_f2c
  mpidbg_op_query mpidbg_op_f2c mpidbg_info_query mpidbg_info_f2c
  mpidbg_win_query mpidbg_win_f2c mpidbg_file_query mpidbg_file_f2c
  mpidbg_message_query mpidbg_message_f2c
  mpidbg_object_list_query mpidbg_latest_time_query)
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
message(STATUS "exports are exactly the ${m} interface symbols")
