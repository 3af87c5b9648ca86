// describe_library.cc — libmpidbg_describe.so (include/mpidbg/mpidbg_describe.h): the
// host's describer (handle_describer, handle_text, handle_fields) behind a C interface,
// over a DLL and target another debugger set up.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "host/handle/handle_describer.h"
#include "host/handle/handle_fields.h"
#include "host/handle/handle_text.h"
#include "host/plugin_host/handle_query.h"
#include "mpidbg/mpidbg_describe.h"

#define MPIDBG_DESCRIBE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using mpidbg::host::ErrorKind;
using mpidbg::host::HandleCalls;
using mpidbg::host::HandleDescriber;
using mpidbg::host::HandleFields;
using mpidbg::host::HandleFieldsJson;
using mpidbg::host::HandleFunctions;
using mpidbg::host::HandleQuery;
using mpidbg::host::HandleSummary;
using mpidbg::host::HandleText;
using mpidbg::host::Status;
using nlohmann::json;

// A copy in malloc'd memory (mpidbg_describe_release frees it); null when out of memory.
char* Copy(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (p != nullptr) std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

int Fail(int code, const std::string& message, char** error) {
  if (error != nullptr) *error = Copy(message);
  return code;
}

int CodeOf(const Status& s) {
  switch (s.kind()) {
    case ErrorKind::kNoSupport:
      return MPIDBG_DESCRIBE_NO_SUPPORT;
    case ErrorKind::kUsage:
      return MPIDBG_DESCRIBE_BAD_REQUEST;
    case ErrorKind::kUnreadable:
      return MPIDBG_DESCRIBE_UNREADABLE;
    default:
      return MPIDBG_DESCRIBE_INTERNAL;
  }
}

// Target text into JSON text: names come from target memory, so invalid UTF-8 is
// replaced rather than thrown on.
std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// The caller's target as the queries run against it. The DLL is resolved by path among
// the libraries already loaded (RTLD_NOLOAD): the caller's copy, with its state.
bool Calls(const mpidbg_describe_target_t* t, HandleFunctions* fn, HandleCalls* calls,
           std::string* why) {
  if (t == nullptr || t->dll_path == nullptr || t->mqs_free == nullptr) {
    *why = "no target: the DLL path and the caller's mqs_free are required";
    return false;
  }
  void* dl = dlopen(t->dll_path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (dl == nullptr) {
    *why = std::string("the DLL ") + t->dll_path + " is not loaded in this process";
    return false;
  }
  mpidbg::host::ResolveHandleFunctions(dl, fn);
  dlclose(dl);  // drops the reference NOLOAD took; the caller's keeps it loaded
  if (fn->comm_query == nullptr) {
    *why = std::string(t->dll_path) + " has no MPI handle interface";
    return false;
  }
  calls->fn = fn;
  calls->image = t->image;
  calls->image_info = t->image_info;
  calls->process = t->process;
  calls->process_info = t->process_info;
  calls->release = t->mqs_free;
  calls->dll_path = t->dll_path;
  return true;
}

void Zero(mpidbg_description_t* d) { std::memset(d, 0, sizeof(*d)); }

// Runs `body` with a query over the caller's target; every exception becomes a code and
// one sentence ("cannot <what>: ..."), so none crosses the C interface.
template <typename Body>
int WithQuery(const mpidbg_describe_target_t* target, const char* what, char** error,
              const Body& body) {
  try {
    HandleFunctions fn;
    HandleCalls calls;
    std::string why;
    if (!Calls(target, &fn, &calls, &why)) return Fail(MPIDBG_DESCRIBE_NO_SUPPORT, why, error);
    HandleQuery query(calls);
    return body(query);
  } catch (const std::bad_alloc&) {
    return Fail(MPIDBG_DESCRIBE_INTERNAL, "out of memory", error);
  } catch (const std::exception& e) {
    return Fail(MPIDBG_DESCRIBE_INTERNAL, std::string("cannot ") + what + ": " + e.what(), error);
  } catch (...) {
    return Fail(MPIDBG_DESCRIBE_INTERNAL, std::string("cannot ") + what, error);
  }
}

}  // namespace

MPIDBG_DESCRIBE_EXPORT int mpidbg_describe_version(void) { return MPIDBG_DESCRIBE_VERSION; }

MPIDBG_DESCRIBE_EXPORT int mpidbg_describe_handle(const mpidbg_describe_target_t* target,
                                                  const char* kind, uint64_t value,
                                                  int max_map_entries,
                                                  mpidbg_description_t* out, char** error) {
  if (error != nullptr) *error = nullptr;
  if (out == nullptr || kind == nullptr) {
    return Fail(MPIDBG_DESCRIBE_BAD_REQUEST, "no kind or no place for the description", error);
  }
  Zero(out);
  const int rc = WithQuery(target, "describe the handle", error, [&](HandleQuery& query) {
    auto handle = HandleDescriber(&query).Describe(kind, value, max_map_entries);
    if (!handle.ok()) return Fail(CodeOf(handle.status()), handle.status().message(), error);
    out->summary = Copy(HandleSummary(*handle));
    out->text = Copy(HandleText(json{{"handle", *handle}, {"query", json::object()}}));
    out->json = Copy(Dump(*handle));
    out->fields = Copy(Dump(HandleFieldsJson(HandleFields(*handle))));
    if (out->summary == nullptr || out->text == nullptr || out->json == nullptr ||
        out->fields == nullptr) {
      return Fail(MPIDBG_DESCRIBE_INTERNAL, "out of memory", error);
    }
    return static_cast<int>(MPIDBG_DESCRIBE_OK);
  });
  if (rc != MPIDBG_DESCRIBE_OK) mpidbg_describe_clear(out);
  return rc;
}

MPIDBG_DESCRIBE_EXPORT int mpidbg_describe_fortran_to_c(const mpidbg_describe_target_t* target,
                                                        const char* kind, uint64_t fortran_value,
                                                        uint64_t* c_value, char** error) {
  if (error != nullptr) *error = nullptr;
  if (c_value == nullptr || kind == nullptr) {
    return Fail(MPIDBG_DESCRIBE_BAD_REQUEST, "no kind or no place for the C handle", error);
  }
  return WithQuery(target, "convert the handle", error, [&](HandleQuery& query) {
    auto c = query.FortranToC(kind, fortran_value);
    if (!c.ok()) return Fail(CodeOf(c.status()), c.status().message(), error);
    *c_value = *c;
    return static_cast<int>(MPIDBG_DESCRIBE_OK);
  });
}

MPIDBG_DESCRIBE_EXPORT void mpidbg_describe_release(char* text) { std::free(text); }

MPIDBG_DESCRIBE_EXPORT void mpidbg_describe_clear(mpidbg_description_t* d) {
  if (d == nullptr) return;
  std::free(d->summary);
  std::free(d->text);
  std::free(d->json);
  std::free(d->fields);
  Zero(d);
}
