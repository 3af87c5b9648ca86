// record_decode.h — turns target bytes into the host-order structures of records.h.
//
// Every field is taken at its offsetof() in records.h, converted from the target's byte
// order. A buffer shorter than the structure leaves the missing fields zero.
#ifndef MPIDBG_PLUGIN_RECORD_DECODE_H
#define MPIDBG_PLUGIN_RECORD_DECODE_H

#include "mpidbg/records.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

void decode_root(const Decoder& d, mpidbg_root* out);
void decode_table(const Decoder& d, mpidbg_table* out);
void decode_slab(const Decoder& d, mpidbg_slab* out);
void decode_record_header(const Decoder& d, mpidbg_record_header* out);
void decode_comm(const Decoder& d, mpidbg_comm_record* out);
void decode_array(const Decoder& d, mpidbg_array* out);
void decode_traffic_header(const Decoder& d, mpidbg_traffic* out);
void decode_traffic_entry(const Decoder& d, mpidbg_traffic_entry* out);
void decode_send_log_entry(const Decoder& d, mpidbg_send_log_entry* out);
void decode_launch(const Decoder& d, mpidbg_launch_info* out);
void decode_mpit_header(const Decoder& d, mpidbg_mpit_catalogue* out);
void decode_mpit_cvar(const Decoder& d, mpidbg_mpit_cvar* out);
void decode_mpit_pvar(const Decoder& d, mpidbg_mpit_pvar* out);
void decode_mpit_category(const Decoder& d, mpidbg_mpit_category* out);
void decode_op(const Decoder& d, mpidbg_operation_record* out);
void decode_thread(const Decoder& d, mpidbg_thread_record* out);
void decode_thread_live(const Decoder& d, mpidbg_thread_live* out);
void decode_flight_entry(const Decoder& d, mpidbg_flight_entry* out);
void decode_partition(const Decoder& d, mpidbg_partition_record* out);
void decode_object_head(const Decoder& d, mpidbg_object_head* out);
void decode_group(const Decoder& d, mpidbg_group_record* out);
void decode_datatype(const Decoder& d, mpidbg_datatype_record* out);
void decode_reduce_op(const Decoder& d, mpidbg_reduce_op_record* out);
void decode_errhandler(const Decoder& d, mpidbg_errhandler_record* out);
void decode_info(const Decoder& d, mpidbg_info_record* out);
void decode_window(const Decoder& d, mpidbg_window_record* out);
void decode_file(const Decoder& d, mpidbg_file_record* out);
void decode_message(const Decoder& d, mpidbg_message_record* out);
void decode_session(const Decoder& d, mpidbg_session_record* out);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_RECORD_DECODE_H
