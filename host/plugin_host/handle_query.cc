// handle_query.cc — one handle through the DLL's handle interface.
#include "host/plugin_host/handle_query.h"

#include "host/snapshot/extensions_to_model.h"
#include "host/handle/handle_json.h"
#include "host/snapshot/snapshot_json.h"
#include "host/plugin_host/handle_results.h"

namespace mpidbg::host {
namespace {

using nlohmann::json;

struct KindEntry {
  const char* name;
  int number;
};

const KindEntry kKinds[] = {
    {"comm", MPIDBG_HANDLE_COMM},
    {"request", MPIDBG_HANDLE_REQUEST},
    {"datatype", MPIDBG_HANDLE_DATATYPE},
    {"group", MPIDBG_HANDLE_GROUP},
    {"op", MPIDBG_HANDLE_OP},
    {"errhandler", MPIDBG_HANDLE_ERRHANDLER},
    {"info", MPIDBG_HANDLE_INFO},
    {"win", MPIDBG_HANDLE_WIN},
    {"file", MPIDBG_HANDLE_FILE},
    {"message", MPIDBG_HANDLE_MESSAGE},
};

// Runs a query of the common shape (image, infos, handle, Info** result), converts and
// frees its result.
template <typename Info, typename ToJson, typename Fail>
Result<json> QueryOne(int (*query)(mqs_image*, mqs_image_info*, mqs_process*, mqs_process_info*,
                                   mqs_taddr_t, Info**),
                      HandleSession* s, uint64_t value, const ToJson& to_json, const Fail& fail) {
  if (query == nullptr) return fail(MPIDBG_ERR_NOT_SUPPORTED);
  HandleResult<Info> r;
  int rc = query(s->image(), s->image_info(), s->process(), s->process_info(), value, r.out());
  if (rc != MPIDBG_SUCCESS) return fail(rc);
  if (!r) return fail(MPIDBG_ERR_UNAVAILABLE);
  return to_json(*r.get());
}

}  // namespace

int HandleQuery::KindNumber(const std::string& kind) {
  for (const KindEntry& k : kKinds) {
    if (kind == k.name) return k.number;
  }
  return 0;
}

Status HandleQuery::Failure(int rc, const std::string& what) const {
  std::string why = HandleErrorString(rc);
  if (rc == MPIDBG_ERR_NOT_FOUND) {
    return Status::Usage("the process has no " + what + ": never created, or its record is gone");
  }
  if (rc == MPIDBG_ERR_NOT_SUPPORTED) {
    return Status::NoSupport("the DLL " + s_->dll().path() + " cannot show " + what + ": " + why);
  }
  if (!s_->last_read_error().empty()) why += " (" + s_->last_read_error() + ")";
  return Status::Unreadable("cannot read " + what + ": " + why);
}

Result<uint64_t> HandleQuery::FortranToC(const std::string& kind, uint64_t f) {
  const HandleFunctions& fn = s_->fn();
  using F2c = int (*)(mqs_image*, mqs_image_info*, mqs_process*, mqs_process_info*, mqs_taddr_t,
                      mqs_taddr_t*);
  F2c f2c = nullptr;
  if (kind == "comm") f2c = fn.comm_f2c;
  if (kind == "request") f2c = fn.request_f2c;
  if (kind == "status") f2c = fn.status_f2c;
  if (kind == "errhandler") f2c = fn.errhandler_f2c;
  if (kind == "datatype") f2c = fn.datatype_f2c;
  if (kind == "group") f2c = fn.group_f2c;
  if (kind == "op") f2c = fn.op_f2c;
  if (kind == "info") f2c = fn.info_f2c;
  if (kind == "win") f2c = fn.win_f2c;
  if (kind == "file") f2c = fn.file_f2c;
  if (kind == "message") f2c = fn.message_f2c;
  std::string what = "Fortran " + kind + " handle " + std::to_string(f);
  if (f2c == nullptr) return Failure(MPIDBG_ERR_NOT_SUPPORTED, what);
  mqs_taddr_t c = 0;
  int rc = f2c(s_->image(), s_->image_info(), s_->process(), s_->process_info(), f, &c);
  if (rc != MPIDBG_SUCCESS) return Failure(rc, what);
  return static_cast<uint64_t>(c);
}

const std::map<uint64_t, std::string>& HandleQuery::NameMap(int kind) {
  auto found = maps_.find(kind);
  if (found != maps_.end()) return found->second;
  std::map<uint64_t, std::string>& out = maps_[kind];
  if (s_->fn().name_map_query == nullptr) return out;
  HandleResult<mpidbg_name_map_t> map;
  int rc = s_->fn().name_map_query(s_->image(), s_->image_info(), s_->process(), s_->process_info(),
                                   kind, map.out());
  if (rc != MPIDBG_SUCCESS || !map) return out;
  for (int i = 0; i < (1 << 20) && map.get()[i].map_name != nullptr; ++i) {
    out.emplace(map.get()[i].map_handle, map.get()[i].map_name);
  }
  return out;
}

json HandleQuery::NameOf(int kind, uint64_t handle) {
  auto key = std::make_pair(kind, handle);
  auto cached = names_.find(key);
  if (cached != names_.end()) return cached->second;
  names_.emplace(key, nullptr);  // a handle naming itself ends here
  json name = nullptr;
  const std::map<uint64_t, std::string>& map = NameMap(kind);
  auto it = map.find(handle);
  if (it != map.end()) {
    name = it->second;
  } else {
    // A user-defined object: the name the application gave it, if any.
    std::string kind_name;
    for (const KindEntry& k : kKinds) {
      if (k.number == kind) kind_name = k.name;
    }
    if (!kind_name.empty() && kind_name != "request") {
      Result<json> described = Describe(kind_name, handle, 1);
      if (described.ok() && described->contains("name")) name = (*described)["name"];
    }
  }
  names_[key] = name;
  return name;
}

Result<json> HandleQuery::Describe(const std::string& kind, uint64_t value, int max_map_entries) {
  const HandleFunctions& fn = s_->fn();
  mqs_image* im = s_->image();
  mqs_image_info* ii = s_->image_info();
  mqs_process* pr = s_->process();
  mqs_process_info* pi = s_->process_info();
  HandleNamer namer = [this](int k, uint64_t h) { return NameOf(k, h); };
  std::string what = kind + " " + HexString(value);
  if (kind == "status") what = "MPI_Status at " + HexString(value);
  auto fail = [&](int code) { return Failure(code, what); };
  int rc = MPIDBG_SUCCESS;

  // Kinds with an extended query fall back to version 1 when the DLL lacks it.
  if (kind == "comm") {
    if (fn.comm_query_ext != nullptr) {
      HandleResult<mpidbg_comm_ext_info_t> ext;
      rc = fn.comm_query_ext(im, ii, pr, pi, value, ext.out());
      if (rc == MPIDBG_SUCCESS && ext) return CommToJson(ext->base, ext.get(), namer);
      if (rc != MPIDBG_ERR_NOT_SUPPORTED) {
        return fail(rc == MPIDBG_SUCCESS ? MPIDBG_ERR_UNAVAILABLE : rc);
      }
    }
    return QueryOne(
        fn.comm_query, s_, value,
        [&](const mpidbg_comm_info_t& c) { return CommToJson(c, nullptr, namer); }, fail);
  }
  if (kind == "request") {
    if (fn.request_query_ext != nullptr) {
      HandleResult<mpidbg_request_ext_info_t> ext;
      rc = fn.request_query_ext(im, ii, pr, pi, value, ext.out());
      if (rc == MPIDBG_SUCCESS && ext) return RequestToJson(ext->base, ext.get(), namer);
      if (rc != MPIDBG_ERR_NOT_SUPPORTED) {
        return fail(rc == MPIDBG_SUCCESS ? MPIDBG_ERR_UNAVAILABLE : rc);
      }
    }
    return QueryOne(
        fn.request_query, s_, value,
        [&](const mpidbg_request_info_t& r) { return RequestToJson(r, nullptr, namer); }, fail);
  }
  if (kind == "status") {
    if (fn.status_query_ext != nullptr) {
      HandleResult<mpidbg_status_ext_info_t> ext;
      rc = fn.status_query_ext(im, ii, pr, pi, value, ext.out());
      if (rc == MPIDBG_SUCCESS && ext) return StatusToJson(value, ext->base, ext.get());
      if (rc != MPIDBG_ERR_NOT_SUPPORTED) {
        return fail(rc == MPIDBG_SUCCESS ? MPIDBG_ERR_UNAVAILABLE : rc);
      }
    }
    return QueryOne(
        fn.status_query, s_, value,
        [&](const mpidbg_status_info_t& st) { return StatusToJson(value, st, nullptr); }, fail);
  }
  if (kind == "datatype") {
    if (fn.datatype_query == nullptr) return fail(MPIDBG_ERR_NOT_SUPPORTED);
    HandleResult<mpidbg_datatype_info_t> r;
    rc = fn.datatype_query(im, ii, pr, pi, value, max_map_entries, r.out());
    if (rc != MPIDBG_SUCCESS) return fail(rc);
    if (!r) return fail(MPIDBG_ERR_UNAVAILABLE);
    return DatatypeToJson(*r.get(), namer);
  }
  if (kind == "errhandler") {
    return QueryOne(
        fn.errhandler_query, s_, value,
        [](const mpidbg_errhandler_info_t& e) { return ErrhandlerToJson(e); }, fail);
  }
  if (kind == "group") {
    return QueryOne(
        fn.group_query, s_, value,
        [&](const mpidbg_group_info_t& g) { return GroupToJson(g, namer); }, fail);
  }
  if (kind == "op") {
    return QueryOne(
        fn.op_query, s_, value, [](const mpidbg_op_info_t& o) { return OpToJson(o); }, fail);
  }
  if (kind == "info") {
    return QueryOne(
        fn.info_query, s_, value, [](const mpidbg_info_info_t& i) { return InfoToJson(i); }, fail);
  }
  if (kind == "win") {
    return QueryOne(
        fn.win_query, s_, value, [&](const mpidbg_win_info_t& w) { return WinToJson(w, namer); },
        fail);
  }
  if (kind == "file") {
    return QueryOne(
        fn.file_query, s_, value, [&](const mpidbg_file_info_t& f) { return FileToJson(f, namer); },
        fail);
  }
  if (kind == "message") {
    return QueryOne(
        fn.message_query, s_, value,
        [&](const mpidbg_message_info_t& m) { return MessageToJson(m, namer); }, fail);
  }
  return Status::Usage("unknown handle kind '" + kind + "'");
}

}  // namespace mpidbg::host
