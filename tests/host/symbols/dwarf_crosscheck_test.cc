// dwarf_crosscheck_test.cc — every type layout the host's DWARF lookup (host/symbols,
// elfutils) reports, cross-checked with libdwarf, an independent reader, on binaries
// with debug information: a fixture of C and C++ types made for this, the test
// applications of each MPI flavour, the runtime libraries and the plugin.
//
// For each named type (dwarf_crosscheck_libdwarf.h says which), the host must find it
// and report libdwarf's size, libdwarf's offset for every data member, and -1 for a
// member the type does not have. When a name has several definitions (different
// types of one name in different compilation units), the host answers with the first
// complete one in DWARF order, so that is the one compared. Any difference fails.
#include <elfutils/libdwfl.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "dwarf_crosscheck_libdwarf.h"
#include "host/symbols/dwarf_types.h"

namespace mpidbg::xcheck {
namespace {

using host::DwarfTypes;
using host::TypeInfo;

char* g_debuginfo_path = nullptr;
const Dwfl_Callbacks kOffline = {dwfl_build_id_find_elf, dwfl_standard_find_debuginfo,
                                 dwfl_offline_section_address, &g_debuginfo_path};

std::vector<std::string> Binaries() {
  std::vector<std::string> out;
  std::stringstream ss(MPIDBG_XCHECK_BINARIES);
  for (std::string path; std::getline(ss, path, ',');) {
    if (!path.empty()) out.push_back(path);
  }
  return out;
}

// The host's type layer over one file, as it is over a process's modules.
class HostTypes {
 public:
  explicit HostTypes(const std::string& path) {
    dwfl_ = dwfl_begin(&kOffline);
    if (dwfl_ == nullptr) return;
    dwfl_report_begin(dwfl_);
    ok_ = dwfl_report_offline(dwfl_, path.c_str(), path.c_str(), -1) != nullptr;
    dwfl_report_end(dwfl_, nullptr, nullptr);
    types_ = std::make_unique<DwarfTypes>(dwfl_);
  }
  ~HostTypes() {
    types_.reset();
    if (dwfl_ != nullptr) dwfl_end(dwfl_);
  }
  bool ok() const { return ok_; }
  DwarfTypes& types() { return *types_; }

 private:
  Dwfl* dwfl_ = nullptr;
  bool ok_ = false;
  std::unique_ptr<DwarfTypes> types_;
};

std::string Describe(const Layout& l) {
  std::ostringstream out;
  out << l.tag << " at DIE 0x" << std::hex << l.die_offset << std::dec << ", size " << l.size;
  return out.str();
}

struct Tally {
  size_t types = 0;
  size_t members = 0;
};

// Compares one name; returns the number of mismatches reported.
int CheckName(DwarfTypes& types, const std::string& name, const std::vector<Layout>& defs,
              Tally* tally) {
  const Layout& first = defs.front();
  TypeInfo* t = types.Find(name);
  if (t == nullptr) {
    ADD_FAILURE() << "the host does not find type " << name << " (" << Describe(first) << ")";
    return 1;
  }
  int bad = 0;
  ++tally->types;
  int host_size = types.SizeOf(t);
  if (host_size != first.size) {
    ADD_FAILURE() << name << ": host size " << host_size << ", libdwarf " << Describe(first);
    ++bad;
  }
  for (const auto& [member, offset] : first.members) {
    ++tally->members;
    int host_offset = types.FieldOffset(t, member);
    if (host_offset != offset) {
      ADD_FAILURE() << name << "." << member << ": host offset " << host_offset << ", libdwarf "
                    << offset << " (" << Describe(first) << ")";
      ++bad;
    }
  }
  if (types.FieldOffset(t, "mpidbg_no_such_member") != -1) {
    ADD_FAILURE() << name << ": the host reports an offset for a member that does not exist";
    ++bad;
  }
  return bad;
}

// libdwarf's layouts of `path`, from the tool that links libdwarf.
bool LibdwarfLayouts(const std::string& path, Layouts* out, std::string* error) {
  std::string cmd = std::string("timeout -s KILL 300 '") + MPIDBG_XCHECK_TOOL + "' '" + path + "'";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    *error = "cannot run " MPIDBG_XCHECK_TOOL;
    return false;
  }
  std::string text;
  char buf[65536];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
  int status = pclose(p);
  if (status != 0) {
    *error = "mpidbg_xcheck_libdwarf failed (status " + std::to_string(status) + ")";
    return false;
  }
  if (!ParseLayouts(text, out)) {
    *error = "unreadable output of mpidbg_xcheck_libdwarf";
    return false;
  }
  return true;
}

// Checks every named type of one binary; the counts keep the check from passing
// vacuously on a file without debug information.
void CrossCheck(const std::string& path, Tally* tally) {
  Layouts layouts;
  std::string error;
  ASSERT_TRUE(LibdwarfLayouts(path, &layouts, &error)) << path << ": " << error;
  ASSERT_FALSE(layouts.empty()) << path << " has no named types in its DWARF";
  HostTypes host(path);
  ASSERT_TRUE(host.ok()) << "libdwfl cannot report " << path;
  int bad = 0;
  for (const auto& [name, defs] : layouts) {
    bad += CheckName(host.types(), name, defs, tally);
    if (bad > 50) FAIL() << "more than 50 mismatches in " << path << "; stopping";
  }
}

TEST(DwarfCrossCheck, FixtureTypes) {
  Tally tally;
  CrossCheck(MPIDBG_XCHECK_FIXTURE, &tally);
  // Layouts the fixture was written to have, so the check itself is checked.
  Layouts layouts;
  std::string error;
  ASSERT_TRUE(LibdwarfLayouts(MPIDBG_XCHECK_FIXTURE, &layouts, &error)) << error;
  auto first = [&](const std::string& name) -> const Layout& {
    static const Layout none;
    auto it = layouts.find(name);
    EXPECT_NE(it, layouts.end()) << name;
    return it == layouts.end() ? none : it->second.front();
  };
  const Layout& derived = first("Derived");
  EXPECT_EQ(derived.members.count("anon_y"), 1u) << "members of an anonymous struct";
  EXPECT_EQ(derived.members.count("as_float"), 1u) << "members of an anonymous union";
  EXPECT_EQ(derived.members.count("instances"), 0u) << "static members have no offset";
  const Layout& bits = first("WithBits");
  EXPECT_EQ(bits.bitfields.size(), 3u);
  EXPECT_EQ(bits.members.count("flags"), 0u);
  EXPECT_EQ(bits.members.at("after_bits"), 8);
  EXPECT_EQ(first("Aligned").size, 32);
  EXPECT_EQ(first("IntArray7").size, 28);
  EXPECT_EQ(first("ConstPlainAlias").size, 24);
  EXPECT_EQ(first("ConstPlainAlias").members.at("s"), 16);
  EXPECT_EQ(first("c_packet").members.at("seq_hi"), 6);
  EXPECT_EQ(layouts.count("c_opaque_handle"), 1u) << "a pointer to an incomplete type has a size";
  EXPECT_EQ(layouts.count("c_opaque"), 0u) << "an incomplete type has no layout";
  EXPECT_GE(tally.types, 20u);
  EXPECT_GE(tally.members, 40u);
}

// The comparison itself must see a difference: a layout doctored by one byte fails.
TEST(DwarfCrossCheck, ADifferenceIsReported) {
  Layouts layouts;
  std::string error;
  ASSERT_TRUE(LibdwarfLayouts(MPIDBG_XCHECK_FIXTURE, &layouts, &error)) << error;
  HostTypes host(MPIDBG_XCHECK_FIXTURE);
  ASSERT_TRUE(host.ok());
  Tally tally;
  std::vector<Layout> plain = layouts.at("Plain");
  EXPECT_EQ(CheckName(host.types(), "Plain", plain, &tally), 0);
  plain.front().size += 1;
  EXPECT_NONFATAL_FAILURE(CheckName(host.types(), "Plain", plain, &tally), "Plain: host size");
  plain = layouts.at("Plain");
  plain.front().members["d"] += 1;
  EXPECT_NONFATAL_FAILURE(CheckName(host.types(), "Plain", plain, &tally), "Plain.d: host offset");
  EXPECT_NONFATAL_FAILURE(CheckName(host.types(), "NoSuchTypeAnywhere", plain, &tally),
                          "the host does not find type NoSuchTypeAnywhere");
}

TEST(DwarfCrossCheck, ApplicationsRuntimeAndPlugin) {
  std::vector<std::string> binaries = Binaries();
  ASSERT_FALSE(binaries.empty());
  for (const std::string& path : binaries) {
    SCOPED_TRACE(path);
    Tally tally;
    CrossCheck(path, &tally);
    EXPECT_GT(tally.types, 0u) << path;
    std::cout << path << ": " << tally.types << " types, " << tally.members
              << " member offsets agree\n";
  }
}

}  // namespace
}  // namespace mpidbg::xcheck
