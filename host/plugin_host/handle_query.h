// handle_query.h — the DLL's calls about one handle: Fortran conversion, the query of a
// kind (its result owned and freed by the caller's HandleResult), the name maps of
// predefined handles, and the one sentence a failed call becomes. What a result shows
// is handle/handle_describer's business.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "host/plugin_host/handle_functions.h"
#include "host/plugin_host/handle_results.h"
#include "host/util/status.h"

namespace mpidbg::host {

// What the queries run against: the DLL's entry points and the four leading arguments
// of every query, from whichever debugger set the target up in the DLL (the host's
// HandleSession, or another debugger through libmpidbg_describe).
struct HandleCalls {
  const HandleFunctions* fn = nullptr;
  mqs_image* image = nullptr;
  mqs_image_info* image_info = nullptr;
  mqs_process* process = nullptr;
  mqs_process_info* process_info = nullptr;
  ResultFree release = nullptr;  // the debugger's mqs_free
  std::string dll_path;          // named in failures
  // The message of the last failed target read ("" when none); may be empty.
  std::function<std::string()> last_read_error;
};

class HandleQuery {
 public:
  explicit HandleQuery(HandleCalls calls) : c_(std::move(calls)) {}

  // enum mpidbg_handle_kind for "comm", ...; 0 for "status" and unknown names.
  static int KindNumber(const std::string& kind);
  // The name of enum mpidbg_handle_kind `kind`; "" for an unknown number.
  static std::string KindName(int kind);

  const HandleFunctions& fn() const { return *c_.fn; }
  // A result holder freeing with the debugger's mqs_free.
  template <typename Info>
  HandleResult<Info> NewResult() const {
    return HandleResult<Info>(c_.release);
  }

  // The C handle (or, for "status", the C status address) of a Fortran value.
  Result<uint64_t> FortranToC(const std::string& kind, uint64_t fortran_value);

  // Runs `query` (a member of fn(); nullptr when the DLL lacks it, which answers
  // MPIDBG_ERR_NOT_SUPPORTED) on `value`; the result lands in `out`. The MPIDBG_* code.
  template <typename Info>
  int Run(int (*query)(mqs_image*, mqs_image_info*, mqs_process*, mqs_process_info*,
                       mqs_taddr_t, Info**),
          uint64_t value, HandleResult<Info>* out) {
    if (query == nullptr) return MPIDBG_ERR_NOT_SUPPORTED;
    return query(c_.image, c_.image_info, c_.process, c_.process_info, value, out->out());
  }
  // The same for a query that takes one more argument (the datatype's map limit).
  template <typename Info, typename Extra>
  int Run(int (*query)(mqs_image*, mqs_image_info*, mqs_process*, mqs_process_info*,
                       mqs_taddr_t, Extra, Info**),
          uint64_t value, Extra extra, HandleResult<Info>* out) {
    if (query == nullptr) return MPIDBG_ERR_NOT_SUPPORTED;
    return query(c_.image, c_.image_info, c_.process, c_.process_info, value, extra,
                 out->out());
  }

  // The DLL's names of the predefined handles of `kind`, asked once (empty without).
  const std::map<uint64_t, std::string>& NameMap(int kind);

  // A failed call (MPIDBG_* code `rc`) about `what`, as the command reports it.
  Status Failure(int rc, const std::string& what) const;

 private:
  HandleCalls c_;
  std::map<int, std::map<uint64_t, std::string>> maps_;
};

}  // namespace mpidbg::host
