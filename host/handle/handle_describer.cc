// handle_describer.cc — the query of each handle kind and its rendering.
#include "host/handle/handle_describer.h"

#include "host/handle/handle_json.h"
#include "host/util/hex_string.h"

namespace mpidbg::host {
namespace {

using nlohmann::json;

// Runs a query of the common shape (image, infos, handle, Info** result), converts and
// frees its result.
template <typename Info, typename ToJson, typename Fail>
Result<json> QueryOne(HandleQuery& q,
                      int (*query)(mqs_image*, mqs_image_info*, mqs_process*, mqs_process_info*,
                                   mqs_taddr_t, Info**),
                      uint64_t value, const ToJson& to_json, const Fail& fail) {
  auto r = q.NewResult<Info>();
  int rc = q.Run(query, value, &r);
  if (rc != MPIDBG_SUCCESS) return fail(rc);
  if (!r) return fail(MPIDBG_ERR_UNAVAILABLE);
  return to_json(*r.get());
}

}  // namespace

json HandleDescriber::NameOf(int kind, uint64_t handle) {
  auto key = std::make_pair(kind, handle);
  auto cached = names_.find(key);
  if (cached != names_.end()) return cached->second;
  names_.emplace(key, nullptr);  // a handle naming itself ends here
  json name = nullptr;
  const std::map<uint64_t, std::string>& map = q_.NameMap(kind);
  auto it = map.find(handle);
  if (it != map.end()) {
    name = it->second;
  } else {
    // A user-defined object: the name the application gave it, if any.
    std::string kind_name = HandleQuery::KindName(kind);
    if (!kind_name.empty() && kind_name != "request") {
      Result<json> described = Describe(kind_name, handle, 1);
      if (described.ok() && described->contains("name")) name = (*described)["name"];
    }
  }
  names_[key] = name;
  return name;
}

Result<json> HandleDescriber::Describe(const std::string& kind, uint64_t value, int max_map_entries) {
  const HandleFunctions& fn = q_.fn();
  HandleNamer namer = [this](int k, uint64_t h) { return NameOf(k, h); };
  std::string what = kind + " " + HexString(value);
  if (kind == "status") what = "MPI_Status at " + HexString(value);
  auto fail = [&](int code) { return q_.Failure(code, what); };
  int rc = MPIDBG_SUCCESS;

  // Kinds with an extended query fall back to version 1 when the DLL lacks it.
  if (kind == "comm") {
    if (fn.comm_query_extended != nullptr) {
      auto extended = q_.NewResult<mpidbg_comm_ext_info_t>();
      rc = q_.Run(fn.comm_query_extended, value, &extended);
      if (rc == MPIDBG_SUCCESS && extended) {
        json j = CommToJson(extended->base, extended.get(), namer);
        // The other job of an intercommunicator to another job; null when there is
        // none or the DLL cannot tell (an older one lacks the query).
        auto remote = q_.NewResult<mpidbg_comm_remote_job_t>();
        j["remote_job"] = nullptr;
        if (q_.Run(fn.comm_query_remote_job, value, &remote) == MPIDBG_SUCCESS && remote) {
          j["remote_job"] = RemoteJobToJson(*remote.get());
        }
        return j;
      }
      if (rc != MPIDBG_ERR_NOT_SUPPORTED) {
        return fail(rc == MPIDBG_SUCCESS ? MPIDBG_ERR_UNAVAILABLE : rc);
      }
    }
    return QueryOne(
        q_, fn.comm_query, value,
        [&](const mpidbg_comm_info_t& c) { return CommToJson(c, nullptr, namer); }, fail);
  }
  if (kind == "request") {
    if (fn.request_query_extended != nullptr) {
      auto extended = q_.NewResult<mpidbg_request_ext_info_t>();
      rc = q_.Run(fn.request_query_extended, value, &extended);
      if (rc == MPIDBG_SUCCESS && extended) {
        return RequestToJson(extended->base, extended.get(), namer);
      }
      if (rc != MPIDBG_ERR_NOT_SUPPORTED) {
        return fail(rc == MPIDBG_SUCCESS ? MPIDBG_ERR_UNAVAILABLE : rc);
      }
    }
    return QueryOne(
        q_, fn.request_query, value,
        [&](const mpidbg_request_info_t& r) { return RequestToJson(r, nullptr, namer); }, fail);
  }
  if (kind == "status") {
    if (fn.status_query_extended != nullptr) {
      auto extended = q_.NewResult<mpidbg_status_ext_info_t>();
      rc = q_.Run(fn.status_query_extended, value, &extended);
      if (rc == MPIDBG_SUCCESS && extended) {
        return StatusToJson(value, extended->base, extended.get());
      }
      if (rc != MPIDBG_ERR_NOT_SUPPORTED) {
        return fail(rc == MPIDBG_SUCCESS ? MPIDBG_ERR_UNAVAILABLE : rc);
      }
    }
    return QueryOne(
        q_, fn.status_query, value,
        [&](const mpidbg_status_info_t& st) { return StatusToJson(value, st, nullptr); }, fail);
  }
  if (kind == "datatype") {
    auto r = q_.NewResult<mpidbg_datatype_info_t>();
    rc = q_.Run(fn.datatype_query, value, max_map_entries, &r);
    if (rc != MPIDBG_SUCCESS) return fail(rc);
    if (!r) return fail(MPIDBG_ERR_UNAVAILABLE);
    return DatatypeToJson(*r.get(), namer);
  }
  if (kind == "errhandler") {
    return QueryOne(
        q_, fn.errhandler_query, value,
        [](const mpidbg_errhandler_info_t& e) { return ErrhandlerToJson(e); }, fail);
  }
  if (kind == "group") {
    return QueryOne(
        q_, fn.group_query, value,
        [&](const mpidbg_group_info_t& g) { return GroupToJson(g, namer); }, fail);
  }
  if (kind == "op") {
    return QueryOne(
        q_, fn.op_query, value, [](const mpidbg_op_info_t& o) { return OpToJson(o); }, fail);
  }
  if (kind == "info") {
    return QueryOne(
        q_, fn.info_query, value, [](const mpidbg_info_info_t& i) { return InfoToJson(i); }, fail);
  }
  if (kind == "win") {
    return QueryOne(
        q_, fn.win_query, value, [&](const mpidbg_win_info_t& w) { return WinToJson(w, namer); },
        fail);
  }
  if (kind == "file") {
    return QueryOne(
        q_, fn.file_query, value, [&](const mpidbg_file_info_t& f) { return FileToJson(f, namer); },
        fail);
  }
  if (kind == "message") {
    return QueryOne(
        q_, fn.message_query, value,
        [&](const mpidbg_message_info_t& m) { return MessageToJson(m, namer); }, fail);
  }
  return Status::Usage("unknown handle kind '" + kind + "'");
}

}  // namespace mpidbg::host
