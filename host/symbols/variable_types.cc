// variable_types.cc — finding a global variable's DWARF type with libdwfl.
//
// A Dwfl of its own (live: /proc/PID/maps; core: the core's notes) keeps this lookup
// independent of SymbolIndex, which keeps its Dwfl private.
#include "host/symbols/variable_types.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <unistd.h>

#include <vector>

namespace mpidbg::host {
namespace {

char* g_debuginfo_path = nullptr;

const Dwfl_Callbacks kLive = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr,
                              &g_debuginfo_path};
const Dwfl_Callbacks kCore = {dwfl_build_id_find_elf, dwfl_standard_find_debuginfo, nullptr,
                              &g_debuginfo_path};

constexpr int kMaxTypeChain = 32;

bool AttrDie(Dwarf_Die* die, unsigned int name, Dwarf_Die* out) {
  Dwarf_Attribute attr;
  return dwarf_attr_integrate(die, name, &attr) != nullptr &&
         dwarf_formref_die(&attr, out) != nullptr;
}

bool IsDeclaration(Dwarf_Die* die) {
  bool decl = false;
  Dwarf_Attribute attr;
  if (dwarf_attr(die, DW_AT_declaration, &attr) != nullptr) dwarf_formflag(&attr, &decl);
  return decl;
}

int64_t SizeOf(Dwarf_Die* type) {
  Dwarf_Word size = 0;
  return dwarf_aggregate_size(type, &size) == 0 ? static_cast<int64_t>(size) : -1;
}

// Elements of a one-dimensional array type, -1 when unknown.
int64_t ArrayLength(Dwarf_Die* array) {
  Dwarf_Die sub;
  if (dwarf_child(array, &sub) != 0) return -1;
  do {
    if (dwarf_tag(&sub) != DW_TAG_subrange_type) continue;
    Dwarf_Attribute attr;
    Dwarf_Word v = 0;
    if (dwarf_attr(&sub, DW_AT_count, &attr) != nullptr && dwarf_formudata(&attr, &v) == 0) {
      return static_cast<int64_t>(v);
    }
    if (dwarf_attr(&sub, DW_AT_upper_bound, &attr) != nullptr && dwarf_formudata(&attr, &v) == 0) {
      return static_cast<int64_t>(v) + 1;
    }
    return -1;
  } while (dwarf_siblingof(&sub, &sub) == 0);
  return -1;
}

// Walks the type chain of a variable: typedefs (looking for an MPI handle name),
// qualifiers, and one level of array.
void Describe(Dwarf_Die* var, VariableType* out) {
  Dwarf_Die type;
  if (!AttrDie(var, DW_AT_type, &type)) return;
  out->found = true;
  out->size = SizeOf(&type);
  for (int i = 0; i < kMaxTypeChain; ++i) {
    int tag = dwarf_tag(&type);
    if (tag == DW_TAG_typedef) {
      const char* name = dwarf_diename(&type);
      if (name != nullptr && !HandleKindOfTypeName(name).empty()) {
        out->type_name = name;
        return;
      }
    } else if (tag == DW_TAG_array_type && !out->is_array) {
      out->is_array = true;
      out->array_length = ArrayLength(&type);
      Dwarf_Die element;
      if (!AttrDie(&type, DW_AT_type, &element)) return;
      out->element_size = SizeOf(&element);
      type = element;
      continue;
    } else if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
               tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type) {
      return;  // the handle name was not on the way
    }
    Dwarf_Die next;
    if (!AttrDie(&type, DW_AT_type, &next)) return;
    type = next;
  }
}

// The defining DIE of global `name` among the children of a CU.
bool FindInCu(Dwarf_Die* cu, const std::string& name, Dwarf_Die* out) {
  Dwarf_Die child;
  if (dwarf_child(cu, &child) != 0) return false;
  do {
    if (dwarf_tag(&child) != DW_TAG_variable || IsDeclaration(&child)) continue;
    Dwarf_Attribute attr;
    const char* n = dwarf_attr_integrate(&child, DW_AT_name, &attr) != nullptr
                        ? dwarf_formstring(&attr)
                        : nullptr;
    if (n != nullptr && name == n) {
      *out = child;
      return true;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

VariableType Search(Dwfl* dwfl, const std::string& name) {
  VariableType result;
  std::vector<Dwfl_Module*> mods;
  auto collect = [](Dwfl_Module* mod, void**, const char*, Dwarf_Addr, void* arg) -> int {
    static_cast<std::vector<Dwfl_Module*>*>(arg)->push_back(mod);
    return DWARF_CB_OK;
  };
  dwfl_getmodules(dwfl, collect, &mods, 0);
  for (Dwfl_Module* mod : mods) {
    Dwarf_Addr bias = 0;
    Dwarf* dw = dwfl_module_getdwarf(mod, &bias);
    if (dw == nullptr) continue;
    Dwarf_Off off = 0;
    Dwarf_Off next = 0;
    size_t header_size = 0;
    while (dwarf_nextcu(dw, off, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
      Dwarf_Die cu;
      Dwarf_Die var;
      if (dwarf_offdie(dw, off + header_size, &cu) != nullptr && FindInCu(&cu, name, &var)) {
        Describe(&var, &result);
        return result;
      }
      off = next;
    }
  }
  return result;
}

}  // namespace

std::string HandleKindOfTypeName(const std::string& type_name) {
  static const char* const kNames[][2] = {
      {"MPI_Comm", "comm"},       {"MPI_Request", "request"}, {"MPI_Datatype", "datatype"},
      {"MPI_Group", "group"},     {"MPI_Op", "op"},           {"MPI_Errhandler", "errhandler"},
      {"MPI_Info", "info"},       {"MPI_Win", "win"},         {"MPI_File", "file"},
      {"MPI_Message", "message"}, {"MPI_Status", "status"},
  };
  for (const auto& entry : kNames) {
    if (type_name == entry[0]) return entry[1];
  }
  return "";
}

VariableType LiveVariableType(int64_t pid, const std::string& name) {
  Dwfl* dwfl = dwfl_begin(&kLive);
  if (dwfl == nullptr) return {};
  dwfl_report_begin(dwfl);
  int r = dwfl_linux_proc_report(dwfl, static_cast<pid_t>(pid));
  dwfl_report_end(dwfl, nullptr, nullptr);
  VariableType result = r == 0 ? Search(dwfl, name) : VariableType{};
  dwfl_end(dwfl);
  return result;
}

VariableType CoreVariableType(const std::string& core_path, const std::string& executable,
                              const std::string& name) {
  int fd = open(core_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  elf_version(EV_CURRENT);
  Elf* core = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  VariableType result;
  Dwfl* dwfl = core != nullptr ? dwfl_begin(&kCore) : nullptr;
  if (dwfl != nullptr) {
    dwfl_report_begin(dwfl);
    int r = dwfl_core_file_report(dwfl, core, executable.empty() ? nullptr : executable.c_str());
    dwfl_report_end(dwfl, nullptr, nullptr);
    if (r >= 0) result = Search(dwfl, name);
    dwfl_end(dwfl);
  }
  if (core != nullptr) elf_end(core);
  close(fd);
  return result;
}

}  // namespace mpidbg::host
