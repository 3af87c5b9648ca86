// call_site_values.cc — finding a call's DW_TAG_call_site entry by its return address
// and evaluating its parameters' values.
#include "host/stacks/call_site_values.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include <cstdlib>

namespace mpidbg::host {
namespace {

constexpr std::size_t kMaxOps = 64;
constexpr int kMaxDieVisits = 1 << 16;  // bounds the walk of one function's DIEs

// DWARF register number of each integer argument register (x86-64 System V).
constexpr unsigned kArgumentRegisters[kRegisterArguments] = {5, 4, 1, 2, 8, 9};

bool ApplyBinary(uint8_t atom, uint64_t a, uint64_t b, uint64_t* out) {
  switch (atom) {
    case DW_OP_plus: *out = a + b; return true;
    case DW_OP_minus: *out = a - b; return true;
    case DW_OP_mul: *out = a * b; return true;
    case DW_OP_and: *out = a & b; return true;
    case DW_OP_or: *out = a | b; return true;
    case DW_OP_xor: *out = a ^ b; return true;
    case DW_OP_shl: *out = b >= 64 ? 0 : a << b; return true;
    case DW_OP_shr: *out = b >= 64 ? 0 : a >> b; return true;
    case DW_OP_shra:
      *out = static_cast<uint64_t>(static_cast<int64_t>(a) >> (b >= 64 ? 63 : b));
      return true;
    default: return false;
  }
}

// The parameter's register, from its DW_AT_location (DW_OP_regN), -1 when not one.
int ParameterRegister(Dwarf_Die* param) {
  Dwarf_Attribute attr;
  if (dwarf_attr(param, DW_AT_location, &attr) == nullptr) return -1;
  Dwarf_Op* ops = nullptr;
  size_t n = 0;
  if (dwarf_getlocation(&attr, &ops, &n) != 0 || n != 1) return -1;
  if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) return ops[0].atom - DW_OP_reg0;
  if (ops[0].atom == DW_OP_regx) return static_cast<int>(ops[0].number);
  return -1;
}

std::optional<uint64_t> ParameterValue(Dwarf_Die* param, uint64_t bias,
                                       const PreservedRegisters& regs) {
  Dwarf_Attribute attr;
  if (dwarf_attr(param, DW_AT_call_value, &attr) == nullptr &&
      dwarf_attr(param, DW_AT_GNU_call_site_value, &attr) == nullptr) {
    return std::nullopt;
  }
  Dwarf_Op* ops = nullptr;
  size_t n = 0;
  if (dwarf_getlocation(&attr, &ops, &n) != 0 || n == 0 || n > kMaxOps) return std::nullopt;
  std::vector<ExprOp> copy;
  for (size_t i = 0; i < n; ++i) copy.push_back(ExprOp{ops[i].atom, ops[i].number, ops[i].number2});
  return EvaluateCallValue(copy, bias, regs);
}

// The call-site entry whose return address is `pc` (module-relative), searched depth
// first under `die` (a function: its lexical blocks and inlined bodies hold calls too).
bool FindCallSite(Dwarf_Die* die, Dwarf_Addr pc, int* visits, Dwarf_Die* found) {
  Dwarf_Die child;
  if (dwarf_child(die, &child) != 0) return false;
  do {
    if (++*visits > kMaxDieVisits) return false;
    const int tag = dwarf_tag(&child);
    if (tag == DW_TAG_call_site || tag == DW_TAG_GNU_call_site) {
      Dwarf_Attribute attr;
      Dwarf_Addr at = 0;
      // DWARF 5 names the return address; the GNU extension its low_pc.
      if (dwarf_attr(&child, DW_AT_call_return_pc, &attr) != nullptr) {
        if (dwarf_formaddr(&attr, &at) == 0 && at == pc) {
          *found = child;
          return true;
        }
      } else if (dwarf_lowpc(&child, &at) == 0 && at == pc) {
        *found = child;
        return true;
      }
      continue;  // a call site's children are its parameters
    }
    if (dwarf_haschildren(&child) && FindCallSite(&child, pc, visits, found)) return true;
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

}  // namespace

std::optional<uint64_t> PreservedRegisters::Get(unsigned dwarf_regno) const {
  for (std::size_t i = 0; i < kPreservedRegisters.size(); ++i) {
    if (kPreservedRegisters[i] == dwarf_regno) return values[i];
  }
  return std::nullopt;
}

std::optional<uint64_t> EvaluateCallValue(const std::vector<ExprOp>& ops, uint64_t bias,
                                          const PreservedRegisters& regs) {
  if (ops.empty() || ops.size() > kMaxOps) return std::nullopt;
  std::vector<uint64_t> stack;
  for (const ExprOp& op : ops) {
    const uint8_t a = op.atom;
    if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
      stack.push_back(a - DW_OP_lit0);
    } else if (a == DW_OP_const1u || a == DW_OP_const2u || a == DW_OP_const4u ||
               a == DW_OP_const8u || a == DW_OP_constu || a == DW_OP_const1s ||
               a == DW_OP_const2s || a == DW_OP_const4s || a == DW_OP_const8s ||
               a == DW_OP_consts) {
      stack.push_back(op.number);  // libdw sign-extends the signed forms into number
    } else if (a == DW_OP_addr) {
      stack.push_back(op.number + bias);
    } else if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
      std::optional<uint64_t> reg = regs.Get(a - DW_OP_breg0);
      if (!reg) return std::nullopt;
      stack.push_back(*reg + op.number);
    } else if (a == DW_OP_plus_uconst) {
      if (stack.empty()) return std::nullopt;
      stack.back() += op.number;
    } else if (a == DW_OP_neg || a == DW_OP_not) {
      if (stack.empty()) return std::nullopt;
      stack.back() = a == DW_OP_neg ? 0 - stack.back() : ~stack.back();
    } else if (a == DW_OP_stack_value) {
      continue;  // the value is the top of the stack, as a call value's always is
    } else {
      if (stack.size() < 2) return std::nullopt;
      const uint64_t b = stack.back();
      stack.pop_back();
      uint64_t out = 0;
      if (!ApplyBinary(a, stack.back(), b, &out)) return std::nullopt;
      stack.back() = out;
    }
  }
  if (stack.empty()) return std::nullopt;
  return stack.back();
}

CallSiteValues ReadCallSiteValues(Dwfl* dwfl, uint64_t return_pc, const PreservedRegisters& regs) {
  CallSiteValues out;
  if (dwfl == nullptr || return_pc == 0) return out;
  Dwfl_Module* module = dwfl_addrmodule(dwfl, return_pc - 1);
  if (module == nullptr) return out;
  // The argument registers above are x86-64's; another machine's entries are not read.
  Dwarf_Addr elf_bias = 0;
  Elf* elf = dwfl_module_getelf(module, &elf_bias);
  GElf_Ehdr ehdr;
  if (elf == nullptr || gelf_getehdr(elf, &ehdr) == nullptr || ehdr.e_machine != EM_X86_64) {
    return out;
  }
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = dwfl_module_addrdie(module, return_pc - 1, &bias);
  if (cu == nullptr) return out;
  const Dwarf_Addr pc = return_pc - bias;
  // The innermost scopes holding the call; the outermost function among them is
  // searched (calls of inlined bodies are listed under it too).
  Dwarf_Die* scopes = nullptr;
  const int n = dwarf_getscopes(cu, pc - 1, &scopes);
  if (n <= 0) return out;
  Dwarf_Die function = scopes[0];
  for (int i = 0; i < n; ++i) {
    if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) function = scopes[i];
  }
  free(scopes);
  int visits = 0;
  Dwarf_Die site;
  if (!FindCallSite(&function, pc, &visits, &site)) return out;
  out.found = true;
  Dwarf_Die param;
  if (dwarf_child(&site, &param) != 0) return out;
  do {
    const int tag = dwarf_tag(&param);
    if (tag != DW_TAG_call_site_parameter && tag != DW_TAG_GNU_call_site_parameter) continue;
    const int reg = ParameterRegister(&param);
    for (std::size_t k = 0; k < kRegisterArguments; ++k) {
      if (reg >= 0 && kArgumentRegisters[k] == static_cast<unsigned>(reg)) {
        out.args[k] = ParameterValue(&param, bias, regs);
      }
    }
  } while (dwarf_siblingof(&param, &param) == 0);
  return out;
}

}  // namespace mpidbg::host
