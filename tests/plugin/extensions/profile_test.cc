// MPI-state sampling (mpidbg_profile_*), on every kind of target: exact decoding of
// hand-built blocks, functions in call-id order, sites by samples, older roots, damaged
// blocks.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "built_scenario.h"

namespace mpidbg::test {
namespace {

constexpr uint64_t kHighAddress = 0x00007f1234567890ull;  // a code address of a 64-bit target

mpidbg_profile_site Site(uint32_t state, int32_t call, uint64_t address, uint64_t working,
                         uint64_t blocked) {
  mpidbg_profile_site s{};
  s.state = state;
  s.call = call;
  s.address = address;
  s.working = working;
  s.blocked = blocked;
  return s;
}

ImageBuilder::ProfileImage Image() {
  ImageBuilder::ProfileImage p;
  mpidbg_profile& h = p.header;
  h.active = 1;
  h.period_ns = 10000000;
  h.signal = 34;
  h.clock = MPIDBG_PROFILE_CPU;
  h.start_time_ns = 1700000000000000011;
  h.stop_time_ns = 0;
  h.samples[MPIDBG_THREAD_NOT_IN_MPI] = 100;
  h.samples[MPIDBG_THREAD_IN_MPI] = 20;
  h.samples[MPIDBG_THREAD_BLOCKED] = (uint64_t{1} << 40) + 3;
  h.lost = 2;
  h.threads = 3;
  p.functions.resize(MPIDBG_CALL_ID_LIMIT);
  p.functions[MPIDBG_CALL_MPI_Send] = {5, 0};
  p.functions[MPIDBG_CALL_MPI_Recv] = {1, 7};
  p.functions[MPIDBG_CALL_MPI_Barrier] = {0, (uint64_t{1} << 40) + 3};
  // Eight slots of an open-addressing table.
  p.sites = {
      Site(MPIDBG_PROFILE_SITE_READY, MPIDBG_CALL_MPI_Recv, 0x500, 1, 2),
      Site(MPIDBG_PROFILE_SITE_CLAIMED, MPIDBG_CALL_MPI_Send, 0x600, 50, 50),  // being filled
      Site(MPIDBG_PROFILE_SITE_EMPTY, 0, 0, 0, 0),
      Site(MPIDBG_PROFILE_SITE_READY, MPIDBG_CALL_MPI_Send, 0x400, 3, 0),  // ties 0x500 at 3
      Site(MPIDBG_PROFILE_SITE_READY, MPIDBG_CALL_MPI_Barrier, kHighAddress, 0,
           (uint64_t{1} << 40) + 3),
      Site(MPIDBG_PROFILE_SITE_READY, MPIDBG_CALL_MPI_Send, 0x700, 0, 0),  // no samples
      Site(MPIDBG_PROFILE_SITE_READY, MPIDBG_CALL_MPI_Send, 0x300, 2, 0),
      Site(MPIDBG_PROFILE_SITE_EMPTY, 0, 0, 0, 0),
  };
  return p;
}

class Profile : public BuiltScenario {
 protected:
  uint64_t StartWith(const ImageBuilder::ProfileImage& image) {
    uint64_t block = 0;
    Start([&](ImageBuilder& b) { block = b.add_profile(image); });
    return block;
  }
  int Read(mpidbg_profile_summary* s) {
    std::memset(s, 0, sizeof *s);
    s->size = sizeof *s;
    return p().mpidbg_profile_read(proc(), s);
  }
  int FunctionGet(int index, mpidbg_profile_function_info* out) {
    std::memset(out, 0, sizeof *out);
    out->size = sizeof *out;
    return p().mpidbg_profile_function_get(proc(), index, out);
  }
  int SiteGet(int index, mpidbg_profile_site_info* out) {
    std::memset(out, 0, sizeof *out);
    out->size = sizeof *out;
    return p().mpidbg_profile_site_get(proc(), index, out);
  }
  // A 4-byte target keeps its code below 4 GiB.
  uint64_t HighAddress() const {
    return GetParam().kind.pointer_size == 4 ? 0x8048abcu : kHighAddress;
  }
  ImageBuilder::ProfileImage KindImage() const {
    ImageBuilder::ProfileImage image = Image();
    image.sites[4].address = HighAddress();
    return image;
  }
};

TEST_P(Profile, SummaryDecodes) {
  StartWith(KindImage());
  mpidbg_profile_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  EXPECT_EQ(s.size, sizeof s);
  EXPECT_EQ(s.active, 1);
  EXPECT_EQ(s.period_ns, 10000000);
  EXPECT_EQ(s.signal, 34);
  EXPECT_EQ(s.clock, MPIDBG_PROFILE_CPU);
  EXPECT_EQ(s.start_time_ns, 1700000000000000011);
  EXPECT_EQ(s.stop_time_ns, 0);
  EXPECT_EQ(s.samples[MPIDBG_THREAD_NOT_IN_MPI], 100u);
  EXPECT_EQ(s.samples[MPIDBG_THREAD_IN_MPI], 20u);
  EXPECT_EQ(s.samples[MPIDBG_THREAD_BLOCKED], (uint64_t{1} << 40) + 3);
  EXPECT_EQ(s.lost, 2u);
  EXPECT_EQ(s.threads, 3u);
  EXPECT_EQ(s.function_count, 3);
  EXPECT_EQ(s.site_count, 4);  // READY with samples only
}

TEST_P(Profile, FunctionsWithSamplesInCallIdOrder) {
  StartWith(KindImage());
  mpidbg_profile_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  ASSERT_EQ(s.function_count, 3);
  mpidbg_profile_function_info f;
  ASSERT_EQ(FunctionGet(0, &f), mqs_ok);
  EXPECT_EQ(f.size, sizeof f);
  EXPECT_EQ(f.call, MPIDBG_CALL_MPI_Send);
  EXPECT_STREQ(f.call_name, "MPI_Send");
  EXPECT_EQ(f.working, 5u);
  EXPECT_EQ(f.blocked, 0u);
  ASSERT_EQ(FunctionGet(1, &f), mqs_ok);
  EXPECT_EQ(f.call, MPIDBG_CALL_MPI_Recv);
  EXPECT_STREQ(f.call_name, "MPI_Recv");
  EXPECT_EQ(f.working, 1u);
  EXPECT_EQ(f.blocked, 7u);
  ASSERT_EQ(FunctionGet(2, &f), mqs_ok);
  EXPECT_EQ(f.call, MPIDBG_CALL_MPI_Barrier);
  EXPECT_STREQ(f.call_name, "MPI_Barrier");
  EXPECT_EQ(f.blocked, (uint64_t{1} << 40) + 3);
  EXPECT_NE(FunctionGet(3, &f), mqs_ok);
  EXPECT_NE(FunctionGet(-1, &f), mqs_ok);
}

TEST_P(Profile, SitesMostSamplesFirstTiesByAddress) {
  StartWith(KindImage());
  mpidbg_profile_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  ASSERT_EQ(s.site_count, 4);
  struct Want {
    uint64_t address;
    int32_t call;
    const char* name;
    uint64_t working, blocked;
  };
  const Want want[] = {
      {HighAddress(), MPIDBG_CALL_MPI_Barrier, "MPI_Barrier", 0, (uint64_t{1} << 40) + 3},
      {0x400, MPIDBG_CALL_MPI_Send, "MPI_Send", 3, 0},
      {0x500, MPIDBG_CALL_MPI_Recv, "MPI_Recv", 1, 2},
      {0x300, MPIDBG_CALL_MPI_Send, "MPI_Send", 2, 0},
  };
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    mpidbg_profile_site_info site;
    ASSERT_EQ(SiteGet(i, &site), mqs_ok);
    EXPECT_EQ(site.address, want[i].address);
    EXPECT_EQ(site.call, want[i].call);
    EXPECT_STREQ(site.call_name, want[i].name);
    EXPECT_EQ(site.working, want[i].working);
    EXPECT_EQ(site.blocked, want[i].blocked);
  }
  mpidbg_profile_site_info site;
  EXPECT_NE(SiteGet(4, &site), mqs_ok);
  EXPECT_NE(SiteGet(-1, &site), mqs_ok);
}

TEST_P(Profile, UnknownCallIdsGetANumber) {
  ImageBuilder::ProfileImage image = KindImage();
  image.sites[6].call = 9999;
  StartWith(image);
  mpidbg_profile_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  mpidbg_profile_site_info site;
  ASSERT_EQ(SiteGet(3, &site), mqs_ok);
  EXPECT_EQ(site.call, 9999);
  EXPECT_STREQ(site.call_name, "MPI call 9999");
}

TEST_P(Profile, EachReadIsFresh) {
  const uint64_t block = StartWith(KindImage());
  FakeTarget& t = *scenario_.target;
  mpidbg_profile_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  const uint64_t sites = t.get64(block + offsetof(mpidbg_profile, sites));
  // The site at 0x300 overtakes everything; before the next read nothing changes.
  t.put64(sites + 6 * sizeof(mpidbg_profile_site) + offsetof(mpidbg_profile_site, working),
          uint64_t{1} << 50);
  mpidbg_profile_site_info site;
  ASSERT_EQ(SiteGet(0, &site), mqs_ok);
  EXPECT_EQ(site.address, HighAddress());
  ASSERT_EQ(Read(&s), mqs_ok);
  ASSERT_EQ(SiteGet(0, &site), mqs_ok);
  EXPECT_EQ(site.address, 0x300u);
  EXPECT_EQ(site.working, uint64_t{1} << 50);
}

TEST_P(Profile, NoBlockMeansNoInformation) {
  Start([](ImageBuilder&) {});
  mpidbg_profile_summary s;
  EXPECT_EQ(Read(&s), mqs_no_information);
  mpidbg_profile_function_info f;
  EXPECT_NE(FunctionGet(0, &f), mqs_ok);
}

TEST_P(Profile, OlderRootWithoutTheFieldIsNoInformation) {
  Start([](ImageBuilder& b) {
    b.add_profile(Image());
    b.root.size = offsetof(mpidbg_root, profile);  // ends after monitor, before profile
  });
  mpidbg_profile_summary s;
  EXPECT_EQ(Read(&s), mqs_no_information);
}

TEST_P(Profile, EmptyTablesDecode) {
  ImageBuilder::ProfileImage image;
  image.header.period_ns = 1000;
  StartWith(image);
  mpidbg_profile_summary s;
  ASSERT_EQ(Read(&s), mqs_ok);
  EXPECT_EQ(s.function_count, 0);
  EXPECT_EQ(s.site_count, 0);
  mpidbg_profile_site_info site;
  EXPECT_NE(SiteGet(0, &site), mqs_ok);
}

TEST_P(Profile, DamagedBlocksFailCleanly) {
  const uint64_t block = StartWith(KindImage());
  FakeTarget& t = *scenario_.target;
  mpidbg_profile_summary s;
  auto expect_error = [&](const char* what) {
    const int rc = Read(&s);
    EXPECT_NE(rc, mqs_ok) << what;
    EXPECT_NE(rc, mqs_no_information) << what;
    EXPECT_FALSE(session_->error(rc).empty()) << what;
    mpidbg_profile_site_info site;
    EXPECT_NE(SiteGet(0, &site), mqs_ok) << what;  // nothing stale
  };
  auto put32 = [&](size_t off, uint32_t v) { t.put32(block + off, v); };
  auto put64 = [&](size_t off, uint64_t v) { t.put64(block + off, v); };
  const uint64_t sites = t.get64(block + offsetof(mpidbg_profile, sites));
  const uint64_t functions = t.get64(block + offsetof(mpidbg_profile, functions));

  put32(offsetof(mpidbg_profile, size), 16);
  expect_error("block too small");
  put32(offsetof(mpidbg_profile, size), 0xffffffff);
  expect_error("block huge");
  put32(offsetof(mpidbg_profile, size), sizeof(mpidbg_profile));
  ASSERT_EQ(Read(&s), mqs_ok);

  put32(offsetof(mpidbg_profile, function_count), 0xffffffff);
  expect_error("huge function count");
  put32(offsetof(mpidbg_profile, function_count), 4000);
  expect_error("function count beyond the array");
  put32(offsetof(mpidbg_profile, function_count), MPIDBG_CALL_ID_LIMIT);
  put32(offsetof(mpidbg_profile, function_size), 4);
  expect_error("function element too small");
  put32(offsetof(mpidbg_profile, function_size), sizeof(mpidbg_profile_function));
  put64(offsetof(mpidbg_profile, functions), 0x40);
  expect_error("unreadable functions");
  put64(offsetof(mpidbg_profile, functions), functions);
  ASSERT_EQ(Read(&s), mqs_ok);

  put32(offsetof(mpidbg_profile, site_capacity), 6);
  expect_error("capacity not a power of two");
  put32(offsetof(mpidbg_profile, site_capacity), 0x80000000u);
  expect_error("huge capacity");
  put32(offsetof(mpidbg_profile, site_capacity), 1u << 16);
  expect_error("capacity beyond the array");
  put32(offsetof(mpidbg_profile, site_capacity), 8);
  put32(offsetof(mpidbg_profile, site_size), 24);
  expect_error("site element too small");
  put32(offsetof(mpidbg_profile, site_size), sizeof(mpidbg_profile_site));
  put64(offsetof(mpidbg_profile, sites), 0);
  expect_error("no site array");
  put64(offsetof(mpidbg_profile, sites), 0x50);
  expect_error("unreadable sites");
  put64(offsetof(mpidbg_profile, sites), sites);
  ASSERT_EQ(Read(&s), mqs_ok);
  EXPECT_EQ(s.site_count, 4);
}

TEST_P(Profile, UnreadableBlockFailsCleanly) {
  Start([](ImageBuilder& b) { b.root.profile = 0x60; });
  mpidbg_profile_summary s;
  const int rc = Read(&s);
  EXPECT_NE(rc, mqs_ok);
  EXPECT_NE(rc, mqs_no_information);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, Profile, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
