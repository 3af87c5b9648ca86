#include "plugin/record_decode.h"

#include <cstddef>
#include <cstring>

namespace mpidbg::plugin {
namespace {

// One overload per field type of records.h; the field's own type picks the width.
void field(const Decoder& d, size_t off, uint64_t* out) { *out = d.u64(off); }
void field(const Decoder& d, size_t off, int64_t* out) { *out = d.i64(off); }
void field(const Decoder& d, size_t off, uint32_t* out) { *out = d.u32(off); }
void field(const Decoder& d, size_t off, int32_t* out) { *out = d.i32(off); }
void field(const Decoder& d, size_t off, uint16_t* out) { *out = d.u16(off); }
void field(const Decoder& d, size_t off, uint8_t* out) { *out = d.u8(off); }
void field(const Decoder& d, size_t off, double* out) {
  const uint64_t bits = d.u64(off);  // byte order handled as for any 8-byte field
  std::memcpy(out, &bits, sizeof bits);
}
template <size_t N>
void field(const Decoder& d, size_t off, char (*out)[N]) {
  d.str(off, N, *out);
}
void field(const Decoder& d, size_t off, mpidbg_array* out) {
  decode_array(d.sub(off, sizeof(mpidbg_array)), out);
}

#define MPIDBG_FIELD(type, name) field(d, offsetof(type, name), &out->name)

}  // namespace

void decode_array(const Decoder& d, mpidbg_array* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_array, address);
  MPIDBG_FIELD(mpidbg_array, count);
  MPIDBG_FIELD(mpidbg_array, elem_size);
}

void decode_table(const Decoder& d, mpidbg_table* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_table, first_slab);
  MPIDBG_FIELD(mpidbg_table, kind);
  MPIDBG_FIELD(mpidbg_table, record_size);
  MPIDBG_FIELD(mpidbg_table, slab_count);
  MPIDBG_FIELD(mpidbg_table, live_count);
}

void decode_root(const Decoder& d, mpidbg_root* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_root, magic);
  MPIDBG_FIELD(mpidbg_root, size);
  MPIDBG_FIELD(mpidbg_root, layout_version);
  MPIDBG_FIELD(mpidbg_root, generation);
  MPIDBG_FIELD(mpidbg_root, flavour);
  MPIDBG_FIELD(mpidbg_root, handle_size);
  MPIDBG_FIELD(mpidbg_root, process_state);
  MPIDBG_FIELD(mpidbg_root, world_rank);
  MPIDBG_FIELD(mpidbg_root, world_size);
  MPIDBG_FIELD(mpidbg_root, thread_level);
  MPIDBG_FIELD(mpidbg_root, pid);
  MPIDBG_FIELD(mpidbg_root, mpi_any_source);
  MPIDBG_FIELD(mpidbg_root, mpi_any_tag);
  MPIDBG_FIELD(mpidbg_root, mpi_proc_null);
  MPIDBG_FIELD(mpidbg_root, comm_world_handle);
  MPIDBG_FIELD(mpidbg_root, comm_self_handle);
  MPIDBG_FIELD(mpidbg_root, init_time_ns);
  MPIDBG_FIELD(mpidbg_root, post_counter);
  decode_table(d.sub(offsetof(mpidbg_root, comms), sizeof(mpidbg_table)), &out->comms);
  decode_table(d.sub(offsetof(mpidbg_root, operations), sizeof(mpidbg_table)), &out->operations);
  decode_table(d.sub(offsetof(mpidbg_root, threads), sizeof(mpidbg_table)), &out->threads);
  MPIDBG_FIELD(mpidbg_root, mpi_library);
  MPIDBG_FIELD(mpidbg_root, hostname);
  MPIDBG_FIELD(mpidbg_root, create_counter);
  MPIDBG_FIELD(mpidbg_root, free_counter);
  MPIDBG_FIELD(mpidbg_root, orphan_budget);
  MPIDBG_FIELD(mpidbg_root, orphan_keep_all);
  MPIDBG_FIELD(mpidbg_root, orphan_count);
  MPIDBG_FIELD(mpidbg_root, orphan_evictions);
  MPIDBG_FIELD(mpidbg_root, orphan_releases);
#define MPIDBG_TABLE_FIELD(name) \
  decode_table(d.sub(offsetof(mpidbg_root, name), sizeof(mpidbg_table)), &out->name)
  MPIDBG_TABLE_FIELD(groups);
  MPIDBG_TABLE_FIELD(datatypes);
  MPIDBG_TABLE_FIELD(reduce_ops);
  MPIDBG_TABLE_FIELD(errhandlers);
  MPIDBG_TABLE_FIELD(infos);
  MPIDBG_TABLE_FIELD(windows);
  MPIDBG_TABLE_FIELD(files);
  MPIDBG_TABLE_FIELD(messages);
  MPIDBG_TABLE_FIELD(sessions);
  MPIDBG_TABLE_FIELD(partitions);
#undef MPIDBG_TABLE_FIELD
  MPIDBG_FIELD(mpidbg_root, launch);
  MPIDBG_FIELD(mpidbg_root, mpit);
  MPIDBG_FIELD(mpidbg_root, traffic);
  MPIDBG_FIELD(mpidbg_root, mpi_version);
  MPIDBG_FIELD(mpidbg_root, mpi_subversion);
  MPIDBG_FIELD(mpidbg_root, thread_level_requested);
  MPIDBG_FIELD(mpidbg_root, debug_gate_hold);
  MPIDBG_FIELD(mpidbg_root, request_bytes);
  MPIDBG_FIELD(mpidbg_root, status_size);
  MPIDBG_FIELD(mpidbg_root, status_source_offset);
  MPIDBG_FIELD(mpidbg_root, status_tag_offset);
  MPIDBG_FIELD(mpidbg_root, status_error_offset);
  MPIDBG_FIELD(mpidbg_root, status_count_offset);
  MPIDBG_FIELD(mpidbg_root, status_count_encoding);
  MPIDBG_FIELD(mpidbg_root, status_cancelled_offset);
  MPIDBG_FIELD(mpidbg_root, status_reserved);
  MPIDBG_FIELD(mpidbg_root, comm_null_handle);
  MPIDBG_FIELD(mpidbg_root, group_null_handle);
  MPIDBG_FIELD(mpidbg_root, group_empty_handle);
  MPIDBG_FIELD(mpidbg_root, datatype_null_handle);
  MPIDBG_FIELD(mpidbg_root, reduce_op_null_handle);
  MPIDBG_FIELD(mpidbg_root, errhandler_null_handle);
  MPIDBG_FIELD(mpidbg_root, info_null_handle);
  MPIDBG_FIELD(mpidbg_root, win_null_handle);
  MPIDBG_FIELD(mpidbg_root, file_null_handle);
  MPIDBG_FIELD(mpidbg_root, request_null_handle);
  MPIDBG_FIELD(mpidbg_root, message_null_handle);
  MPIDBG_FIELD(mpidbg_root, message_no_proc_handle);
  MPIDBG_FIELD(mpidbg_root, monitor);
  MPIDBG_FIELD(mpidbg_root, profile);
}

void decode_traffic_header(const Decoder& d, mpidbg_traffic* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_traffic, size);
  MPIDBG_FIELD(mpidbg_traffic, entry_size);
  MPIDBG_FIELD(mpidbg_traffic, entries);
  MPIDBG_FIELD(mpidbg_traffic, capacity);
  MPIDBG_FIELD(mpidbg_traffic, log_entry_size);
  MPIDBG_FIELD(mpidbg_traffic, used);
  MPIDBG_FIELD(mpidbg_traffic, dropped);
  MPIDBG_FIELD(mpidbg_traffic, log);
  MPIDBG_FIELD(mpidbg_traffic, log_capacity);
  MPIDBG_FIELD(mpidbg_traffic, log_head);
}

void decode_traffic_entry(const Decoder& d, mpidbg_traffic_entry* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_traffic_entry, state);
  MPIDBG_FIELD(mpidbg_traffic_entry, tag);
  MPIDBG_FIELD(mpidbg_traffic_entry, comm_job_id);
  MPIDBG_FIELD(mpidbg_traffic_entry, peer);
  MPIDBG_FIELD(mpidbg_traffic_entry, peer_world);
  MPIDBG_FIELD(mpidbg_traffic_entry, sends);
  MPIDBG_FIELD(mpidbg_traffic_entry, receives);
  MPIDBG_FIELD(mpidbg_traffic_entry, send_bytes);
  MPIDBG_FIELD(mpidbg_traffic_entry, receive_bytes);
}

void decode_send_log_entry(const Decoder& d, mpidbg_send_log_entry* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_send_log_entry, seq);
  MPIDBG_FIELD(mpidbg_send_log_entry, call);
  MPIDBG_FIELD(mpidbg_send_log_entry, comm_job_id);
  MPIDBG_FIELD(mpidbg_send_log_entry, ordinal);
  MPIDBG_FIELD(mpidbg_send_log_entry, bytes);
  MPIDBG_FIELD(mpidbg_send_log_entry, time_ns);
  MPIDBG_FIELD(mpidbg_send_log_entry, datatype);
  MPIDBG_FIELD(mpidbg_send_log_entry, count);
  MPIDBG_FIELD(mpidbg_send_log_entry, peer);
  MPIDBG_FIELD(mpidbg_send_log_entry, peer_world);
  MPIDBG_FIELD(mpidbg_send_log_entry, tag);
  MPIDBG_FIELD(mpidbg_send_log_entry, mode);
}

void decode_slab(const Decoder& d, mpidbg_slab* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_slab, magic);
  MPIDBG_FIELD(mpidbg_slab, next);
  MPIDBG_FIELD(mpidbg_slab, header_size);
  MPIDBG_FIELD(mpidbg_slab, record_size);
  MPIDBG_FIELD(mpidbg_slab, capacity);
  MPIDBG_FIELD(mpidbg_slab, kind);
}

void decode_record_header(const Decoder& d, mpidbg_record_header* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_record_header, seq);
  MPIDBG_FIELD(mpidbg_record_header, kind);
  MPIDBG_FIELD(mpidbg_record_header, size);
  MPIDBG_FIELD(mpidbg_record_header, flags);
  MPIDBG_FIELD(mpidbg_record_header, reserved);
}

void decode_comm(const Decoder& d, mpidbg_comm_record* out) {
  std::memset(out, 0, sizeof *out);
  decode_record_header(d.sub(0, sizeof(mpidbg_record_header)), &out->hdr);  // hdr is first
  MPIDBG_FIELD(mpidbg_comm_record, handle);
  MPIDBG_FIELD(mpidbg_comm_record, job_id);
  MPIDBG_FIELD(mpidbg_comm_record, parent_job_id);
  MPIDBG_FIELD(mpidbg_comm_record, world_ranks);
  MPIDBG_FIELD(mpidbg_comm_record, remote_world_ranks);
  MPIDBG_FIELD(mpidbg_comm_record, create_serial);
  MPIDBG_FIELD(mpidbg_comm_record, rank);
  MPIDBG_FIELD(mpidbg_comm_record, size);
  MPIDBG_FIELD(mpidbg_comm_record, remote_size);
  MPIDBG_FIELD(mpidbg_comm_record, creator);
  MPIDBG_FIELD(mpidbg_comm_record, split_color);
  MPIDBG_FIELD(mpidbg_comm_record, split_key);
  MPIDBG_FIELD(mpidbg_comm_record, name);
  MPIDBG_FIELD(mpidbg_comm_record, free_serial);
  MPIDBG_FIELD(mpidbg_comm_record, errhandler);
  MPIDBG_FIELD(mpidbg_comm_record, info);
  decode_array(d.sub(offsetof(mpidbg_comm_record, topo_args), sizeof(mpidbg_array)),
               &out->topo_args);
  decode_array(d.sub(offsetof(mpidbg_comm_record, attributes), sizeof(mpidbg_array)),
               &out->attributes);
  MPIDBG_FIELD(mpidbg_comm_record, fortran_index);
  MPIDBG_FIELD(mpidbg_comm_record, topology);
  MPIDBG_FIELD(mpidbg_comm_record, create_time_ns);
  decode_array(d.sub(offsetof(mpidbg_comm_record, remote_job_id), sizeof(mpidbg_array)),
               &out->remote_job_id);
  decode_array(d.sub(offsetof(mpidbg_comm_record, remote_job_ranks), sizeof(mpidbg_array)),
               &out->remote_job_ranks);
  MPIDBG_FIELD(mpidbg_comm_record, create_pc);
}

void decode_op(const Decoder& d, mpidbg_operation_record* out) {
  std::memset(out, 0, sizeof *out);
  decode_record_header(d.sub(0, sizeof(mpidbg_record_header)), &out->hdr);  // hdr is first
  MPIDBG_FIELD(mpidbg_operation_record, request);
  MPIDBG_FIELD(mpidbg_operation_record, comm_handle);
  MPIDBG_FIELD(mpidbg_operation_record, comm_job_id);
  MPIDBG_FIELD(mpidbg_operation_record, post_serial);
  MPIDBG_FIELD(mpidbg_operation_record, buffer);
  MPIDBG_FIELD(mpidbg_operation_record, datatype);
  MPIDBG_FIELD(mpidbg_operation_record, count);
  MPIDBG_FIELD(mpidbg_operation_record, bytes);
  MPIDBG_FIELD(mpidbg_operation_record, tid);
  MPIDBG_FIELD(mpidbg_operation_record, post_time_ns);
  MPIDBG_FIELD(mpidbg_operation_record, actual_bytes);
  MPIDBG_FIELD(mpidbg_operation_record, call);
  MPIDBG_FIELD(mpidbg_operation_record, direction);
  MPIDBG_FIELD(mpidbg_operation_record, mode);
  MPIDBG_FIELD(mpidbg_operation_record, status);
  MPIDBG_FIELD(mpidbg_operation_record, peer);
  MPIDBG_FIELD(mpidbg_operation_record, peer_world);
  MPIDBG_FIELD(mpidbg_operation_record, tag);
  MPIDBG_FIELD(mpidbg_operation_record, actual_source);
  MPIDBG_FIELD(mpidbg_operation_record, actual_tag);
  MPIDBG_FIELD(mpidbg_operation_record, reserved);
  MPIDBG_FIELD(mpidbg_operation_record, datatype_name);
  MPIDBG_FIELD(mpidbg_operation_record, object);
  MPIDBG_FIELD(mpidbg_operation_record, free_serial);
  MPIDBG_FIELD(mpidbg_operation_record, file_offset);
  MPIDBG_FIELD(mpidbg_operation_record, target_disp);
  MPIDBG_FIELD(mpidbg_operation_record, extra_state);
  MPIDBG_FIELD(mpidbg_operation_record, query_fn);
  MPIDBG_FIELD(mpidbg_operation_record, create_pc);
}

void decode_partition(const Decoder& d, mpidbg_partition_record* out) {
  std::memset(out, 0, sizeof *out);
  decode_record_header(d.sub(0, sizeof(mpidbg_record_header)), &out->hdr);  // hdr is first
  MPIDBG_FIELD(mpidbg_partition_record, request);
  MPIDBG_FIELD(mpidbg_partition_record, partition_count);
  MPIDBG_FIELD(mpidbg_partition_record, starts);
  MPIDBG_FIELD(mpidbg_partition_record, partitions);
  MPIDBG_FIELD(mpidbg_partition_record, direction);
  MPIDBG_FIELD(mpidbg_partition_record, done);
  MPIDBG_FIELD(mpidbg_partition_record, reserved);
  decode_array(d.sub(offsetof(mpidbg_partition_record, done_bits), sizeof(mpidbg_array)),
               &out->done_bits);
}

void decode_thread(const Decoder& d, mpidbg_thread_record* out) {
  std::memset(out, 0, sizeof *out);
  decode_record_header(d.sub(0, sizeof(mpidbg_record_header)), &out->hdr);  // hdr is first
  MPIDBG_FIELD(mpidbg_thread_record, tid);
  MPIDBG_FIELD(mpidbg_thread_record, entry_time_ns);
  MPIDBG_FIELD(mpidbg_thread_record, comm_handle);
  MPIDBG_FIELD(mpidbg_thread_record, comm_job_id);
  MPIDBG_FIELD(mpidbg_thread_record, op);
  MPIDBG_FIELD(mpidbg_thread_record, requests);
  MPIDBG_FIELD(mpidbg_thread_record, calls);
  MPIDBG_FIELD(mpidbg_thread_record, count);
  MPIDBG_FIELD(mpidbg_thread_record, datatype);
  MPIDBG_FIELD(mpidbg_thread_record, state);
  MPIDBG_FIELD(mpidbg_thread_record, call);
  MPIDBG_FIELD(mpidbg_thread_record, request_count);
  MPIDBG_FIELD(mpidbg_thread_record, root);
  MPIDBG_FIELD(mpidbg_thread_record, datatype_name);
  // Appended in layout 2; a layout-1 record (136 bytes written) leaves them zero: no ring.
  MPIDBG_FIELD(mpidbg_thread_record, flight_entries);
  MPIDBG_FIELD(mpidbg_thread_record, flight_head);
  MPIDBG_FIELD(mpidbg_thread_record, flight_capacity);
  MPIDBG_FIELD(mpidbg_thread_record, flight_entry_size);
  // Appended after the ring; a record written before it reads live 0: no live block.
  MPIDBG_FIELD(mpidbg_thread_record, live);
  // Appended after live; a record written before it reads 0: the live words before op.
  MPIDBG_FIELD(mpidbg_thread_record, live_size);
  MPIDBG_FIELD(mpidbg_thread_record, reserved3);
}

// The words a thread writes on every outermost call; no header of their own.
void decode_thread_live(const Decoder& d, mpidbg_thread_live* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_thread_live, state);
  MPIDBG_FIELD(mpidbg_thread_live, call);
  MPIDBG_FIELD(mpidbg_thread_live, site);
  MPIDBG_FIELD(mpidbg_thread_live, entry_time_ns);
  MPIDBG_FIELD(mpidbg_thread_live, comm_handle);
  MPIDBG_FIELD(mpidbg_thread_live, comm_job_id);
  MPIDBG_FIELD(mpidbg_thread_live, calls);
  // Appended: a block the runtime wrote without them (fewer bytes read) decodes op 0
  // and no requests.
  MPIDBG_FIELD(mpidbg_thread_live, op);
  MPIDBG_FIELD(mpidbg_thread_live, requests);
  MPIDBG_FIELD(mpidbg_thread_live, request_count);
  MPIDBG_FIELD(mpidbg_thread_live, paused);  // 0 from a runtime from before it
}

// A ring entry has no record header: its seq is the first field, checked by the reader.
void decode_flight_entry(const Decoder& d, mpidbg_flight_entry* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_flight_entry, seq);
  MPIDBG_FIELD(mpidbg_flight_entry, state);
  MPIDBG_FIELD(mpidbg_flight_entry, direction);
  MPIDBG_FIELD(mpidbg_flight_entry, mode);
  MPIDBG_FIELD(mpidbg_flight_entry, flags);
  MPIDBG_FIELD(mpidbg_flight_entry, call);
  MPIDBG_FIELD(mpidbg_flight_entry, peer);
  MPIDBG_FIELD(mpidbg_flight_entry, peer_world);
  MPIDBG_FIELD(mpidbg_flight_entry, tag);
  MPIDBG_FIELD(mpidbg_flight_entry, request);
  MPIDBG_FIELD(mpidbg_flight_entry, comm_handle);
  MPIDBG_FIELD(mpidbg_flight_entry, comm_job_id);
  MPIDBG_FIELD(mpidbg_flight_entry, buffer);
  MPIDBG_FIELD(mpidbg_flight_entry, datatype);
  MPIDBG_FIELD(mpidbg_flight_entry, count);
  MPIDBG_FIELD(mpidbg_flight_entry, bytes);
  MPIDBG_FIELD(mpidbg_flight_entry, post_serial);
  MPIDBG_FIELD(mpidbg_flight_entry, post_time_ns);
  MPIDBG_FIELD(mpidbg_flight_entry, create_pc);
  MPIDBG_FIELD(mpidbg_flight_entry, ordinal);
}

}  // namespace mpidbg::plugin

namespace mpidbg::plugin {

void decode_launch(const Decoder& d, mpidbg_launch_info* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_launch_info, size);
  MPIDBG_FIELD(mpidbg_launch_info, launcher);
  MPIDBG_FIELD(mpidbg_launch_info, sources);
  MPIDBG_FIELD(mpidbg_launch_info, rank);
  MPIDBG_FIELD(mpidbg_launch_info, world_size);
  MPIDBG_FIELD(mpidbg_launch_info, local_rank);
  MPIDBG_FIELD(mpidbg_launch_info, local_size);
  MPIDBG_FIELD(mpidbg_launch_info, node_rank);
  MPIDBG_FIELD(mpidbg_launch_info, appnum);
  MPIDBG_FIELD(mpidbg_launch_info, universe_size);
  MPIDBG_FIELD(mpidbg_launch_info, pid);
  MPIDBG_FIELD(mpidbg_launch_info, mpi_rank);
  MPIDBG_FIELD(mpidbg_launch_info, job_id);
  MPIDBG_FIELD(mpidbg_launch_info, host);
  MPIDBG_FIELD(mpidbg_launch_info, launcher_name);
  MPIDBG_FIELD(mpidbg_launch_info, pmi_interface);
}

void decode_mpit_header(const Decoder& d, mpidbg_mpit_catalogue* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_mpit_catalogue, size);
  MPIDBG_FIELD(mpidbg_mpit_catalogue, seq);
  MPIDBG_FIELD(mpidbg_mpit_catalogue, refreshes);
  MPIDBG_FIELD(mpidbg_mpit_catalogue, captured_time_ns);
  MPIDBG_FIELD(mpidbg_mpit_catalogue, available);
  decode_array(d.sub(offsetof(mpidbg_mpit_catalogue, cvars), sizeof(mpidbg_array)), &out->cvars);
  decode_array(d.sub(offsetof(mpidbg_mpit_catalogue, pvars), sizeof(mpidbg_array)), &out->pvars);
  decode_array(d.sub(offsetof(mpidbg_mpit_catalogue, categories), sizeof(mpidbg_array)),
               &out->categories);
  decode_array(d.sub(offsetof(mpidbg_mpit_catalogue, members), sizeof(mpidbg_array)),
               &out->members);
  decode_array(d.sub(offsetof(mpidbg_mpit_catalogue, strings), sizeof(mpidbg_array)),
               &out->strings);
}

void decode_mpit_cvar(const Decoder& d, mpidbg_mpit_cvar* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_mpit_cvar, name);
  MPIDBG_FIELD(mpidbg_mpit_cvar, desc);
  MPIDBG_FIELD(mpidbg_mpit_cvar, verbosity);
  MPIDBG_FIELD(mpidbg_mpit_cvar, datatype);
  MPIDBG_FIELD(mpidbg_mpit_cvar, scope);
  MPIDBG_FIELD(mpidbg_mpit_cvar, bind);
  MPIDBG_FIELD(mpidbg_mpit_cvar, count);
  MPIDBG_FIELD(mpidbg_mpit_cvar, flags);
  MPIDBG_FIELD(mpidbg_mpit_cvar, value_int);
  MPIDBG_FIELD(mpidbg_mpit_cvar, value_double);
  MPIDBG_FIELD(mpidbg_mpit_cvar, value_text);
}

void decode_mpit_pvar(const Decoder& d, mpidbg_mpit_pvar* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_mpit_pvar, name);
  MPIDBG_FIELD(mpidbg_mpit_pvar, desc);
  MPIDBG_FIELD(mpidbg_mpit_pvar, var_class);
  MPIDBG_FIELD(mpidbg_mpit_pvar, verbosity);
  MPIDBG_FIELD(mpidbg_mpit_pvar, datatype);
  MPIDBG_FIELD(mpidbg_mpit_pvar, bind);
  MPIDBG_FIELD(mpidbg_mpit_pvar, count);
  MPIDBG_FIELD(mpidbg_mpit_pvar, flags);
}

void decode_mpit_category(const Decoder& d, mpidbg_mpit_category* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_FIELD(mpidbg_mpit_category, name);
  MPIDBG_FIELD(mpidbg_mpit_category, desc);
  MPIDBG_FIELD(mpidbg_mpit_category, num_cvars);
  MPIDBG_FIELD(mpidbg_mpit_category, num_pvars);
  MPIDBG_FIELD(mpidbg_mpit_category, num_categories);
  MPIDBG_FIELD(mpidbg_mpit_category, first_member);
}

}  // namespace mpidbg::plugin

namespace mpidbg::plugin {

void decode_object_head(const Decoder& d, mpidbg_object_head* out) {
  std::memset(out, 0, sizeof *out);
  decode_record_header(d.sub(0, sizeof(mpidbg_record_header)), &out->hdr);  // hdr is first
  MPIDBG_FIELD(mpidbg_object_head, handle);
  MPIDBG_FIELD(mpidbg_object_head, create_serial);
  MPIDBG_FIELD(mpidbg_object_head, free_serial);
  MPIDBG_FIELD(mpidbg_object_head, create_time_ns);
  MPIDBG_FIELD(mpidbg_object_head, creator);
  MPIDBG_FIELD(mpidbg_object_head, fortran_index);
  MPIDBG_FIELD(mpidbg_object_head, name);
}

// Every handle record starts with its object head.
#define MPIDBG_OBJECT_HEAD() decode_object_head(d.sub(0, sizeof(mpidbg_object_head)), &out->obj)

void decode_group(const Decoder& d, mpidbg_group_record* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_OBJECT_HEAD();
  MPIDBG_FIELD(mpidbg_group_record, source_handle);
  MPIDBG_FIELD(mpidbg_group_record, source_handle2);
  MPIDBG_FIELD(mpidbg_group_record, source_comm_job_id);
  MPIDBG_FIELD(mpidbg_group_record, world_ranks);
  MPIDBG_FIELD(mpidbg_group_record, args);
  MPIDBG_FIELD(mpidbg_group_record, size);
  MPIDBG_FIELD(mpidbg_group_record, rank);
  MPIDBG_FIELD(mpidbg_group_record, create_pc);
}

void decode_datatype(const Decoder& d, mpidbg_datatype_record* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_OBJECT_HEAD();
  MPIDBG_FIELD(mpidbg_datatype_record, size);
  MPIDBG_FIELD(mpidbg_datatype_record, lb);
  MPIDBG_FIELD(mpidbg_datatype_record, extent);
  MPIDBG_FIELD(mpidbg_datatype_record, true_lb);
  MPIDBG_FIELD(mpidbg_datatype_record, true_extent);
  MPIDBG_FIELD(mpidbg_datatype_record, integers);
  MPIDBG_FIELD(mpidbg_datatype_record, addresses);
  MPIDBG_FIELD(mpidbg_datatype_record, types);
  MPIDBG_FIELD(mpidbg_datatype_record, combiner);
  MPIDBG_FIELD(mpidbg_datatype_record, reserved);
  MPIDBG_FIELD(mpidbg_datatype_record, create_pc);
}

void decode_reduce_op(const Decoder& d, mpidbg_reduce_op_record* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_OBJECT_HEAD();
  MPIDBG_FIELD(mpidbg_reduce_op_record, function);
  MPIDBG_FIELD(mpidbg_reduce_op_record, commute);
  MPIDBG_FIELD(mpidbg_reduce_op_record, reserved);
  MPIDBG_FIELD(mpidbg_reduce_op_record, create_pc);
}

void decode_errhandler(const Decoder& d, mpidbg_errhandler_record* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_OBJECT_HEAD();
  MPIDBG_FIELD(mpidbg_errhandler_record, function);
  MPIDBG_FIELD(mpidbg_errhandler_record, target);
  MPIDBG_FIELD(mpidbg_errhandler_record, reserved);
  MPIDBG_FIELD(mpidbg_errhandler_record, create_pc);
}

void decode_info(const Decoder& d, mpidbg_info_record* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_OBJECT_HEAD();
  MPIDBG_FIELD(mpidbg_info_record, entries);
  MPIDBG_FIELD(mpidbg_info_record, nkeys);
  MPIDBG_FIELD(mpidbg_info_record, reserved);
  MPIDBG_FIELD(mpidbg_info_record, create_pc);
}

void decode_window(const Decoder& d, mpidbg_window_record* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_OBJECT_HEAD();
  MPIDBG_FIELD(mpidbg_window_record, comm_handle);
  MPIDBG_FIELD(mpidbg_window_record, comm_job_id);
  MPIDBG_FIELD(mpidbg_window_record, base);
  MPIDBG_FIELD(mpidbg_window_record, size);
  MPIDBG_FIELD(mpidbg_window_record, errhandler);
  MPIDBG_FIELD(mpidbg_window_record, info);
  MPIDBG_FIELD(mpidbg_window_record, fence_count);
  MPIDBG_FIELD(mpidbg_window_record, rma_count);
  MPIDBG_FIELD(mpidbg_window_record, target_locks);
  MPIDBG_FIELD(mpidbg_window_record, access_group);
  MPIDBG_FIELD(mpidbg_window_record, exposure_group);
  MPIDBG_FIELD(mpidbg_window_record, attached);
  MPIDBG_FIELD(mpidbg_window_record, disp_unit);
  MPIDBG_FIELD(mpidbg_window_record, flavor);
  MPIDBG_FIELD(mpidbg_window_record, access_epoch);
  MPIDBG_FIELD(mpidbg_window_record, exposure_epoch);
  MPIDBG_FIELD(mpidbg_window_record, comm_size);
  MPIDBG_FIELD(mpidbg_window_record, reserved);
  MPIDBG_FIELD(mpidbg_window_record, create_pc);
}

void decode_file(const Decoder& d, mpidbg_file_record* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_OBJECT_HEAD();
  MPIDBG_FIELD(mpidbg_file_record, comm_handle);
  MPIDBG_FIELD(mpidbg_file_record, comm_job_id);
  MPIDBG_FIELD(mpidbg_file_record, info);
  MPIDBG_FIELD(mpidbg_file_record, errhandler);
  MPIDBG_FIELD(mpidbg_file_record, view_disp);
  MPIDBG_FIELD(mpidbg_file_record, etype);
  MPIDBG_FIELD(mpidbg_file_record, filetype);
  MPIDBG_FIELD(mpidbg_file_record, amode);
  MPIDBG_FIELD(mpidbg_file_record, reserved);
  MPIDBG_FIELD(mpidbg_file_record, datarep);
  MPIDBG_FIELD(mpidbg_file_record, filename);
  MPIDBG_FIELD(mpidbg_file_record, create_pc);
}

void decode_message(const Decoder& d, mpidbg_message_record* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_OBJECT_HEAD();
  MPIDBG_FIELD(mpidbg_message_record, comm_handle);
  MPIDBG_FIELD(mpidbg_message_record, comm_job_id);
  MPIDBG_FIELD(mpidbg_message_record, bytes);
  MPIDBG_FIELD(mpidbg_message_record, source);
  MPIDBG_FIELD(mpidbg_message_record, source_world);
  MPIDBG_FIELD(mpidbg_message_record, tag);
  MPIDBG_FIELD(mpidbg_message_record, state);
  MPIDBG_FIELD(mpidbg_message_record, create_pc);
}

void decode_session(const Decoder& d, mpidbg_session_record* out) {
  std::memset(out, 0, sizeof *out);
  MPIDBG_OBJECT_HEAD();
  MPIDBG_FIELD(mpidbg_session_record, info);
  MPIDBG_FIELD(mpidbg_session_record, errhandler);
  MPIDBG_FIELD(mpidbg_session_record, create_pc);
}

#undef MPIDBG_OBJECT_HEAD

}  // namespace mpidbg::plugin
