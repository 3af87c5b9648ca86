// handle_text.cc — the handle document as text.
//
// Summary: `KIND HANDLE "NAME" (CREATOR): the facts that identify it[, freed]`; then
// one indented line per group of details. Freed handles (orphans) say so in the
// summary, since their details describe an object the application let go.
#include "host/handle/handle_text.h"

#include <sstream>
#include <utility>
#include <vector>

#include "host/util/rank_list_text.h"

namespace mpidbg::host {
namespace {

using nlohmann::json;

std::string Str(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "-";
  return v.dump();
}

bool Has(const json& j, const char* key) { return j.contains(key) && !j[key].is_null(); }

std::vector<int> Ints(const json& a) {
  std::vector<int> out;
  if (!a.is_array()) return out;
  for (const json& v : a) {
    if (v.is_number_integer()) out.push_back(v.get<int>());
  }
  return out;
}

std::string List(const json& a, const char* sep = ", ") {
  std::string out;
  if (!a.is_array()) return out;
  for (const json& v : a) out += (out.empty() ? "" : sep) + Str(v);
  return out;
}

// `comm 0x84000001 "halves" (MPI_Comm_split)`, with the state flags that matter.
std::string Head(const json& h) {
  std::string out = Str(h["kind"]) + " " + Str(h["handle"]);
  if (Has(h, "name")) out += " \"" + h["name"].get<std::string>() + "\"";
  // (A predefined object was made by no call of the program.)
  if (Has(h, "creator") && !h.value("predefined", false)) {
    out += " (" + h["creator"].get<std::string>() + ")";
  }
  return out;
}

std::string StateFlags(const json& h) {
  std::string out;
  if (h.value("null", false)) out += ", the null handle";
  if (h.value("predefined", false)) out += ", predefined";
  if (h.value("freed", false)) {
    out += h.value("freed_object", false) ? ", FREED (handle and object)"
                                          : ", FREED by the application (a stale handle)";
  }
  return out;
}

void CommText(const json& h, std::ostringstream& out) {
  if (h.value("null", false)) {
    // MPI_COMM_NULL (or a handle freed to it) has no group: no rank, size or members.
    out << Head(h) << ": the null communicator";
    if (h.value("freed", false)) out << " (FREED)";
    out << "\n";
    return;
  }
  const bool member = h["rank"].is_number_integer() && h["rank"].get<int>() >= 0;
  out << Head(h) << ": " << (h.value("intercomm", false) ? "inter" : "intra") << ", "
      << (member ? "rank " + Str(h["rank"]) + " of " + Str(h["size"])
                 : "size " + Str(h["size"]) + ", this process not a member")
      << StateFlags(h) << "\n";
  const std::vector<int> world = Ints(h["world_ranks"]);
  // An empty list is "not recorded" (a freed handle whose group is gone), never a group.
  out << "  world ranks: " << (world.empty() ? std::string("not recorded") : RankListText(world))
      << "\n";
  if (h.contains("remote_job") && h["remote_job"].is_object()) {
    const std::string job = h["remote_job"]["job_id"].get<std::string>();
    out << "  remote group: job " << (job.empty() ? "(unnamed)" : job) << " world ranks "
        << RankListText(Ints(h["remote_job"]["world_ranks"])) << "\n";
  } else if (h["remote_world_ranks"].is_array()) {
    out << "  remote world ranks: " << RankListText(Ints(h["remote_world_ranks"])) << "\n";
  }
  if (Has(h, "topology")) {
    std::string topo = h["topology"].get<std::string>();
    out << "  topology: " << topo;
    if (topo == "cart" && h.contains("cart")) {
      out << " dims [" << List(h["cart"]["dims"]) << "] periods [" << List(h["cart"]["periods"])
          << "]";
    } else if (topo == "graph" && h.contains("graph")) {
      out << " index [" << List(h["graph"]["index"]) << "] edges [" << List(h["graph"]["edges"])
          << "]";
    } else if (topo == "dist_graph" && h.contains("dist_graph")) {
      out << " sources [" << List(h["dist_graph"]["sources"]) << "] destinations ["
          << List(h["dist_graph"]["destinations"]) << "]";
    }
    if (h.value("topology_reordered", false)) out << ", reordered";
    out << "\n";
  }
  if (Has(h, "id")) {
    out << "  id " << Str(h["id"]);
    if (Has(h, "parent_id")) out << ", derived from " << Str(h["parent_id"]);
    if (Has(h, "split_color")) {
      out << ", split colour " << Str(h["split_color"]) << " key " << Str(h["split_key"]);
    }
    out << "\n";
  }
  if (Has(h, "errhandler")) {
    out << "  error handler " << Str(h["errhandler"]);
    if (Has(h, "errhandler_name")) out << " " << Str(h["errhandler_name"]);
    out << "\n";
  }
  if (Has(h, "info")) out << "  info " << Str(h["info"]) << "\n";
  for (const json& a : h["attributes"]) {
    out << "  attribute " << Str(a["keyval"]);
    if (Has(a, "keyval_name")) out << " (" << Str(a["keyval_name"]) << ")";
    out << " = " << Str(a["value"]) << "\n";
  }
  if (!h["pending_requests"].empty()) {
    out << "  pending requests: " << List(h["pending_requests"]) << "\n";
  }
  if (!h["windows"].empty()) out << "  windows: " << List(h["windows"]) << "\n";
  if (!h["files"].empty()) out << "  files: " << List(h["files"]) << "\n";
}

std::string PeerText(const json& v) { return v.is_null() ? "?" : Str(v); }

void RequestText(const json& h, std::ostringstream& out) {
  out << Head(h);
  if (h.contains("request_kind")) {
    // What it waits for, in one line: direction, peer, tag, size, communicator, state.
    const std::string direction = Str(h["direction"]);
    out << ": " << direction;
    if (direction == "send") out << " to " << PeerText(h["peer"]);
    if (direction == "receive" || direction == "probe") out << " from " << PeerText(h["peer"]);
    if (Has(h, "tag") && (direction == "send" || direction == "receive" || direction == "probe")) {
      out << ", tag " << Str(h["tag"]);
    }
    if (Has(h, "bytes")) out << ", " << Str(h["bytes"]) << " bytes";
    if (Has(h, "comm_name")) out << " on " << Str(h["comm_name"]);
    out << ", " << Str(h["status"]);
    if (h.value("persistent", false)) out << ", persistent";
  }
  out << StateFlags(h) << "\n";
  if (!h.contains("request_kind")) return;
  out << "  peer " << PeerText(h["peer"]);
  if (h["peer_world"].is_number()) out << " (world " << Str(h["peer_world"]) << ")";
  out << ", tag " << Str(h["tag"]);
  if (Has(h, "comm") || Has(h, "comm_name")) {
    out << ", comm " << (Has(h, "comm_name") ? Str(h["comm_name"]) : Str(h["comm"]));
  }
  out << "\n";
  out << "  " << Str(h["count"]) << " x "
      << (Has(h, "datatype_name") ? Str(h["datatype_name"]) : Str(h["datatype"])) << " = "
      << Str(h["bytes"]) << " bytes at " << Str(h["buffer"]);
  if (Has(h, "mode")) out << ", " << Str(h["mode"]) << " mode";
  out << "\n";
  if (Has(h, "actual_source")) {
    out << "  matched: source " << Str(h["actual_source"]) << ", tag " << Str(h["actual_tag"])
        << ", " << Str(h["actual_bytes"]) << " bytes\n";
  }
  if (Has(h, "object")) out << "  object " << Str(h["object"]) << "\n";
  out << "  posted by thread " << Str(h["tid"]) << ", serial " << Str(h["post_serial"]) << "\n";
}

void StatusText(const json& h, std::ostringstream& out) {
  out << "status at " << Str(h["address"]);
  if (h.contains("source")) {
    out << ": source " << Str(h["source"]) << ", tag " << Str(h["tag"]) << ", error "
        << Str(h["error"]);
    if (Has(h, "bytes")) out << ", " << Str(h["bytes"]) << " bytes";
    if (h["cancelled"] == true) out << ", cancelled";
  }
  out << "\n";
}

void DatatypeText(const json& h, std::ostringstream& out) {
  out << Head(h) << ": " << Str(h["combiner"]) << ", size " << Str(h["size"]) << ", extent "
      << Str(h["extent"]) << " (lb " << Str(h["lb"]) << ")";
  if (h["true_lb"] != h["lb"] || h["true_extent"] != h["extent"]) {
    out << ", true extent " << Str(h["true_extent"]) << " (lb " << Str(h["true_lb"]) << ")";
  }
  if (h.value("committed", false)) out << ", committed";
  out << StateFlags(h) << "\n";
  const json& args = h["arguments"];
  if (args.is_object() && !args.empty()) {
    // In the constructor's argument order (JSON objects keep keys sorted).
    static const char kOrder[] =
        "count blocklength blocklengths stride stride_bytes displacements displacements_bytes "
        "size rank ndims sizes gsizes subsizes starts distribs dargs psizes order p r lb extent "
        "types oldtype";
    out << "  inputs:";
    std::istringstream keys(kOrder);
    for (std::string key; keys >> key;) {
      if (!args.contains(key)) continue;
      const json& v = args[key];
      out << " " << key << "=" << (v.is_array() ? "[" + List(v) + "]" : Str(v));
    }
    out << "\n";
  } else if (!h["integers"].empty() || !h["addresses"].empty() || !h["datatypes"].empty()) {
    out << "  inputs: integers [" << List(h["integers"]) << "] addresses [" << List(h["addresses"])
        << "] datatypes [" << List(h["datatypes"]) << "]\n";
  }
  const json& map = h["type_map"];
  out << "  type map: " << map.size() << (map.size() == 1 ? " run, " : " runs, ")
      << Str(h["map_elements"]) << (h["map_elements"] == 1 ? " element" : " elements");
  if (h.value("map_truncated", false)) out << " (truncated)";
  if (h.value("map_incomplete", false)) out << " (incomplete: an input type is unknown)";
  if (h.value("holes", false)) out << ", with holes";
  out << "\n";
  for (const json& e : map) {
    out << "    +" << Str(e["displacement"]) << " "
        << (Has(e, "type") ? Str(e["type"]) : Str(e["basic_type"]));
    if (e["count"] != 1) out << " x" << Str(e["count"]);
    out << "\n";
  }
}

void GroupText(const json& h, std::ostringstream& out) {
  out << Head(h) << ": size " << Str(h["size"]) << ", "
      << (Has(h, "rank") ? "rank " + Str(h["rank"]) : std::string("not a member")) << StateFlags(h)
      << "\n";
  out << "  world ranks: " << RankListText(Ints(h["world_ranks"])) << "\n";
  if (Has(h, "source")) {
    out << "  from " << Str(h["source"]);
    if (Has(h, "source2")) out << " and " << Str(h["source2"]);
    if (!h["args"].empty()) out << ", arguments [" << List(h["args"]) << "]";
    out << "\n";
  }
}

void OpText(const json& h, std::ostringstream& out) {
  out << Head(h) << ": " << (h.value("commutative", false) ? "commutative" : "not commutative");
  if (Has(h, "callback")) out << ", function " << Str(h["callback"]);
  out << StateFlags(h) << "\n";
}

void ErrhandlerText(const json& h, std::ostringstream& out) {
  out << Head(h) << ": for " << (h["applies_to"].empty() ? "any object" : List(h["applies_to"]));
  if (Has(h, "callback")) out << ", function " << Str(h["callback"]);
  out << StateFlags(h) << "\n";
}

void InfoText(const json& h, std::ostringstream& out) {
  out << Head(h) << ": " << h["pairs"].size() << " keys" << StateFlags(h) << "\n";
  for (const json& p : h["pairs"]) out << "  " << Str(p["key"]) << " = " << Str(p["value"]) << "\n";
}

void WinText(const json& h, std::ostringstream& out) {
  out << Head(h) << ": " << Str(h["flavor"]) << ", " << Str(h["size"]) << " bytes at "
      << Str(h["base"]) << ", disp_unit " << Str(h["disp_unit"]) << StateFlags(h) << "\n";
  out << "  comm " << (Has(h, "comm_name") ? Str(h["comm_name"]) : Str(h["comm"])) << " (size "
      << Str(h["comm_size"]) << ")\n";
  out << "  epochs: access " << Str(h["access_epoch"]) << ", exposure " << Str(h["exposure_epoch"])
      << "; " << Str(h["fence_count"]) << " fences, " << Str(h["rma_count"]) << " RMA operations\n";
  if (!h["target_locks"].empty()) out << "  locks per target: " << List(h["target_locks"]) << "\n";
  if (!h["access_group"].empty()) out << "  access group: " << List(h["access_group"]) << "\n";
  if (!h["exposure_group"].empty()) {
    out << "  exposure group: " << List(h["exposure_group"]) << "\n";
  }
  for (const json& r : h["regions"]) {
    out << "  attached " << Str(r["size"]) << " bytes at " << Str(r["base"]) << "\n";
  }
  if (!h["pending_requests"].empty()) {
    out << "  pending requests: " << List(h["pending_requests"]) << "\n";
  }
}

void FileText(const json& h, std::ostringstream& out) {
  out << Head(h) << ": " << Str(h["filename"]) << StateFlags(h) << "\n";
  out << "  comm " << (Has(h, "comm_name") ? Str(h["comm_name"]) : Str(h["comm"])) << ", amode "
      << Str(h["amode"]) << "\n";
  out << "  view: displacement " << Str(h["view_disp"]) << ", etype "
      << (Has(h, "etype_name") ? Str(h["etype_name"]) : Str(h["etype"])) << ", filetype "
      << (Has(h, "filetype_name") ? Str(h["filetype_name"]) : Str(h["filetype"])) << ", "
      << Str(h["datarep"]) << "\n";
  if (!h["pending_requests"].empty()) {
    out << "  pending requests: " << List(h["pending_requests"]) << "\n";
  }
}

void MessageText(const json& h, std::ostringstream& out) {
  out << Head(h) << ": ";
  if (h.value("no_proc", false)) {
    out << "MPI_MESSAGE_NO_PROC";
  } else {
    out << Str(h["bytes"]) << " bytes from " << PeerText(h["source"]) << ", tag " << Str(h["tag"]);
    if (Has(h, "comm_name")) out << " on " << Str(h["comm_name"]);
    out << (h.value("received", false) ? ", received" : ", not yet received");
  }
  out << StateFlags(h) << "\n";
}

}  // namespace

std::string HandleText(const json& doc) {
  std::ostringstream out;
  const json& h = doc["handle"];
  std::string kind = h.value("kind", "");
  using Writer = void (*)(const json&, std::ostringstream&);
  static const std::pair<const char*, Writer> kWriters[] = {{"comm", CommText},
                                                            {"request", RequestText},
                                                            {"status", StatusText},
                                                            {"datatype", DatatypeText},
                                                            {"group", GroupText},
                                                            {"op", OpText},
                                                            {"errhandler", ErrhandlerText},
                                                            {"info", InfoText},
                                                            {"win", WinText},
                                                            {"file", FileText},
                                                            {"message", MessageText}};
  bool written = false;
  for (const auto& [name, writer] : kWriters) {
    if (kind == name) {
      writer(h, out);
      written = true;
    }
  }
  if (!written) out << h.dump(1) << "\n";
  const json& q = doc["query"];
  if (q.value("expr", json()).is_string()) {
    out << "  (read from " << q["expr"].get<std::string>() << " at " << Str(q["address"]) << ")\n";
  }
  return out.str();
}

std::string HandleSummary(const json& handle) {
  std::string text = HandleText(json{{"handle", handle}, {"query", json::object()}});
  return text.substr(0, text.find('\n'));
}

}  // namespace mpidbg::host
