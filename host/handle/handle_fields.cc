// handle_fields.cc — the handle object as named children.
#include "host/handle/handle_fields.h"

#include <set>
#include <vector>

namespace mpidbg::host {
namespace {

using nlohmann::json;

// The keys shown per kind: what the summary line says and what a reader looks for next,
// in that order; the whole object stays in the JSON and in `mpi handle`'s text. Keys a
// result lacks (an older DLL, a version 1 query) are skipped.
struct KindKeys {
  const char* kind;
  std::vector<const char*> keys;
};

const KindKeys kKindKeys[] = {
    {"comm",
     {"name", "size", "rank", "world_ranks", "intercomm", "remote_world_ranks", "remote_job",
      "topology", "cart", "graph", "dist_graph", "id", "split_color", "split_key",
      "errhandler_name", "pending_requests"}},
    {"request",
     {"status", "direction", "mode", "peer", "peer_world", "tag", "count", "datatype_name",
      "bytes", "comm_name", "buffer", "actual_source", "actual_tag", "actual_bytes",
      "persistent", "request_kind"}},
    {"status", {"source", "tag", "error", "bytes", "cancelled", "address"}},
    {"datatype",
     {"name", "combiner", "size", "extent", "lb", "committed", "arguments", "type_map",
      "map_elements", "map_truncated"}},
    {"group", {"name", "size", "rank", "world_ranks", "source"}},
    {"op", {"name", "commutative", "callback"}},
    {"errhandler", {"applies_to", "callback", "refcount"}},
    {"info", {}},  // its pairs, by key (HandleFields)
    {"win",
     {"name", "flavor", "size", "base", "disp_unit", "comm_name", "comm_size", "access_epoch",
      "exposure_epoch", "pending_requests"}},
    {"file",
     {"name", "filename", "amode", "comm_name", "etype_name", "filetype_name", "view_disp",
      "pending_requests"}},
    {"message", {"bytes", "source", "source_world", "tag", "comm_name", "received"}},
};

// Every kind ends with where the object came from and whether it is still the
// application's.
const char* const kTail[] = {"creator", "predefined", "freed", "freed_object"};

// One scalar as a child value; null when it is not a scalar a view shows.
json Scalar(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_number() || v.is_string()) return v;
  return nullptr;
}

// "k=v, k=v" of an object's known scalars (an array element with no form of its own).
std::string Compact(const json& object) {
  std::string out;
  for (auto it = object.begin(); it != object.end(); ++it) {
    json s = Scalar(it.value());
    if (s.is_null()) continue;
    out += (out.empty() ? "" : ", ") + it.key() + "=" +
           (s.is_string() ? s.get<std::string>() : s.dump());
  }
  return out;
}

// A type map run: "MPI_INT x2 @16" (its type name, else the basic type's handle).
std::string MapRun(const json& run) {
  std::string type = run.value("type", json()).is_string() ? run["type"].get<std::string>()
                     : run.value("basic_type", json()).is_string()
                         ? run["basic_type"].get<std::string>()
                         : std::string("?");
  std::string count = run.contains("count") ? run["count"].dump() : "?";
  std::string disp = run.contains("displacement") ? run["displacement"].dump() : "?";
  return type + " x" + count + " @" + disp;
}

// An array as one child value: integers stay an integer array, anything else becomes
// an array of strings; an empty array reads "none".
json ArrayValue(const std::string& key, const json& a) {
  if (a.empty()) return "none";
  bool integers = true;
  for (const json& v : a) integers = integers && (v.is_number_integer() || v.is_boolean());
  if (integers) {
    json out = json::array();
    for (const json& v : a) out.push_back(Scalar(v));
    return out;
  }
  json out = json::array();
  for (const json& v : a) {
    if (v.is_object()) {
      out.push_back(key == "type_map" ? MapRun(v) : Compact(v));
    } else if (v.is_string()) {
      out.push_back(v);
    } else {
      out.push_back(v.dump());
    }
  }
  return out;
}

// Keys holding an address in the target (hex strings in the document): marked, so a
// debugger shows them as pointers, with the symbol they point into.
bool IsAddress(const std::string& key) {
  return key == "buffer" || key == "base" || key == "callback" || key == "address";
}

void Add(const std::string& name, const json& v, std::vector<HandleField>* out) {
  if (v.is_null()) return;
  if (v.is_string() && IsAddress(name)) {
    out->push_back({name, json{{"address", v}}});
    return;
  }
  if (v.is_array()) {
    out->push_back({name, ArrayValue(name, v)});
    return;
  }
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) Add(name + "_" + it.key(), it.value(), out);
    return;
  }
  json s = Scalar(v);
  if (!s.is_null()) out->push_back({name, s});
}

}  // namespace

std::vector<HandleField> HandleFields(const json& handle) {
  std::vector<HandleField> out;
  if (!handle.is_object()) return out;
  std::set<std::string> done;
  // An info object's pairs are what it holds: one child per key, first.
  if (handle.value("kind", "") == "info" && handle.contains("pairs") &&
      handle["pairs"].is_array()) {
    for (const json& p : handle["pairs"]) {
      if (p.is_object() && p.value("key", json()).is_string()) {
        const json& value = p.value("value", json());
        out.push_back({p["key"].get<std::string>(), value.is_string() ? value : json("")});
      }
    }
    out.push_back({"keys", static_cast<int>(handle["pairs"].size())});
    done.insert("pairs");
  }
  auto add = [&](const char* key) {
    if (handle.contains(key) && done.insert(key).second) Add(key, handle[key], &out);
  };
  const std::string kind = handle.value("kind", "");
  for (const KindKeys& k : kKindKeys) {
    if (kind == k.kind) {
      for (const char* key : k.keys) add(key);
    }
  }
  for (const char* key : kTail) add(key);
  return out;
}

json HandleFieldsJson(const std::vector<HandleField>& fields) {
  json out = json::array();
  for (const HandleField& f : fields) out.push_back(json::array({f.name, f.value}));
  return out;
}

}  // namespace mpidbg::host
