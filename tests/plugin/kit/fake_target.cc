#include "fake_target.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace mpidbg::test {

// ---- FakeTarget ----------------------------------------------------------------------

bool FakeTarget::swapped() const {
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  const bool host_big = first == 0;
  return host_big != big_endian_;
}

void FakeTarget::map(uint64_t addr, size_t size) {
  Region r{addr, std::vector<uint8_t>(size, 0)};
  regions_[addr] = std::move(r);
}

FakeTarget::Region* FakeTarget::region_for(uint64_t addr, size_t len) {
  auto it = regions_.upper_bound(addr);
  if (it == regions_.begin()) return nullptr;
  --it;
  Region& r = it->second;
  if (addr < r.addr) return nullptr;
  const uint64_t off = addr - r.addr;
  if (off > r.bytes.size() || len > r.bytes.size() - off) return nullptr;
  return &r;
}

bool FakeTarget::write(uint64_t addr, const void* data, size_t len) {
  Region* r = region_for(addr, len);
  if (r == nullptr) return false;
  std::memcpy(r->bytes.data() + (addr - r->addr), data, len);
  return true;
}

bool FakeTarget::read(uint64_t addr, size_t len, void* out) {
  if (on_read) on_read(addr, len);
  ++reads;
  Region* r = region_for(addr, len);
  if (r == nullptr) {
    ++failed_reads;
    return false;
  }
  std::memcpy(out, r->bytes.data() + (addr - r->addr), len);
  bytes_read += len;
  return true;
}

namespace {
template <typename T>
T to_target(T v, bool swap) {
  if (!swap) return v;
  T out;
  const auto* in = reinterpret_cast<const uint8_t*>(&v);
  auto* o = reinterpret_cast<uint8_t*>(&out);
  for (size_t i = 0; i < sizeof(T); ++i) o[i] = in[sizeof(T) - 1 - i];
  return out;
}
}  // namespace

void FakeTarget::put16(uint64_t addr, uint16_t v) {
  v = to_target(v, swapped());
  if (!write(addr, &v, sizeof v)) throw std::runtime_error("put16 outside the target");
}
void FakeTarget::put32(uint64_t addr, uint32_t v) {
  v = to_target(v, swapped());
  if (!write(addr, &v, sizeof v)) throw std::runtime_error("put32 outside the target");
}
void FakeTarget::put64(uint64_t addr, uint64_t v) {
  v = to_target(v, swapped());
  if (!write(addr, &v, sizeof v)) throw std::runtime_error("put64 outside the target");
}
uint32_t FakeTarget::get32(uint64_t addr) {
  uint32_t v = 0;
  Region* r = region_for(addr, 4);
  if (r == nullptr) throw std::runtime_error("get32 outside the target");
  std::memcpy(&v, r->bytes.data() + (addr - r->addr), 4);
  return to_target(v, swapped());
}
uint64_t FakeTarget::get64(uint64_t addr) {
  uint64_t v = 0;
  Region* r = region_for(addr, 8);
  if (r == nullptr) throw std::runtime_error("get64 outside the target");
  std::memcpy(&v, r->bytes.data() + (addr - r->addr), 8);
  return to_target(v, swapped());
}

std::vector<std::pair<uint64_t, size_t>> FakeTarget::regions() const {
  std::vector<std::pair<uint64_t, size_t>> out;
  for (const auto& [addr, region] : regions_) out.emplace_back(addr, region.bytes.size());
  return out;
}

bool FakeTarget::find_symbol(const std::string& name, uint64_t* addr) const {
  auto it = symbols_.find(name);
  if (it == symbols_.end()) return false;
  *addr = it->second;
  return true;
}

// ---- FakeDebugger --------------------------------------------------------------------

namespace {

long g_live_allocations = 0;
long g_allocations_left = -1;  // -1: no failure planned

void* cb_malloc(size_t size) {
  if (g_allocations_left == 0) return nullptr;
  if (g_allocations_left > 0) --g_allocations_left;
  ++g_live_allocations;
  return std::malloc(size);
}
void cb_free(void* p) {
  if (p != nullptr) --g_live_allocations;
  std::free(p);
}
void cb_dprints(const char* text) { FakeDebugger::log().emplace_back(text); }
char* cb_errorstring(int) { return const_cast<char*>("fake debugger error"); }

}  // namespace

FakeDebugger* from_image(mqs_image* image) {
  return reinterpret_cast<FakeDebugger::Handle*>(image)->owner;
}
FakeDebugger* from_process(mqs_process* process) {
  return reinterpret_cast<FakeDebugger::Handle*>(process)->owner;
}

namespace {

void cb_put_image_info(mqs_image* image, mqs_image_info* info) { from_image(image)->image_info = info; }
mqs_image_info* cb_get_image_info(mqs_image* image) { return from_image(image)->image_info; }
void cb_put_process_info(mqs_process* process, mqs_process_info* info) {
  from_process(process)->process_info = info;
}
mqs_process_info* cb_get_process_info(mqs_process* process) {
  return from_process(process)->process_info;
}

void cb_get_type_sizes(mqs_process* process, mqs_target_type_sizes* sizes) {
  const int ptr = from_process(process)->target()->pointer_size();
  sizes->short_size = 2;
  sizes->int_size = 4;
  sizes->long_size = ptr;
  sizes->long_long_size = 8;
  sizes->pointer_size = ptr;
  sizes->bool_size = 1;
  sizes->size_t_size = ptr;
}
int cb_find_function(mqs_image*, char*, mqs_lang_code, mqs_taddr_t*) { return 1; }
int cb_find_symbol(mqs_image* image, char* name, mqs_taddr_t* addr) {
  uint64_t a = 0;
  if (!from_image(image)->target()->find_symbol(name, &a)) return 1;
  if (addr != nullptr) *addr = static_cast<mqs_taddr_t>(a);
  return mqs_ok;
}
mqs_type* cb_find_type(mqs_image* image, char* name, mqs_lang_code) {
  return name != nullptr ? from_image(image)->type_handle(name) : nullptr;
}
int cb_field_offset(mqs_type*, char*) { return -1; }
int cb_sizeof(mqs_type*) { return -1; }

int cb_get_global_rank(mqs_process* process) { return from_process(process)->global_rank; }
mqs_image* cb_get_image(mqs_process* process) { return from_process(process)->image(); }
int cb_fetch_data(mqs_process* process, mqs_taddr_t addr, int size, void* buf) {
  if (size < 0) return 1;
  return from_process(process)->target()->read(addr, static_cast<size_t>(size), buf) ? mqs_ok : 1;
}
void cb_target_to_host(mqs_process* process, const void* in, void* out, int size) {
  FakeDebugger* d = from_process(process);
  const bool swap = d->target()->swapped() != d->lie_about_byte_order;
  const auto* i = static_cast<const uint8_t*>(in);
  auto* o = static_cast<uint8_t*>(out);
  for (int k = 0; k < size; ++k) o[k] = swap ? i[size - 1 - k] : i[k];
}

const mqs_basic_callbacks kBasic = {cb_malloc,         cb_free,           cb_dprints,
                                    cb_errorstring,    cb_put_image_info, cb_get_image_info,
                                    cb_put_process_info, cb_get_process_info};
const mqs_image_callbacks kImage = {cb_get_type_sizes, cb_find_function, cb_find_symbol,
                                    cb_find_type,      cb_field_offset,  cb_sizeof};
const mqs_process_callbacks kProcess = {cb_get_global_rank, cb_get_image, cb_fetch_data,
                                        cb_target_to_host};

}  // namespace

FakeDebugger::FakeDebugger(FakeTarget* target) : target_(target) {}
FakeDebugger::~FakeDebugger() = default;

const mqs_basic_callbacks* FakeDebugger::basic_callbacks() { return &kBasic; }
const mqs_image_callbacks* FakeDebugger::image_callbacks() { return &kImage; }
const mqs_process_callbacks* FakeDebugger::process_callbacks() { return &kProcess; }

mqs_image* FakeDebugger::image() { return reinterpret_cast<mqs_image*>(&image_handle_); }
mqs_process* FakeDebugger::process() { return reinterpret_cast<mqs_process*>(&process_handle_); }

long FakeDebugger::live_allocations() { return g_live_allocations; }
void FakeDebugger::fail_allocations_after(long n) { g_allocations_left = n; }

mqs_type* FakeDebugger::type_handle(const std::string& name) const {
  for (const std::string& known : known_types) {
    // The element's address: distinct per name, never dereferenced by the plugin.
    if (known == name) return reinterpret_cast<mqs_type*>(const_cast<std::string*>(&known));
  }
  return nullptr;
}
std::vector<std::string>& FakeDebugger::log() {
  static std::vector<std::string> lines;
  return lines;
}

// ---- record encoding -----------------------------------------------------------------

namespace {

void field(FakeTarget* t, uint64_t at, uint64_t v) { t->put64(at, v); }
void field(FakeTarget* t, uint64_t at, int64_t v) { t->put64(at, static_cast<uint64_t>(v)); }
void field(FakeTarget* t, uint64_t at, uint32_t v) { t->put32(at, v); }
void field(FakeTarget* t, uint64_t at, int32_t v) { t->put32(at, static_cast<uint32_t>(v)); }
void field(FakeTarget* t, uint64_t at, uint16_t v) { t->put16(at, v); }
void field(FakeTarget* t, uint64_t at, uint8_t v) {
  if (!t->write(at, &v, 1)) throw std::runtime_error("byte outside the target");
}
void field(FakeTarget* t, uint64_t at, const mpidbg_array& v) {
  ImageBuilder::encode_array(t, at, v);
}
template <size_t N>
void field(FakeTarget* t, uint64_t at, const char (&v)[N]) {
  if (!t->write(at, v, N)) throw std::runtime_error("string outside the target");
}

#define PUT(type, name) field(t, addr + offsetof(type, name), r.name)

void encode_table(FakeTarget* t, uint64_t addr, const mpidbg_table& r) {
  PUT(mpidbg_table, first_slab);
  PUT(mpidbg_table, kind);
  PUT(mpidbg_table, record_size);
  PUT(mpidbg_table, slab_count);
  PUT(mpidbg_table, live_count);
}
void field(FakeTarget* t, uint64_t at, const mpidbg_table& v) { encode_table(t, at, v); }

void encode_header(FakeTarget* t, uint64_t addr, const mpidbg_record_header& r) {
  PUT(mpidbg_record_header, seq);
  PUT(mpidbg_record_header, kind);
  PUT(mpidbg_record_header, size);
  PUT(mpidbg_record_header, flags);
  PUT(mpidbg_record_header, reserved);
}

void encode_slab(FakeTarget* t, uint64_t addr, const mpidbg_slab& r) {
  PUT(mpidbg_slab, magic);
  PUT(mpidbg_slab, next);
  PUT(mpidbg_slab, header_size);
  PUT(mpidbg_slab, record_size);
  PUT(mpidbg_slab, capacity);
  PUT(mpidbg_slab, kind);
}

}  // namespace

void ImageBuilder::encode_array(FakeTarget* t, uint64_t addr, const mpidbg_array& r) {
  PUT(mpidbg_array, address);
  PUT(mpidbg_array, count);
  PUT(mpidbg_array, elem_size);
}

void ImageBuilder::encode_root(FakeTarget* t, uint64_t addr, const mpidbg_root& r) {
  PUT(mpidbg_root, magic);
  PUT(mpidbg_root, size);
  PUT(mpidbg_root, layout_version);
  PUT(mpidbg_root, generation);
  PUT(mpidbg_root, flavour);
  PUT(mpidbg_root, handle_size);
  PUT(mpidbg_root, process_state);
  PUT(mpidbg_root, world_rank);
  PUT(mpidbg_root, world_size);
  PUT(mpidbg_root, thread_level);
  PUT(mpidbg_root, pid);
  PUT(mpidbg_root, mpi_any_source);
  PUT(mpidbg_root, mpi_any_tag);
  PUT(mpidbg_root, mpi_proc_null);
  PUT(mpidbg_root, comm_world_handle);
  PUT(mpidbg_root, comm_self_handle);
  PUT(mpidbg_root, init_time_ns);
  PUT(mpidbg_root, post_counter);
  PUT(mpidbg_root, comms);
  PUT(mpidbg_root, operations);
  PUT(mpidbg_root, threads);
  PUT(mpidbg_root, mpi_library);
  PUT(mpidbg_root, hostname);
  PUT(mpidbg_root, create_counter);
  PUT(mpidbg_root, free_counter);
  PUT(mpidbg_root, orphan_budget);
  PUT(mpidbg_root, orphan_keep_all);
  PUT(mpidbg_root, orphan_count);
  PUT(mpidbg_root, orphan_evictions);
  PUT(mpidbg_root, orphan_releases);
  PUT(mpidbg_root, groups);
  PUT(mpidbg_root, datatypes);
  PUT(mpidbg_root, reduce_ops);
  PUT(mpidbg_root, errhandlers);
  PUT(mpidbg_root, infos);
  PUT(mpidbg_root, windows);
  PUT(mpidbg_root, files);
  PUT(mpidbg_root, messages);
  PUT(mpidbg_root, sessions);
  PUT(mpidbg_root, partitions);
  PUT(mpidbg_root, launch);
  PUT(mpidbg_root, mpit);
  PUT(mpidbg_root, traffic);
  PUT(mpidbg_root, mpi_version);
  PUT(mpidbg_root, mpi_subversion);
  PUT(mpidbg_root, thread_level_requested);
  PUT(mpidbg_root, debug_gate_hold);
  PUT(mpidbg_root, request_bytes);
  PUT(mpidbg_root, status_size);
  PUT(mpidbg_root, status_source_offset);
  PUT(mpidbg_root, status_tag_offset);
  PUT(mpidbg_root, status_error_offset);
  PUT(mpidbg_root, status_count_offset);
  PUT(mpidbg_root, status_count_encoding);
  PUT(mpidbg_root, status_cancelled_offset);
  PUT(mpidbg_root, status_reserved);
  PUT(mpidbg_root, comm_null_handle);
  PUT(mpidbg_root, group_null_handle);
  PUT(mpidbg_root, group_empty_handle);
  PUT(mpidbg_root, datatype_null_handle);
  PUT(mpidbg_root, reduce_op_null_handle);
  PUT(mpidbg_root, errhandler_null_handle);
  PUT(mpidbg_root, info_null_handle);
  PUT(mpidbg_root, win_null_handle);
  PUT(mpidbg_root, file_null_handle);
  PUT(mpidbg_root, request_null_handle);
  PUT(mpidbg_root, message_null_handle);
  PUT(mpidbg_root, message_no_proc_handle);
  PUT(mpidbg_root, monitor);
  PUT(mpidbg_root, profile);
}

void ImageBuilder::encode_comm(FakeTarget* t, uint64_t addr, const mpidbg_comm_record& r) {
  encode_header(t, addr, r.hdr);
  PUT(mpidbg_comm_record, handle);
  PUT(mpidbg_comm_record, job_id);
  PUT(mpidbg_comm_record, parent_job_id);
  PUT(mpidbg_comm_record, world_ranks);
  PUT(mpidbg_comm_record, remote_world_ranks);
  PUT(mpidbg_comm_record, create_serial);
  PUT(mpidbg_comm_record, rank);
  PUT(mpidbg_comm_record, size);
  PUT(mpidbg_comm_record, remote_size);
  PUT(mpidbg_comm_record, creator);
  PUT(mpidbg_comm_record, split_color);
  PUT(mpidbg_comm_record, split_key);
  PUT(mpidbg_comm_record, name);
  PUT(mpidbg_comm_record, free_serial);
  PUT(mpidbg_comm_record, errhandler);
  PUT(mpidbg_comm_record, info);
  PUT(mpidbg_comm_record, topo_args);
  PUT(mpidbg_comm_record, attributes);
  PUT(mpidbg_comm_record, fortran_index);
  PUT(mpidbg_comm_record, topology);
  PUT(mpidbg_comm_record, create_time_ns);
  PUT(mpidbg_comm_record, remote_job_id);
  PUT(mpidbg_comm_record, remote_job_ranks);
  PUT(mpidbg_comm_record, create_pc);
}

void ImageBuilder::encode_op(FakeTarget* t, uint64_t addr, const mpidbg_operation_record& r) {
  encode_header(t, addr, r.hdr);
  PUT(mpidbg_operation_record, request);
  PUT(mpidbg_operation_record, comm_handle);
  PUT(mpidbg_operation_record, comm_job_id);
  PUT(mpidbg_operation_record, post_serial);
  PUT(mpidbg_operation_record, buffer);
  PUT(mpidbg_operation_record, datatype);
  PUT(mpidbg_operation_record, count);
  PUT(mpidbg_operation_record, bytes);
  PUT(mpidbg_operation_record, tid);
  PUT(mpidbg_operation_record, post_time_ns);
  PUT(mpidbg_operation_record, actual_bytes);
  PUT(mpidbg_operation_record, call);
  PUT(mpidbg_operation_record, direction);
  PUT(mpidbg_operation_record, mode);
  PUT(mpidbg_operation_record, status);
  PUT(mpidbg_operation_record, peer);
  PUT(mpidbg_operation_record, peer_world);
  PUT(mpidbg_operation_record, tag);
  PUT(mpidbg_operation_record, actual_source);
  PUT(mpidbg_operation_record, actual_tag);
  PUT(mpidbg_operation_record, reserved);
  PUT(mpidbg_operation_record, datatype_name);
  PUT(mpidbg_operation_record, object);
  PUT(mpidbg_operation_record, free_serial);
  PUT(mpidbg_operation_record, file_offset);
  PUT(mpidbg_operation_record, target_disp);
  PUT(mpidbg_operation_record, extra_state);
  PUT(mpidbg_operation_record, query_fn);
  PUT(mpidbg_operation_record, create_pc);
  PUT(mpidbg_operation_record, reserved2);
}

void ImageBuilder::encode_thread(FakeTarget* t, uint64_t addr, const mpidbg_thread_record& r) {
  encode_header(t, addr, r.hdr);
  PUT(mpidbg_thread_record, tid);
  PUT(mpidbg_thread_record, entry_time_ns);
  PUT(mpidbg_thread_record, comm_handle);
  PUT(mpidbg_thread_record, comm_job_id);
  PUT(mpidbg_thread_record, op);
  PUT(mpidbg_thread_record, requests);
  PUT(mpidbg_thread_record, calls);
  PUT(mpidbg_thread_record, count);
  PUT(mpidbg_thread_record, datatype);
  PUT(mpidbg_thread_record, state);
  PUT(mpidbg_thread_record, call);
  PUT(mpidbg_thread_record, request_count);
  PUT(mpidbg_thread_record, root);
  PUT(mpidbg_thread_record, datatype_name);
  PUT(mpidbg_thread_record, flight_entries);
  PUT(mpidbg_thread_record, flight_head);
  PUT(mpidbg_thread_record, flight_capacity);
  PUT(mpidbg_thread_record, flight_entry_size);
  PUT(mpidbg_thread_record, live);
  PUT(mpidbg_thread_record, live_size);
  PUT(mpidbg_thread_record, reserved3);
}

void ImageBuilder::encode_thread_live(FakeTarget* t, uint64_t addr, const mpidbg_thread_live& r) {
  PUT(mpidbg_thread_live, state);
  PUT(mpidbg_thread_live, call);
  PUT(mpidbg_thread_live, site);
  PUT(mpidbg_thread_live, entry_time_ns);
  PUT(mpidbg_thread_live, comm_handle);
  PUT(mpidbg_thread_live, comm_job_id);
  PUT(mpidbg_thread_live, calls);
  PUT(mpidbg_thread_live, op);
  PUT(mpidbg_thread_live, requests);
  PUT(mpidbg_thread_live, request_count);
  PUT(mpidbg_thread_live, paused);
}

void ImageBuilder::encode_flight_entry(FakeTarget* t, uint64_t addr, const mpidbg_flight_entry& r) {
  PUT(mpidbg_flight_entry, seq);
  PUT(mpidbg_flight_entry, state);
  PUT(mpidbg_flight_entry, direction);
  PUT(mpidbg_flight_entry, mode);
  PUT(mpidbg_flight_entry, flags);
  PUT(mpidbg_flight_entry, call);
  PUT(mpidbg_flight_entry, peer);
  PUT(mpidbg_flight_entry, peer_world);
  PUT(mpidbg_flight_entry, tag);
  PUT(mpidbg_flight_entry, request);
  PUT(mpidbg_flight_entry, comm_handle);
  PUT(mpidbg_flight_entry, comm_job_id);
  PUT(mpidbg_flight_entry, buffer);
  PUT(mpidbg_flight_entry, datatype);
  PUT(mpidbg_flight_entry, count);
  PUT(mpidbg_flight_entry, bytes);
  PUT(mpidbg_flight_entry, post_serial);
  PUT(mpidbg_flight_entry, post_time_ns);
  PUT(mpidbg_flight_entry, create_pc);
  PUT(mpidbg_flight_entry, ordinal);
}

void ImageBuilder::encode_object_head(FakeTarget* t, uint64_t addr, const mpidbg_object_head& r) {
  encode_header(t, addr, r.hdr);  // hdr is first
  PUT(mpidbg_object_head, handle);
  PUT(mpidbg_object_head, create_serial);
  PUT(mpidbg_object_head, free_serial);
  PUT(mpidbg_object_head, create_time_ns);
  PUT(mpidbg_object_head, creator);
  PUT(mpidbg_object_head, fortran_index);
  PUT(mpidbg_object_head, name);
}

void ImageBuilder::encode_group(FakeTarget* t, uint64_t addr, const mpidbg_group_record& r) {
  encode_object_head(t, addr, r.obj);  // obj is first
  PUT(mpidbg_group_record, source_handle);
  PUT(mpidbg_group_record, source_handle2);
  PUT(mpidbg_group_record, source_comm_job_id);
  PUT(mpidbg_group_record, world_ranks);
  PUT(mpidbg_group_record, args);
  PUT(mpidbg_group_record, size);
  PUT(mpidbg_group_record, rank);
  PUT(mpidbg_group_record, create_pc);
}

void ImageBuilder::encode_datatype(FakeTarget* t, uint64_t addr, const mpidbg_datatype_record& r) {
  encode_object_head(t, addr, r.obj);
  PUT(mpidbg_datatype_record, size);
  PUT(mpidbg_datatype_record, lb);
  PUT(mpidbg_datatype_record, extent);
  PUT(mpidbg_datatype_record, true_lb);
  PUT(mpidbg_datatype_record, true_extent);
  PUT(mpidbg_datatype_record, integers);
  PUT(mpidbg_datatype_record, addresses);
  PUT(mpidbg_datatype_record, types);
  PUT(mpidbg_datatype_record, combiner);
  PUT(mpidbg_datatype_record, reserved);
  PUT(mpidbg_datatype_record, create_pc);
}

void ImageBuilder::encode_reduce_op(FakeTarget* t, uint64_t addr,
                                    const mpidbg_reduce_op_record& r) {
  encode_object_head(t, addr, r.obj);
  PUT(mpidbg_reduce_op_record, function);
  PUT(mpidbg_reduce_op_record, commute);
  PUT(mpidbg_reduce_op_record, reserved);
  PUT(mpidbg_reduce_op_record, create_pc);
}

void ImageBuilder::encode_errhandler(FakeTarget* t, uint64_t addr,
                                     const mpidbg_errhandler_record& r) {
  encode_object_head(t, addr, r.obj);
  PUT(mpidbg_errhandler_record, function);
  PUT(mpidbg_errhandler_record, target);
  PUT(mpidbg_errhandler_record, reserved);
  PUT(mpidbg_errhandler_record, create_pc);
}

void ImageBuilder::encode_info(FakeTarget* t, uint64_t addr, const mpidbg_info_record& r) {
  encode_object_head(t, addr, r.obj);
  PUT(mpidbg_info_record, entries);
  PUT(mpidbg_info_record, nkeys);
  PUT(mpidbg_info_record, reserved);
  PUT(mpidbg_info_record, create_pc);
}

void ImageBuilder::encode_window(FakeTarget* t, uint64_t addr, const mpidbg_window_record& r) {
  encode_object_head(t, addr, r.obj);
  PUT(mpidbg_window_record, comm_handle);
  PUT(mpidbg_window_record, comm_job_id);
  PUT(mpidbg_window_record, base);
  PUT(mpidbg_window_record, size);
  PUT(mpidbg_window_record, errhandler);
  PUT(mpidbg_window_record, info);
  PUT(mpidbg_window_record, fence_count);
  PUT(mpidbg_window_record, rma_count);
  PUT(mpidbg_window_record, target_locks);
  PUT(mpidbg_window_record, access_group);
  PUT(mpidbg_window_record, exposure_group);
  PUT(mpidbg_window_record, attached);
  PUT(mpidbg_window_record, disp_unit);
  PUT(mpidbg_window_record, flavor);
  PUT(mpidbg_window_record, access_epoch);
  PUT(mpidbg_window_record, exposure_epoch);
  PUT(mpidbg_window_record, comm_size);
  PUT(mpidbg_window_record, reserved);
  PUT(mpidbg_window_record, create_pc);
}

void ImageBuilder::encode_file(FakeTarget* t, uint64_t addr, const mpidbg_file_record& r) {
  encode_object_head(t, addr, r.obj);
  PUT(mpidbg_file_record, comm_handle);
  PUT(mpidbg_file_record, comm_job_id);
  PUT(mpidbg_file_record, info);
  PUT(mpidbg_file_record, errhandler);
  PUT(mpidbg_file_record, view_disp);
  PUT(mpidbg_file_record, etype);
  PUT(mpidbg_file_record, filetype);
  PUT(mpidbg_file_record, amode);
  PUT(mpidbg_file_record, reserved);
  PUT(mpidbg_file_record, datarep);
  PUT(mpidbg_file_record, filename);
  PUT(mpidbg_file_record, create_pc);
}

void ImageBuilder::encode_message(FakeTarget* t, uint64_t addr, const mpidbg_message_record& r) {
  encode_object_head(t, addr, r.obj);
  PUT(mpidbg_message_record, comm_handle);
  PUT(mpidbg_message_record, comm_job_id);
  PUT(mpidbg_message_record, bytes);
  PUT(mpidbg_message_record, source);
  PUT(mpidbg_message_record, source_world);
  PUT(mpidbg_message_record, tag);
  PUT(mpidbg_message_record, state);
  PUT(mpidbg_message_record, create_pc);
}

void ImageBuilder::encode_session(FakeTarget* t, uint64_t addr, const mpidbg_session_record& r) {
  encode_object_head(t, addr, r.obj);
  PUT(mpidbg_session_record, info);
  PUT(mpidbg_session_record, errhandler);
  PUT(mpidbg_session_record, create_pc);
}

void ImageBuilder::encode_partition(FakeTarget* t, uint64_t addr, const mpidbg_partition_record& r) {
  encode_header(t, addr, r.hdr);
  PUT(mpidbg_partition_record, request);
  PUT(mpidbg_partition_record, partition_count);
  PUT(mpidbg_partition_record, starts);
  PUT(mpidbg_partition_record, partitions);
  PUT(mpidbg_partition_record, direction);
  PUT(mpidbg_partition_record, done);
  PUT(mpidbg_partition_record, reserved);
  PUT(mpidbg_partition_record, done_bits);
}

#undef PUT

// ---- ImageBuilder --------------------------------------------------------------------

mpidbg_table* root_table(mpidbg_root* root, uint32_t kind) {
  switch (kind) {
    case MPIDBG_KIND_COMM: return &root->comms;
    case MPIDBG_KIND_OPERATION: return &root->operations;
    case MPIDBG_KIND_THREAD: return &root->threads;
    case MPIDBG_KIND_GROUP: return &root->groups;
    case MPIDBG_KIND_DATATYPE: return &root->datatypes;
    case MPIDBG_KIND_REDUCE_OP: return &root->reduce_ops;
    case MPIDBG_KIND_ERRHANDLER: return &root->errhandlers;
    case MPIDBG_KIND_INFO: return &root->infos;
    case MPIDBG_KIND_WINDOW: return &root->windows;
    case MPIDBG_KIND_FILE: return &root->files;
    case MPIDBG_KIND_MESSAGE: return &root->messages;
    case MPIDBG_KIND_SESSION: return &root->sessions;
    case MPIDBG_KIND_PARTITIONS: return &root->partitions;
    default: return nullptr;
  }
}

size_t record_struct_size(uint32_t kind) {
  switch (kind) {
    case MPIDBG_KIND_COMM: return sizeof(mpidbg_comm_record);
    case MPIDBG_KIND_OPERATION: return sizeof(mpidbg_operation_record);
    case MPIDBG_KIND_THREAD: return sizeof(mpidbg_thread_record);
    case MPIDBG_KIND_GROUP: return sizeof(mpidbg_group_record);
    case MPIDBG_KIND_DATATYPE: return sizeof(mpidbg_datatype_record);
    case MPIDBG_KIND_REDUCE_OP: return sizeof(mpidbg_reduce_op_record);
    case MPIDBG_KIND_ERRHANDLER: return sizeof(mpidbg_errhandler_record);
    case MPIDBG_KIND_INFO: return sizeof(mpidbg_info_record);
    case MPIDBG_KIND_WINDOW: return sizeof(mpidbg_window_record);
    case MPIDBG_KIND_FILE: return sizeof(mpidbg_file_record);
    case MPIDBG_KIND_MESSAGE: return sizeof(mpidbg_message_record);
    case MPIDBG_KIND_SESSION: return sizeof(mpidbg_session_record);
    case MPIDBG_KIND_PARTITIONS: return sizeof(mpidbg_partition_record);
    default: return 0;
  }
}

mpidbg_record_header* ImageBuilder::Slot::header() {
  switch (kind) {
    case MPIDBG_KIND_COMM: return &comm.hdr;
    case MPIDBG_KIND_OPERATION: return &op.hdr;
    case MPIDBG_KIND_THREAD: return &thread.hdr;
    case MPIDBG_KIND_GROUP: return &group.obj.hdr;
    case MPIDBG_KIND_DATATYPE: return &datatype.obj.hdr;
    case MPIDBG_KIND_REDUCE_OP: return &reduce_op.obj.hdr;
    case MPIDBG_KIND_ERRHANDLER: return &errhandler.obj.hdr;
    case MPIDBG_KIND_INFO: return &info.obj.hdr;
    case MPIDBG_KIND_WINDOW: return &window.obj.hdr;
    case MPIDBG_KIND_FILE: return &file.obj.hdr;
    case MPIDBG_KIND_MESSAGE: return &message.obj.hdr;
    case MPIDBG_KIND_SESSION: return &session.obj.hdr;
    case MPIDBG_KIND_PARTITIONS: return &partition.hdr;
    default: return nullptr;
  }
}

ImageBuilder::ImageBuilder(FakeTarget* target, uint64_t base) : ImageBuilder(target, base, Options()) {}

ImageBuilder::ImageBuilder(FakeTarget* target, uint64_t base, Options options)
    : target_(target), options_(options), next_(base) {
  for (uint32_t kind : kKinds) {
    size_t bytes = record_struct_size(kind);
    if (kind == MPIDBG_KIND_THREAD && options.thread_record_bytes != 0) {
      bytes = options.thread_record_bytes;
    }
    tables_[kind] = Table{kind, static_cast<uint32_t>(bytes + options.extra_record_bytes), {}, {}};
  }
  root_addr_ = alloc(options.root_bytes);
  target_->add_symbol(MPIDBG_ROOT_SYMBOL, root_addr_);
  root.magic = MPIDBG_ROOT_MAGIC;
  root.size = sizeof(mpidbg_root);
  root.layout_version = MPIDBG_LAYOUT_VERSION;
  root.generation = 1;
  root.handle_size = 4;
  root.world_rank = -1;
}

uint64_t ImageBuilder::alloc(size_t size) {
  // Each allocation its own region, with a gap, so overruns fail instead of reading
  // a neighbour.
  const uint64_t addr = next_;
  target_->map(addr, size);
  next_ += (size + 0x100 + 0xff) & ~uint64_t{0xff};
  return addr;
}

ImageBuilder::Table& ImageBuilder::table(uint32_t kind) {
  if (kind == MPIDBG_KIND_FREE || kind >= kKindCount) throw std::runtime_error("no such table");
  return tables_[kind];
}
const ImageBuilder::Table& ImageBuilder::table(uint32_t kind) const {
  if (kind == MPIDBG_KIND_FREE || kind >= kKindCount) throw std::runtime_error("no such table");
  return tables_[kind];
}

uint64_t ImageBuilder::slot_addr(const Table& t, size_t i) const {
  const size_t slab = i / options_.slab_capacity;
  const size_t within = i % options_.slab_capacity;
  return t.slab_addrs.at(slab) + options_.slab_header_size + within * t.record_size;
}

size_t ImageBuilder::add_slot(Table& t) {
  // Reuse a released slot first, as the runtime does.
  for (size_t i = t.free_hint; i < t.slots.size(); ++i) {
    if (t.slots[i].kind == MPIDBG_KIND_FREE) return i;
    t.free_hint = i + 1;
  }
  if (t.slots.size() % options_.slab_capacity == 0) {
    t.slab_addrs.push_back(alloc(options_.slab_header_size +
                                 size_t{options_.slab_capacity} * t.record_size));
  }
  t.slots.emplace_back();
  return t.slots.size() - 1;
}

ImageBuilder::Slot& ImageBuilder::new_record(uint32_t kind, uint64_t* addr) {
  Table& t = table(kind);
  const size_t i = add_slot(t);
  t.slots[i] = Slot();
  t.slots[i].kind = kind;
  *addr = slot_addr(t, i);
  return t.slots[i];
}

#define MPIDBG_BUILDER_KIND(member, type, kind)                   \
  uint64_t ImageBuilder::add_##member(const type& rec) {          \
    uint64_t addr = 0;                                            \
    new_record(kind, &addr).member = rec;                         \
    return addr;                                                  \
  }                                                               \
  void ImageBuilder::update_##member(uint64_t addr, const type& rec) { \
    slot_of_kind(addr, kind).member = rec;                        \
  }
MPIDBG_BUILDER_KIND(comm, mpidbg_comm_record, MPIDBG_KIND_COMM)
MPIDBG_BUILDER_KIND(op, mpidbg_operation_record, MPIDBG_KIND_OPERATION)
MPIDBG_BUILDER_KIND(thread, mpidbg_thread_record, MPIDBG_KIND_THREAD)
MPIDBG_BUILDER_KIND(group, mpidbg_group_record, MPIDBG_KIND_GROUP)
MPIDBG_BUILDER_KIND(datatype, mpidbg_datatype_record, MPIDBG_KIND_DATATYPE)
MPIDBG_BUILDER_KIND(reduce_op, mpidbg_reduce_op_record, MPIDBG_KIND_REDUCE_OP)
MPIDBG_BUILDER_KIND(errhandler, mpidbg_errhandler_record, MPIDBG_KIND_ERRHANDLER)
MPIDBG_BUILDER_KIND(info, mpidbg_info_record, MPIDBG_KIND_INFO)
MPIDBG_BUILDER_KIND(window, mpidbg_window_record, MPIDBG_KIND_WINDOW)
MPIDBG_BUILDER_KIND(file, mpidbg_file_record, MPIDBG_KIND_FILE)
MPIDBG_BUILDER_KIND(message, mpidbg_message_record, MPIDBG_KIND_MESSAGE)
MPIDBG_BUILDER_KIND(session, mpidbg_session_record, MPIDBG_KIND_SESSION)
MPIDBG_BUILDER_KIND(partition, mpidbg_partition_record, MPIDBG_KIND_PARTITIONS)
#undef MPIDBG_BUILDER_KIND

ImageBuilder::Slot* ImageBuilder::find_slot(uint64_t addr, Table** table_out) {
  for (uint32_t kind : kKinds) {
    Table* t = &tables_[kind];
    for (size_t i = 0; i < t->slots.size(); ++i) {
      if (slot_addr(*t, i) == addr) {
        if (table_out != nullptr) *table_out = t;
        return &t->slots[i];
      }
    }
  }
  throw std::runtime_error("no such slot");
}

ImageBuilder::Slot& ImageBuilder::slot_of_kind(uint64_t addr, uint32_t kind) {
  Table* t = nullptr;
  Slot* slot = find_slot(addr, &t);
  if (t->kind != kind) throw std::runtime_error("the slot belongs to another table");
  return *slot;
}

void ImageBuilder::release(uint64_t addr) {
  Table* t = nullptr;
  Slot* slot = find_slot(addr, &t);
  slot->kind = MPIDBG_KIND_FREE;
  const size_t i = static_cast<size_t>(slot - t->slots.data());
  if (i < t->free_hint) t->free_hint = i;
}

uint64_t ImageBuilder::add_traffic(const std::vector<mpidbg_traffic_entry>& entries,
                                   uint32_t capacity,
                                   const std::vector<mpidbg_send_log_entry>& logged,
                                   uint32_t log_capacity, uint64_t log_head) {
#define PUT(type, name) field(t, addr + offsetof(type, name), r.name)
  FakeTarget* t = target_;
  const uint64_t entry_array = alloc(capacity == 0 ? 8 : capacity * sizeof(mpidbg_traffic_entry));
  for (size_t i = 0; i < entries.size() && i < capacity; ++i) {
    const uint64_t addr = entry_array + i * sizeof(mpidbg_traffic_entry);
    const mpidbg_traffic_entry& r = entries[i];
    PUT(mpidbg_traffic_entry, state);
    PUT(mpidbg_traffic_entry, tag);
    PUT(mpidbg_traffic_entry, comm_job_id);
    PUT(mpidbg_traffic_entry, peer);
    PUT(mpidbg_traffic_entry, peer_world);
    PUT(mpidbg_traffic_entry, sends);
    PUT(mpidbg_traffic_entry, receives);
    PUT(mpidbg_traffic_entry, send_bytes);
    PUT(mpidbg_traffic_entry, receive_bytes);
  }
  const uint64_t log_array =
      alloc(log_capacity == 0 ? 8 : log_capacity * sizeof(mpidbg_send_log_entry));
  // Send n lives in slot n % log_capacity; `logged` are sends log_head - size .. log_head - 1.
  for (size_t k = 0; k < logged.size() && log_capacity != 0; ++k) {
    const uint64_t n = log_head - logged.size() + k;
    const uint64_t addr = log_array + (n % log_capacity) * sizeof(mpidbg_send_log_entry);
    // Send n's slot carries seq 2n+2 as the runtime writes it; an odd seq (a test's
    // torn slot) is kept as given.
    mpidbg_send_log_entry r = logged[k];
    if (r.seq % 2 == 0) r.seq = static_cast<uint32_t>(2 * n + 2);
    PUT(mpidbg_send_log_entry, seq);
    PUT(mpidbg_send_log_entry, call);
    PUT(mpidbg_send_log_entry, comm_job_id);
    PUT(mpidbg_send_log_entry, ordinal);
    PUT(mpidbg_send_log_entry, bytes);
    PUT(mpidbg_send_log_entry, time_ns);
    PUT(mpidbg_send_log_entry, datatype);
    PUT(mpidbg_send_log_entry, count);
    PUT(mpidbg_send_log_entry, peer);
    PUT(mpidbg_send_log_entry, peer_world);
    PUT(mpidbg_send_log_entry, tag);
    PUT(mpidbg_send_log_entry, mode);
  }
  mpidbg_traffic h{};
  h.size = sizeof(mpidbg_traffic);
  h.entry_size = sizeof(mpidbg_traffic_entry);
  h.entries = entry_array;
  h.capacity = capacity;
  h.log_entry_size = sizeof(mpidbg_send_log_entry);
  h.used = entries.size();
  h.log = log_array;
  h.log_capacity = log_capacity;
  h.log_head = log_head;
  const uint64_t addr = alloc(sizeof h);
  {
    const mpidbg_traffic& r = h;
    PUT(mpidbg_traffic, size);
    PUT(mpidbg_traffic, entry_size);
    PUT(mpidbg_traffic, entries);
    PUT(mpidbg_traffic, capacity);
    PUT(mpidbg_traffic, log_entry_size);
    PUT(mpidbg_traffic, used);
    PUT(mpidbg_traffic, dropped);
    PUT(mpidbg_traffic, log);
    PUT(mpidbg_traffic, log_capacity);
    PUT(mpidbg_traffic, log_head);
  }
#undef PUT
  root.traffic = addr;
  return addr;
}

uint64_t ImageBuilder::add_launch(const mpidbg_launch_info& r) {
#define PUT(type, name) field(t, addr + offsetof(type, name), r.name)
  FakeTarget* t = target_;
  const uint64_t addr = alloc(sizeof r);
  PUT(mpidbg_launch_info, size);
  PUT(mpidbg_launch_info, launcher);
  PUT(mpidbg_launch_info, sources);
  PUT(mpidbg_launch_info, rank);
  PUT(mpidbg_launch_info, world_size);
  PUT(mpidbg_launch_info, local_rank);
  PUT(mpidbg_launch_info, local_size);
  PUT(mpidbg_launch_info, node_rank);
  PUT(mpidbg_launch_info, appnum);
  PUT(mpidbg_launch_info, universe_size);
  PUT(mpidbg_launch_info, pid);
  PUT(mpidbg_launch_info, mpi_rank);
  PUT(mpidbg_launch_info, job_id);
  PUT(mpidbg_launch_info, host);
  PUT(mpidbg_launch_info, launcher_name);
  PUT(mpidbg_launch_info, pmi_interface);
#undef PUT
  root.launch = addr;
  return addr;
}

uint64_t ImageBuilder::add_mpit(const MpitImage& m) {
#define PUT(type, name) field(t, addr + offsetof(type, name), r.name)
  FakeTarget* t = target_;
  auto put_array = [&](uint64_t addr, const mpidbg_array& r) {
    PUT(mpidbg_array, address);
    PUT(mpidbg_array, count);
    PUT(mpidbg_array, elem_size);
  };
  mpidbg_mpit_catalogue h{};
  h.size = sizeof h;
  h.seq = m.seq;
  h.refreshes = m.refreshes;
  h.captured_time_ns = 1700000000123456789;
  h.available = 1;
  const uint64_t cvars = alloc(m.cvars.empty() ? 8 : m.cvars.size() * sizeof(mpidbg_mpit_cvar));
  for (size_t i = 0; i < m.cvars.size(); ++i) {
    const uint64_t addr = cvars + i * sizeof(mpidbg_mpit_cvar);
    const mpidbg_mpit_cvar& r = m.cvars[i];
    PUT(mpidbg_mpit_cvar, name);
    PUT(mpidbg_mpit_cvar, desc);
    PUT(mpidbg_mpit_cvar, verbosity);
    PUT(mpidbg_mpit_cvar, datatype);
    PUT(mpidbg_mpit_cvar, scope);
    PUT(mpidbg_mpit_cvar, bind);
    PUT(mpidbg_mpit_cvar, count);
    PUT(mpidbg_mpit_cvar, flags);
    PUT(mpidbg_mpit_cvar, value_int);
    uint64_t bits;
    std::memcpy(&bits, &r.value_double, sizeof bits);
    t->put64(addr + offsetof(mpidbg_mpit_cvar, value_double), bits);
    PUT(mpidbg_mpit_cvar, value_text);
  }
  h.cvars = mpidbg_array{cvars, static_cast<uint32_t>(m.cvars.size()), sizeof(mpidbg_mpit_cvar)};
  const uint64_t pvars = alloc(m.pvars.empty() ? 8 : m.pvars.size() * sizeof(mpidbg_mpit_pvar));
  for (size_t i = 0; i < m.pvars.size(); ++i) {
    const uint64_t addr = pvars + i * sizeof(mpidbg_mpit_pvar);
    const mpidbg_mpit_pvar& r = m.pvars[i];
    PUT(mpidbg_mpit_pvar, name);
    PUT(mpidbg_mpit_pvar, desc);
    PUT(mpidbg_mpit_pvar, var_class);
    PUT(mpidbg_mpit_pvar, verbosity);
    PUT(mpidbg_mpit_pvar, datatype);
    PUT(mpidbg_mpit_pvar, bind);
    PUT(mpidbg_mpit_pvar, count);
    PUT(mpidbg_mpit_pvar, flags);
  }
  h.pvars = mpidbg_array{pvars, static_cast<uint32_t>(m.pvars.size()), sizeof(mpidbg_mpit_pvar)};
  const uint64_t cats =
      alloc(m.categories.empty() ? 8 : m.categories.size() * sizeof(mpidbg_mpit_category));
  for (size_t i = 0; i < m.categories.size(); ++i) {
    const uint64_t addr = cats + i * sizeof(mpidbg_mpit_category);
    const mpidbg_mpit_category& r = m.categories[i];
    PUT(mpidbg_mpit_category, name);
    PUT(mpidbg_mpit_category, desc);
    PUT(mpidbg_mpit_category, num_cvars);
    PUT(mpidbg_mpit_category, num_pvars);
    PUT(mpidbg_mpit_category, num_categories);
    PUT(mpidbg_mpit_category, first_member);
  }
  h.categories = mpidbg_array{cats, static_cast<uint32_t>(m.categories.size()),
                              sizeof(mpidbg_mpit_category)};
  std::vector<int32_t> members = m.members;
  h.members = mpidbg_array{add_int32_array(members), static_cast<uint32_t>(members.size()),
                           sizeof(int32_t)};
  const uint64_t strings = alloc(m.strings.empty() ? 8 : m.strings.size());
  if (!m.strings.empty() && !t->write(strings, m.strings.data(), m.strings.size())) {
    throw std::runtime_error("strings outside the target");
  }
  h.strings = mpidbg_array{strings, static_cast<uint32_t>(m.strings.size()), 1};
  const uint64_t addr = alloc(sizeof h);
  {
    const mpidbg_mpit_catalogue& r = h;
    PUT(mpidbg_mpit_catalogue, size);
    PUT(mpidbg_mpit_catalogue, seq);
    PUT(mpidbg_mpit_catalogue, refreshes);
    PUT(mpidbg_mpit_catalogue, captured_time_ns);
    PUT(mpidbg_mpit_catalogue, available);
  }
  put_array(addr + offsetof(mpidbg_mpit_catalogue, cvars), h.cvars);
  put_array(addr + offsetof(mpidbg_mpit_catalogue, pvars), h.pvars);
  put_array(addr + offsetof(mpidbg_mpit_catalogue, categories), h.categories);
  put_array(addr + offsetof(mpidbg_mpit_catalogue, members), h.members);
  put_array(addr + offsetof(mpidbg_mpit_catalogue, strings), h.strings);
#undef PUT
  root.mpit = addr;
  return addr;
}

uint64_t ImageBuilder::add_int32_array(const std::vector<int32_t>& values) {
  const uint64_t addr = alloc(values.empty() ? 4 : values.size() * 4);
  for (size_t i = 0; i < values.size(); ++i) target_->put32(addr + 4 * i, static_cast<uint32_t>(values[i]));
  return addr;
}

uint64_t ImageBuilder::add_int64_array(const std::vector<int64_t>& values) {
  const uint64_t addr = alloc(values.empty() ? 8 : values.size() * 8);
  for (size_t i = 0; i < values.size(); ++i) target_->put64(addr + 8 * i, static_cast<uint64_t>(values[i]));
  return addr;
}

uint64_t ImageBuilder::add_uint64_array(const std::vector<uint64_t>& values) {
  const uint64_t addr = alloc(values.empty() ? 8 : values.size() * 8);
  for (size_t i = 0; i < values.size(); ++i) target_->put64(addr + 8 * i, values[i]);
  return addr;
}

uint64_t ImageBuilder::add_bytes(const void* data, size_t len) {
  const uint64_t addr = alloc(len == 0 ? 1 : len);
  if (len != 0 && !target_->write(addr, data, len)) throw std::runtime_error("bytes outside the target");
  return addr;
}

mpidbg_array ImageBuilder::int32_side_array(const std::vector<int32_t>& values) {
  if (values.empty()) return mpidbg_array{0, 0, sizeof(int32_t)};
  return mpidbg_array{add_int32_array(values), static_cast<uint32_t>(values.size()), sizeof(int32_t)};
}

mpidbg_array ImageBuilder::int64_side_array(const std::vector<int64_t>& values) {
  if (values.empty()) return mpidbg_array{0, 0, sizeof(int64_t)};
  return mpidbg_array{add_int64_array(values), static_cast<uint32_t>(values.size()), sizeof(int64_t)};
}

mpidbg_array ImageBuilder::uint64_side_array(const std::vector<uint64_t>& values) {
  if (values.empty()) return mpidbg_array{0, 0, sizeof(uint64_t)};
  return mpidbg_array{add_uint64_array(values), static_cast<uint32_t>(values.size()), sizeof(uint64_t)};
}

mpidbg_array ImageBuilder::bytes_side_array(const void* data, size_t len) {
  if (len == 0) return mpidbg_array{0, 0, 1};
  return mpidbg_array{add_bytes(data, len), static_cast<uint32_t>(len), 1};
}

mpidbg_array ImageBuilder::info_entries(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string bytes;
  for (const auto& [key, value] : pairs) {
    bytes += key;
    bytes.push_back('\0');
    bytes += value;
    bytes.push_back('\0');
  }
  return bytes_side_array(bytes.data(), bytes.size());
}

uint64_t ImageBuilder::add_flight_ring(uint32_t capacity, const std::vector<FlightPost>& posts,
                                       uint32_t entry_size) {
  if (capacity == 0 || entry_size < sizeof(mpidbg_flight_entry)) {
    throw std::runtime_error("a flight ring needs entries that hold an mpidbg_flight_entry");
  }
  const uint64_t ring = alloc(size_t{capacity} * entry_size);
  for (const FlightPost& post : posts) {
    mpidbg_flight_entry e = post.entry;
    if (e.seq == 0) e.seq = static_cast<uint32_t>(2 * (post.position + 1));
    encode_flight_entry(target_, ring + (post.position % capacity) * entry_size, e);
  }
  return ring;
}

uint64_t ImageBuilder::add_thread_live(const mpidbg_thread_live& live, uint32_t bytes) {
  const uint64_t addr = alloc(bytes);
  if (bytes >= sizeof live) {
    encode_thread_live(target_, addr, live);
    return addr;
  }
  // An older runtime's block: the bytes it has, ending its mapping.
  FakeTarget scratch(target_->pointer_size(), target_->big_endian());
  scratch.map(addr, sizeof live);
  encode_thread_live(&scratch, addr, live);
  std::vector<uint8_t> held(bytes);
  scratch.read(addr, bytes, held.data());
  target_->write(addr, held.data(), bytes);
  return addr;
}

uint64_t ImageBuilder::add_handle_array(const std::vector<uint64_t>& values, uint32_t handle_size) {
  const uint64_t addr = alloc(values.empty() ? handle_size : values.size() * handle_size);
  for (size_t i = 0; i < values.size(); ++i) {
    if (handle_size == 4) {
      target_->put32(addr + 4 * i, static_cast<uint32_t>(values[i]));
    } else {
      target_->put64(addr + 8 * i, values[i]);
    }
  }
  return addr;
}

void ImageBuilder::encode_slot(FakeTarget* t, uint64_t at, const Slot& slot) {
  switch (slot.kind) {
    case MPIDBG_KIND_COMM: encode_comm(t, at, slot.comm); break;
    case MPIDBG_KIND_OPERATION: encode_op(t, at, slot.op); break;
    case MPIDBG_KIND_THREAD: encode_thread(t, at, slot.thread); break;
    case MPIDBG_KIND_GROUP: encode_group(t, at, slot.group); break;
    case MPIDBG_KIND_DATATYPE: encode_datatype(t, at, slot.datatype); break;
    case MPIDBG_KIND_REDUCE_OP: encode_reduce_op(t, at, slot.reduce_op); break;
    case MPIDBG_KIND_ERRHANDLER: encode_errhandler(t, at, slot.errhandler); break;
    case MPIDBG_KIND_INFO: encode_info(t, at, slot.info); break;
    case MPIDBG_KIND_WINDOW: encode_window(t, at, slot.window); break;
    case MPIDBG_KIND_FILE: encode_file(t, at, slot.file); break;
    case MPIDBG_KIND_MESSAGE: encode_message(t, at, slot.message); break;
    case MPIDBG_KIND_SESSION: encode_session(t, at, slot.session); break;
    case MPIDBG_KIND_PARTITIONS: encode_partition(t, at, slot.partition); break;
    default: break;
  }
}

void ImageBuilder::commit() {
  uint32_t seq = 2;
  for (uint32_t kind : kKinds) {
    Table* t = &tables_[kind];
    mpidbg_table& rt = *root_table(&root, kind);
    // Tables of the kinds added after comm/op/thread stay as the test left them (zero:
    // an older runtime) until they hold a record.
    const bool original = kind == MPIDBG_KIND_COMM || kind == MPIDBG_KIND_OPERATION ||
                          kind == MPIDBG_KIND_THREAD;
    if (!original && t->slab_addrs.empty()) continue;
    rt.kind = t->kind;
    rt.record_size = t->record_size;
    rt.slab_count = static_cast<uint32_t>(t->slab_addrs.size());
    rt.first_slab = t->slab_addrs.empty() ? 0 : t->slab_addrs.front();
    rt.live_count = 0;
    for (size_t s = 0; s < t->slab_addrs.size(); ++s) {
      mpidbg_slab slab{};
      slab.magic = MPIDBG_SLAB_MAGIC;
      slab.next = s + 1 < t->slab_addrs.size() ? t->slab_addrs[s + 1] : 0;
      slab.header_size = options_.slab_header_size;
      slab.record_size = t->record_size;
      slab.capacity = options_.slab_capacity;
      slab.kind = t->kind;
      encode_slab(target_, t->slab_addrs[s], slab);
    }
    for (size_t i = 0; i < t->slots.size(); ++i) {
      const uint64_t at = slot_addr(*t, i);
      Slot& slot = t->slots[i];
      if (slot.kind == MPIDBG_KIND_FREE) {
        mpidbg_record_header free_hdr{};
        free_hdr.seq = seq;
        encode_header(target_, at, free_hdr);
        continue;
      }
      ++rt.live_count;
      mpidbg_record_header* hdr = slot.header();
      hdr->kind = static_cast<uint16_t>(slot.kind);
      // A slot smaller than this build's record (an older runtime's) holds what fits.
      const size_t full = record_struct_size(slot.kind);
      const size_t fits = full < t->record_size ? full : t->record_size;
      if (hdr->size == 0) hdr->size = static_cast<uint16_t>(fits);
      if (hdr->seq == 0) hdr->seq = seq;
      if (fits == full) {
        encode_slot(target_, at, slot);
      } else {
        FakeTarget scratch(target_->pointer_size(), target_->big_endian());
        scratch.map(at, full);
        encode_slot(&scratch, at, slot);
        std::vector<uint8_t> bytes(fits);
        scratch.read(at, fits, bytes.data());
        target_->write(at, bytes.data(), fits);
      }
    }
  }
  // Encoded in full, then only the bytes the root's mapping has.
  FakeTarget scratch(target_->pointer_size(), target_->big_endian());
  scratch.map(root_addr_, sizeof(mpidbg_root));
  encode_root(&scratch, root_addr_, root);
  std::vector<uint8_t> bytes(options_.root_bytes);
  scratch.read(root_addr_, bytes.size(), bytes.data());
  target_->write(root_addr_, bytes.data(), bytes.size());
}

std::vector<uint64_t> ImageBuilder::slabs(uint32_t kind) const { return table(kind).slab_addrs; }
uint32_t ImageBuilder::record_size(uint32_t kind) const { return table(kind).record_size; }

mpidbg_comm_record make_comm(uint64_t handle, uint64_t job_id, int32_t rank, int32_t size,
                             uint64_t world_ranks, uint64_t create_serial, const char* name) {
  mpidbg_comm_record c{};
  c.handle = handle;
  c.job_id = job_id;
  c.rank = rank;
  c.size = size;
  c.world_ranks = world_ranks;
  c.create_serial = create_serial;
  std::strncpy(c.name, name, sizeof c.name - 1);
  return c;
}

mpidbg_operation_record make_op(int32_t call, int32_t direction, uint64_t comm_handle,
                         uint64_t comm_job_id, uint64_t post_serial, int32_t peer,
                         int32_t peer_world, int32_t tag) {
  mpidbg_operation_record o{};
  o.call = call;
  o.direction = direction;
  o.comm_handle = comm_handle;
  o.comm_job_id = comm_job_id;
  o.post_serial = post_serial;
  o.peer = peer;
  o.peer_world = peer_world;
  o.tag = tag;
  o.status = MPIDBG_OPERATION_PENDING;
  o.mode = direction == MPIDBG_OPERATION_SEND ? MPIDBG_MODE_STANDARD : MPIDBG_MODE_NONE;
  o.actual_source = -1;
  o.actual_tag = -1;
  return o;
}

mpidbg_flight_entry make_flight_entry(int32_t call, int32_t direction, uint64_t comm_handle,
                                      uint64_t comm_job_id, uint64_t post_serial, int32_t peer,
                                      int32_t peer_world, int32_t tag) {
  mpidbg_flight_entry e{};
  e.state = MPIDBG_FLIGHT_POSTED;
  e.call = call;
  e.direction = static_cast<uint8_t>(direction);
  e.mode = direction == MPIDBG_OPERATION_SEND ? MPIDBG_MODE_STANDARD : MPIDBG_MODE_NONE;
  e.comm_handle = comm_handle;
  e.comm_job_id = comm_job_id;
  e.post_serial = post_serial;
  e.peer = peer;
  e.peer_world = peer_world;
  e.tag = tag;
  return e;
}

mpidbg_object_head make_head(uint64_t handle, uint64_t create_serial, const char* name) {
  mpidbg_object_head h{};
  h.handle = handle;
  h.create_serial = create_serial;
  h.fortran_index = -1;
  std::strncpy(h.name, name, sizeof h.name - 1);
  return h;
}

// ---- monitoring and sampling blocks ---------------------------------------------------

#define PUT(type, name) field(t, addr + offsetof(type, name), r.name)

void ImageBuilder::encode_monitor(FakeTarget* t, uint64_t addr, const mpidbg_monitor& r) {
  PUT(mpidbg_monitor, size);
  PUT(mpidbg_monitor, peer_size);
  PUT(mpidbg_monitor, file_size);
  PUT(mpidbg_monitor, buckets);
  PUT(mpidbg_monitor, world_size);
  PUT(mpidbg_monitor, active);
  PUT(mpidbg_monitor, reset_seq);
  PUT(mpidbg_monitor, file_capacity);
  PUT(mpidbg_monitor, starts);
  PUT(mpidbg_monitor, stops);
  PUT(mpidbg_monitor, resets);
  PUT(mpidbg_monitor, first_start_time_ns);
  PUT(mpidbg_monitor, reset_time_ns);
  PUT(mpidbg_monitor, accumulated_peers);
  PUT(mpidbg_monitor, baseline_peers);
  PUT(mpidbg_monitor, accumulated_files);
  PUT(mpidbg_monitor, baseline_files);
  PUT(mpidbg_monitor, files_dropped);
  for (int k = 0; k < MPIDBG_COLL_KINDS; ++k) {
    const uint64_t at = sizeof(mpidbg_monitor_coll) * static_cast<uint64_t>(k);
    auto coll = [&](size_t offset, const mpidbg_monitor_coll& c) {
      const uint64_t base = addr + offset + at;
      t->put64(base + offsetof(mpidbg_monitor_coll, operations), c.operations);
      t->put64(base + offsetof(mpidbg_monitor_coll, bytes_sent), c.bytes_sent);
      t->put64(base + offsetof(mpidbg_monitor_coll, bytes_received), c.bytes_received);
      t->put64(base + offsetof(mpidbg_monitor_coll, reserved), c.reserved);
    };
    coll(offsetof(mpidbg_monitor, accumulated_coll), r.accumulated_coll[k]);
    coll(offsetof(mpidbg_monitor, baseline_coll), r.baseline_coll[k]);
    coll(offsetof(mpidbg_monitor, mpit_coll), r.mpit_coll[k]);
  }
  PUT(mpidbg_monitor, mpit_state);
  PUT(mpidbg_monitor, mpit_peer_count);
  PUT(mpidbg_monitor, mpit_time_ns);
  PUT(mpidbg_monitor, mpit_peers);
  PUT(mpidbg_monitor, mpit_reason);
  PUT(mpidbg_monitor, output_path);
}

void ImageBuilder::encode_monitor_peer(FakeTarget* t, uint64_t addr, const mpidbg_monitor_peer& r) {
  PUT(mpidbg_monitor_peer, sent_messages);
  PUT(mpidbg_monitor_peer, sent_bytes);
  PUT(mpidbg_monitor_peer, received_messages);
  PUT(mpidbg_monitor_peer, received_bytes);
  PUT(mpidbg_monitor_peer, coll_messages);
  PUT(mpidbg_monitor_peer, coll_bytes);
  PUT(mpidbg_monitor_peer, put_messages);
  PUT(mpidbg_monitor_peer, put_bytes);
  PUT(mpidbg_monitor_peer, get_messages);
  PUT(mpidbg_monitor_peer, get_bytes);
  PUT(mpidbg_monitor_peer, acc_messages);
  PUT(mpidbg_monitor_peer, acc_bytes);
  for (int b = 0; b < MPIDBG_MONITOR_BUCKETS; ++b) {
    t->put64(addr + offsetof(mpidbg_monitor_peer, sent_histogram) + 8 * static_cast<uint64_t>(b),
             r.sent_histogram[b]);
  }
  PUT(mpidbg_monitor_peer, reserved);
}

void ImageBuilder::encode_monitor_file(FakeTarget* t, uint64_t addr, const mpidbg_monitor_file& r) {
  PUT(mpidbg_monitor_file, state);
  PUT(mpidbg_monitor_file, reserved);
  PUT(mpidbg_monitor_file, opens);
  PUT(mpidbg_monitor_file, read_operations);
  PUT(mpidbg_monitor_file, read_bytes);
  PUT(mpidbg_monitor_file, write_operations);
  PUT(mpidbg_monitor_file, write_bytes);
  PUT(mpidbg_monitor_file, name);
}

void ImageBuilder::encode_monitor_mpit_peer(FakeTarget* t, uint64_t addr,
                                            const mpidbg_monitor_mpit_peer& r) {
  PUT(mpidbg_monitor_mpit_peer, pml_messages);
  PUT(mpidbg_monitor_mpit_peer, pml_bytes);
  PUT(mpidbg_monitor_mpit_peer, osc_sent_messages);
  PUT(mpidbg_monitor_mpit_peer, osc_sent_bytes);
  PUT(mpidbg_monitor_mpit_peer, osc_received_messages);
  PUT(mpidbg_monitor_mpit_peer, osc_received_bytes);
  PUT(mpidbg_monitor_mpit_peer, coll_messages);
  PUT(mpidbg_monitor_mpit_peer, coll_bytes);
}

void ImageBuilder::encode_profile(FakeTarget* t, uint64_t addr, const mpidbg_profile& r) {
  PUT(mpidbg_profile, size);
  PUT(mpidbg_profile, site_size);
  PUT(mpidbg_profile, function_size);
  PUT(mpidbg_profile, active);
  PUT(mpidbg_profile, period_ns);
  PUT(mpidbg_profile, signal);
  PUT(mpidbg_profile, clock);
  PUT(mpidbg_profile, start_time_ns);
  PUT(mpidbg_profile, stop_time_ns);
  for (int s = 0; s < 3; ++s) {
    t->put64(addr + offsetof(mpidbg_profile, samples) + 8 * static_cast<uint64_t>(s), r.samples[s]);
  }
  PUT(mpidbg_profile, lost);
  PUT(mpidbg_profile, threads);
  PUT(mpidbg_profile, functions);
  PUT(mpidbg_profile, function_count);
  PUT(mpidbg_profile, site_capacity);
  PUT(mpidbg_profile, sites);
  PUT(mpidbg_profile, site_count);
}

void ImageBuilder::encode_profile_site(FakeTarget* t, uint64_t addr, const mpidbg_profile_site& r) {
  PUT(mpidbg_profile_site, state);
  PUT(mpidbg_profile_site, call);
  PUT(mpidbg_profile_site, address);
  PUT(mpidbg_profile_site, working);
  PUT(mpidbg_profile_site, blocked);
}

#undef PUT

uint64_t ImageBuilder::add_monitor(const MonitorImage& m) {
  FakeTarget* t = target_;
  mpidbg_monitor h = m.header;
  if (h.size == 0) h.size = sizeof(mpidbg_monitor);
  if (h.peer_size == 0) h.peer_size = sizeof(mpidbg_monitor_peer);
  if (h.file_size == 0) h.file_size = sizeof(mpidbg_monitor_file);
  if (h.buckets == 0) h.buckets = MPIDBG_MONITOR_BUCKETS;
  if (h.world_size == 0) h.world_size = static_cast<int32_t>(m.accumulated.size());
  if (h.file_capacity == 0) h.file_capacity = static_cast<uint32_t>(m.accumulated_files.size());
  if (h.mpit_peer_count == 0) h.mpit_peer_count = static_cast<int32_t>(m.mpit_peers.size());
  // Arrays of the element size the header claims (a test may claim a larger one).
  auto peers = [&](const std::vector<mpidbg_monitor_peer>& v) {
    const size_t n = m.accumulated.size();
    const uint64_t at = alloc(n == 0 ? 8 : n * h.peer_size);
    for (size_t i = 0; i < v.size() && i < n; ++i) {
      encode_monitor_peer(t, at + i * h.peer_size, v[i]);
    }
    return at;
  };
  h.accumulated_peers = peers(m.accumulated);
  h.baseline_peers = peers(m.baseline);
  auto files = [&](const std::vector<mpidbg_monitor_file>& v) {
    const size_t n = m.accumulated_files.size();
    const uint64_t at = alloc(n == 0 ? 8 : n * h.file_size);
    for (size_t i = 0; i < v.size() && i < n; ++i) {
      encode_monitor_file(t, at + i * h.file_size, v[i]);
    }
    return at;
  };
  h.accumulated_files = files(m.accumulated_files);
  h.baseline_files = files(m.baseline_files);
  const size_t mp = m.mpit_peers.size();
  h.mpit_peers = alloc(mp == 0 ? 8 : mp * sizeof(mpidbg_monitor_mpit_peer));
  for (size_t i = 0; i < mp; ++i) {
    encode_monitor_mpit_peer(t, h.mpit_peers + i * sizeof(mpidbg_monitor_mpit_peer),
                             m.mpit_peers[i]);
  }
  // The block as large as it claims to be (at least the whole structure is encoded).
  const uint64_t addr = alloc(h.size > sizeof h ? h.size : sizeof h);
  encode_monitor(t, addr, h);
  root.monitor = addr;
  return addr;
}

uint64_t ImageBuilder::add_profile(const ProfileImage& p) {
  FakeTarget* t = target_;
  mpidbg_profile h = p.header;
  if (h.size == 0) h.size = sizeof(mpidbg_profile);
  if (h.site_size == 0) h.site_size = sizeof(mpidbg_profile_site);
  if (h.function_size == 0) h.function_size = sizeof(mpidbg_profile_function);
  if (h.function_count == 0) h.function_count = static_cast<uint32_t>(p.functions.size());
  if (h.site_capacity == 0) h.site_capacity = static_cast<uint32_t>(p.sites.size());
  const size_t nf = p.functions.size();
  h.functions = alloc(nf == 0 ? 8 : nf * h.function_size);
  for (size_t i = 0; i < nf; ++i) {
    t->put64(h.functions + i * h.function_size + offsetof(mpidbg_profile_function, working),
             p.functions[i].working);
    t->put64(h.functions + i * h.function_size + offsetof(mpidbg_profile_function, blocked),
             p.functions[i].blocked);
  }
  const size_t ns = p.sites.size();
  h.sites = alloc(ns == 0 ? 8 : ns * h.site_size);
  uint64_t ready = 0;
  for (size_t i = 0; i < ns; ++i) {
    encode_profile_site(t, h.sites + i * h.site_size, p.sites[i]);
    if (p.sites[i].state == MPIDBG_PROFILE_SITE_READY) ++ready;
  }
  if (h.site_count == 0) h.site_count = ready;
  const uint64_t addr = alloc(h.size > sizeof h ? h.size : sizeof h);
  encode_profile(t, addr, h);
  root.profile = addr;
  return addr;
}

}  // namespace mpidbg::test
