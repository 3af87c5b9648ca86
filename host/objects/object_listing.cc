// object_listing.cc — see object_listing.h.
#include "host/objects/object_listing.h"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "host/plugin_host/handle_dll.h"
#include "host/plugin_host/handle_results.h"
#include "host/stacks/frame_fold.h"
#include "host/stacks/frame_symbols.h"
#include "host/util/hex_string.h"
#include "mpidbg/mpidbg_handles.h"

namespace mpidbg::host {
namespace {

using nlohmann::json;

const char* const kKindNames[] = {nullptr,      "comm", "request", "datatype", "group", "op",
                                  "errhandler", "info", "win",     "file",     "message",
                                  "session"};
constexpr int kLastKind = MPIDBG_HANDLE_SESSION;

// A fixed char field of the interface, bounded by its size whether terminated or not.
// Bytes outside printable ASCII become '?': names are the target's bytes, and a JSON
// document must stay valid UTF-8 whatever the target holds.
std::string FieldText(const char* field, size_t size) {
  std::string s(field, strnlen(field, size));
  for (char& c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) c = '?';
  }
  return s;
}

std::optional<std::string> NonEmpty(std::string s) {
  if (s.empty()) return std::nullopt;
  return s;
}

// Creation sites, symbolized once per distinct pc: a program makes its objects in few
// places, and each lookup costs a module search (and the first, the DWARF load).
class SiteNamer {
 public:
  explicit SiteNamer(Dwfl* dwfl) : dwfl_(dwfl) {}
  std::shared_ptr<const model::Frame> Name(uint64_t pc) {
    if (dwfl_ == nullptr || pc == 0) return nullptr;
    auto it = cache_.find(pc);
    if (it != cache_.end()) return it->second;
    RawFrame raw;
    raw.pc = pc;
    raw.activation = false;  // a return address: the call is at pc - 1
    model::Frame frame = DescribeFrame(dwfl_, raw);
    // Line tables of the program only: a system library's separate debug info costs
    // tenths of a second to load and names no line of the user's.
    if (ClassifyFrame(frame) == FrameOrigin::kProgram) AddSourceLine(dwfl_, raw, &frame);
    auto shared = std::make_shared<const model::Frame>(std::move(frame));
    cache_.emplace(pc, shared);
    return shared;
  }

 private:
  Dwfl* dwfl_;
  std::unordered_map<uint64_t, std::shared_ptr<const model::Frame>> cache_;
};

std::string RequestState(unsigned bits) {
  if ((bits & MPIDBG_REQUEST_INACTIVE) != 0) return "inactive";
  if ((bits & MPIDBG_REQUEST_COMPLETE) != 0) return "complete";
  if ((bits & MPIDBG_REQUEST_MATCHED) != 0) return "matched";
  return "pending";
}

model::ObjectHandle FromEntry(const mpidbg_object_entry_t& e, SiteNamer& sites) {
  model::ObjectHandle o;
  o.kind = ObjectKindName(e.kind);
  o.handle = e.c_handle;
  o.name = NonEmpty(FieldText(e.name, sizeof e.name));
  o.predefined = (e.bitflags & MPIDBG_HANDLE_PREDEFINED) != 0;
  o.freed = (e.bitflags & MPIDBG_HANDLE_FREED_HANDLE) != 0;
  o.released = (e.bitflags & MPIDBG_HANDLE_FREED_OBJECT) != 0;
  o.state = o.released ? "released" : o.freed ? "freed" : o.predefined ? "predefined" : "live";
  o.creator = NonEmpty(FieldText(e.creator_name, sizeof e.creator_name));
  o.create_time_ns = e.create_time_ns;
  o.create_serial = e.create_serial;
  o.free_serial = e.free_serial;
  o.create_pc = e.create_pc;
  o.site = sites.Name(e.create_pc);
  o.record = e.record;
  if (e.kind == MPIDBG_HANDLE_REQUEST) {
    o.request_state = RequestState(e.bitflags);
    o.persistent = (e.bitflags & MPIDBG_REQUEST_PERSISTENT) != 0;
  }
  return o;
}

// The file name alone: the text form names the line, the JSON keeps the whole path.
std::string Basename(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

int ObjectKindNumber(const std::string& kind) {
  if (kind.empty()) return 0;
  for (int k = 1; k <= kLastKind; ++k) {
    if (kind == kKindNames[k]) return k;
  }
  return -1;
}

std::string ObjectKindName(int kind) {
  return kind >= 1 && kind <= kLastKind ? kKindNames[kind] : "unknown";
}

Result<model::ObjectListing> ListObjects(HandleSession& session, Dwfl* dwfl, int kind,
                                         const ListingClock& clock) {
  const HandleFunctions& fn = session.fn();
  if (fn.object_list_query == nullptr) {
    return Status::NoSupport("the DLL " + session.dll().path() +
                             " cannot list objects (its handle interface predates version 2)");
  }
  int count = 0;
  mpidbg_object_entry_t* entries = nullptr;
  const int rc = fn.object_list_query(session.image(), session.image_info(), session.process(),
                                      session.process_info(), kind, &count, &entries);
  if (rc != MPIDBG_SUCCESS) {
    std::string why = HandleErrorString(rc);
    if (!session.last_read_error().empty()) why += " (" + session.last_read_error() + ")";
    if (rc == MPIDBG_ERR_NOT_SUPPORTED) return Status::NoSupport("cannot list objects: " + why);
    return Status::Unreadable("cannot list the process's MPI objects: " + why);
  }
  model::ObjectListing out;
  SiteNamer sites(dwfl);
  out.objects.reserve(count > 0 ? static_cast<size_t>(count) : 0);
  for (int i = 0; i < count; ++i) out.objects.push_back(FromEntry(entries[i], sites));
  FreeHandleResult(entries, BasicCallbacks()->mqs_free_fp);

  if (clock.live) {
    out.now_ns = clock.now_ns;
    out.age_reference = "now";
  } else {
    int64_t latest = 0;
    if (fn.latest_time_query != nullptr &&
        fn.latest_time_query(session.image(), session.image_info(), session.process(),
                             session.process_info(), &latest) != MPIDBG_SUCCESS) {
      latest = 0;
    }
    out.now_ns = latest;
    out.age_reference = "latest_record";
  }
  for (model::ObjectHandle& o : out.objects) {
    if (o.create_time_ns > 0 && out.now_ns > 0) {
      const int64_t d = out.now_ns - o.create_time_ns;
      o.age_seconds = d > 0 ? static_cast<double>(d) / 1e9 : 0.0;
    }
  }
  return out;
}

json ObjectToJson(const model::ObjectHandle& o) {
  json j;
  j["kind"] = o.kind;
  j["handle"] = HexString(o.handle);
  j["name"] = o.name ? json(*o.name) : json(nullptr);
  j["freed"] = o.freed;
  j["predefined"] = o.predefined;
  j["state"] = o.state;
  j["released"] = o.released;
  j["creator"] = o.creator ? json(*o.creator) : json(nullptr);
  j["create_time_ns"] = o.create_time_ns != 0 ? json(o.create_time_ns) : json(nullptr);
  j["age_seconds"] = o.age_seconds ? json(*o.age_seconds) : json(nullptr);
  j["create_serial"] = o.create_serial;
  j["free_serial"] = o.free_serial != 0 ? json(o.free_serial) : json(nullptr);
  if (o.create_pc != 0) {
    json site;
    site["pc"] = HexString(o.create_pc);
    site["function"] = o.site && o.site->function ? json(*o.site->function) : json(nullptr);
    site["file"] = o.site && o.site->file ? json(*o.site->file) : json(nullptr);
    site["line"] = o.site && o.site->line ? json(*o.site->line) : json(nullptr);
    site["module"] = o.site ? json(o.site->module) : json(nullptr);
    j["created_at"] = site;
  } else {
    j["created_at"] = nullptr;
  }
  if (o.request_state) {
    j["request_state"] = *o.request_state;
    j["persistent"] = o.persistent;
  }
  j["record"] = HexString(o.record);
  return j;
}

namespace {

// A JSON string literal of `s` (quotes, backslashes and control bytes escaped; other
// bytes as they are, as nlohmann's dump writes valid UTF-8).
void AppendString(const std::string& s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(c);
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out->append(buf);
    } else {
      out->push_back(c);
    }
  }
  out->push_back('"');
}

void AppendKey(const char* key, std::string* out) {
  if (out->back() != '{') out->push_back(',');
  out->push_back('"');
  out->append(key);
  out->append("\":");
}

void AppendOptString(const char* key, const std::optional<std::string>& v, std::string* out) {
  AppendKey(key, out);
  if (v) {
    AppendString(*v, out);
  } else {
    out->append("null");
  }
}

void AppendBool(const char* key, bool v, std::string* out) {
  AppendKey(key, out);
  out->append(v ? "true" : "false");
}

}  // namespace

void AppendObjectJson(const model::ObjectHandle& o, std::string* out) {
  // Keys in the order ObjectToJson's (std::map) document has them: alphabetical.
  out->push_back('{');
  AppendKey("age_seconds", out);
  if (o.age_seconds) {
    // The shortest text that reads back as the same double (printf's %.17g is slower
    // and longer).
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, *o.age_seconds);
    out->append(buf, r.ptr);
  } else {
    out->append("null");
  }
  AppendKey("create_serial", out);
  out->append(std::to_string(o.create_serial));
  AppendKey("create_time_ns", out);
  out->append(o.create_time_ns != 0 ? std::to_string(o.create_time_ns) : "null");
  AppendKey("created_at", out);
  if (o.create_pc != 0) {
    out->push_back('{');
    AppendOptString("file", o.site ? o.site->file : std::nullopt, out);
    AppendOptString("function", o.site ? o.site->function : std::nullopt, out);
    AppendKey("line", out);
    out->append(o.site && o.site->line ? std::to_string(*o.site->line) : "null");
    AppendKey("module", out);
    if (o.site) {
      AppendString(o.site->module, out);
    } else {
      out->append("null");
    }
    AppendKey("pc", out);
    AppendString(HexString(o.create_pc), out);
    out->push_back('}');
  } else {
    out->append("null");
  }
  AppendOptString("creator", o.creator, out);
  AppendKey("free_serial", out);
  out->append(o.free_serial != 0 ? std::to_string(o.free_serial) : "null");
  AppendBool("freed", o.freed, out);
  AppendKey("handle", out);
  AppendString(HexString(o.handle), out);
  AppendKey("kind", out);
  AppendString(o.kind, out);
  AppendOptString("name", o.name, out);
  if (o.request_state) AppendBool("persistent", o.persistent, out);
  AppendBool("predefined", o.predefined, out);
  AppendKey("record", out);
  AppendString(HexString(o.record), out);
  AppendBool("released", o.released, out);
  if (o.request_state) AppendOptString("request_state", o.request_state, out);
  AppendKey("state", out);
  AppendString(o.state, out);
  out->push_back('}');
}

std::string CreationText(const model::ObjectHandle& o) {
  std::string s;
  if (o.predefined) s = "predefined";
  if (o.creator) s += (s.empty() ? "created by " : ", created by ") + *o.creator;
  if (o.site) {
    if (o.site->file && o.site->line) {
      s += (s.empty() ? "created at " : " at ") + Basename(*o.site->file) + ":" +
           std::to_string(*o.site->line);
    }
    if (o.site->function) s += " in " + *o.site->function;
  } else if (o.create_pc != 0) {
    s += " at " + HexString(o.create_pc);
  }
  if (o.age_seconds) {
    char buf[48];
    std::snprintf(buf, sizeof buf, ", %.1f s ago", *o.age_seconds);
    s += buf;
  }
  return s;
}

}  // namespace mpidbg::host
