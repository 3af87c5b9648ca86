// metadata.cc — the launcher/PMI view, orphan counters and the MPI_T catalogue
// (mpidbg_ext.h, version 2).
#include <cstdio>
#include <cstring>

#include "extensions/sized_copy.h"
#include "mpidbg/mpidbg_ext.h"
#include "plugin/session.h"
#include "plugin/errors.h"
#include "plugin/export.h"

namespace {

using mpidbg::plugin::ProcessSession;
using namespace mpidbg::plugin;

int last_mpit(mqs_process* process, const MpitSnapshot** out) {
  ProcessSession* ps = mpidbg::plugin::process_session(process);
  if (ps == nullptr || ps->mpit == nullptr) return kErrOutOfOrder;
  *out = ps->mpit;
  return mqs_ok;
}

// Entry `index` of one list of the catalogue the last mpidbg_mpit_read decoded.
template <typename T>
int mpit_entry(mqs_process* process, int index, Vec<T> MpitSnapshot::*list,
               const MpitSnapshot** m, const T** entry) {
  const int rc = last_mpit(process, m);
  if (rc != mqs_ok) return rc;
  const Vec<T>& items = (*m)->*list;
  if (index < 0 || static_cast<size_t>(index) >= items.size()) return kErrNoSuchEntry;
  *entry = &items[static_cast<size_t>(index)];
  return mqs_ok;
}

void copy_string(char* dst, size_t size, const char* src) { std::snprintf(dst, size, "%s", src); }

// What control and performance variables have alike (the rest is zero).
template <typename Var>
void fill_variable(const MpitSnapshot& m, const Var& v, int32_t performance,
                   mpidbg_mpit_variable* full) {
  std::memset(full, 0, sizeof *full);
  full->performance = performance;
  full->verbosity = v.verbosity;
  full->datatype = v.datatype;
  full->bind = v.bind;
  full->count = v.count;
  full->flags = v.flags;
  copy_string(full->name, sizeof full->name, m.string_at(v.name));
  copy_string(full->description, sizeof full->description, m.string_at(v.desc));
}

}  // namespace

MPIDBG_EXPORT int mpidbg_process_get_launch(mqs_process* process, mpidbg_launch_summary* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  ProcessSession* ps;
  mpidbg_root root;
  int rc = mpidbg::plugin::read_current_root(process, &ps, &root);
  if (rc != mqs_ok) return rc;
  mpidbg_launch_info info;
  rc = decode_launch_info(ps->reader, root, &info);
  if (rc == kErrNoMetadata) return mqs_no_information;
  if (rc != mqs_ok) return rc;
  mpidbg_launch_summary full;
  std::memset(&full, 0, sizeof full);
  full.launcher = info.launcher;
  full.sources = info.sources;
  full.rank = info.rank;
  full.world_size = info.world_size;
  full.local_rank = info.local_rank;
  full.local_size = info.local_size;
  full.node_rank = info.node_rank;
  full.appnum = info.appnum;
  full.universe_size = info.universe_size;
  full.pid = info.pid;
  full.mpi_rank = info.mpi_rank;
  full.mpi_version = root.mpi_version;
  full.mpi_subversion = root.mpi_subversion;
  full.thread_level_requested = root.thread_level_requested;
  full.debug_gate_hold = root.debug_gate_hold;
  full.orphan_budget = root.orphan_budget;
  full.orphan_keep_all = root.orphan_keep_all;
  full.orphan_count = root.orphan_count;
  full.orphan_evictions = root.orphan_evictions;
  full.orphan_releases = root.orphan_releases;
  static_assert(sizeof full.job_id == sizeof info.job_id, "same field widths");
  std::memcpy(full.job_id, info.job_id, sizeof full.job_id);
  std::memcpy(full.host, info.host, sizeof full.host);
  std::memcpy(full.launcher_name, info.launcher_name, sizeof full.launcher_name);
  std::memcpy(full.pmi_interface, info.pmi_interface, sizeof full.pmi_interface);
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_mpit_read(mqs_process* process, mpidbg_mpit_summary* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  ProcessSession* ps;
  mpidbg_root root;
  int rc = mpidbg::plugin::read_current_root(process, &ps, &root);
  if (rc != mqs_ok) return rc;
  MpitSnapshot* fresh = debugger_new<MpitSnapshot>();
  if (fresh == nullptr) return kErrNoMemory;
  rc = decode_mpit(ps->reader, root, ps->metadata_limits, fresh);
  if (rc != mqs_ok) {
    debugger_delete(fresh);
    return rc == kErrNoMetadata ? mqs_no_information : rc;
  }
  debugger_delete(ps->mpit);
  ps->mpit = fresh;
  mpidbg_mpit_summary full;
  std::memset(&full, 0, sizeof full);
  full.available = fresh->header.available;
  full.cvars = mpidbg::extensions::clamp_count(fresh->cvars.size());
  full.pvars = mpidbg::extensions::clamp_count(fresh->pvars.size());
  full.categories = mpidbg::extensions::clamp_count(fresh->categories.size());
  full.refreshes = fresh->header.refreshes;
  full.captured_time_ns = fresh->header.captured_time_ns;
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_mpit_cvar_get(mqs_process* process, int index, mpidbg_mpit_variable* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const MpitSnapshot* m;
  const mpidbg_mpit_cvar* c;
  const int rc = mpit_entry(process, index, &MpitSnapshot::cvars, &m, &c);
  if (rc != mqs_ok) return rc;
  mpidbg_mpit_variable full;
  fill_variable(*m, *c, /*performance=*/0, &full);
  full.scope = c->scope;
  full.var_class = -1;
  full.value_valid = (c->flags & MPIDBG_CVAR_VALUE_VALID) != 0;
  full.value_int = c->value_int;
  full.value_double = c->value_double;
  if (c->datatype == MPIDBG_MPIT_CHAR) {
    copy_string(full.value_text, sizeof full.value_text, m->string_at(c->value_text));
  }
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_mpit_pvar_get(mqs_process* process, int index, mpidbg_mpit_variable* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const MpitSnapshot* m;
  const mpidbg_mpit_pvar* p;
  const int rc = mpit_entry(process, index, &MpitSnapshot::pvars, &m, &p);
  if (rc != mqs_ok) return rc;
  mpidbg_mpit_variable full;
  fill_variable(*m, *p, /*performance=*/1, &full);
  full.scope = -1;
  full.var_class = p->var_class;
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_mpit_category_get(mqs_process* process, int index,
                                           mpidbg_mpit_category_info* out) {
  const uint32_t n = mpidbg::extensions::caller_size(out);
  if (n == 0) return kErrBadArgument;
  const MpitSnapshot* m;
  const mpidbg_mpit_category* c;
  const int rc = mpit_entry(process, index, &MpitSnapshot::categories, &m, &c);
  if (rc != mqs_ok) return rc;
  mpidbg_mpit_category_info full;
  std::memset(&full, 0, sizeof full);
  full.num_cvars = c->num_cvars;
  full.num_pvars = c->num_pvars;
  full.num_categories = c->num_categories;
  copy_string(full.name, sizeof full.name, m->string_at(c->name));
  copy_string(full.description, sizeof full.description, m->string_at(c->desc));
  mpidbg::extensions::copy_prefix(out, full, n);
  return mqs_ok;
}

MPIDBG_EXPORT int mpidbg_mpit_category_member(mqs_process* process, int index, int k, int* kind,
                                              int* member) {
  if (kind == nullptr || member == nullptr) return kErrBadArgument;
  const MpitSnapshot* m;
  const mpidbg_mpit_category* c;
  const int rc = mpit_entry(process, index, &MpitSnapshot::categories, &m, &c);
  if (rc != mqs_ok) return rc;
  if (c->num_cvars < 0 || c->num_pvars < 0 || c->num_categories < 0) return kErrMetadataDamaged;
  const int64_t total = int64_t{c->num_cvars} + c->num_pvars + c->num_categories;
  if (k < 0 || k >= total) return kErrNoSuchEntry;
  const uint64_t at = uint64_t{c->first_member} + static_cast<uint64_t>(k);
  if (at >= m->members.size()) return kErrMetadataDamaged;
  *kind = k < c->num_cvars ? 0 : (k < int64_t{c->num_cvars} + c->num_pvars ? 1 : 2);
  *member = m->members[static_cast<size_t>(at)];
  return mqs_ok;
}
