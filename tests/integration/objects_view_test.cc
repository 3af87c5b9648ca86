// End-to-end `mpidbg handles` and snapshot's handles[]: the handles_view application
// (4 ranks, objects of every kind, one communicator freed) on each MPI flavour, rank 0
// listed live and from its gcore core. Creation sites are checked against the lines of
// the calls in testapps/handles_view.c, found by searching the source here, not from
// anything mpidbg computes.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "mpi_job.h"

namespace mpidbg::itest {
namespace {

using nlohmann::json;

// The 1-based line of the first line of handles_view.c holding `text`; 0 if none.
int SourceLine(const std::string& text) {
  std::ifstream in(std::string(MPIDBG_TESTAPPS_SOURCE_DIR) + "/handles_view.c");
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.find(text) != std::string::npos) return n;
  }
  return 0;
}

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

const json* FindNamed(const json& handles, const std::string& kind, const std::string& name,
                      bool freed = false) {
  for (const json& h : handles) {
    if (h["kind"] == kind && h["name"].is_string() && h["name"] == name && h["freed"] == freed)
      return &h;
  }
  return nullptr;
}

const json* FindCreatedBy(const json& handles, const std::string& kind, const std::string& call) {
  for (const json& h : handles) {
    if (h["kind"] == kind && h["creator"].is_string() && h["creator"] == call) return &h;
  }
  return nullptr;
}

// A handle made by `call` at the line holding `source_text`, in main.
void ExpectSite(const json* h, const std::string& call, const std::string& source_text,
                const std::string& function = "main") {
  ASSERT_NE(h, nullptr) << call;
  EXPECT_EQ((*h)["creator"], call);
  const json& site = (*h)["created_at"];
  ASSERT_TRUE(site.is_object()) << h->dump();
  ASSERT_TRUE(site["file"].is_string()) << h->dump();
  EXPECT_TRUE(EndsWith(site["file"].get<std::string>(), "handles_view.c")) << site.dump();
  const int line = SourceLine(source_text);
  ASSERT_GT(line, 0) << source_text;
  EXPECT_EQ(site["line"], line) << call << ": " << site.dump();
  EXPECT_EQ(site["function"], function) << site.dump();
}

void CheckListing(const std::vector<std::string>& target, bool live) {
  SCOPED_TRACE(target[0] + " " + target[1]);
  std::vector<std::string> argv = {"handles", "--json"};
  argv.insert(argv.end(), target.begin(), target.end());
  MpidbgResult r = Mpidbg(argv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.json["schema"], "mpidbg.handles/1") << r.out;
  EXPECT_EQ(r.json["age_reference"], live ? "now" : "latest_record");
  const json& handles = r.json["handles"];

  std::set<std::string> kinds;
  for (const json& h : handles) kinds.insert(h["kind"].get<std::string>());
  for (const char* k : {"comm", "request", "datatype", "group", "op", "errhandler", "info", "win",
                        "file", "message"}) {
    EXPECT_TRUE(kinds.count(k)) << "no " << k << " listed";
  }

  const json* dup = FindNamed(handles, "comm", "dup_world");
  ExpectSite(dup, "MPI_Comm_dup", "MPI_Comm_dup(MPI_COMM_WORLD, &dup_world);");
  if (dup != nullptr) {  // else ExpectSite failed already
    EXPECT_EQ((*dup)["state"], "live");
    ASSERT_TRUE((*dup)["age_seconds"].is_number()) << dup->dump();
    EXPECT_GE((*dup)["age_seconds"].get<double>(), 0.0);
    EXPECT_LT((*dup)["age_seconds"].get<double>(), 600.0);
  }
  const json* scratch = FindNamed(handles, "comm", "scratch", /*freed=*/true);
  ExpectSite(scratch, "MPI_Comm_dup", "MPI_Comm_dup(MPI_COMM_WORLD, &scratch);");
  if (scratch != nullptr) {
    EXPECT_NE((*scratch)["state"], "live");
  }

  const json* world = FindNamed(handles, "comm", "MPI_COMM_WORLD");
  ASSERT_NE(world, nullptr);
  EXPECT_EQ((*world)["predefined"], true);
  EXPECT_EQ((*world)["state"], "predefined");
  EXPECT_TRUE((*world)["created_at"].is_null());
  EXPECT_TRUE((*world)["creator"].is_null()) << "no call of the program made it";
  const json* mpi_int = FindNamed(handles, "datatype", "MPI_INT");
  ASSERT_NE(mpi_int, nullptr);
  EXPECT_EQ((*mpi_int)["predefined"], true);

  ExpectSite(FindNamed(handles, "datatype", "vec3x2s5"), "MPI_Type_vector",
             "MPI_Type_vector(3, 2, 5, MPI_INT, &vec);", "make_datatypes");
  ExpectSite(FindCreatedBy(handles, "group", "MPI_Comm_group"), "MPI_Comm_group",
             "MPI_Comm_group(MPI_COMM_WORLD, &world_group);");
  ExpectSite(FindCreatedBy(handles, "info", "MPI_Info_create"), "MPI_Info_create",
             "MPI_Info_create(&info);");
  ExpectSite(FindCreatedBy(handles, "op", "MPI_Op_create"), "MPI_Op_create",
             "MPI_Op_create(noncommutative_max, 0, &user_op);");
  ExpectSite(FindCreatedBy(handles, "request", "MPI_Irecv"), "MPI_Irecv",
             "MPI_Irecv(recv_buf, 10, MPI_INT");
  const json* irecv = FindCreatedBy(handles, "request", "MPI_Irecv");
  if (irecv != nullptr) {
    EXPECT_EQ((*irecv)["request_state"], "pending");
  }
  ExpectSite(FindCreatedBy(handles, "message", "MPI_Mprobe"), "MPI_Mprobe",
             "MPI_Mprobe(rank, 99, dup_world, &probed, &probe_status);");

  // One kind, and the orphans alone.
  argv.insert(argv.end(), {"--kind", "datatype"});
  MpidbgResult types = Mpidbg(argv);
  ASSERT_EQ(types.exit_code, 0) << types.err;
  EXPECT_GE(types.json["handles"].size(), 6u);
  for (const json& h : types.json["handles"]) EXPECT_EQ(h["kind"], "datatype");
  std::vector<std::string> freed_argv = {"handles", "--json", "--freed"};
  freed_argv.insert(freed_argv.end(), target.begin(), target.end());
  MpidbgResult freed = Mpidbg(freed_argv);
  ASSERT_EQ(freed.exit_code, 0) << freed.err;
  EXPECT_NE(FindNamed(freed.json["handles"], "comm", "scratch", true), nullptr) << freed.out;
  for (const json& h : freed.json["handles"]) EXPECT_EQ(h["freed"], true);

  // The text form names the call and the line.
  std::vector<std::string> text_argv = {"handles", "--kind", "comm"};
  text_argv.insert(text_argv.end(), target.begin(), target.end());
  MpidbgResult text = Mpidbg(text_argv);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string want = "dup_world  live  created by MPI_Comm_dup at handles_view.c:" +
                           std::to_string(SourceLine("MPI_Comm_dup(MPI_COMM_WORLD, &dup_world);")) +
                           " in main, ";
  EXPECT_NE(text.out.find(want), std::string::npos) << text.out;

  // snapshot's handles[]: every kind from the same listing.
  std::vector<std::string> snap_argv = {"snapshot", "--json"};
  snap_argv.insert(snap_argv.end(), target.begin(), target.end());
  MpidbgResult snap = Mpidbg(snap_argv);
  ASSERT_EQ(snap.exit_code, 0) << snap.err;
  std::set<std::string> snap_kinds;
  for (const json& h : snap.json["handles"]) snap_kinds.insert(h["kind"].get<std::string>());
  EXPECT_EQ(snap_kinds, kinds);
  const json* snap_dup = FindNamed(snap.json["handles"], "comm", "dup_world");
  ASSERT_NE(snap_dup, nullptr);
  EXPECT_TRUE((*snap_dup)["comm"].is_string()) << "a communicator keeps its id";
}

class ObjectsView : public ::testing::TestWithParam<std::string> {};

TEST_P(ObjectsView, EveryKindWithCreationSitesLiveAndFromCore) {
  MpiJob job(GetParam(), "handles_view", 4);
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;
  pid_t rank0 = 0;
  for (pid_t p : job.pids()) {
    MpidbgResult r = Mpidbg({"handle", "--pid", std::to_string(p), "--expr", "dup_world", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (r.json["process"]["rank"] == 0) rank0 = p;
  }
  ASSERT_NE(rank0, 0);
  CheckListing({"--pid", std::to_string(rank0)}, /*live=*/true);

  const std::vector<std::string> cores = job.DumpCores(&why);
  job.Kill();
  ASSERT_EQ(cores.size(), 4u) << why;
  const std::string suffix = "." + std::to_string(rank0);
  for (const std::string& core : cores) {
    if (EndsWith(core, suffix)) {
      CheckListing({"--core", core}, /*live=*/false);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Flavours, ObjectsView, ::testing::ValuesIn(BuiltFlavours()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mpidbg::itest
