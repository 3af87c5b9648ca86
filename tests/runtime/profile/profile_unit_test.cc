// profile_unit_test — the MPI-free parts of MPI-state sampling: the site table the
// signal handler counts into, the settings, the per-rank bytes and their validation,
// the job merge, the JSON writer (parsed back with nlohmann_json), site symbolisation.
#include <gtest/gtest.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "mpidbg/call_ids.h"
#include "rt/profile/profile_config.h"
#include "rt/report/job_id_text.h"
#include "rt/report/json_writer.h"
#include "rt/profile/profile_merge.h"
#include "rt/profile/profile_pack.h"
#include "rt/profile/profile_sites.h"
#include "rt/profile/profile_symbols.h"

namespace mpidbg::rt {
namespace {

using nlohmann::json;

// A block with its arrays, as rt/profile/profile.cc sets it up.
struct Table {
  explicit Table(uint32_t capacity) : sites(capacity), functions(MPIDBG_CALL_ID_LIMIT) {
    block.function_count = MPIDBG_CALL_ID_LIMIT;
    block.site_capacity = capacity;
  }
  void Count(int state, int32_t call, uint64_t site, uint64_t weight = 1) {
    ProfileCount(&block, functions.data(), sites.data(), block.site_capacity - 1, state, call,
                 site, weight);
  }
  const mpidbg_profile_site* Find(uint64_t address, int32_t call) const {
    for (const auto& s : sites) {
      if (s.state == MPIDBG_PROFILE_SITE_READY && s.address == address && s.call == call) return &s;
    }
    return nullptr;
  }
  mpidbg_profile block = {};
  std::vector<mpidbg_profile_site> sites;
  std::vector<mpidbg_profile_function> functions;
};

TEST(ProfileSites, CountsByStateFunctionAndSite) {
  Table t(16);
  t.Count(MPIDBG_THREAD_NOT_IN_MPI, MPIDBG_CALL_NONE, 0);
  t.Count(MPIDBG_THREAD_BLOCKED, MPIDBG_CALL_MPI_Recv, 0x1000, 3);
  t.Count(MPIDBG_THREAD_BLOCKED, MPIDBG_CALL_MPI_Recv, 0x1000);
  t.Count(MPIDBG_THREAD_IN_MPI, MPIDBG_CALL_MPI_Test, 0x2000);
  // The same instruction calling another function (through a pointer): its own site.
  t.Count(MPIDBG_THREAD_IN_MPI, MPIDBG_CALL_MPI_Iprobe, 0x2000);
  EXPECT_EQ(t.block.samples[MPIDBG_THREAD_NOT_IN_MPI], 1u);
  EXPECT_EQ(t.block.samples[MPIDBG_THREAD_BLOCKED], 4u);
  EXPECT_EQ(t.block.samples[MPIDBG_THREAD_IN_MPI], 2u);
  EXPECT_EQ(t.functions[MPIDBG_CALL_MPI_Recv].blocked, 4u);
  EXPECT_EQ(t.functions[MPIDBG_CALL_MPI_Recv].working, 0u);
  EXPECT_EQ(t.functions[MPIDBG_CALL_MPI_Test].working, 1u);
  EXPECT_EQ(t.block.site_count, 3u);
  EXPECT_EQ(t.block.lost, 0u);
  ASSERT_NE(t.Find(0x1000, MPIDBG_CALL_MPI_Recv), nullptr);
  EXPECT_EQ(t.Find(0x1000, MPIDBG_CALL_MPI_Recv)->blocked, 4u);
  ASSERT_NE(t.Find(0x2000, MPIDBG_CALL_MPI_Iprobe), nullptr);
  EXPECT_EQ(t.Find(0x2000, MPIDBG_CALL_MPI_Iprobe)->working, 1u);
}

TEST(ProfileSites, EveryCallIdHasAFunctionEntry) {
  // Call ids are not contiguous (MPI_Win_* and MPI-4 calls sit above 200).
  Table t(16);
  t.Count(MPIDBG_THREAD_BLOCKED, MPIDBG_CALL_MPI_Isendrecv, 0x3000);
  t.Count(MPIDBG_THREAD_BLOCKED, MPIDBG_CALL_MPI_Win_fence, 0x3100);
  EXPECT_EQ(t.functions[MPIDBG_CALL_MPI_Isendrecv].blocked, 1u);
  EXPECT_EQ(t.functions[MPIDBG_CALL_MPI_Win_fence].blocked, 1u);
  EXPECT_EQ(t.block.site_count, 2u);
}

TEST(ProfileSites, FullTableLosesSitesNotSamples) {
  Table t(4);
  for (uint64_t a = 1; a <= 6; ++a) t.Count(MPIDBG_THREAD_BLOCKED, MPIDBG_CALL_MPI_Wait, a * 16);
  EXPECT_EQ(t.block.site_count, 4u);
  EXPECT_EQ(t.block.lost, 2u);
  EXPECT_EQ(t.block.samples[MPIDBG_THREAD_BLOCKED], 6u);
  EXPECT_EQ(t.functions[MPIDBG_CALL_MPI_Wait].blocked, 6u);
  // A known site still counts.
  t.Count(MPIDBG_THREAD_BLOCKED, MPIDBG_CALL_MPI_Wait, 16);
  EXPECT_EQ(t.block.lost, 2u);
  // No site (0) and out-of-range states or calls.
  t.Count(MPIDBG_THREAD_IN_MPI, MPIDBG_CALL_MPI_Wait, 0);
  EXPECT_EQ(t.block.lost, 3u);
  t.Count(7, MPIDBG_CALL_MPI_Wait, 16);
  t.Count(MPIDBG_THREAD_IN_MPI, 100000, 16);
  EXPECT_EQ(t.block.samples[MPIDBG_THREAD_IN_MPI], 2u);
}

TEST(ProfileSites, ClaimedEntryIsNotWaitedFor) {
  Table t(2);
  t.sites[0].state = MPIDBG_PROFILE_SITE_CLAIMED;
  t.sites[1].state = MPIDBG_PROFILE_SITE_CLAIMED;
  t.Count(MPIDBG_THREAD_BLOCKED, MPIDBG_CALL_MPI_Recv, 0x40);
  EXPECT_EQ(t.block.lost, 1u);
  EXPECT_EQ(t.block.samples[MPIDBG_THREAD_BLOCKED], 1u);
}

TEST(ProfileSites, ThreadsCountingAtOnceLoseNothing) {
  Table t(4096);
  constexpr int kThreads = 4, kRounds = 20000;
  std::vector<std::thread> threads;
  for (int k = 0; k < kThreads; ++k) {
    threads.emplace_back([&t] {
      for (int i = 0; i < kRounds; ++i) {
        t.Count(MPIDBG_THREAD_BLOCKED, MPIDBG_CALL_MPI_Recv, 0x100 + 16 * (i % 64));
      }
    });
  }
  for (auto& th : threads) th.join();
  uint64_t total = 0;
  for (const auto& s : t.sites) total += s.blocked;
  EXPECT_EQ(t.block.site_count, 64u);
  EXPECT_EQ(total + t.block.lost, uint64_t{kThreads} * kRounds);
  EXPECT_EQ(t.block.samples[MPIDBG_THREAD_BLOCKED], uint64_t{kThreads} * kRounds);
  EXPECT_EQ(t.functions[MPIDBG_CALL_MPI_Recv].blocked, uint64_t{kThreads} * kRounds);
}

// ---- settings ----
const char* Lookup(void* context, const char* name) {
  auto* env = static_cast<std::map<std::string, std::string>*>(context);
  auto it = env->find(name);
  return it == env->end() ? nullptr : it->second.c_str();
}

ProfileConfig Config(std::map<std::string, std::string> env) { return ReadProfileConfig(Lookup, &env); }

TEST(ProfileConfig, OffUnlessAsked) {
  EXPECT_FALSE(Config({}).enabled);
  EXPECT_FALSE(Config({{"MPIDBG_PROFILE", ""}}).enabled);
  EXPECT_FALSE(Config({{"MPIDBG_PROFILE", "0"}}).enabled);
  ProfileConfig bad = Config({{"MPIDBG_PROFILE", "fast"}});
  EXPECT_FALSE(bad.enabled);
  EXPECT_TRUE(bad.bad_value);
  EXPECT_FALSE(Config({{"MPIDBG_PROFILE", "-5"}}).enabled);
}

TEST(ProfileConfig, RatesClocksSignalsOutput) {
  ProfileConfig c = Config({{"MPIDBG_PROFILE", "1"}});
  EXPECT_TRUE(c.enabled);
  EXPECT_EQ(c.hz, 100);
  EXPECT_EQ(c.period_ns, 10000000);
  EXPECT_EQ(c.clock, MPIDBG_PROFILE_WALL);
  EXPECT_EQ(c.signal, 0);
  EXPECT_STREQ(c.out, "");
  c = Config({{"MPIDBG_PROFILE", "200"}, {"MPIDBG_PROFILE_CLOCK", "cpu"},
              {"MPIDBG_PROFILE_SIGNAL", "SIGRTMIN+3"}, {"MPIDBG_PROFILE_OUT", "/tmp/p.json"}});
  EXPECT_EQ(c.hz, 200);
  EXPECT_EQ(c.period_ns, 5000000);
  EXPECT_EQ(c.clock, MPIDBG_PROFILE_CPU);
  EXPECT_EQ(c.signal, SIGRTMIN + 3);
  EXPECT_STREQ(c.out, "/tmp/p.json");
  EXPECT_EQ(Config({{"MPIDBG_PROFILE", "99999"}}).hz, kProfileMaxHz);
  EXPECT_EQ(Config({{"MPIDBG_PROFILE", "on"}}).hz, 100);
  EXPECT_EQ(Config({{"MPIDBG_PROFILE", "1"}, {"MPIDBG_PROFILE_CLOCK", "sundial"}}).clock,
            MPIDBG_PROFILE_WALL);
}

TEST(ProfileConfig, Signals) {
  EXPECT_EQ(ParseProfileSignal("SIGPROF"), SIGPROF);
  EXPECT_EQ(ParseProfileSignal("prof"), SIGPROF);
  EXPECT_EQ(ParseProfileSignal("27"), 27);
  EXPECT_EQ(ParseProfileSignal("SIGRTMAX-1"), SIGRTMAX - 1);
  EXPECT_EQ(ParseProfileSignal("RTMIN"), SIGRTMIN);
  EXPECT_EQ(ParseProfileSignal("SIGUSR2"), SIGUSR2);
  EXPECT_EQ(ParseProfileSignal("SIGSEGV"), 0);
  EXPECT_EQ(ParseProfileSignal("9"), 0);  // SIGKILL
  EXPECT_EQ(ParseProfileSignal("SIGRTMIN-1"), 0);
  EXPECT_EQ(ParseProfileSignal("SIGRTMAX+1"), 0);
  EXPECT_EQ(ParseProfileSignal(""), 0);
  EXPECT_EQ(ParseProfileSignal(nullptr), 0);
}

TEST(ProfileConfig, DefaultPath) {
  char path[256];
  DefaultProfilePath("kvs_123_0", path, sizeof path);
  EXPECT_STREQ(path, "mpidbg-profile.kvs_123_0.json");
  DefaultProfilePath("host:4242/x y", path, sizeof path);
  EXPECT_STREQ(path, "mpidbg-profile.host_4242_x_y.json");
  DefaultProfilePath("", path, sizeof path);
  EXPECT_STREQ(path, "mpidbg-profile.unknown.json");
  char tiny[4];
  SanitiseJobId("abcdef", tiny, sizeof tiny);
  EXPECT_STREQ(tiny, "abc");
}

// ---- JSON writer ----
TEST(JsonWriter, NestsEscapesAndParses) {
  JsonWriter w;
  w.BeginObject();
  w.Key("s");
  w.String("quote\" backslash\\ newline\n tab\t bell\x07 del\x7f");
  w.Key("utf8");
  w.String("caf\xc3\xa9 \xe2\x82\xac");
  w.Key("bad");
  w.String("a\xff" "b\xc3" "c\xed\xa0\x80");  // stray byte, cut sequence, surrogate
  w.Key("n");
  w.Uint(UINT64_MAX);
  w.Key("i");
  w.Int(-42);
  w.Key("f");
  w.Fixed(1.5, 3);
  w.Key("nan");
  w.Fixed(0.0 / 0.0, 3);
  w.Key("null");
  w.String(nullptr);
  w.Key("a");
  w.BeginArray(true);
  w.Bool(true);
  w.BeginObject();
  w.EndObject();
  w.BeginArray();
  w.EndArray();
  w.EndArray();
  w.EndObject();
  ASSERT_TRUE(w.ok());
  const json j = json::parse(w.Text(), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << w.Text();
  EXPECT_EQ(j["s"], "quote\" backslash\\ newline\n tab\t bell\x07 del\x7f");
  EXPECT_EQ(j["utf8"], "caf\xc3\xa9 \xe2\x82\xac");
  EXPECT_EQ(j["bad"], "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(j["n"].get<uint64_t>(), UINT64_MAX);
  EXPECT_EQ(j["i"], -42);
  EXPECT_DOUBLE_EQ(j["f"].get<double>(), 1.5);
  EXPECT_TRUE(j["nan"].is_null());
  EXPECT_TRUE(j["null"].is_null());
  EXPECT_EQ(j["a"].dump(), "[true,{},[]]");
  EXPECT_EQ(strlen(w.Text()), w.Size());
}

TEST(JsonWriter, RawValueAndBadNesting) {
  JsonWriter inner;
  inner.BeginArray();
  inner.Uint(1);
  inner.Uint(2);
  inner.EndArray();
  JsonWriter w;
  w.BeginObject();
  w.Key("x");
  w.Raw(inner.Text(), inner.Size());
  w.EndObject();
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(json::parse(w.Text())["x"], json::array({1, 2}));

  JsonWriter unbalanced;
  unbalanced.BeginObject();
  EXPECT_FALSE(unbalanced.ok());
  JsonWriter extra;
  extra.EndArray();
  EXPECT_FALSE(extra.ok());
  JsonWriter deep;
  for (int i = 0; i <= JsonWriter::kMaxDepth; ++i) deep.BeginArray();
  EXPECT_FALSE(deep.ok());
}

// ---- per-rank bytes ----
// Packed bytes in 8-byte aligned storage (GrowBuffer does not move).
struct Packed {
  std::vector<uint64_t> words;
  size_t bytes = 0;
  const unsigned char* data() const { return reinterpret_cast<const unsigned char*>(words.data()); }
  size_t size() const { return bytes; }
};

Packed PackOf(int rank, const char* module, uint64_t offset, uint64_t blocked,
                                 const char* symbol = "main+0x44") {
  ProfilePackBuilder b;
  b.header.rank = rank;
  b.header.pid = 100 + rank;
  b.header.period_ns = 5000000;
  b.header.sampled = 1;
  b.header.signal = SIGPROF;
  b.header.samples[MPIDBG_THREAD_NOT_IN_MPI] = 10;
  b.header.samples[MPIDBG_THREAD_BLOCKED] = blocked + 1;
  b.header.threads = 1;
  snprintf(b.header.host, sizeof b.header.host, "node%d", rank);
  b.AddFunction(MPIDBG_CALL_MPI_Recv, 0, blocked);
  b.AddFunction(MPIDBG_CALL_MPI_Init, 0, 1);
  b.AddSite(MPIDBG_CALL_MPI_Recv, 0x5000 + rank * 0x100000, module, offset, symbol, 0, blocked);
  b.AddSite(MPIDBG_CALL_MPI_Init, 0x6000, "/lib/libx.so", 0x10, nullptr, 0, 1);
  GrowBuffer<unsigned char> out;
  EXPECT_TRUE(b.Finish(&out));
  Packed p;
  p.bytes = out.size();
  p.words.resize((out.size() + 7) / 8);
  memcpy(p.words.data(), out.data(), out.size());
  return p;
}

TEST(ProfilePack, RoundTrip) {
  auto bytes = PackOf(3, "/bin/ring", 0x11a9, 7);
  ProfileRankView v;
  ASSERT_TRUE(UnpackRank(bytes.data(), bytes.size(), &v));
  EXPECT_EQ(v.header.rank, 3);
  EXPECT_EQ(v.header.pid, 103);
  EXPECT_STREQ(v.header.host, "node3");
  ASSERT_EQ(v.header.function_count, 2u);
  ASSERT_EQ(v.header.site_count, 2u);
  EXPECT_EQ(v.functions[0].call, MPIDBG_CALL_MPI_Recv);
  EXPECT_EQ(v.functions[0].blocked, 7u);
  EXPECT_STREQ(v.String(v.sites[0].module), "/bin/ring");
  EXPECT_STREQ(v.String(v.sites[0].symbol), "main+0x44");
  EXPECT_EQ(v.sites[0].offset, 0x11a9u);
  EXPECT_EQ(v.String(v.sites[1].symbol), nullptr);
}

TEST(ProfilePack, RejectsDamage) {
  auto bytes = PackOf(0, "/bin/ring", 0x11a9, 7);
  ProfileRankView v;
  EXPECT_FALSE(UnpackRank(bytes.data(), bytes.size() - 8, &v));
  EXPECT_FALSE(UnpackRank(bytes.data(), 8, &v));
  EXPECT_FALSE(UnpackRank(nullptr, bytes.size(), &v));
  std::vector<uint64_t> copy((bytes.size() + 7) / 8);
  auto damaged = [&](auto change) {
    memcpy(copy.data(), bytes.data(), bytes.size());
    change(reinterpret_cast<unsigned char*>(copy.data()));
    return UnpackRank(copy.data(), bytes.size(), &v);
  };
  EXPECT_TRUE(damaged([](unsigned char*) {}));
  EXPECT_FALSE(damaged([](unsigned char* p) { p[0] ^= 1; }));  // magic
  EXPECT_FALSE(damaged([&](unsigned char* p) {                // site count
    reinterpret_cast<ProfileRankHeader*>(p)->site_count = 3;
  }));
  EXPECT_FALSE(damaged([&](unsigned char* p) {                // pool not NUL-terminated
    p[bytes.size() - 1] = 'x';
  }));
  EXPECT_FALSE(damaged([&](unsigned char* p) {                // string offset out of range
    auto* h = reinterpret_cast<ProfileRankHeader*>(p);
    auto* sites = reinterpret_cast<ProfilePackedSite*>(p + sizeof *h + h->function_count *
                                                                      sizeof(ProfilePackedFunction));
    sites[0].module = h->pool_size;
  }));
}

// ---- the job merge and the document ----
TEST(ProfileMerge, SumsRanksAndMergesSites) {
  auto r0 = PackOf(0, "/bin/ring", 0x11a9, 7);
  auto r1 = PackOf(1, "/bin/ring", 0x11a9, 5);
  auto r2 = PackOf(2, "/bin/ring", 0x2000, 2, nullptr);
  ProfileJobMerge merge;
  JsonWriter ranks;
  ranks.BeginArray();
  for (auto* bytes : {&r0, &r1, &r2}) {
    ProfileRankView v;
    ASSERT_TRUE(UnpackRank(bytes->data(), bytes->size(), &v));
    EXPECT_TRUE(merge.Add(v));
    RenderProfileRank(ranks, v);
  }
  merge.AddMissing();
  ranks.EndArray();
  JsonWriter doc;
  doc.BeginObject();
  doc.Key("job");
  merge.Render(doc, ProfileJobInfo{"job\"1", 4, 123});
  doc.Key("ranks");
  doc.Raw(ranks.Text(), ranks.Size());
  doc.EndObject();
  ASSERT_TRUE(doc.ok());
  const json j = json::parse(doc.Text(), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << doc.Text();
  const json& job = j["job"];
  EXPECT_EQ(job["id"], "job\"1");
  EXPECT_EQ(job["world_size"], 4);
  EXPECT_EQ(job["period_ns"], 5000000);
  EXPECT_EQ(job["clock"], "wall");
  EXPECT_EQ(job["signal"], SIGPROF);
  EXPECT_EQ(job["ranks_missing"], 1);
  EXPECT_EQ(job["samples"]["blocked"], 8 + 6 + 3);
  EXPECT_EQ(job["samples"]["not_in_mpi"], 30);
  EXPECT_DOUBLE_EQ(job["seconds"]["blocked"].get<double>(), 17 * 0.005);
  ASSERT_EQ(job["functions"].size(), 2u);
  EXPECT_EQ(job["functions"][0]["call"], "MPI_Recv");  // most samples first
  EXPECT_EQ(job["functions"][0]["blocked"], 14);
  EXPECT_DOUBLE_EQ(job["functions"][0]["seconds_blocked"].get<double>(), 14 * 0.005);
  EXPECT_EQ(job["functions"][1]["call"], "MPI_Init");
  ASSERT_EQ(job["sites"].size(), 3u);
  const json& top = job["sites"][0];
  EXPECT_EQ(top["site"], "ring+0x11a9");
  EXPECT_EQ(top["module"], "/bin/ring");
  EXPECT_EQ(top["offset"], "0x11a9");
  EXPECT_EQ(top["symbol"], "main+0x44");
  EXPECT_EQ(top["call"], "MPI_Recv");
  EXPECT_EQ(top["blocked"], 12);
  EXPECT_EQ(top["working"], 0);
  EXPECT_EQ(top["ranks"], 2);
  EXPECT_EQ(job["sites"][1]["call"], "MPI_Init");  // 3 samples, 3 ranks
  EXPECT_EQ(job["sites"][1]["ranks"], 3);
  EXPECT_TRUE(job["sites"][2]["symbol"].is_null());
  ASSERT_EQ(j["ranks"].size(), 3u);
  EXPECT_EQ(j["ranks"][1]["rank"], 1);
  EXPECT_EQ(j["ranks"][1]["host"], "node1");
  EXPECT_EQ(j["ranks"][1]["sites"][0]["address"], "0x105000");
  EXPECT_EQ(j["ranks"][1]["samples"]["blocked"], 6);
}

TEST(ProfileMerge, ManySitesGrowTheIndex) {
  ProfilePackBuilder b;
  b.header.rank = 0;
  b.header.sampled = 1;
  b.header.period_ns = 1000000;
  for (int i = 0; i < 3000; ++i) b.AddSite(MPIDBG_CALL_MPI_Send, i, "/m", i * 4, nullptr, 1, 0);
  GrowBuffer<unsigned char> bytes;
  ASSERT_TRUE(b.Finish(&bytes));
  ProfileRankView v;
  ASSERT_TRUE(UnpackRank(bytes.data(), bytes.size(), &v));
  ProfileJobMerge merge;
  EXPECT_TRUE(merge.Add(v));
  EXPECT_TRUE(merge.Add(v));  // the same rank number again: still one rank per site
  JsonWriter w;
  merge.Render(w, ProfileJobInfo{"j", 1, 0});
  const json j = json::parse(w.Text());
  ASSERT_EQ(j["sites"].size(), 3000u);
  for (const auto& s : j["sites"]) {
    EXPECT_EQ(s["working"], 2);
    EXPECT_EQ(s["ranks"], 1);
  }
}

TEST(CallNames, FromTheContract) {
  EXPECT_STREQ(mpidbg_call_name(MPIDBG_CALL_MPI_Recv), "MPI_Recv");
  EXPECT_STREQ(mpidbg_call_name(MPIDBG_CALL_MPI_Waitall), "MPI_Waitall");
  EXPECT_EQ(mpidbg_call_name(MPIDBG_CALL_NONE), nullptr);
  EXPECT_EQ(mpidbg_call_name(99999), nullptr);
}

// ---- symbolisation ----
__attribute__((noinline)) uint64_t ReturnAddressHere() {
  return reinterpret_cast<uintptr_t>(__builtin_return_address(0));
}

TEST(ProfileSymbols, SiteInThisProgram) {
  const uint64_t address = ReturnAddressHere();
  SiteLocation where;
  LocateSite(address, &where);
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  ASSERT_GT(n, 0);
  exe[n] = '\0';
  EXPECT_STREQ(where.module, exe);
  EXPECT_LT(where.offset, address);
  EXPECT_GT(where.offset, 0u);
}

TEST(ProfileSymbols, SiteInSharedLibraryHasSymbol) {
  // An address inside libc's exported qsort, given as a return address would be.
  const uint64_t address = reinterpret_cast<uintptr_t>(&qsort) + 4;
  SiteLocation where;
  LocateSite(address, &where);
  EXPECT_NE(strstr(where.module, "libc"), nullptr) << where.module;
  EXPECT_EQ(where.module[0], '/');
  EXPECT_TRUE(where.has_symbol);
  EXPECT_NE(strstr(where.symbol, "+0x"), nullptr) << where.symbol;
}

TEST(ProfileSymbols, UnknownAddress) {
  SiteLocation where;
  LocateSite(16, &where);
  EXPECT_STREQ(where.module, "");
  EXPECT_EQ(where.offset, 16u);
  EXPECT_FALSE(where.has_symbol);
}

}  // namespace
}  // namespace mpidbg::rt
