// call_site_values.h — the values a program passed to a call, read from the caller's
// DWARF call-site entry (DW_TAG_call_site / DW_TAG_GNU_call_site with its parameters'
// DW_AT_call_value), for the stacks view: the arguments of the MPI call a thread is
// blocked in, without mpidbg's runtime.
//
// Compilers write these entries for optimised code with -g (gcc -O1 and above); at -O0
// there are none and nothing is read. A value is an expression the caller's frame
// computes at the call: constants, DW_OP_addr, arithmetic, and registers the callee
// must preserve (rbx, rbp, rsp, r12-r15 on x86-64), whose values the unwinder recovered
// for the caller's frame. Anything else (entry values, memory, other registers) stays
// unknown: a value is given only where the expression is fully evaluated.
#pragma once

#include <elfutils/libdwfl.h>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace mpidbg::host {

// The integer parameters passed in registers (x86-64 System V: rdi, rsi, rdx, rcx, r8,
// r9): the first six arguments of a C call.
constexpr std::size_t kRegisterArguments = 6;

// Registers a callee preserves, as DWARF numbers them on x86-64, and their values in one
// frame (nullopt: not recovered).
constexpr std::array<unsigned, 7> kPreservedRegisters = {3, 6, 7, 12, 13, 14, 15};
struct PreservedRegisters {
  std::array<std::optional<uint64_t>, kPreservedRegisters.size()> values;
  std::optional<uint64_t> Get(unsigned dwarf_regno) const;
};

struct CallSiteValues {
  bool found = false;  // the caller's DWARF has an entry for this call
  std::array<std::optional<uint64_t>, kRegisterArguments> args;
};

// One DWARF expression operation (a copy of libdw's Dwarf_Op, for the pure evaluator).
struct ExprOp {
  uint8_t atom = 0;
  uint64_t number = 0;
  uint64_t number2 = 0;
};

// Evaluates a call value over a small stack machine; nullopt for any operation it does
// not know, a stack underflow, or more than 64 operations. `bias`: the module's load
// bias, added to DW_OP_addr.
std::optional<uint64_t> EvaluateCallValue(const std::vector<ExprOp>& ops, uint64_t bias,
                                          const PreservedRegisters& regs);

// The call whose return address is `return_pc` (a caller frame's pc), in the module that
// holds it. Never fails: no module, no DWARF or no entry give found == false.
CallSiteValues ReadCallSiteValues(Dwfl* dwfl, uint64_t return_pc, const PreservedRegisters& regs);

}  // namespace mpidbg::host
