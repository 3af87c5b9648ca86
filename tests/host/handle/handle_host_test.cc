// handle_host_test.cc — the host side of `mpidbg handle` without a target: which DLLs
// have the handle interface, result structures as JSON (including arrays whose counts
// do not fit the constructor) and as text, and the result memory rule.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "host/handle/handle_fields.h"
#include "host/handle/handle_json.h"
#include "host/handle/handle_text.h"
#include "host/plugin_host/handle_dll.h"
#include "host/plugin_host/handle_results.h"
#include "host/symbols/variable_types.h"
#include "test_child.h"

// Variables of handle types, as a program compiled against mpi.h has them (MPICH's
// integer handles; the names, not the MPI, matter to the lookup).
typedef int MPI_Comm;
typedef int MPI_Request;
typedef MPI_Request app_request_t;
extern "C" {
MPI_Comm mpidbg_test_comm = 7;
volatile app_request_t mpidbg_test_requests[3] = {1, 2, 3};
long mpidbg_test_plain = 5;
}

namespace mpidbg::host {
namespace {

using nlohmann::json;

json Namer(int kind, uint64_t h) {
  if (kind == MPIDBG_HANDLE_DATATYPE && h == 0x4c000405) return "MPI_INT";
  return nullptr;
}

TEST(HandleDll, OnlyDllsWithTheInterface) {
  std::string error;
  EXPECT_EQ(MissingHandleExport(FAKE_FOREIGN_DLL_PATH, &error), "mpidbg_init_once");
  EXPECT_TRUE(error.empty());
  EXPECT_EQ(MissingHandleExport("/etc/hostname", &error), "");
  EXPECT_EQ(error, "not an ELF shared library");
  auto foreign = HandleDll::Load(FAKE_FOREIGN_DLL_PATH);
  ASSERT_FALSE(foreign.ok());
  EXPECT_EQ(foreign.status().kind(), ErrorKind::kNoSupport);
  auto plugin = HandleDll::Load(MPIDBG_PLUGIN_PATH);
  ASSERT_TRUE(plugin.ok()) << plugin.status().message();
  EXPECT_NE(plugin.value()->fn().datatype_query, nullptr);
  EXPECT_NE(plugin.value()->fn().comm_query_extended, nullptr);
}

mpidbg_datatype_info_t Vector() {
  static int ints[3] = {3, 2, 5};
  static mqs_taddr_t types[1] = {0x4c000405};
  static mpidbg_type_map_entry_t map[1] = {{0x4c000405, "MPI_INT", 0, 2, 4}};
  mpidbg_datatype_info_t d{};
  std::strcpy(d.dt_name, "v");
  d.dt_bitflags = MPIDBG_DATATYPE_COMMITTED;
  d.dt_c_handle = 0x8c000001;
  d.dt_combiner = 4;  // MPIDBG_COMBINER_VECTOR
  std::strcpy(d.dt_creator_name, "MPI_Type_vector");
  d.dt_size = 24;
  d.dt_extent = 48;
  d.dt_true_extent = 48;
  d.dt_num_integers = 3;
  d.dt_integers = ints;
  d.dt_num_datatypes = 1;
  d.dt_datatypes = types;
  d.dt_map_length = 1;
  d.dt_map = map;
  d.dt_map_elements = 2;
  return d;
}

TEST(HandleJson, DatatypeArgumentsByName) {
  mpidbg_datatype_info_t d = Vector();
  json j = DatatypeToJson(d, Namer);
  EXPECT_EQ(j["arguments"],
            (json{{"count", 3}, {"blocklength", 2}, {"stride", 5}, {"oldtype", "MPI_INT"}}));
  EXPECT_EQ(j["combiner"], "vector");
  EXPECT_EQ(j["handle"], "0x8c000001");
  EXPECT_EQ(j["fortran_handle"], 0);
  EXPECT_EQ(j["type_map"][0]["type"], "MPI_INT");
  std::string text = HandleText(json{{"handle", j}, {"query", json::object()}});
  EXPECT_EQ(
      text.rfind("datatype 0x8c000001 \"v\" (MPI_Type_vector): vector, size 24, extent 48", 0), 0u)
      << text;
  EXPECT_NE(text.find("inputs: count=3 blocklength=2 stride=5 oldtype=MPI_INT"), std::string::npos)
      << text;
}

TEST(HandleJson, ArraysThatDoNotFitTheCombinerAreNotRead) {
  mpidbg_datatype_info_t d = Vector();
  static int ints[1] = {1000};
  d.dt_combiner = 6;  // MPIDBG_COMBINER_INDEXED: count 1000 but one integer given
  d.dt_integers = ints;
  d.dt_num_integers = 1;
  EXPECT_TRUE(DatatypeArguments(d, Namer).is_null());
  d.dt_integers = nullptr;  // a NULL array with a count
  d.dt_num_integers = 5;
  EXPECT_TRUE(DatatypeToJson(d, Namer)["integers"].empty());
}

TEST(HandleJson, CommWithoutExtension) {
  static mpidbg_process_t procs[2] = {{2}, {0}};
  mpidbg_comm_info_t c{};
  std::strcpy(c.comm_name, "halves");
  c.comm_bitflags = static_cast<mpidbg_comm_info_bitmap_t>(MPIDBG_COMM_INFO_FREED_HANDLE);
  c.comm_rank = 1;
  c.comm_size = 2;
  c.comm_num_local_procs = 2;
  c.comm_local_procs = procs;
  c.comm_c_handle = 0x84000003;
  c.comm_fortran_handle = MPIDBG_ERR_UNAVAILABLE;
  json j = CommToJson(c, nullptr, Namer);
  EXPECT_EQ(j["world_ranks"], json::array({2, 0}));
  EXPECT_EQ(j["freed"], true);
  EXPECT_EQ(j["fortran_handle"], nullptr);
  EXPECT_EQ(j["topology"], nullptr);
  EXPECT_FALSE(j.contains("id"));
  std::string text = HandleText(json{{"handle", j}, {"query", json::object()}});
  EXPECT_NE(text.find("FREED by the application"), std::string::npos) << text;
}

// A freed handle that is now MPI_COMM_NULL has no group: the text says what it is
// instead of "rank -1 of 0" and an empty list of world ranks.
TEST(HandleJson, NullCommIsNotAGroupOfNobody) {
  mpidbg_comm_info_t c{};
  c.comm_bitflags = static_cast<mpidbg_comm_info_bitmap_t>(MPIDBG_COMM_INFO_FREED_HANDLE);
  c.comm_rank = -1;
  c.comm_size = 0;
  c.comm_c_handle = 0x04000000;
  c.comm_fortran_handle = MPIDBG_ERR_UNAVAILABLE;
  json j = CommToJson(c, nullptr, Namer);
  j["null"] = true;
  std::string text = HandleText(json{{"handle", j}, {"query", json::object()}});
  EXPECT_EQ(text.find("rank -1"), std::string::npos) << text;
  EXPECT_EQ(text.find("world ranks"), std::string::npos) << text;
  EXPECT_NE(text.find("the null communicator (FREED)"), std::string::npos) << text;
  // Not null, but freed and its group gone: no member rank, the list "not recorded".
  j["null"] = false;
  text = HandleText(json{{"handle", j}, {"query", json::object()}});
  EXPECT_EQ(text.find("rank -1"), std::string::npos) << text;
  EXPECT_NE(text.find("this process not a member"), std::string::npos) << text;
  EXPECT_NE(text.find("world ranks: not recorded"), std::string::npos) << text;
}

// The memory rule: every non-NULL member, strings of arrays first, then the structure.
// Under AddressSanitizer or valgrind a missed or doubled free shows; here the frees
// must at least not crash on a full result.
TEST(HandleResults, FreesEveryMember) {
  auto dup = [](const char* s) {
    char* p = static_cast<char*>(std::malloc(std::strlen(s) + 1));
    std::strcpy(p, s);
    return p;
  };
  auto* info = static_cast<mpidbg_info_info_t*>(std::calloc(1, sizeof(mpidbg_info_info_t)));
  info->info_num_pairs = 2;
  info->info_pairs = static_cast<mpidbg_info_pair_t*>(std::calloc(2, sizeof(mpidbg_info_pair_t)));
  info->info_pairs[0] = {dup("a"), dup("1")};
  info->info_pairs[1] = {dup("b"), nullptr};
  FreeHandleResult(info, std::free);
  auto* map = static_cast<mpidbg_name_map_t*>(std::calloc(3, sizeof(mpidbg_name_map_t)));
  map[0] = {dup("MPI_INT"), 1};
  map[1] = {dup("MPI_CHAR"), 2};
  FreeHandleResult(map, std::free);
  HandleResult<mpidbg_comm_ext_info_t> comm(std::free);
  *comm.out() =
      static_cast<mpidbg_comm_ext_info_t*>(std::calloc(1, sizeof(mpidbg_comm_ext_info_t)));
  comm->base.comm_num_attrs = 1;
  comm->base.comm_attrs =
      static_cast<mpidbg_attribute_pair_t*>(std::calloc(1, sizeof(mpidbg_attribute_pair_t)));
  comm->base.comm_attrs[0] = {5, dup("MPI_TAG_UB"), dup("0x7fffffff")};
  comm->dist_sources = static_cast<int*>(std::calloc(2, sizeof(int)));
}

TEST(VariableTypes, FromTheDebugInformationOfALiveProcess) {
  pid_t child = test::StartChild();
  VariableType comm = LiveVariableType(child, "mpidbg_test_comm");
  EXPECT_TRUE(comm.found);
  EXPECT_EQ(comm.type_name, "MPI_Comm");
  EXPECT_EQ(comm.size, 4);
  EXPECT_FALSE(comm.is_array);
  // Through a qualifier and a typedef of the handle type, in an array.
  VariableType reqs = LiveVariableType(child, "mpidbg_test_requests");
  EXPECT_EQ(reqs.type_name, "MPI_Request");
  EXPECT_TRUE(reqs.is_array);
  EXPECT_EQ(reqs.array_length, 3);
  EXPECT_EQ(reqs.element_size, 4);
  VariableType plain = LiveVariableType(child, "mpidbg_test_plain");
  EXPECT_TRUE(plain.found);
  EXPECT_EQ(plain.type_name, "");
  EXPECT_EQ(plain.size, 8);
  EXPECT_FALSE(LiveVariableType(child, "mpidbg_no_such_variable").found);
  test::StopChild(child);
}

TEST(VariableTypes, HandleKindsByTypeName) {
  EXPECT_EQ(HandleKindOfTypeName("MPI_Comm"), "comm");
  EXPECT_EQ(HandleKindOfTypeName("MPI_Status"), "status");
  EXPECT_EQ(HandleKindOfTypeName("MPI_Message"), "message");
  EXPECT_EQ(HandleKindOfTypeName("int"), "");
}

// The children a variable view expands: the kind's main facts first, then where it came
// from; unknown keys left out, booleans as 0/1, addresses marked, type map runs and info
// pairs in their readable forms, nested objects flattened.
TEST(HandleFields, WhatAVariableViewExpands) {
  json comm = {{"kind", "comm"}, {"handle", "0x84000001"}, {"name", "odds"},
               {"size", 2}, {"rank", 0}, {"world_ranks", {1, 3}}, {"intercomm", false},
               {"remote_world_ranks", nullptr}, {"cart", {{"dims", {2, 1}}, {"periods", {true, false}}}},
               {"creator", "MPI_Comm_split"}, {"predefined", false}, {"freed", false},
               {"create_time_ns", 17}};
  json fields = HandleFieldsJson(HandleFields(comm));
  EXPECT_EQ(fields, json::parse(R"([["name","odds"],["size",2],["rank",0],["world_ranks",[1,3]],
      ["intercomm",0],["cart_dims",[2,1]],["cart_periods",[1,0]],["creator","MPI_Comm_split"],
      ["predefined",0],["freed",0]])"));

  json dtype = {{"kind", "datatype"}, {"name", nullptr}, {"combiner", "vector"},
                {"type_map", {{{"type", "MPI_INT"}, {"displacement", 16}, {"count", 2}}}},
                {"arguments", {{"count", 3}, {"oldtype", "MPI_INT"}}}};
  fields = HandleFieldsJson(HandleFields(dtype));
  EXPECT_EQ(fields, json::parse(R"([["combiner","vector"],["arguments_count",3],
      ["arguments_oldtype","MPI_INT"],["type_map",["MPI_INT x2 @16"]]])"));

  json info = {{"kind", "info"}, {"pairs", {{{"key", "a"}, {"value", "1"}}, {{"key", "b"}, {"value", nullptr}}}}};
  fields = HandleFieldsJson(HandleFields(info));
  EXPECT_EQ(fields, json::parse(R"([["a","1"],["b",""],["keys",2]])"));

  json request = {{"kind", "request"}, {"status", "pending"}, {"buffer", "0x7f00"},
                  {"pending", json::array()}, {"comm_name", "odds"}};
  fields = HandleFieldsJson(HandleFields(request));
  EXPECT_EQ(fields, json::parse(R"([["status","pending"],["comm_name","odds"],
      ["buffer",{"address":"0x7f00"}]])"));
  EXPECT_TRUE(HandleFields(json("not an object")).empty());
}

}  // namespace
}  // namespace mpidbg::host
