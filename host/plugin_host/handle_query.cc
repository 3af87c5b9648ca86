// handle_query.cc — the DLL's handle interface, one call at a time.
#include "host/plugin_host/handle_query.h"

namespace mpidbg::host {
namespace {

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

}  // namespace

int HandleQuery::KindNumber(const std::string& kind) {
  for (const KindEntry& k : kKinds) {
    if (kind == k.name) return k.number;
  }
  return 0;
}

std::string HandleQuery::KindName(int kind) {
  for (const KindEntry& k : kKinds) {
    if (k.number == kind) return k.name;
  }
  return "";
}

Status HandleQuery::Failure(int rc, const std::string& what) const {
  std::string why = HandleErrorString(rc);
  if (rc == MPIDBG_ERR_NOT_FOUND) {
    return Status::Usage("the process has no " + what + ": never created, or its record is gone");
  }
  if (rc == MPIDBG_ERR_NOT_SUPPORTED) {
    return Status::NoSupport("the DLL " + c_.dll_path + " cannot show " + what + ": " + why);
  }
  std::string read_error = c_.last_read_error ? c_.last_read_error() : std::string();
  if (!read_error.empty()) why += " (" + read_error + ")";
  return Status::Unreadable("cannot read " + what + ": " + why);
}

Result<uint64_t> HandleQuery::FortranToC(const std::string& kind, uint64_t f) {
  const HandleFunctions& fn = *c_.fn;
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
  int rc = f2c(c_.image, c_.image_info, c_.process, c_.process_info, f, &c);
  if (rc != MPIDBG_SUCCESS) return Failure(rc, what);
  return static_cast<uint64_t>(c);
}

const std::map<uint64_t, std::string>& HandleQuery::NameMap(int kind) {
  auto found = maps_.find(kind);
  if (found != maps_.end()) return found->second;
  std::map<uint64_t, std::string>& out = maps_[kind];
  if (c_.fn->name_map_query == nullptr) return out;
  HandleResult<mpidbg_name_map_t> map(c_.release);
  int rc = c_.fn->name_map_query(c_.image, c_.image_info, c_.process, c_.process_info, kind,
                                 map.out());
  if (rc != MPIDBG_SUCCESS || !map) return out;
  for (int i = 0; i < (1 << 20) && map.get()[i].map_name != nullptr; ++i) {
    out.emplace(map.get()[i].map_handle, map.get()[i].map_name);
  }
  return out;
}

}  // namespace mpidbg::host
