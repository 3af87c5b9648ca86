// dwarf_types.cc — type lookup over every module's DWARF, indexed once on first use.
#include "host/symbols/dwarf_types.h"

#include <dwarf.h>

#include <vector>

namespace mpidbg::host {
namespace {

bool IsNamedTypeTag(int tag) {
  return tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_class_type ||
         tag == DW_TAG_typedef || tag == DW_TAG_base_type || tag == DW_TAG_enumeration_type;
}

bool IsDeclaration(Dwarf_Die* die) {
  bool decl = false;
  Dwarf_Attribute attr;
  if (dwarf_attr(die, DW_AT_declaration, &attr) != nullptr) dwarf_formflag(&attr, &decl);
  return decl;
}

// Whether the type behind `die` (typedefs peeled) is complete, i.e. usable for sizes.
bool IsComplete(Dwarf_Die* die) {
  Dwarf_Die peeled;
  if (dwarf_peel_type(die, &peeled) != 0) return false;
  return !IsDeclaration(&peeled);
}

// Adds the named types among the children of `parent`, descending into namespaces.
void IndexChildren(Dwarf_Die* parent, std::unordered_map<std::string, Dwarf_Die>* index,
                   int depth) {
  if (depth > 8) return;
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return;
  do {
    int tag = dwarf_tag(&child);
    if (tag == DW_TAG_namespace) {
      IndexChildren(&child, index, depth + 1);
      continue;
    }
    if (!IsNamedTypeTag(tag) || IsDeclaration(&child)) continue;
    const char* name = dwarf_diename(&child);
    if (name == nullptr || *name == '\0') continue;
    if (index->count(name) != 0 || !IsComplete(&child)) continue;
    index->emplace(name, child);
  } while (dwarf_siblingof(&child, &child) == 0);
}

std::string StripKeyword(const std::string& name) {
  for (const char* kw : {"struct ", "union ", "class ", "enum "}) {
    std::string k(kw);
    if (name.compare(0, k.size(), k) == 0) return name.substr(k.size());
  }
  return name;
}

// DW_AT_data_member_location: a constant, or a DW_OP_plus_uconst expression.
int MemberOffset(Dwarf_Die* member) {
  Dwarf_Attribute attr;
  if (dwarf_attr(member, DW_AT_data_member_location, &attr) == nullptr) {
    return 0;  // union members have none
  }
  Dwarf_Word value = 0;
  if (dwarf_formudata(&attr, &value) == 0) return static_cast<int>(value);
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  if (dwarf_getlocation(&attr, &ops, &nops) == 0 && nops == 1 &&
      ops[0].atom == DW_OP_plus_uconst) {
    return static_cast<int>(ops[0].number);
  }
  return -1;
}

int FindMember(Dwarf_Die* type, const std::string& field, int depth) {
  if (depth > 8) return -1;
  Dwarf_Die child;
  if (dwarf_child(type, &child) != 0) return -1;
  do {
    if (dwarf_tag(&child) != DW_TAG_member) continue;
    const char* name = dwarf_diename(&child);
    if (name != nullptr && field == name) return MemberOffset(&child);
    if (name == nullptr) {
      // An anonymous struct/union member: its members are ours.
      Dwarf_Attribute type_attr;
      Dwarf_Die inner;
      Dwarf_Die peeled;
      if (dwarf_attr(&child, DW_AT_type, &type_attr) == nullptr ||
          dwarf_formref_die(&type_attr, &inner) == nullptr ||
          dwarf_peel_type(&inner, &peeled) != 0) {
        continue;
      }
      int base = MemberOffset(&child);
      int off = FindMember(&peeled, field, depth + 1);
      if (base >= 0 && off >= 0) return base + off;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return -1;
}

}  // namespace

void DwarfTypes::BuildIndex() {
  indexed_ = true;
  std::vector<Dwfl_Module*> mods;
  auto collect = [](Dwfl_Module* mod, void**, const char*, Dwarf_Addr, void* arg) -> int {
    static_cast<std::vector<Dwfl_Module*>*>(arg)->push_back(mod);
    return DWARF_CB_OK;
  };
  dwfl_getmodules(dwfl_, collect, &mods, 0);
  for (Dwfl_Module* mod : mods) {
    Dwarf_Addr bias = 0;
    Dwarf* dw = dwfl_module_getdwarf(mod, &bias);
    if (dw == nullptr) continue;  // no debug info: the normal case on stock builds
    Dwarf_Off off = 0;
    Dwarf_Off next = 0;
    size_t header_size = 0;
    while (dwarf_nextcu(dw, off, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
      Dwarf_Die cu;
      if (dwarf_offdie(dw, off + header_size, &cu) != nullptr) IndexChildren(&cu, &index_, 0);
      off = next;
    }
  }
}

TypeInfo* DwarfTypes::Find(const std::string& raw_name) {
  std::string name = StripKeyword(raw_name);
  auto cached = cache_.find(name);
  if (cached != cache_.end()) return cached->second.get();
  if (!indexed_) BuildIndex();
  std::unique_ptr<TypeInfo> info;
  auto it = index_.find(name);
  if (it != index_.end()) {
    info.reset(new TypeInfo);
    info->name = name;
    if (dwarf_peel_type(&it->second, &info->die) != 0) info.reset();
  }
  TypeInfo* result = info.get();
  cache_.emplace(name, std::move(info));
  return result;
}

int DwarfTypes::FieldOffset(TypeInfo* type, const std::string& field) {
  if (type == nullptr) return -1;
  auto it = type->fields.find(field);
  if (it != type->fields.end()) return it->second;
  int off = FindMember(&type->die, field, 0);
  type->fields.emplace(field, off);
  return off;
}

int DwarfTypes::SizeOf(TypeInfo* type) {
  if (type == nullptr) return -1;
  if (type->size < 0) {
    Dwarf_Word size = 0;
    if (dwarf_aggregate_size(&type->die, &size) == 0) type->size = static_cast<int>(size);
  }
  return type->size;
}

}  // namespace mpidbg::host
