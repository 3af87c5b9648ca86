// handle_json.h — the "mpidbg.handle/1" document (docs/OUTPUT.md, `handle`) of a
// handle reading, and the handle query results (mpidbg_handles.h structures) as its
// `handle` objects.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "host/handle/handle_reading.h"
#include "mpidbg/mpidbg_handles.h"

namespace mpidbg::host {

constexpr const char* kHandleSchema = "mpidbg.handle/1";

// The whole document: schema, process, query and handle.
nlohmann::json HandleDocument(const HandleReading& reading);

// The name of a handle of another kind (enum mpidbg_handle_kind) that a result refers
// to, e.g. a datatype's input types; null when it has none or is unknown.
using HandleNamer = std::function<nlohmann::json(int kind, uint64_t handle)>;

// `extended` is the extended query's result, null when the DLL lacks that query.
nlohmann::json CommToJson(const mpidbg_comm_info_t& c, const mpidbg_comm_ext_info_t* extended,
                          const HandleNamer& name_of);
// An intercommunicator's other job: {"job_id", "world_ranks"} (OUTPUT.md "Several jobs").
nlohmann::json RemoteJobToJson(const mpidbg_comm_remote_job_t& r);
nlohmann::json RequestToJson(const mpidbg_request_info_t& r,
                             const mpidbg_request_ext_info_t* extended, const HandleNamer& name_of);
// `status_address` is the MPI_Status variable's address.
nlohmann::json StatusToJson(uint64_t status_address, const mpidbg_status_info_t& s,
                            const mpidbg_status_ext_info_t* extended);
nlohmann::json DatatypeToJson(const mpidbg_datatype_info_t& d, const HandleNamer& name_of);
nlohmann::json GroupToJson(const mpidbg_group_info_t& g, const HandleNamer& name_of);
nlohmann::json OpToJson(const mpidbg_op_info_t& o);
nlohmann::json ErrhandlerToJson(const mpidbg_errhandler_info_t& e);
nlohmann::json InfoToJson(const mpidbg_info_info_t& i);
nlohmann::json WinToJson(const mpidbg_win_info_t& w, const HandleNamer& name_of);
nlohmann::json FileToJson(const mpidbg_file_info_t& f, const HandleNamer& name_of);
nlohmann::json MessageToJson(const mpidbg_message_info_t& m, const HandleNamer& name_of);

// The constructor's inputs by name (MPI_Type_get_contents order and meaning for the
// combiner), e.g. {"count": 3, "blocklength": 2, "stride": 5, "oldtype": "MPI_INT"};
// datatype inputs are their names, or hex handles when they have none.
nlohmann::json DatatypeArguments(const mpidbg_datatype_info_t& d, const HandleNamer& name_of);

const char* CombinerName(int combiner);  // enum mpidbg_combiner -> "vector", ...

}  // namespace mpidbg::host
