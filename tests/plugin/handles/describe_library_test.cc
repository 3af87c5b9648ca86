// describe_library_test.cc — libmpidbg_describe.so as a debugger uses it: the debugger
// has loaded the plugin and set up a fake process; the describer resolves that same
// plugin, describes handles in `mpidbg handle`'s words (summary, text, JSON, the fields
// a variable view expands) and gives back every result with the debugger's mqs_free.
// Failures are a code and one sentence: an unknown handle or kind, a plugin the
// debugger never loaded, a missing target.
#include <dlfcn.h>

#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "fake_target.h"
#include "handles_session.h"
#include "mpidbg/mpidbg_describe.h"
#include "test_kinds.h"

namespace mpidbg::test {
namespace {

using nlohmann::json;

struct DescribeLibrary {
  decltype(&mpidbg_describe_version) version = nullptr;
  decltype(&mpidbg_describe_handle) describe = nullptr;
  decltype(&mpidbg_describe_fortran_to_c) fortran_to_c = nullptr;
  decltype(&mpidbg_describe_release) release = nullptr;
  decltype(&mpidbg_describe_clear) clear = nullptr;
};

const DescribeLibrary& library() {
  static const DescribeLibrary lib = [] {
    DescribeLibrary l;
    void* h = dlopen(MPIDBG_DESCRIBE_PATH, RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) return l;
    l.version = reinterpret_cast<decltype(l.version)>(dlsym(h, "mpidbg_describe_version"));
    l.describe = reinterpret_cast<decltype(l.describe)>(dlsym(h, "mpidbg_describe_handle"));
    l.fortran_to_c =
        reinterpret_cast<decltype(l.fortran_to_c)>(dlsym(h, "mpidbg_describe_fortran_to_c"));
    l.release = reinterpret_cast<decltype(l.release)>(dlsym(h, "mpidbg_describe_release"));
    l.clear = reinterpret_cast<decltype(l.clear)>(dlsym(h, "mpidbg_describe_clear"));
    return l;
  }();
  return lib;
}

class DescribeLib : public testing::TestWithParam<KindAndHandles> {
 protected:
  void SetUp() override {
    ASSERT_NE(library().describe, nullptr) << "cannot load " << MPIDBG_DESCRIBE_PATH;
    ASSERT_EQ(library().version(), MPIDBG_DESCRIBE_VERSION);
    baseline_ = FakeDebugger::live_allocations();
    mpich_ = GetParam().handle_size == 4;
    target_ = std::make_unique<FakeTarget>(GetParam().kind.pointer_size,
                                           GetParam().kind.big_endian);
    b_ = std::make_unique<ImageBuilder>(
        target_.get(), GetParam().kind.pointer_size == 4 ? 0x10000000u : 0x7f0000000000u);
    build();
    b_->commit();
    session_ = std::make_unique<HandleSession>(target_.get());
    ASSERT_EQ(session_->start(), MPIDBG_SUCCESS);
    t_.dll_path = MPIDBG_PLUGIN_PATH;
    t_.image = session_->image();
    t_.image_info = session_->debugger.image_info;
    t_.process = session_->process();
    t_.process_info = session_->debugger.process_info;
    t_.mqs_free = debugger_free;
  }
  void TearDown() override {
    session_.reset();
    // Every result the plugin allocated through the debugger was given back.
    EXPECT_EQ(FakeDebugger::live_allocations(), baseline_);
  }

  uint64_t h(uint64_t n) const { return mpich_ ? 0x84000000u | n : 0x7f3a00000000u + n * 0x40; }

  void build() {
    mpidbg_root& root = b_->root;
    root.flavour = mpich_ ? MPIDBG_FLAVOUR_MPICH : MPIDBG_FLAVOUR_OPENMPI;
    root.handle_size = GetParam().handle_size;
    root.process_state = MPIDBG_PROCESS_RUNNING;
    root.world_rank = 1;
    root.world_size = 4;
    root.comm_world_handle = h(0x1);
    const uint64_t world_ranks = b_->add_int32_array({0, 1, 2, 3});
    mpidbg_comm_record world = make_comm(h(0x1), 0x10, 1, 4, world_ranks, 1, "");
    world.hdr.flags = MPIDBG_REC_PREDEFINED;
    world.creator = MPIDBG_CALL_MPIDBG_PREDEFINED;
    b_->add_comm(world);
    const uint64_t odd_ranks = b_->add_int32_array({1, 3});
    mpidbg_comm_record odds = make_comm(h(0x2), 0x11, 0, 2, odd_ranks, 2, "odds");
    odds.creator = MPIDBG_CALL_MPI_Comm_split;
    odds.fortran_index = 5;
    b_->add_comm(odds);
    mpidbg_operation_record isend =
        make_op(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND, h(0x2), 0x11, 3, 1, 3, 200);
    isend.request = h(0x500);
    b_->add_op(isend);
  }

  // Describes and checks the result is whole; the description is copied out and freed.
  int describe(const char* kind, uint64_t value, json* handle, std::string* summary,
               std::string* text, json* fields, std::string* error) {
    mpidbg_description_t d{};
    char* why = nullptr;
    int rc = library().describe(&t_, kind, value, 0, &d, &why);
    if (rc == MPIDBG_DESCRIBE_OK) {
      EXPECT_EQ(why, nullptr);
      *summary = d.summary;
      *text = d.text;
      *handle = json::parse(d.json);
      *fields = json::parse(d.fields);
      library().clear(&d);
      EXPECT_EQ(d.summary, nullptr);
    } else {
      EXPECT_EQ(d.summary, nullptr);
      EXPECT_EQ(d.json, nullptr);
      EXPECT_NE(why, nullptr);
      *error = why != nullptr ? why : "";
      library().release(why);
    }
    return rc;
  }

  static json Field(const json& fields, const std::string& name) {
    for (const json& f : fields) {
      if (f[0] == name) return f[1];
    }
    return "absent";
  }

  long baseline_ = 0;
  bool mpich_ = false;
  std::unique_ptr<FakeTarget> target_;
  std::unique_ptr<ImageBuilder> b_;
  std::unique_ptr<HandleSession> session_;
  mpidbg_describe_target_t t_{};
};

TEST_P(DescribeLib, CommunicatorInTheCommandsWords) {
  json handle, fields;
  std::string summary, text, error;
  ASSERT_EQ(describe("comm", h(0x2), &handle, &summary, &text, &fields, &error),
            MPIDBG_DESCRIBE_OK)
      << error;
  EXPECT_EQ(handle["kind"], "comm");
  EXPECT_EQ(handle["name"], "odds");
  EXPECT_EQ(handle["world_ranks"], json::array({1, 3}));
  EXPECT_NE(summary.find("\"odds\" (MPI_Comm_split): intra, rank 0 of 2"), std::string::npos)
      << summary;
  EXPECT_EQ(summary.find('\n'), std::string::npos);
  EXPECT_EQ(text.rfind(summary + "\n", 0), 0u) << text;  // the text begins with it
  EXPECT_NE(text.find("  world ranks: 1,3\n"), std::string::npos) << text;
  // The children carry what the summary says, first.
  ASSERT_TRUE(fields.is_array());
  EXPECT_EQ(fields[0], json::array({"name", "odds"}));
  EXPECT_EQ(Field(fields, "size"), 2);
  EXPECT_EQ(Field(fields, "rank"), 0);
  EXPECT_EQ(Field(fields, "world_ranks"), json::array({1, 3}));
  EXPECT_EQ(Field(fields, "creator"), "MPI_Comm_split");
  EXPECT_EQ(Field(fields, "freed"), 0);
}

TEST_P(DescribeLib, PredefinedNamesResolvedThroughThePlugin) {
  json handle, fields;
  std::string summary, text, error;
  ASSERT_EQ(describe("request", h(0x500), &handle, &summary, &text, &fields, &error),
            MPIDBG_DESCRIBE_OK)
      << error;
  EXPECT_NE(summary.find("(MPI_Isend): send to 1, tag 200"), std::string::npos) << summary;
  EXPECT_NE(summary.find(" on odds, pending"), std::string::npos) << summary;
  EXPECT_EQ(Field(fields, "comm_name"), "odds");
  EXPECT_EQ(Field(fields, "peer_world"), 3);
  // An address in the target is marked as one.
  EXPECT_TRUE(Field(fields, "buffer").is_object()) << fields.dump();
}

TEST_P(DescribeLib, FailuresAreACodeAndOneSentence) {
  json handle, fields;
  std::string summary, text, error;
  EXPECT_EQ(describe("comm", h(0x77), &handle, &summary, &text, &fields, &error),
            MPIDBG_DESCRIBE_BAD_REQUEST);
  EXPECT_NE(error.find("the process has no comm"), std::string::npos) << error;
  EXPECT_EQ(describe("widget", h(0x2), &handle, &summary, &text, &fields, &error),
            MPIDBG_DESCRIBE_BAD_REQUEST);
  EXPECT_NE(error.find("unknown handle kind 'widget'"), std::string::npos) << error;

  // A plugin this process never loaded is not loaded behind the debugger's back.
  t_.dll_path = "/nonexistent/libmpidbg_plugin.so";
  EXPECT_EQ(describe("comm", h(0x2), &handle, &summary, &text, &fields, &error),
            MPIDBG_DESCRIBE_NO_SUPPORT);
  EXPECT_NE(error.find("is not loaded in this process"), std::string::npos) << error;

  mpidbg_description_t d{};
  char* why = nullptr;
  EXPECT_EQ(library().describe(nullptr, "comm", 1, 0, &d, &why), MPIDBG_DESCRIBE_NO_SUPPORT);
  library().release(why);
  EXPECT_EQ(library().describe(&t_, nullptr, 1, 0, &d, nullptr), MPIDBG_DESCRIBE_BAD_REQUEST);
  EXPECT_EQ(library().describe(&t_, "comm", 1, 0, nullptr, nullptr), MPIDBG_DESCRIBE_BAD_REQUEST);
}

TEST_P(DescribeLib, FortranHandlesConvertThroughThePlugin) {
  uint64_t c = 0;
  char* why = nullptr;
  // The Fortran handle is MPICH's C handle itself; Open MPI's the recorded index.
  const uint64_t fortran = mpich_ ? h(0x2) : 5;
  ASSERT_EQ(library().fortran_to_c(&t_, "comm", fortran, &c, &why), MPIDBG_DESCRIBE_OK)
      << (why != nullptr ? why : "");
  EXPECT_EQ(c, h(0x2));
  EXPECT_EQ(library().fortran_to_c(&t_, "comm", 0x1234567, &c, &why),
            MPIDBG_DESCRIBE_BAD_REQUEST);
  ASSERT_NE(why, nullptr);
  library().release(why);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, DescribeLib, all_kinds_and_handles(), kind_name);

}  // namespace
}  // namespace mpidbg::test
