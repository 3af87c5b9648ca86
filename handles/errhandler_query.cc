// errhandler_query.cc — error handler handles: mpidbg_errhandler_query (version 1) and
// the Fortran / C++ conversions.
#include "handles/query_support.h"
#include "plugin/export.h"

namespace {

using namespace mpidbg::handles;
using mpidbg::plugin::ErrhandlerEntry;
using mpidbg::plugin::Vec;

unsigned int target_bits(int32_t target) {
  switch (target) {
    case MPIDBG_ERRH_ANY:
      return MPIDBG_ERRH_INFO_COMMUNICATOR | MPIDBG_ERRH_INFO_FILE | MPIDBG_ERRH_INFO_WINDOW;
    case MPIDBG_ERRH_COMM:
      return MPIDBG_ERRH_INFO_COMMUNICATOR;
    case MPIDBG_ERRH_WIN:
      return MPIDBG_ERRH_INFO_WINDOW;
    case MPIDBG_ERRH_FILE:
      return MPIDBG_ERRH_INFO_FILE;
    default:
      return 0;  // sessions have no bit in the interface
  }
}

// The communicators, windows and files (not freed) the handler is attached to.
bool attached_to(const QueryContext& ctx, uint64_t handle, Vec<mqs_taddr_t>* out) {
  for (const auto& c : ctx.snapshot->comms) {
    if ((c.rec.hdr.flags & MPIDBG_REC_FREED) != 0 || c.rec.errhandler == 0) continue;
    if (same(ctx, c.rec.errhandler, handle) && !out->push_back(c.rec.handle)) return false;
  }
  for (const auto& w : ctx.objects->windows) {
    if ((w.rec.obj.hdr.flags & MPIDBG_REC_FREED) != 0 || w.rec.errhandler == 0) continue;
    if (same(ctx, w.rec.errhandler, handle) && !out->push_back(w.rec.obj.handle)) return false;
  }
  for (const auto& f : ctx.objects->files) {
    if ((f.rec.obj.hdr.flags & MPIDBG_REC_FREED) != 0 || f.rec.errhandler == 0) continue;
    if (same(ctx, f.rec.errhandler, handle) && !out->push_back(f.rec.obj.handle)) return false;
  }
  return true;
}

int fill(const QueryContext& ctx, const mpidbg_errhandler_record& e, mpidbg_errhandler_info_t* out) {
  const bool predefined = (e.obj.hdr.flags & MPIDBG_REC_PREDEFINED) != 0;
  set_name(out->eh_name, sizeof out->eh_name, e.obj.name);
  // PREDEFINED and FREED_* have the same values as the handle bits.
  unsigned int bits = object_bits(e.obj.hdr.flags);
  bits |= predefined ? target_bits(MPIDBG_ERRH_ANY) : target_bits(e.target);
  if (!predefined) bits |= MPIDBG_ERRH_INFO_C_CALLBACK;
  out->eh_bitflags = static_cast<mpidbg_errhandler_info_bitmap_t>(bits);
  out->eh_c_handle = static_cast<mqs_taddr_t>(e.obj.handle);
  out->eh_fortran_handle = fortran_handle(ctx, e.obj.fortran_index, e.obj.handle);
  out->eh_callback_func = static_cast<mqs_taddr_t>(e.function);
  Vec<mqs_taddr_t> handles;
  if (!attached_to(ctx, e.obj.handle, &handles)) return MPIDBG_ERR_NO_MEM;
  // eh_refcount is the array's length for the debugger: both stop at INT16_MAX.
  const size_t n = handles.size() < INT16_MAX ? handles.size() : INT16_MAX;
  out->eh_refcount = static_cast<int16_t>(n);
  bool ok = true;
  out->eh_handles = copy_out(handles.data(), n, &ok);
  return ok ? MPIDBG_SUCCESS : MPIDBG_ERR_NO_MEM;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_errhandler_query(mqs_image*, mqs_image_info*, mqs_process* process,
                                          mqs_process_info* process_info, mqs_taddr_t errhandler,
                                          struct mpidbg_errhandler_info_t** info) {
  if (info == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  *info = nullptr;
  QueryContext ctx;
  const int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  const bool is_null = is_null_handle(ctx, ctx.snapshot->root.errhandler_null_handle, errhandler);
  const ErrhandlerEntry* entry = is_null ? nullptr : ctx.objects->find_errhandler(errhandler);
  if (!is_null && entry == nullptr) return MPIDBG_ERR_NOT_FOUND;
  auto* out = new_result<mpidbg_errhandler_info_t>();
  if (out == nullptr) return MPIDBG_ERR_NO_MEM;
  if (is_null) {
    // The version-1 bits have no null; the extension's MPIDBG_HANDLE_NULL is free there.
    set_name(out->eh_name, sizeof out->eh_name, "MPI_ERRHANDLER_NULL");
    out->eh_bitflags = static_cast<mpidbg_errhandler_info_bitmap_t>(MPIDBG_HANDLE_NULL);
    out->eh_c_handle = static_cast<mqs_taddr_t>(errhandler);
    out->eh_fortran_handle = fortran_handle(ctx, -1, errhandler);
  } else {
    const int fill_rc = fill(ctx, entry->rec, out);
    if (fill_rc != MPIDBG_SUCCESS) {
      free_result(out);
      return fill_rc;
    }
  }
  *info = out;
  return MPIDBG_SUCCESS;
}

MPIDBG_EXPORT int mpidbg_errhandler_f2c(mqs_image*, mqs_image_info*, mqs_process* process,
                                        mqs_process_info* process_info, mqs_taddr_t f77_errhandler,
                                        mqs_taddr_t* c_errhandler) {
  if (c_errhandler == nullptr) return MPIDBG_ERR_OUT_OF_RANGE;
  QueryContext ctx;
  const int rc = open_query(process, process_info, &ctx);
  if (rc != MPIDBG_SUCCESS) return rc;
  const int32_t index = static_cast<int32_t>(static_cast<uint32_t>(f77_errhandler));
  const ErrhandlerEntry* entry = ctx.objects->find_errhandler_f(index);
  if (entry != nullptr) {
    *c_errhandler = static_cast<mqs_taddr_t>(entry->rec.obj.handle);
    return MPIDBG_SUCCESS;
  }
  if (fortran_is_c(ctx)) {
    const uint64_t value = static_cast<uint32_t>(index);
    if (ctx.objects->find_errhandler(value) != nullptr ||
        is_null_handle(ctx, ctx.snapshot->root.errhandler_null_handle, value)) {
      *c_errhandler = static_cast<mqs_taddr_t>(value);
      return MPIDBG_SUCCESS;
    }
  }
  return MPIDBG_ERR_NOT_FOUND;
}

MPIDBG_EXPORT int mpidbg_errhandler_cxx2c(mqs_image*, mqs_image_info*, mqs_process*,
                                          mqs_process_info*, mqs_taddr_t, mqs_taddr_t*) {
  return MPIDBG_ERR_NOT_SUPPORTED;
}
