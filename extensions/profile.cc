// profile.cc — MPI-state sampling (mpidbg_ext.h, version 3).
//
// mpidbg_profile_read decodes the sampling block afresh (plugin/profile_snapshot.h); the
// getters answer from that decode: functions with samples in call-id order, sites with
// samples most first.
#include <cstring>

#include "extensions/operation_info.h"
#include "extensions/fresh_block.h"
#include "extensions/sized_copy.h"
#include "mpidbg/mpidbg_ext.h"
#include "plugin/session.h"
#include "plugin/errors.h"
#include "plugin/export.h"

namespace {

using mpidbg::plugin::ProcessSession;
using namespace mpidbg::plugin;

int last_profile(mqs_process* process, const ProfileSnapshot** out) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr || ps->profile == nullptr) return kErrOutOfOrder;
  *out = ps->profile;
  return mqs_ok;
}

}  // namespace

MPIDBG_EXPORT int mpidbg_profile_read(mqs_process* process, mpidbg_profile_summary* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  ProcessSession* ps = nullptr;
  const int rc = mpidbg::extensions::read_block_afresh(process, mpidbg::plugin::replace_profile,
                                                mpidbg::plugin::drop_profile, &ps);
  if (rc != mqs_ok) return rc;
  const ProfileSnapshot& p = *ps->profile;
  const mpidbg_profile& h = p.header;
  mpidbg_profile_summary full;
  std::memset(&full, 0, sizeof full);
  full.active = h.active;
  full.period_ns = h.period_ns;
  full.signal = h.signal;
  full.clock = h.clock;
  full.start_time_ns = h.start_time_ns;
  full.stop_time_ns = h.stop_time_ns;
  static_assert(sizeof full.samples == sizeof h.samples, "same field widths");
  std::memcpy(full.samples, h.samples, sizeof full.samples);
  full.lost = h.lost;
  full.threads = h.threads;
  full.function_count = mpidbg::extensions::clamp_count(p.functions.size());
  full.site_count = mpidbg::extensions::clamp_count(p.sites.size());
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_profile_function_get(mqs_process* process, int index,
                                              mpidbg_profile_function_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const ProfileSnapshot* p;
  const int rc = last_profile(process, &p);
  if (rc != mqs_ok) return rc;
  if (index < 0 || static_cast<size_t>(index) >= p->functions.size()) return kErrNoSuchEntry;
  const ProfileFunction& f = p->functions[static_cast<size_t>(index)];
  mpidbg_profile_function_info full;
  std::memset(&full, 0, sizeof full);
  full.call = f.call;
  full.working = f.working;
  full.blocked = f.blocked;
  mpidbg::extensions::call_display_name(f.call, full.call_name, sizeof full.call_name);
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_profile_site_get(mqs_process* process, int index,
                                          mpidbg_profile_site_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const ProfileSnapshot* p;
  const int rc = last_profile(process, &p);
  if (rc != mqs_ok) return rc;
  if (index < 0 || static_cast<size_t>(index) >= p->sites.size()) return kErrNoSuchEntry;
  const mpidbg_profile_site& s = p->sites[static_cast<size_t>(index)];
  mpidbg_profile_site_info full;
  std::memset(&full, 0, sizeof full);
  full.call = s.call;
  full.address = s.address;
  full.working = s.working;
  full.blocked = s.blocked;
  mpidbg::extensions::call_display_name(s.call, full.call_name, sizeof full.call_name);
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}
