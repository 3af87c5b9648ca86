// object_listing_test.cc — the host side of the object listing: kind names, the
// handles[] entries of OUTPUT.md (every kind from the listing, a communicator's id kept,
// communicators alone without a listing), the creation text, and exit status 2 for bad
// usage of `mpidbg handles` (the commands are tested on real jobs in
// tests/integration/objects_view_test.cc).
#include <gtest/gtest.h>

#include "host/objects/object_listing.h"
#include "host/snapshot/snapshot_json.h"

namespace mpidbg::host {
namespace {

using nlohmann::json;

model::ObjectHandle Dup() {  // also used by the streamed-JSON test below
  model::ObjectHandle o;
  o.kind = "comm";
  o.handle = 0x84000002;
  o.name = "dup_world";
  o.creator = "MPI_Comm_dup";
  o.create_time_ns = 1700000000000000000;
  o.create_serial = 4;
  o.age_seconds = 12.5;
  o.create_pc = 0x401234;
  model::Frame f;
  f.function = "main";
  f.file = "/src/app.c";
  f.line = 42;
  f.module = "app";
  f.pc = 0x401234;
  o.site = std::make_shared<const model::Frame>(f);
  return o;
}

model::ObjectHandle FreedType() {
  model::ObjectHandle o;
  o.kind = "datatype";
  o.handle = 0x8c000001;
  o.freed = true;
  o.state = "freed";
  o.creator = "MPI_Type_vector";
  o.free_serial = 3;
  o.create_pc = 0x7f0000001000;  // in a module without symbols
  return o;
}

TEST(ObjectListing, KindNames) {
  EXPECT_EQ(ObjectKindNumber(""), 0);
  EXPECT_EQ(ObjectKindNumber("comm"), 1);
  EXPECT_EQ(ObjectKindNumber("request"), 2);
  EXPECT_EQ(ObjectKindNumber("session"), 11);
  EXPECT_EQ(ObjectKindNumber("status"), -1) << "a status is a value, not an object";
  EXPECT_EQ(ObjectKindNumber("bogus"), -1);
  EXPECT_EQ(ObjectKindName(9), "file");
  EXPECT_EQ(ObjectKindName(0), "unknown");
  EXPECT_EQ(ObjectKindName(12), "unknown");
}

TEST(ObjectListing, JsonEntry) {
  json j = ObjectToJson(Dup());
  EXPECT_EQ(j["kind"], "comm");
  EXPECT_EQ(j["handle"], "0x84000002");
  EXPECT_EQ(j["name"], "dup_world");
  EXPECT_EQ(j["freed"], false);
  EXPECT_EQ(j["predefined"], false);
  EXPECT_EQ(j["state"], "live");
  EXPECT_EQ(j["creator"], "MPI_Comm_dup");
  EXPECT_EQ(j["age_seconds"], 12.5);
  EXPECT_EQ(j["created_at"]["function"], "main");
  EXPECT_EQ(j["created_at"]["file"], "/src/app.c");
  EXPECT_EQ(j["created_at"]["line"], 42);
  EXPECT_EQ(j["created_at"]["pc"], "0x401234");
  EXPECT_FALSE(j.contains("request_state"));

  json t = ObjectToJson(FreedType());
  EXPECT_EQ(t["freed"], true);
  EXPECT_EQ(t["state"], "freed");
  EXPECT_TRUE(t["name"].is_null());
  EXPECT_TRUE(t["age_seconds"].is_null());
  EXPECT_TRUE(t["created_at"]["file"].is_null());
  EXPECT_EQ(t["free_serial"], 3);

  model::ObjectHandle world;
  world.kind = "comm";
  world.name = "MPI_COMM_WORLD";
  world.predefined = true;
  world.state = "predefined";
  EXPECT_TRUE(ObjectToJson(world)["created_at"].is_null());
}

TEST(ObjectListing, CreationText) {
  EXPECT_EQ(CreationText(Dup()), "created by MPI_Comm_dup at app.c:42 in main, 12.5 s ago");
  EXPECT_EQ(CreationText(FreedType()), "created by MPI_Type_vector at 0x7f0000001000");
  model::ObjectHandle world;
  world.predefined = true;
  EXPECT_EQ(CreationText(world), "predefined");
}

TEST(ObjectListing, SnapshotHandlesHoldEveryKindFromTheListing) {
  model::ProcessSnapshot snap;
  model::Communicator c;
  c.id = "0x00000000000000aa";
  c.handle = 0x84000002;
  c.name = "dup_world";
  snap.communicators.push_back(c);

  json without = SnapshotToJson(snap)["handles"];
  ASSERT_EQ(without.size(), 1u) << "communicators alone without a listing";
  EXPECT_EQ(without[0]["comm"], "0x00000000000000aa");

  model::ObjectListing listing;
  listing.objects = {Dup(), FreedType()};
  snap.objects = listing;
  json with = SnapshotToJson(snap)["handles"];
  ASSERT_EQ(with.size(), 2u);
  EXPECT_EQ(with[0]["kind"], "comm");
  EXPECT_EQ(with[0]["comm"], "0x00000000000000aa") << "a communicator keeps its id";
  EXPECT_EQ(with[0]["created_at"]["line"], 42);
  EXPECT_EQ(with[1]["kind"], "datatype");
  EXPECT_FALSE(with[1].contains("comm"));
}

}  // namespace
}  // namespace mpidbg::host

namespace mpidbg::host {
namespace {

// The streamed entry of `mpidbg handles --json` is the document entry of snapshot.
TEST(ObjectListing, StreamedJsonIsTheSameEntry) {
  model::ObjectHandle request;
  request.kind = "request";
  request.handle = 0xac000003;
  request.creator = "MPI_Irecv";
  request.request_state = "pending";
  request.persistent = true;
  request.age_seconds = 0.1234567891234;
  request.create_time_ns = 5;
  model::ObjectHandle odd = Dup();
  odd.name = std::string("quote\" back\\ tab\t");
  model::Frame no_file = *odd.site;
  no_file.file = std::nullopt;
  odd.site = std::make_shared<const model::Frame>(no_file);
  for (const model::ObjectHandle& o : {Dup(), FreedType(), request, odd, model::ObjectHandle()}) {
    std::string text;
    AppendObjectJson(o, &text);
    json parsed = json::parse(text);
    EXPECT_EQ(parsed, ObjectToJson(o)) << text;
  }
}

}  // namespace
}  // namespace mpidbg::host
