// The arguments of a blocked MPI call from its caller's call-site values: the
// expression evaluator (call_site_values.h) and where each call keeps its peer, tag,
// communicator and root (call_arguments.h).
#include "host/stacks/call_arguments.h"

#include <dwarf.h>
#include <gtest/gtest.h>

namespace mpidbg::host {
namespace {

PreservedRegisters Rbx(uint64_t value) {
  PreservedRegisters regs;
  regs.values[0] = value;  // kPreservedRegisters[0] is rbx (3)
  return regs;
}

TEST(CallSiteValues, ConstantsAddressesArithmeticAndPreservedRegisters) {
  const PreservedRegisters none;
  // gcc's MPI_COMM_WORLD of MPICH: DW_OP_lit17; DW_OP_lit26; DW_OP_shl.
  EXPECT_EQ(EvaluateCallValue({{DW_OP_lit17}, {DW_OP_lit26}, {DW_OP_shl}}, 0, none), 0x44000000u);
  EXPECT_EQ(EvaluateCallValue({{DW_OP_const1u, 42}}, 0, none), 42u);
  EXPECT_EQ(EvaluateCallValue({{DW_OP_consts, static_cast<uint64_t>(-2)}}, 0, none),
            static_cast<uint64_t>(-2));
  // DW_OP_addr is module-relative: the load bias is added.
  EXPECT_EQ(EvaluateCallValue({{DW_OP_addr, 0x4060}}, 0x7f0000000000, none), 0x7f0000004060u);
  // Open MPI's communicator kept in rbx across the call.
  EXPECT_EQ(EvaluateCallValue({{DW_OP_breg3, 1}, {DW_OP_stack_value}}, 0, Rbx(2)), 3u);
  // Unknown, never a guess: an operation not evaluated (DW_OP_mod), a register not
  // recovered or not preserved by the callee, a stack underflow, entry values, memory.
  EXPECT_FALSE(EvaluateCallValue({{DW_OP_breg3, 1}, {DW_OP_lit4}, {DW_OP_mod}}, 0, Rbx(2)).has_value());
  EXPECT_FALSE(EvaluateCallValue({{DW_OP_breg3, 0}}, 0, none).has_value());
  EXPECT_FALSE(EvaluateCallValue({{DW_OP_breg5, 0}}, 0, Rbx(1)).has_value());
  EXPECT_FALSE(EvaluateCallValue({{DW_OP_plus}}, 0, none).has_value());
  EXPECT_FALSE(EvaluateCallValue({}, 0, none).has_value());
  EXPECT_FALSE(EvaluateCallValue({{DW_OP_GNU_entry_value, 1}}, 0, none).has_value());
  EXPECT_FALSE(EvaluateCallValue({{DW_OP_lit1}, {DW_OP_deref}}, 0, none).has_value());
}

CallSiteValues Values(std::initializer_list<std::pair<int, uint64_t>> args) {
  CallSiteValues v;
  v.found = true;
  for (const auto& [index, value] : args) v.args[static_cast<std::size_t>(index)] = value;
  return v;
}

model::Thread InCall(const char* call) {
  model::Thread t;
  t.call = call;
  t.state = "blocked";
  return t;
}

TEST(CallArguments, CollectiveOnMpichWorld) {
  model::Thread t = InCall("MPI_Barrier");
  ApplyCallArguments(Values({{0, 0x44000000}}), MpichConstants(), &t);
  EXPECT_EQ(t.comm_name, "MPI_COMM_WORLD");
  EXPECT_EQ(t.arguments_from, "caller_frame");
  model::Thread b = InCall("MPI_Bcast");
  ApplyCallArguments(Values({{3, 2}, {4, 0x84000003}}), MpichConstants(), &b);
  EXPECT_EQ(b.comm_name, "0x84000003");
  EXPECT_EQ(b.root, 2);
}

TEST(CallArguments, PointToPointOnOpenMpi) {
  const MpiConstants ompi = OpenMpiConstants(0x7f1234560000, 0x7f1234561000);
  model::Thread t = InCall("MPI_Recv");
  ApplyCallArguments(Values({{3, static_cast<uint64_t>(-1)}, {4, 0xffffffff}, {5, 0x7f1234560000}}),
                     ompi, &t);
  ASSERT_TRUE(t.operation);
  EXPECT_EQ(t.operation->peer.kind, model::Rank::Kind::kAnySource);
  EXPECT_TRUE(t.operation->tag.any);
  EXPECT_EQ(t.operation->comm_name, "MPI_COMM_WORLD");
  EXPECT_FALSE(t.operation->is_send);
  model::Thread s = InCall("MPI_Ssend");
  ApplyCallArguments(Values({{3, 1}, {4, 42}, {5, 0x7f1234560000}}), ompi, &s);
  ASSERT_TRUE(s.operation);
  EXPECT_EQ(s.operation->peer, model::Rank::Of(1));
  EXPECT_EQ(s.operation->peer_world, model::Rank::Of(1));
  EXPECT_EQ(s.operation->tag.value, 42);
  EXPECT_TRUE(s.operation->is_send);
}

TEST(CallArguments, PartialEnvelopeGivesNoOperation) {
  model::Thread t = InCall("MPI_Ssend");
  ApplyCallArguments(Values({{4, 42}, {5, 0x44000000}}), MpichConstants(), &t);  // dest unknown
  EXPECT_FALSE(t.operation);
  EXPECT_EQ(t.arguments_from, "");
  model::Thread none = InCall("MPI_Barrier");
  ApplyCallArguments(CallSiteValues{}, MpichConstants(), &none);  // no call-site entry
  EXPECT_EQ(none.comm_name, "");
  model::Thread other = InCall("MPI_Waitall");
  ApplyCallArguments(Values({{0, 3}}), MpichConstants(), &other);
  EXPECT_EQ(other.arguments_from, "");
}

TEST(CallArguments, UnknownLibraryNamesNoCommunicator) {
  model::Thread t = InCall("MPI_Barrier");
  ApplyCallArguments(Values({{0, 0x44000000}}), MpiConstants{}, &t);
  EXPECT_EQ(t.comm_name, "0x44000000");
}

}  // namespace
}  // namespace mpidbg::host
