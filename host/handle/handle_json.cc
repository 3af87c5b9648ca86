// handle_json.cc — one JSON object per handle query result.
//
// Every object starts with the keys all kinds share (kind, handle, fortran_handle, name,
// predefined, freed, freed_object, null); the rest is the kind's own. Arrays come
// from the DLL with their counts; a NULL array is empty whatever its count says.
#include "host/handle/handle_json.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "host/util/fixed_string.h"
#include "host/util/hex_string.h"
#include "host/util/record_names.h"
#include "mpidbg/records.h"

namespace mpidbg::host {
namespace {

using nlohmann::json;

template <typename T>
json Array(const T* items, int count) {
  json out = json::array();
  if (items == nullptr) return out;
  for (int i = 0; i < count; ++i) out.push_back(items[i]);
  return out;
}

json HexArray(const mqs_taddr_t* items, int count) {
  json out = json::array();
  if (items == nullptr) return out;
  for (int i = 0; i < count; ++i) out.push_back(HexString(items[i]));
  return out;
}

json Hex(uint64_t v) { return HexString(v); }
json HexOrNull(uint64_t v) { return v == 0 ? json(nullptr) : json(HexString(v)); }
json NameOrNull(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }
// The interface marks an unknown Fortran handle with MPIDBG_ERR_UNAVAILABLE; MPICH's
// Fortran handles are its C handles and often negative.
json FortranOrNull(int f) { return f == MPIDBG_ERR_UNAVAILABLE ? json(nullptr) : json(f); }
json CommIdOrNull(uint64_t id) { return id == 0 ? json(nullptr) : json(CommIdString(id)); }

json Common(const char* kind, uint64_t handle, int fortran, const std::string& name,
            unsigned int bits) {
  return json{{"kind", kind},
              {"handle", Hex(handle)},
              {"fortran_handle", FortranOrNull(fortran)},
              {"name", NameOrNull(name)},
              {"predefined", (bits & MPIDBG_HANDLE_PREDEFINED) != 0},
              {"freed", (bits & MPIDBG_HANDLE_FREED_HANDLE) != 0},
              {"freed_object", (bits & MPIDBG_HANDLE_FREED_OBJECT) != 0},
              {"null", (bits & MPIDBG_HANDLE_NULL) != 0}};
}

template <size_t N>
json CallName(const char (&text)[N]) {
  std::string s = FixedString(text);
  return s.empty() ? json(nullptr) : json(s);
}

json RankJson(int value) {
  switch (value) {
    case MPIDBG_RANK_ANY_SOURCE:
      return "ANY_SOURCE";
    case MPIDBG_RANK_PROC_NULL:
      return "PROC_NULL";
    case MPIDBG_RANK_UNKNOWN:
      return nullptr;
    default:
      return value;
  }
}

json TagJson(int value) { return value == MPIDBG_TAG_ANY ? json("ANY_TAG") : json(value); }

json ProcsJson(const mpidbg_process_t* procs, int count) {
  json out = json::array();
  if (procs == nullptr) return out;
  for (int i = 0; i < count; ++i) out.push_back(procs[i].mpi_comm_world_rank);
  return out;
}

const char* DirectionName(int d) {
  switch (d) {
    case MPIDBG_OPERATION_SEND:
      return "send";
    case MPIDBG_OPERATION_RECV:
      return "receive";
    case MPIDBG_OPERATION_PROBE:
      return "probe";
    case MPIDBG_OPERATION_COLLECTIVE:
      return "collective";
    case MPIDBG_OPERATION_RMA:
      return "rma";
    case MPIDBG_OPERATION_FILE:
      return "file";
    case MPIDBG_OPERATION_GENERALIZED:
      return "generalized";
    default:
      return nullptr;
  }
}

json ModeJson(int mode) {
  const char* name = SendModeName(mode);
  return name != nullptr ? json(name) : json(nullptr);
}

const char* RequestKindName(int k) {
  switch (k) {
    case MPIDBG_REQUEST_KIND_POINT_TO_POINT:
      return "point_to_point";
    case MPIDBG_REQUEST_KIND_COLLECTIVE:
      return "collective";
    case MPIDBG_REQUEST_KIND_RMA:
      return "rma";
    case MPIDBG_REQUEST_KIND_FILE:
      return "file";
    case MPIDBG_REQUEST_KIND_GENERALIZED:
      return "generalized";
    default:
      return "unknown";
  }
}

json EpochJson(int e) {
  static const char* const kNames[] = {"none", "fence", "lock", "lock_all", "start", "post"};
  return e >= 0 && e < 6 ? json(kNames[e]) : json(nullptr);
}

json FlavorJson(int f) {
  static const char* const kNames[] = {nullptr, "create", "allocate", "shared", "dynamic"};
  return f >= 1 && f < 5 ? json(kNames[f]) : json(nullptr);
}

json LocksJson(const int* locks, int count) {
  static const char* const kNames[] = {"none", "shared", "exclusive"};
  json out = json::array();
  if (locks == nullptr) return out;
  for (int i = 0; i < count; ++i) {
    out.push_back(locks[i] >= 0 && locks[i] < 3 ? json(kNames[locks[i]]) : json(locks[i]));
  }
  return out;
}

// The typed view of MPI_Type_get_contents' three arrays, every access bounded.
class Contents {
 public:
  Contents(const mpidbg_datatype_info_t& d, const HandleNamer& name_of)
      : d_(d), name_of_(name_of) {}
  bool ok() const { return ok_; }
  int Int(int i) {
    if (d_.dt_integers == nullptr || i < 0 || i >= d_.dt_num_integers) return Fail();
    return d_.dt_integers[i];
  }
  json Ints(int from, int n) {
    json out = json::array();
    for (int i = 0; i < n && ok_; ++i) out.push_back(Int(from + i));
    return out;
  }
  json Addrs(int from, int n) {
    json out = json::array();
    for (int i = 0; i < n; ++i) {
      int k = from + i;
      if (d_.dt_addresses == nullptr || k < 0 || k >= d_.dt_num_addresses) return Fail(), out;
      out.push_back(d_.dt_addresses[k]);
    }
    return out;
  }
  json Addr(int i) {
    json a = Addrs(i, 1);
    return a.empty() ? json(nullptr) : a[0];
  }
  json Type(int i) {
    if (d_.dt_datatypes == nullptr || i < 0 || i >= d_.dt_num_datatypes) return Fail(), nullptr;
    uint64_t h = d_.dt_datatypes[i];
    json name = name_of_(MPIDBG_HANDLE_DATATYPE, h);
    return name.is_string() ? name : json(HexString(h));
  }
  json Types(int n) {
    json out = json::array();
    for (int i = 0; i < n; ++i) out.push_back(Type(i));
    return out;
  }
  // A count read back from the DLL sizes nothing by itself: it must fit the arrays.
  int Count(int i, int limit) {
    int n = Int(i);
    if (n < 0 || n > limit) return Fail();
    return n;
  }

 private:
  int Fail() {
    ok_ = false;
    return 0;
  }
  const mpidbg_datatype_info_t& d_;
  const HandleNamer& name_of_;
  bool ok_ = true;
};

json Arguments(const mpidbg_datatype_info_t& d, Contents& c) {
  const int ni = d.dt_num_integers;
  json a = json::object();
  switch (d.dt_combiner) {
    case MPIDBG_COMBINER_DUP:
      a["oldtype"] = c.Type(0);
      break;
    case MPIDBG_COMBINER_CONTIGUOUS:
      a["count"] = c.Int(0);
      a["oldtype"] = c.Type(0);
      break;
    case MPIDBG_COMBINER_VECTOR:
      a["count"] = c.Int(0);
      a["blocklength"] = c.Int(1);
      a["stride"] = c.Int(2);
      a["oldtype"] = c.Type(0);
      break;
    case MPIDBG_COMBINER_HVECTOR:
      a["count"] = c.Int(0);
      a["blocklength"] = c.Int(1);
      a["stride_bytes"] = c.Addr(0);
      a["oldtype"] = c.Type(0);
      break;
    case MPIDBG_COMBINER_INDEXED: {
      int n = c.Count(0, ni);
      a["count"] = n;
      a["blocklengths"] = c.Ints(1, n);
      a["displacements"] = c.Ints(1 + n, n);
      a["oldtype"] = c.Type(0);
      break;
    }
    case MPIDBG_COMBINER_HINDEXED: {
      int n = c.Count(0, ni);
      a["count"] = n;
      a["blocklengths"] = c.Ints(1, n);
      a["displacements_bytes"] = c.Addrs(0, n);
      a["oldtype"] = c.Type(0);
      break;
    }
    case MPIDBG_COMBINER_INDEXED_BLOCK: {
      int n = c.Count(0, ni);
      a["count"] = n;
      a["blocklength"] = c.Int(1);
      a["displacements"] = c.Ints(2, n);
      a["oldtype"] = c.Type(0);
      break;
    }
    case MPIDBG_COMBINER_HINDEXED_BLOCK: {
      int n = c.Count(0, ni);
      a["count"] = n;
      a["blocklength"] = c.Int(1);
      a["displacements_bytes"] = c.Addrs(0, n);
      a["oldtype"] = c.Type(0);
      break;
    }
    case MPIDBG_COMBINER_STRUCT: {
      int n = c.Count(0, ni);
      a["count"] = n;
      a["blocklengths"] = c.Ints(1, n);
      a["displacements_bytes"] = c.Addrs(0, n);
      a["types"] = c.Types(n);
      break;
    }
    case MPIDBG_COMBINER_SUBARRAY: {
      int n = c.Count(0, ni);
      a["ndims"] = n;
      a["sizes"] = c.Ints(1, n);
      a["subsizes"] = c.Ints(1 + n, n);
      a["starts"] = c.Ints(1 + 2 * n, n);
      a["order"] = c.Int(1 + 3 * n);
      a["oldtype"] = c.Type(0);
      break;
    }
    case MPIDBG_COMBINER_DARRAY: {
      a["size"] = c.Int(0);
      a["rank"] = c.Int(1);
      int n = c.Count(2, ni);
      a["ndims"] = n;
      a["gsizes"] = c.Ints(3, n);
      a["distribs"] = c.Ints(3 + n, n);
      a["dargs"] = c.Ints(3 + 2 * n, n);
      a["psizes"] = c.Ints(3 + 3 * n, n);
      a["order"] = c.Int(3 + 4 * n);
      a["oldtype"] = c.Type(0);
      break;
    }
    case MPIDBG_COMBINER_F90_REAL:
    case MPIDBG_COMBINER_F90_COMPLEX:
      a["p"] = c.Int(0);
      a["r"] = c.Int(1);
      break;
    case MPIDBG_COMBINER_F90_INTEGER:
      a["r"] = c.Int(0);
      break;
    case MPIDBG_COMBINER_RESIZED:
      a["lb"] = c.Addr(0);
      a["extent"] = c.Addr(1);
      a["oldtype"] = c.Type(0);
      break;
    default:
      break;
  }
  return a;
}

}  // namespace

const char* CombinerName(int combiner) {
  static const char* const kNames[] = {
      "unknown", "named",    "dup",           "contiguous",     "vector", "hvector",
      "indexed", "hindexed", "indexed_block", "hindexed_block", "struct", "subarray",
      "darray",  "f90_real", "f90_complex",   "f90_integer",    "resized"};
  if (combiner < 0 || combiner >= static_cast<int>(sizeof kNames / sizeof kNames[0])) {
    return "unknown";
  }
  return kNames[combiner];
}

json DatatypeArguments(const mpidbg_datatype_info_t& d, const HandleNamer& name_of) {
  Contents c(d, name_of);
  json a = Arguments(d, c);
  // Arrays that do not fit the combiner: show nothing rather than a wrong reading.
  return c.ok() ? a : json(nullptr);
}

json RemoteJobToJson(const mpidbg_comm_remote_job_t& r) {
  char id[sizeof r.job_id + 1];
  std::memcpy(id, r.job_id, sizeof r.job_id);
  id[sizeof r.job_id] = '\0';  // the DLL's string, bounded whatever it wrote
  return json{{"job_id", std::string(id)},
              {"world_ranks", ProcsJson(r.world_ranks, r.num_procs)}};
}

json CommToJson(const mpidbg_comm_info_t& c, const mpidbg_comm_ext_info_t* extended,
                const HandleNamer& name_of) {
  unsigned int bits = static_cast<unsigned int>(c.comm_bitflags);
  json j = Common("comm", c.comm_c_handle, c.comm_fortran_handle, FixedString(c.comm_name),
                  bits & (MPIDBG_HANDLE_PREDEFINED | MPIDBG_HANDLE_FREED_HANDLE |
                          MPIDBG_HANDLE_FREED_OBJECT | MPIDBG_HANDLE_NULL));
  bool inter = (bits & MPIDBG_COMM_INFO_INTERCOMM) != 0;
  j["intercomm"] = inter;
  j["rank"] = c.comm_rank;
  j["size"] = c.comm_size;
  j["world_ranks"] = ProcsJson(c.comm_local_procs, c.comm_num_local_procs);
  j["remote_world_ranks"] =
      inter ? ProcsJson(c.comm_remote_procs, c.comm_num_remote_procs) : json(nullptr);
  json topo = nullptr;
  if (bits & MPIDBG_COMM_INFO_CARTESIAN) {
    topo = "cart";
    json periods = json::array();
    if (c.comm_cart_periods != nullptr) {
      for (int i = 0; i < c.comm_cart_num_dims; ++i) periods.push_back(c.comm_cart_periods[i] != 0);
    }
    j["cart"] = {{"dims", Array(c.comm_cart_dims, c.comm_cart_num_dims)}, {"periods", periods}};
  } else if (bits & MPIDBG_COMM_INFO_GRAPH) {
    topo = "graph";
    int nedges = 0;
    if (c.comm_graph_index != nullptr && c.comm_graph_num_nodes > 0) {
      nedges = c.comm_graph_index[c.comm_graph_num_nodes - 1];
    }
    j["graph"] = {{"index", Array(c.comm_graph_index, c.comm_graph_num_nodes)},
                  {"edges", Array(c.comm_graph_edges, std::max(nedges, 0))}};
  } else if (bits & MPIDBG_COMM_INFO_DIST_GRAPH) {
    topo = "dist_graph";
  }
  j["topology"] = topo;
  j["topology_reordered"] = (bits & MPIDBG_COMM_INFO_TOPO_REORDERED) != 0;
  json attrs = json::array();
  if (c.comm_attrs != nullptr) {
    for (int i = 0; i < c.comm_num_attrs; ++i) {
      const mpidbg_attribute_pair_t& a = c.comm_attrs[i];
      attrs.push_back({{"keyval", a.keyval},
                       {"keyval_name", a.keyval_name ? json(a.keyval_name) : json(nullptr)},
                       {"value", a.value ? json(a.value) : json(nullptr)}});
    }
  }
  j["attributes"] = attrs;
  j["pending_requests"] = HexArray(c.comm_pending_requests, c.comm_num_pending_requests);
  j["windows"] = HexArray(c.comm_derived_windows, c.comm_num_derived_windows);
  j["files"] = HexArray(c.comm_derived_files, c.comm_num_derived_files);
  if (extended == nullptr) return j;
  j["id"] = CommIdOrNull(extended->job_id);
  j["parent_id"] = CommIdOrNull(extended->parent_job_id);
  j["creator"] = CallName(extended->creator_name);
  bool split = FixedString(extended->creator_name).rfind("MPI_Comm_split", 0) == 0;
  j["split_color"] = split ? json(extended->split_color) : json(nullptr);
  j["split_key"] = split ? json(extended->split_key) : json(nullptr);
  j["errhandler"] = HexOrNull(extended->errhandler);
  j["errhandler_name"] = extended->errhandler
                              ? name_of(MPIDBG_HANDLE_ERRHANDLER, extended->errhandler)
                              : json(nullptr);
  j["info"] = HexOrNull(extended->info);
  if (bits & MPIDBG_COMM_INFO_DIST_GRAPH) {
    j["dist_graph"] = {{"sources", Array(extended->dist_sources, extended->dist_num_sources)},
                       {"destinations",
                        Array(extended->dist_destinations, extended->dist_num_destinations)},
                       {"weighted", extended->dist_weighted != 0}};
  }
  j["create_time_ns"] = extended->create_time_ns;
  j["create_serial"] = extended->create_serial;
  j["free_serial"] = extended->free_serial == 0 ? json(nullptr) : json(extended->free_serial);
  return j;
}

json RequestToJson(const mpidbg_request_info_t& r, const mpidbg_request_ext_info_t* extended,
                   const HandleNamer& name_of) {
  unsigned int bits = extended != nullptr
                          ? extended->req_ext_bitflags
                          : static_cast<unsigned int>(r.req_bitflags) & MPIDBG_HANDLE_PREDEFINED;
  json j = Common("request", r.req_c_handle, r.req_fortran_handle, "", bits);
  if (extended == nullptr) return j;
  const mpidbg_request_ext_info_t& e = *extended;
  j["request_kind"] = RequestKindName(e.req_kind);
  j["creator"] = CallName(e.req_creator_name);
  const char* dir = DirectionName(e.req_direction);
  j["direction"] = dir != nullptr ? json(dir) : json(nullptr);
  j["persistent"] = (bits & MPIDBG_REQUEST_PERSISTENT) != 0;
  j["status"] = (bits & MPIDBG_REQUEST_INACTIVE)   ? "inactive"
                : (bits & MPIDBG_REQUEST_COMPLETE) ? "complete"
                : (bits & MPIDBG_REQUEST_MATCHED)  ? "matched"
                                                   : "pending";
  j["mode"] = ModeJson(e.req_mode);
  j["peer"] = RankJson(e.req_peer);
  j["peer_world"] = RankJson(e.req_peer_world);
  j["tag"] = TagJson(e.req_tag);
  bool done = (bits & (MPIDBG_REQUEST_MATCHED | MPIDBG_REQUEST_COMPLETE)) != 0;
  j["actual_source"] = done ? RankJson(e.req_actual_source) : json(nullptr);
  j["actual_tag"] = done ? TagJson(e.req_actual_tag) : json(nullptr);
  j["actual_bytes"] = done ? json(e.req_actual_bytes) : json(nullptr);
  j["count"] = e.req_count;
  j["bytes"] = e.req_bytes;
  j["buffer"] = Hex(e.req_buffer);
  j["datatype"] = HexOrNull(e.req_datatype);
  j["datatype_name"] = CallName(e.req_datatype_name);
  j["comm"] = HexOrNull(e.req_comm);
  j["comm_id"] = CommIdOrNull(e.req_comm_job_id);
  j["comm_name"] = CallName(e.req_comm_name);
  j["object"] = HexOrNull(e.req_object);
  j["file_offset"] = e.req_file_offset < 0 ? json(nullptr) : json(e.req_file_offset);
  j["target_disp"] =
      e.req_kind == MPIDBG_REQUEST_KIND_RMA ? json(e.req_target_disp) : json(nullptr);
  j["extra_state"] = HexOrNull(e.req_extra_state);
  j["query_fn"] = HexOrNull(e.req_query_fn);
  j["tid"] = e.req_tid == 0 ? json(nullptr) : json(e.req_tid);
  j["post_time_ns"] = e.req_post_time_ns;
  j["post_serial"] = e.req_post_serial;
  (void)name_of;
  return j;
}

json StatusToJson(uint64_t status_address, const mpidbg_status_info_t& s,
                  const mpidbg_status_ext_info_t* extended) {
  json j = {{"kind", "status"},
            {"address", Hex(status_address)},
            {"predefined", (s.status_bitflags & MPIDBG_STATUS_INFO_PREDEFINED) != 0}};
  if (extended == nullptr) return j;
  j["source"] = extended->status_source;
  j["tag"] = extended->status_tag;
  j["error"] = extended->status_error;
  j["cancelled"] =
      extended->status_cancelled < 0 ? json(nullptr) : json(extended->status_cancelled != 0);
  j["bytes"] = extended->status_bytes < 0 ? json(nullptr) : json(extended->status_bytes);
  return j;
}

json DatatypeToJson(const mpidbg_datatype_info_t& d, const HandleNamer& name_of) {
  json j =
      Common("datatype", d.dt_c_handle, d.dt_fortran_handle, FixedString(d.dt_name), d.dt_bitflags);
  j["combiner"] = CombinerName(d.dt_combiner);
  j["creator"] = CallName(d.dt_creator_name);
  j["committed"] = (d.dt_bitflags & MPIDBG_DATATYPE_COMMITTED) != 0;
  j["size"] = d.dt_size;
  j["lb"] = d.dt_lb;
  j["extent"] = d.dt_extent;
  j["true_lb"] = d.dt_true_lb;
  j["true_extent"] = d.dt_true_extent;
  j["holes"] = (d.dt_bitflags & MPIDBG_DATATYPE_HOLES) != 0;
  j["integers"] = Array(d.dt_integers, d.dt_num_integers);
  j["addresses"] = Array(d.dt_addresses, d.dt_num_addresses);
  j["datatypes"] = HexArray(d.dt_datatypes, d.dt_num_datatypes);
  j["arguments"] = DatatypeArguments(d, name_of);
  json map = json::array();
  if (d.dt_map != nullptr) {
    for (int i = 0; i < d.dt_map_length; ++i) {
      const mpidbg_type_map_entry_t& e = d.dt_map[i];
      std::string name = FixedString(e.basic_name);
      map.push_back({{"type", NameOrNull(name)},
                     {"basic_type", Hex(e.basic_type)},
                     {"displacement", e.displacement},
                     {"count", e.count},
                     {"elem_size", e.elem_size}});
    }
  }
  j["type_map"] = map;
  j["map_elements"] = d.dt_map_elements;
  j["map_truncated"] = (d.dt_bitflags & MPIDBG_DATATYPE_MAP_TRUNCATED) != 0;
  j["map_incomplete"] = (d.dt_bitflags & MPIDBG_DATATYPE_MAP_INCOMPLETE) != 0;
  return j;
}

json GroupToJson(const mpidbg_group_info_t& g, const HandleNamer& name_of) {
  json j = Common("group", g.group_c_handle, g.group_fortran_handle, FixedString(g.group_name),
                  g.group_bitflags);
  j["rank"] = g.group_rank < 0 ? json(nullptr) : json(g.group_rank);
  j["size"] = g.group_size;
  j["world_ranks"] = ProcsJson(g.group_procs, g.group_size);
  j["creator"] = CallName(g.group_creator_name);
  j["source"] = HexOrNull(g.group_source);
  j["source2"] = HexOrNull(g.group_source2);
  j["args"] = Array(g.group_args, g.group_num_args);
  (void)name_of;
  return j;
}

json OpToJson(const mpidbg_op_info_t& o) {
  json j = Common("op", o.op_c_handle, o.op_fortran_handle, FixedString(o.op_name), o.op_bitflags);
  j["commutative"] = (o.op_bitflags & MPIDBG_OP_INFO_COMMUTATIVE) != 0;
  j["callback"] = HexOrNull(o.op_callback_func);
  return j;
}

json ErrhandlerToJson(const mpidbg_errhandler_info_t& e) {
  unsigned int bits = static_cast<unsigned int>(e.eh_bitflags);
  json j = Common(
      "errhandler", e.eh_c_handle, e.eh_fortran_handle, FixedString(e.eh_name),
      bits & (MPIDBG_HANDLE_PREDEFINED | MPIDBG_HANDLE_FREED_HANDLE | MPIDBG_HANDLE_FREED_OBJECT));
  json targets = json::array();
  if (bits & MPIDBG_ERRH_INFO_COMMUNICATOR) targets.push_back("comm");
  if (bits & MPIDBG_ERRH_INFO_WINDOW) targets.push_back("win");
  if (bits & MPIDBG_ERRH_INFO_FILE) targets.push_back("file");
  j["applies_to"] = targets;
  j["refcount"] = e.eh_refcount;
  j["callback"] = HexOrNull(e.eh_callback_func);
  return j;
}

json InfoToJson(const mpidbg_info_info_t& i) {
  json j = Common("info", i.info_c_handle, i.info_fortran_handle, "", i.info_bitflags);
  json pairs = json::array();
  if (i.info_pairs != nullptr) {
    for (int k = 0; k < i.info_num_pairs; ++k) {
      const mpidbg_info_pair_t& p = i.info_pairs[k];
      pairs.push_back({{"key", p.key ? json(p.key) : json(nullptr)},
                       {"value", p.value ? json(p.value) : json(nullptr)}});
    }
  }
  j["pairs"] = pairs;
  return j;
}

json WinToJson(const mpidbg_win_info_t& w, const HandleNamer& name_of) {
  json j =
      Common("win", w.win_c_handle, w.win_fortran_handle, FixedString(w.win_name), w.win_bitflags);
  j["flavor"] = FlavorJson(w.win_flavor);
  j["comm"] = HexOrNull(w.win_comm);
  j["comm_id"] = CommIdOrNull(w.win_comm_job_id);
  j["comm_name"] = w.win_comm ? name_of(MPIDBG_HANDLE_COMM, w.win_comm) : json(nullptr);
  j["comm_size"] = w.win_comm_size;
  j["base"] = Hex(w.win_base);
  j["size"] = w.win_size;
  j["disp_unit"] = w.win_disp_unit;
  j["access_epoch"] = EpochJson(w.win_access_epoch);
  j["exposure_epoch"] = EpochJson(w.win_exposure_epoch);
  j["fence_count"] = w.win_fence_count;
  j["rma_count"] = w.win_rma_count;
  j["errhandler"] = HexOrNull(w.win_errhandler);
  j["info"] = HexOrNull(w.win_info);
  j["target_locks"] = LocksJson(w.win_target_locks, w.win_num_target_locks);
  j["access_group"] = Array(w.win_access_group, w.win_num_access_group);
  j["exposure_group"] = Array(w.win_exposure_group, w.win_num_exposure_group);
  json regions = json::array();
  if (w.win_regions != nullptr) {
    for (int i = 0; i < w.win_num_regions; ++i) {
      regions.push_back({{"base", Hex(w.win_regions[i].base)}, {"size", w.win_regions[i].size}});
    }
  }
  j["regions"] = regions;
  j["pending_requests"] = HexArray(w.win_pending_requests, w.win_num_pending_requests);
  return j;
}

json FileToJson(const mpidbg_file_info_t& f, const HandleNamer& name_of) {
  json j = Common("file", f.file_c_handle, f.file_fortran_handle, "", f.file_bitflags);
  j["filename"] = NameOrNull(FixedString(f.file_name));
  j["comm"] = HexOrNull(f.file_comm);
  j["comm_id"] = CommIdOrNull(f.file_comm_job_id);
  j["comm_name"] = f.file_comm ? name_of(MPIDBG_HANDLE_COMM, f.file_comm) : json(nullptr);
  j["amode"] = f.file_amode;
  j["view_disp"] = f.file_view_disp;
  j["etype"] = HexOrNull(f.file_etype);
  j["etype_name"] = f.file_etype ? name_of(MPIDBG_HANDLE_DATATYPE, f.file_etype) : json(nullptr);
  j["filetype"] = HexOrNull(f.file_filetype);
  j["filetype_name"] =
      f.file_filetype ? name_of(MPIDBG_HANDLE_DATATYPE, f.file_filetype) : json(nullptr);
  j["datarep"] = NameOrNull(FixedString(f.file_datarep));
  j["info"] = HexOrNull(f.file_info);
  j["errhandler"] = HexOrNull(f.file_errhandler);
  j["pending_requests"] = HexArray(f.file_pending_requests, f.file_num_pending_requests);
  return j;
}

json MessageToJson(const mpidbg_message_info_t& m, const HandleNamer& name_of) {
  json j = Common("message", m.msg_c_handle, m.msg_fortran_handle, "", m.msg_bitflags);
  j["no_proc"] = (m.msg_bitflags & MPIDBG_MESSAGE_INFO_NO_PROC) != 0;
  j["received"] = (m.msg_bitflags & MPIDBG_MESSAGE_INFO_RECEIVED) != 0;
  j["comm"] = HexOrNull(m.msg_comm);
  j["comm_id"] = CommIdOrNull(m.msg_comm_job_id);
  j["comm_name"] = m.msg_comm ? name_of(MPIDBG_HANDLE_COMM, m.msg_comm) : json(nullptr);
  j["source"] = RankJson(m.msg_source);
  j["source_world"] = RankJson(m.msg_source_world);
  j["tag"] = TagJson(m.msg_tag);
  j["bytes"] = m.msg_bytes;
  j["creator"] = CallName(m.msg_creator_name);
  return j;
}

// The query as resolved: the value as the program holds it (a Fortran handle as the
// INTEGER it is), and where it came from.
json HandleDocument(const HandleReading& r) {
  json query = {{"kind", r.kind},
                {"value", r.fortran ? json(static_cast<int32_t>(static_cast<uint32_t>(r.value)))
                                    : json(HexString(r.value))},
                {"expr", r.expr.empty() ? json(nullptr) : json(r.expr)},
                {"fortran", r.fortran}};
  if (r.address) {
    query["address"] = HexString(*r.address);
    query["type"] = r.type_name.empty() ? json(nullptr) : json(r.type_name);
  }
  if (r.c_value) query["c_value"] = HexString(*r.c_value);
  json process = {{"pid", r.pid},
                  {"rank", r.world_rank >= 0 ? json(r.world_rank) : json(nullptr)},
                  {"source", r.source},
                  {"plugin", r.plugin}};
  return json{{"schema", kHandleSchema},
              {"process", process},
              {"query", query},
              {"handle", r.handle}};
}

}  // namespace mpidbg::host
