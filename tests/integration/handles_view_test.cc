// End-to-end `mpidbg handle`: the handles_view test application (4 ranks) on each MPI
// flavour, every handle it prints read back live and from gcore cores of two ranks,
// by value, from the program's variables (--expr) and from Fortran values (--fortran).
// Datatype type maps are compared with maps derived by hand below, not with anything
// mpidbg computes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "mpi_job.h"
#include "process_util.h"

namespace mpidbg::itest {
namespace {

using nlohmann::json;

// What one rank printed: "rank R handle KIND NAME 0xVALUE" and a few facts.
struct RankLog {
  std::map<std::string, std::string> handles;  // "KIND NAME" -> "0x..."
  std::string file_path;
  std::string win_base;
  int fortran_dup_world = 0;
  int amode = -1;
};

std::map<int, RankLog> ParseLog(const std::string& log) {
  std::map<int, RankLog> out;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string word, what;
    int rank = -1;
    if (!(words >> word >> rank >> what) || word != "rank") continue;
    RankLog& r = out[rank];
    if (what == "handle") {
      std::string kind, name, value;
      if (words >> kind >> name >> value) {
        if (kind == "file") {
          r.file_path = name;
          name = "file";
        }
        r.handles[kind + " " + name] = value;
      }
    } else if (what == "fortran") {
      std::string name;
      words >> name >> r.fortran_dup_world;
    } else if (what == "win_base") {
      words >> r.win_base;
    } else if (what == "amode") {
      words >> r.amode;
    }
  }
  return out;
}

// One type-map run: `count` elements of `type` (each `size` bytes) from `disp` on.
struct Run {
  std::string type;
  int64_t disp, count, size;
};

// Hand-derived maps (MPI_INT 4 bytes, MPI_DOUBLE 8; runs of one type that touch merge).
//  vector(3, 2, 5, INT): blocks of 2 ints every 5 ints: at 0, 20, 40.
const std::vector<Run> kVectorMap = {
    {"MPI_INT", 0, 2, 4}, {"MPI_INT", 20, 2, 4}, {"MPI_INT", 40, 2, 4}};
//  struct{1 x vector at 0, 2 x DOUBLE at 64}: the vector's runs, then 16 bytes of doubles.
const std::vector<Run> kStructMap = {
    {"MPI_INT", 0, 2, 4}, {"MPI_INT", 20, 2, 4}, {"MPI_INT", 40, 2, 4}, {"MPI_DOUBLE", 64, 2, 8}};
//  subarray 4x5 ints (C order), 2x3 from (1,1): rows 1-2, columns 1-3:
//  (1*5+1)*4 = 24 and (2*5+1)*4 = 44, 3 ints each.
const std::vector<Run> kSubarrayMap = {{"MPI_INT", 24, 3, 4}, {"MPI_INT", 44, 3, 4}};
//  resized(contiguous(2, INT), lb -4, extent 16): the data does not move.
const std::vector<Run> kResizedMap = {{"MPI_INT", 0, 2, 4}};
//  contiguous(3, resized): copies every extent (16 bytes): at 0, 16, 32.
const std::vector<Run> kRow3Map = {
    {"MPI_INT", 0, 2, 4}, {"MPI_INT", 16, 2, 4}, {"MPI_INT", 32, 2, 4}};

void ExpectMap(const json& h, const std::vector<Run>& expected) {
  const json& map = h["type_map"];
  ASSERT_EQ(map.size(), expected.size()) << map.dump();
  int64_t elements = 0, bytes = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(map[i]["type"], expected[i].type) << i;
    EXPECT_EQ(map[i]["displacement"], expected[i].disp) << i;
    EXPECT_EQ(map[i]["count"], expected[i].count) << i;
    EXPECT_EQ(map[i]["elem_size"], expected[i].size) << i;
    elements += expected[i].count;
    bytes += expected[i].count * expected[i].size;
  }
  EXPECT_EQ(h["map_elements"], elements);
  EXPECT_EQ(h["size"], bytes);
  EXPECT_EQ(h["map_truncated"], false);
  EXPECT_EQ(h["map_incomplete"], false);
}

class HandlesView : public ::testing::TestWithParam<std::string> {};

// Reads one rank (live or core) and checks every handle it printed.
class RankChecker {
 public:
  RankChecker(std::vector<std::string> target, int rank, const RankLog& log)
      : target_(std::move(target)), rank_(rank), log_(log) {}

  json Handle(std::vector<std::string> args) {
    // --json before the arguments: they may end with "--" VALUE.
    std::vector<std::string> argv = {"handle", "--json"};
    argv.insert(argv.end(), target_.begin(), target_.end());
    argv.insert(argv.end(), args.begin(), args.end());
    MpidbgResult r = Mpidbg(argv);
    EXPECT_EQ(r.exit_code, 0) << Join(argv) << "\n" << r.err;
    if (!r.json.is_object() || !r.json.contains("handle")) return json::object();
    EXPECT_EQ(r.json["schema"], "mpidbg.handle/1");
    EXPECT_EQ(r.json["process"]["rank"], rank_);
    return r.json["handle"];
  }
  json ByValue(const std::string& kind, const std::string& name) {
    const std::string key = kind + " " + name;
    EXPECT_TRUE(log_.handles.count(key)) << "the application did not print " << key;
    json h = Handle({"--kind", kind, Value(key)});
    if (kind != "status") {
      EXPECT_EQ(h["handle"], Value(key)) << key;
    }
    return h;
  }
  std::string Value(const std::string& key) const {
    auto it = log_.handles.find(key);
    return it == log_.handles.end() ? "0x0" : it->second;
  }

  void Comms() {
    const int r = rank_;
    json dup = ByValue("comm", "dup_world");
    EXPECT_EQ(dup["name"], "dup_world");
    EXPECT_EQ(dup["creator"], "MPI_Comm_dup");
    EXPECT_EQ(dup["rank"], r);
    EXPECT_EQ(dup["size"], 4);
    EXPECT_EQ(dup["world_ranks"], json::array({0, 1, 2, 3}));
    EXPECT_EQ(dup["freed"], false);
    EXPECT_EQ(dup["intercomm"], false);
    EXPECT_EQ(dup["topology"], nullptr);
    EXPECT_EQ(dup["errhandler"], Value("errhandler user_errh"));
    EXPECT_EQ(dup["fortran_handle"], log_.fortran_dup_world);  // MPI_Comm_c2f's answer
    std::set<std::string> pending;
    for (const json& p : dup["pending_requests"]) pending.insert(p.get<std::string>());
    EXPECT_TRUE(pending.count(Value("request pending_recv"))) << dup["pending_requests"].dump();
    // The same communicator from the program's variable and from its Fortran handle.
    json from_var = Handle({"--expr", "dup_world"});
    EXPECT_EQ(from_var["handle"], Value("comm dup_world"));
    EXPECT_EQ(from_var["id"], dup["id"]);
    json from_f =
        Handle({"--fortran", "--kind", "comm", "--", std::to_string(log_.fortran_dup_world)});
    EXPECT_EQ(from_f["handle"], Value("comm dup_world"));
    json from_f_var = Handle({"--fortran", "--kind", "comm", "--expr", "dup_world_f"});
    EXPECT_EQ(from_f_var["handle"], Value("comm dup_world"));

    // Colour r % 2, key -r: the members in decreasing world rank.
    json halves = ByValue("comm", "halves");
    const json members = r % 2 == 0 ? json::array({2, 0}) : json::array({3, 1});
    EXPECT_EQ(halves["name"], "halves");
    EXPECT_EQ(halves["creator"], "MPI_Comm_split");
    EXPECT_EQ(halves["world_ranks"], members);
    EXPECT_EQ(halves["size"], 2);
    EXPECT_EQ(halves["rank"], members[0] == r ? 0 : 1);
    EXPECT_EQ(halves["split_color"], r % 2);
    EXPECT_EQ(halves["split_key"], -r);
    EXPECT_NE(halves["id"], dup["id"]);

    json grid = ByValue("comm", "grid");
    EXPECT_EQ(grid["topology"], "cart");
    EXPECT_EQ(grid["cart"]["dims"], json::array({2, 2}));
    EXPECT_EQ(grid["cart"]["periods"], json::array({true, false}));
    EXPECT_EQ(grid["rank"], r);

    json world = ByValue("comm", "world");
    EXPECT_EQ(world["name"], "MPI_COMM_WORLD");
    EXPECT_EQ(world["predefined"], true);

    // Freed by the application; its record is kept and says so.
    json freed = ByValue("comm", "freed");
    EXPECT_EQ(freed["name"], "scratch");
    EXPECT_EQ(freed["freed"], true);
    EXPECT_EQ(freed["size"], 4);
    json freed_var = Handle({"--expr", "freed_comm"});
    EXPECT_EQ(freed_var["freed"], true);

    MpidbgResult unknown = Mpidbg(Args({"--kind", "comm", "0x123457", "--json"}));
    EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
    EXPECT_NE(unknown.err.find("has no comm 0x123457"), std::string::npos) << unknown.err;
  }

  void Datatypes() {
    json vec = ByValue("datatype", "vector");
    EXPECT_EQ(vec["name"], "vec3x2s5");
    EXPECT_EQ(vec["combiner"], "vector");
    EXPECT_EQ(vec["creator"], "MPI_Type_vector");
    EXPECT_EQ(vec["committed"], true);
    EXPECT_EQ(vec["lb"], 0);
    EXPECT_EQ(vec["extent"], 48);  // ((3 - 1) * 5 + 2) ints
    EXPECT_EQ(vec["arguments"],
              (json{{"count", 3}, {"blocklength", 2}, {"stride", 5}, {"oldtype", "MPI_INT"}}));
    ExpectMap(vec, kVectorMap);

    json str = ByValue("datatype", "struct");
    EXPECT_EQ(str["name"], "vec_and_doubles");
    EXPECT_EQ(str["combiner"], "struct");
    EXPECT_EQ(str["lb"], 0);
    EXPECT_EQ(str["extent"], 80);  // 64 + 2 doubles
    EXPECT_EQ(str["arguments"]["blocklengths"], json::array({1, 2}));
    EXPECT_EQ(str["arguments"]["displacements_bytes"], json::array({0, 64}));
    EXPECT_EQ(str["arguments"]["types"], json::array({"vec3x2s5", "MPI_DOUBLE"}));
    ExpectMap(str, kStructMap);

    json sub = ByValue("datatype", "subarray");
    EXPECT_EQ(sub["combiner"], "subarray");
    EXPECT_EQ(sub["lb"], 0);
    EXPECT_EQ(sub["extent"], 80);  // the whole 4x5 array
    EXPECT_EQ(sub["true_lb"], 24);
    EXPECT_EQ(sub["true_extent"], 32);  // 44 + 12 - 24
    EXPECT_EQ(sub["arguments"]["sizes"], json::array({4, 5}));
    EXPECT_EQ(sub["arguments"]["subsizes"], json::array({2, 3}));
    EXPECT_EQ(sub["arguments"]["starts"], json::array({1, 1}));
    ExpectMap(sub, kSubarrayMap);

    json pair = ByValue("datatype", "pair");
    json resized = ByValue("datatype", "resized");
    EXPECT_EQ(resized["combiner"], "resized");
    EXPECT_EQ(resized["lb"], -4);
    EXPECT_EQ(resized["extent"], 16);
    EXPECT_EQ(resized["true_lb"], 0);
    EXPECT_EQ(resized["true_extent"], 8);
    EXPECT_EQ(resized["arguments"]["lb"], -4);
    EXPECT_EQ(resized["arguments"]["extent"], 16);
    const json& old = resized["arguments"]["oldtype"];
    EXPECT_TRUE(old == Value("datatype pair") || (pair["name"].is_string() && old == pair["name"]))
        << old;
    ExpectMap(resized, kResizedMap);

    json row3 = ByValue("datatype", "contiguous_of_resized");
    EXPECT_EQ(row3["combiner"], "contiguous");
    EXPECT_EQ(row3["arguments"]["count"], 3);
    EXPECT_EQ(row3["lb"], -4);
    EXPECT_EQ(row3["extent"], 48);
    ExpectMap(row3, kRow3Map);

    // An element of a global array of handles.
    json from_array = Handle({"--expr", "all_types[4]"});
    EXPECT_EQ(from_array["handle"], Value("datatype contiguous_of_resized"));
  }

  void Others() {
    const int r = rank_;
    json op = ByValue("op", "user_op");
    EXPECT_EQ(op["commutative"], false);
    EXPECT_EQ(op["predefined"], false);
    EXPECT_TRUE(op["callback"].is_string());

    json errh = ByValue("errhandler", "user_errh");
    EXPECT_EQ(errh["applies_to"], json::array({"comm"}));
    EXPECT_TRUE(errh["callback"].is_string());

    json info = ByValue("info", "info");
    std::map<std::string, std::string> pairs;
    for (const json& p : info["pairs"])
      pairs[p["key"].get<std::string>()] = p["value"].get<std::string>();
    EXPECT_EQ(pairs, (std::map<std::string, std::string>{{"access_style", "read_once"},
                                                         {"mpidbg_colour", "blue"}}));

    json win = ByValue("win", "halo_win");
    EXPECT_EQ(win["name"], "halo_win");
    EXPECT_EQ(win["flavor"], "create");
    EXPECT_EQ(win["size"], 256);
    EXPECT_EQ(win["disp_unit"], 4);
    EXPECT_EQ(win["base"], log_.win_base);
    EXPECT_EQ(win["comm_size"], 4);
    EXPECT_EQ(win["comm_name"], "MPI_COMM_WORLD");

    json world_group = ByValue("group", "world_group");
    EXPECT_EQ(world_group["size"], 4);
    EXPECT_EQ(world_group["rank"], r);
    EXPECT_EQ(world_group["world_ranks"], json::array({0, 1, 2, 3}));
    json pair_group = ByValue("group", "pair_group");
    EXPECT_EQ(pair_group["creator"], "MPI_Group_incl");
    EXPECT_EQ(pair_group["world_ranks"], json::array({3, 1}));
    EXPECT_EQ(pair_group["rank"], r == 3 ? json(0) : r == 1 ? json(1) : json(nullptr));
    EXPECT_EQ(pair_group["source"], Value("group world_group"));

    json recv = ByValue("request", "pending_recv");
    EXPECT_EQ(recv["creator"], "MPI_Irecv");
    EXPECT_EQ(recv["request_kind"], "point_to_point");
    EXPECT_EQ(recv["direction"], "receive");
    EXPECT_EQ(recv["status"], "pending");
    EXPECT_EQ(recv["peer"], (r + 1) % 4);
    EXPECT_EQ(recv["peer_world"], (r + 1) % 4);
    EXPECT_EQ(recv["tag"], 4242);
    EXPECT_EQ(recv["count"], 10);
    EXPECT_EQ(recv["bytes"], 40);
    EXPECT_EQ(recv["datatype_name"], "MPI_INT");
    EXPECT_EQ(recv["comm_name"], "dup_world");

    // A status is addressed, not a handle; by address and from the variable.
    json status = ByValue("status", "self_status");
    json status_var = Handle({"--expr", "self_status"});
    for (const json& s : {status, status_var}) {
      EXPECT_EQ(s["kind"], "status");
      EXPECT_EQ(s["address"], Value("status self_status"));
      EXPECT_EQ(s["source"], 0);  // rank in MPI_COMM_SELF
      EXPECT_EQ(s["tag"], 7);
      EXPECT_EQ(s["bytes"], 12);
    }

    json msg = ByValue("message", "probed");
    EXPECT_EQ(msg["source"], r);
    EXPECT_EQ(msg["tag"], 99);
    EXPECT_EQ(msg["bytes"], 12);
    EXPECT_EQ(msg["received"], false);
    EXPECT_EQ(msg["comm_name"], "dup_world");

    ASSERT_FALSE(log_.file_path.empty()) << "the application could not open its file";
    json file = ByValue("file", "file");
    EXPECT_EQ(file["filename"], log_.file_path);
    EXPECT_EQ(file["amode"], log_.amode);
    EXPECT_EQ(file["comm_name"], "MPI_COMM_SELF");
    EXPECT_EQ(file["view_disp"], 0);
    EXPECT_EQ(file["etype_name"], "MPI_INT");
    EXPECT_EQ(file["filetype_name"], "vec3x2s5");
  }

  void Text() {
    MpidbgResult r = Mpidbg(Args({"--kind", "datatype", Value("datatype struct")}));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("datatype " + Value("datatype struct") +
                              " \"vec_and_doubles\" "
                              "(MPI_Type_create_struct): struct, size 40, extent 80",
                          0),
              0u)
        << r.out;
    EXPECT_NE(r.out.find("\n    +64 MPI_DOUBLE x2\n"), std::string::npos) << r.out;
    MpidbgResult freed = Mpidbg(Args({"--expr", "freed_comm"}));
    EXPECT_NE(freed.out.find("FREED"), std::string::npos) << freed.out;
  }

 private:
  std::vector<std::string> Args(std::vector<std::string> rest) const {
    std::vector<std::string> argv = {"handle"};
    argv.insert(argv.end(), target_.begin(), target_.end());
    argv.insert(argv.end(), rest.begin(), rest.end());
    return argv;
  }
  static std::string Join(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& s : v) out += (out.empty() ? "" : " ") + s;
    return out;
  }

  std::vector<std::string> target_;
  int rank_;
  const RankLog& log_;
};

void CheckRank(const std::vector<std::string>& target, int rank, const RankLog& log) {
  SCOPED_TRACE(target[0] + " " + target[1] + " (rank " + std::to_string(rank) + ")");
  RankChecker c(target, rank, log);
  c.Comms();
  c.Datatypes();
  c.Others();
  c.Text();
}

// `mpidbg leaks` over the four ranks (`what`: "processes" or "cores"): what the program
// holds, summed over the ranks with its creation sites; with MPIDBG_PROGRESS=1 the
// progress line of the reads on stderr, and none without a terminal.
void CheckLeaks(const std::vector<std::string>& args, const std::string& what) {
  SCOPED_TRACE(what);
  MpidbgResult quiet = Mpidbg(args);
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err << quiet.out;
  EXPECT_EQ(quiet.err.find("reading "), std::string::npos) << quiet.err;
  EXPECT_EQ(quiet.json["schema"], "mpidbg.leaks/1");
  EXPECT_EQ(quiet.json["source"], what);
  bool comm_with_site = false;
  for (const auto& l : quiet.json["leaks"]) {
    comm_with_site = comm_with_site || (l["kind"] == "comm" && l["site"].is_string() &&
                                        l["site"].get<std::string>().find("handles_view.c") !=
                                            std::string::npos);
  }
  EXPECT_TRUE(comm_with_site) << quiet.json.dump(1);
  setenv("MPIDBG_PROGRESS", "1", 1);
  MpidbgResult shown = Mpidbg(args);
  unsetenv("MPIDBG_PROGRESS");
  EXPECT_NE(shown.err.find("reading " + what + " 0/4"), std::string::npos) << shown.err;
  EXPECT_NE(shown.err.find("\r\033[K"), std::string::npos) << "the line is not erased";
  EXPECT_EQ(shown.json, quiet.json);
}

// Ranks 0 and 3: a member and a non-member of every two-rank object.
constexpr int kCheckedRanks[] = {0, 3};

TEST_P(HandlesView, EveryKindLiveAndFromCores) {
  MpiJob job(GetParam(), "handles_view", 4);
  std::string why;
  ASSERT_TRUE(job.Start(&why)) << why;
  const std::map<int, RankLog> logs = ParseLog(job.Log());
  ASSERT_EQ(logs.size(), 4u) << job.Log();

  // Which pid is which rank: the handle document says.
  std::map<int, pid_t> pid_of;
  for (pid_t p : job.pids()) {
    MpidbgResult r =
        Mpidbg({"handle", "--pid", std::to_string(p), "--expr", "dup_world", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    pid_of[r.json["process"]["rank"].get<int>()] = p;
  }
  ASSERT_EQ(pid_of.size(), 4u);
  for (int rank : kCheckedRanks)
    CheckRank({"--pid", std::to_string(pid_of[rank])}, rank, logs.at(rank));
  CheckLeaks({"leaks", "--pids", job.PidList(), "--json"}, "processes");
  {
    // A process that is no MPI rank among the pids (the launcher, found by `pgrep -f`):
    // left out, the answer the same.
    ScopedProcess stray({"/bin/sleep", "60"}, ::testing::TempDir() + "handles_view_stray.log");
    ASSERT_GT(stray.pid(), 0);
    MpidbgResult plain = Mpidbg({"leaks", "--pids", job.PidList(), "--json"});
    MpidbgResult with_stray =
        Mpidbg({"leaks", "--pids", job.PidList() + "," + std::to_string(stray.pid()), "--json"});
    EXPECT_EQ(with_stray.exit_code, 0) << with_stray.err;
    EXPECT_NE(with_stray.err.find("(sleep) is not an MPI process"), std::string::npos)
        << with_stray.err;
    EXPECT_NE(with_stray.err.find("; left out"), std::string::npos) << with_stray.err;
    EXPECT_EQ(with_stray.json, plain.json);
  }

  const std::vector<std::string> cores = job.DumpCores(&why);
  job.Kill();
  ASSERT_EQ(cores.size(), 4u) << why;
  std::vector<std::string> leaks = {"leaks", "--cores"};
  leaks.insert(leaks.end(), cores.begin(), cores.end());
  leaks.push_back("--json");
  CheckLeaks(leaks, "cores");
  for (int rank : kCheckedRanks) {
    // gcore names a core PREFIX.PID.
    const std::string suffix = "." + std::to_string(pid_of[rank]);
    int found = 0;
    for (const std::string& core : cores) {
      if (core.size() > suffix.size() &&
          core.compare(core.size() - suffix.size(), suffix.size(), suffix) == 0) {
        CheckRank({"--core", core}, rank, logs.at(rank));
        ++found;
      }
    }
    EXPECT_EQ(found, 1) << "core of rank " << rank;
  }
}

INSTANTIATE_TEST_SUITE_P(Flavours, HandlesView, ::testing::ValuesIn(BuiltFlavours()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mpidbg::itest
