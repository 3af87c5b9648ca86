// dwarf_types.h — struct/union/typedef lookup in the DWARF of a target's modules, for
// the message-queue callbacks find_type, field_offset and sizeof. Absent debug info is
// the normal case on stock builds: lookups then answer "unknown", never fail hard.
#pragma once

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <map>
#include <memory>
#include <string>
#include <unordered_map>

namespace mpidbg::host {

struct TypeInfo {
  std::string name;
  Dwarf_Die die;  // typedefs and qualifiers peeled
  int size = -1;
  std::map<std::string, int> fields;  // cache of FieldOffset answers
};

class DwarfTypes {
 public:
  explicit DwarfTypes(Dwfl* dwfl) : dwfl_(dwfl) {}

  // A complete struct/union/class/base type or typedef by name ("struct x" and "x"
  // both accepted). nullptr when no module's debug info defines it. Results, positive
  // and negative, are cached; the pointer stays valid for the life of this object.
  TypeInfo* Find(const std::string& name);
  // Byte offset of a member (members of anonymous members included), -1 if unknown.
  int FieldOffset(TypeInfo* type, const std::string& field);
  // Size in bytes, -1 if unknown.
  int SizeOf(TypeInfo* type);

 private:
  void BuildIndex();

  Dwfl* dwfl_;
  bool indexed_ = false;
  std::unordered_map<std::string, Dwarf_Die> index_;  // name -> first complete definition
  std::unordered_map<std::string, std::unique_ptr<TypeInfo>> cache_;
};

}  // namespace mpidbg::host
