// Process metadata through the plugin (mpidbg_process_get_launch, mpidbg_mpit_*), on
// every kind of target: every field, string pool bounds, torn and damaged catalogues.
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "built_scenario.h"

namespace mpidbg::test {
namespace {

mpidbg_launch_info Launch() {
  mpidbg_launch_info l{};
  l.size = sizeof l;
  l.launcher = MPIDBG_LAUNCHER_HYDRA;
  l.sources = MPIDBG_LAUNCH_FROM_PMI | MPIDBG_LAUNCH_FROM_MPI;
  l.rank = 1;
  l.world_size = 4;
  l.local_rank = 1;
  l.local_size = 2;
  l.node_rank = 0;
  l.appnum = 0;
  l.universe_size = 8;
  l.pid = 4242;
  l.mpi_rank = 1;
  std::strcpy(l.job_id, "kvs_4242_0");
  std::strcpy(l.host, "node-a");
  std::strcpy(l.launcher_name, "hydra");
  std::strcpy(l.pmi_interface, "pmi");
  return l;
}

// Strings: "eager\0limit in bytes\0path\0/tmp\0recv_count\0pt2pt\0sub\0"
ImageBuilder::MpitImage Catalogue() {
  ImageBuilder::MpitImage m;
  m.strings = std::string("eager\0limit in bytes\0path\0/tmp\0recv_count\0pt2pt\0sub\0", 52);
  mpidbg_mpit_cvar eager{};
  eager.name = 0;
  eager.desc = 6;
  eager.verbosity = 2;
  eager.datatype = MPIDBG_MPIT_INT;
  eager.scope = 2;
  eager.count = 1;
  eager.flags = MPIDBG_CVAR_VALUE_VALID;
  eager.value_int = 65536;
  eager.value_text = MPIDBG_MPIT_NO_STRING;
  mpidbg_mpit_cvar path{};
  path.name = 21;
  path.desc = MPIDBG_MPIT_NO_STRING;
  path.datatype = MPIDBG_MPIT_CHAR;
  path.count = 5;
  path.flags = MPIDBG_CVAR_VALUE_VALID;
  path.value_text = 26;
  m.cvars = {eager, path};
  mpidbg_mpit_pvar recv{};
  recv.name = 31;
  recv.desc = 9999;  // beyond the pool: reads as ""
  recv.var_class = 6;  // counter
  recv.datatype = MPIDBG_MPIT_UNSIGNED_LONG_LONG;
  recv.bind = 1;
  recv.count = -1;
  recv.flags = MPIDBG_PVAR_READONLY | MPIDBG_PVAR_CONTINUOUS;
  m.pvars = {recv};
  mpidbg_mpit_category pt2pt{};
  pt2pt.name = 42;
  pt2pt.desc = MPIDBG_MPIT_NO_STRING;
  pt2pt.num_cvars = 1;
  pt2pt.num_pvars = 1;
  pt2pt.num_categories = 1;
  pt2pt.first_member = 0;
  mpidbg_mpit_category sub{};
  sub.name = 48;
  sub.desc = MPIDBG_MPIT_NO_STRING;
  sub.num_cvars = 1;
  sub.first_member = 3;
  m.categories = {pt2pt, sub};
  m.members = {0, 0, 1, 1};
  return m;
}

class Metadata : public BuiltScenario {};

TEST_P(Metadata, LaunchInfoAndOrphanCounters) {
  Start([](ImageBuilder& b) {
    b.add_launch(Launch());
    b.root.orphan_budget = 16;
    b.root.orphan_keep_all = 1;
    b.root.orphan_count = 5;
    b.root.orphan_evictions = 7;
    b.root.orphan_releases = 3;
    b.root.mpi_version = 4;
    b.root.mpi_subversion = 0;
    b.root.thread_level_requested = MPIDBG_THREAD_MULTIPLE;
    b.root.debug_gate_hold = 1;
  });
  mpidbg_launch_summary l{};
  l.size = sizeof l;
  ASSERT_EQ(p().mpidbg_process_get_launch(proc(), &l), mqs_ok);
  EXPECT_EQ(l.launcher, static_cast<uint32_t>(MPIDBG_LAUNCHER_HYDRA));
  EXPECT_EQ(l.sources, static_cast<uint32_t>(MPIDBG_LAUNCH_FROM_PMI | MPIDBG_LAUNCH_FROM_MPI));
  EXPECT_EQ(l.rank, 1);
  EXPECT_EQ(l.world_size, 4);
  EXPECT_EQ(l.local_rank, 1);
  EXPECT_EQ(l.local_size, 2);
  EXPECT_EQ(l.node_rank, 0);
  EXPECT_EQ(l.appnum, 0);
  EXPECT_EQ(l.universe_size, 8);
  EXPECT_EQ(l.pid, 4242);
  EXPECT_EQ(l.mpi_rank, 1);
  EXPECT_STREQ(l.job_id, "kvs_4242_0");
  EXPECT_STREQ(l.host, "node-a");
  EXPECT_STREQ(l.launcher_name, "hydra");
  EXPECT_STREQ(l.pmi_interface, "pmi");
  EXPECT_EQ(l.mpi_version, 4);
  EXPECT_EQ(l.thread_level_requested, MPIDBG_THREAD_MULTIPLE);
  EXPECT_EQ(l.debug_gate_hold, 1);
  EXPECT_EQ(l.orphan_budget, 16u);
  EXPECT_EQ(l.orphan_keep_all, 1u);
  EXPECT_EQ(l.orphan_count, 5u);
  EXPECT_EQ(l.orphan_evictions, 7u);
  EXPECT_EQ(l.orphan_releases, 3u);
}

TEST_P(Metadata, NothingRecordedMeansNoInformation) {
  Start([](ImageBuilder&) {});
  mpidbg_launch_summary l{};
  l.size = sizeof l;
  EXPECT_EQ(p().mpidbg_process_get_launch(proc(), &l), mqs_no_information);
  mpidbg_mpit_summary m{};
  m.size = sizeof m;
  EXPECT_EQ(p().mpidbg_mpit_read(proc(), &m), mqs_no_information);
  mpidbg_mpit_variable v{};
  v.size = sizeof v;
  EXPECT_NE(p().mpidbg_mpit_cvar_get(proc(), 0, &v), mqs_ok);
}

TEST_P(Metadata, CatalogueDecodes) {
  Start([](ImageBuilder& b) { b.add_mpit(Catalogue()); });
  mpidbg_mpit_summary m{};
  m.size = sizeof m;
  ASSERT_EQ(p().mpidbg_mpit_read(proc(), &m), mqs_ok);
  EXPECT_EQ(m.available, 1);
  EXPECT_EQ(m.cvars, 2);
  EXPECT_EQ(m.pvars, 1);
  EXPECT_EQ(m.categories, 2);
  EXPECT_EQ(m.refreshes, 1u);
  EXPECT_EQ(m.captured_time_ns, 1700000000123456789);

  mpidbg_mpit_variable v{};
  v.size = sizeof v;
  ASSERT_EQ(p().mpidbg_mpit_cvar_get(proc(), 0, &v), mqs_ok);
  EXPECT_STREQ(v.name, "eager");
  EXPECT_STREQ(v.description, "limit in bytes");
  EXPECT_EQ(v.performance, 0);
  EXPECT_EQ(v.verbosity, 2);
  EXPECT_EQ(v.datatype, MPIDBG_MPIT_INT);
  EXPECT_EQ(v.scope, 2);
  EXPECT_EQ(v.value_valid, 1);
  EXPECT_EQ(v.value_int, 65536);
  ASSERT_EQ(p().mpidbg_mpit_cvar_get(proc(), 1, &v), mqs_ok);
  EXPECT_STREQ(v.name, "path");
  EXPECT_STREQ(v.description, "");
  EXPECT_STREQ(v.value_text, "/tmp");
  EXPECT_NE(p().mpidbg_mpit_cvar_get(proc(), 2, &v), mqs_ok);

  ASSERT_EQ(p().mpidbg_mpit_pvar_get(proc(), 0, &v), mqs_ok);
  EXPECT_STREQ(v.name, "recv_count");
  EXPECT_STREQ(v.description, "");
  EXPECT_EQ(v.performance, 1);
  EXPECT_EQ(v.var_class, 6);
  EXPECT_EQ(v.bind, 1);
  EXPECT_EQ(v.flags, static_cast<uint32_t>(MPIDBG_PVAR_READONLY | MPIDBG_PVAR_CONTINUOUS));

  mpidbg_mpit_category_info c{};
  c.size = sizeof c;
  ASSERT_EQ(p().mpidbg_mpit_category_get(proc(), 0, &c), mqs_ok);
  EXPECT_STREQ(c.name, "pt2pt");
  EXPECT_EQ(c.num_cvars, 1);
  EXPECT_EQ(c.num_pvars, 1);
  EXPECT_EQ(c.num_categories, 1);
  int kind = -1, member = -1;
  ASSERT_EQ(p().mpidbg_mpit_category_member(proc(), 0, 0, &kind, &member), mqs_ok);
  EXPECT_EQ(kind, 0);
  EXPECT_EQ(member, 0);
  ASSERT_EQ(p().mpidbg_mpit_category_member(proc(), 0, 1, &kind, &member), mqs_ok);
  EXPECT_EQ(kind, 1);
  EXPECT_EQ(member, 0);
  ASSERT_EQ(p().mpidbg_mpit_category_member(proc(), 0, 2, &kind, &member), mqs_ok);
  EXPECT_EQ(kind, 2);
  EXPECT_EQ(member, 1);
  EXPECT_NE(p().mpidbg_mpit_category_member(proc(), 0, 3, &kind, &member), mqs_ok);
  ASSERT_EQ(p().mpidbg_mpit_category_member(proc(), 1, 0, &kind, &member), mqs_ok);
  EXPECT_EQ(kind, 0);
  EXPECT_EQ(member, 1);
  EXPECT_NE(p().mpidbg_mpit_category_member(proc(), 1, 0, nullptr, &member), mqs_ok);
}

TEST_P(Metadata, TornCatalogueIsRefused) {
  ImageBuilder::MpitImage m = Catalogue();
  m.seq = 5;  // a refresh is rewriting it
  Start([&](ImageBuilder& b) { b.add_mpit(m); });
  mpidbg_mpit_summary s{};
  s.size = sizeof s;
  EXPECT_NE(p().mpidbg_mpit_read(proc(), &s), mqs_ok);
}

TEST_P(Metadata, DamagedCatalogueFailsCleanly) {
  uint64_t at = 0;
  Start([&](ImageBuilder& b) { at = b.add_mpit(Catalogue()); });
  FakeTarget& t = *scenario_.target;
  mpidbg_mpit_summary s{};
  s.size = sizeof s;
  const uint64_t cvars = at + offsetof(mpidbg_mpit_catalogue, cvars);
  t.put32(cvars + offsetof(mpidbg_array, count), 0x7fffffff);
  EXPECT_NE(p().mpidbg_mpit_read(proc(), &s), mqs_ok);
  t.put32(cvars + offsetof(mpidbg_array, count), 2);
  t.put32(cvars + offsetof(mpidbg_array, elem_size), 4);
  EXPECT_NE(p().mpidbg_mpit_read(proc(), &s), mqs_ok);
  t.put32(cvars + offsetof(mpidbg_array, elem_size), sizeof(mpidbg_mpit_cvar));
  // A member index past the members array: the member call refuses, nothing crashes.
  ASSERT_EQ(p().mpidbg_mpit_read(proc(), &s), mqs_ok);
  const uint64_t strings = at + offsetof(mpidbg_mpit_catalogue, strings);
  t.put64(strings + offsetof(mpidbg_array, address), 0x10);
  EXPECT_NE(p().mpidbg_mpit_read(proc(), &s), mqs_ok);
  // The earlier good read is still served.
  mpidbg_mpit_variable v{};
  v.size = sizeof v;
  EXPECT_EQ(p().mpidbg_mpit_cvar_get(proc(), 0, &v), mqs_ok);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, Metadata, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
