// dwarf_crosscheck_libdwarf.cc — walking .debug_info with libdwarf.
//
// Written against libdwarf's own API only (DIE walk, attribute forms, location
// expressions), so a misreading in the host's elfutils-based code cannot repeat here.
#include "dwarf_crosscheck_libdwarf.h"

// libdwarf's own dwarf.h, not elfutils' (same name, other definitions).
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#include <memory>

namespace mpidbg::xcheck {
namespace {

constexpr int kMaxDepth = 16;

// A DIE that deallocates itself.
class Die {
 public:
  Die() = default;
  explicit Die(Dwarf_Die d) : d_(d) {}
  ~Die() {
    if (d_ != nullptr) dwarf_dealloc_die(d_);
  }
  Die(Die&& o) noexcept : d_(o.d_) { o.d_ = nullptr; }
  Die& operator=(Die&& o) noexcept {
    if (this != &o) {
      if (d_ != nullptr) dwarf_dealloc_die(d_);
      d_ = o.d_;
      o.d_ = nullptr;
    }
    return *this;
  }
  Dwarf_Die get() const { return d_; }
  explicit operator bool() const { return d_ != nullptr; }

 private:
  Dwarf_Die d_ = nullptr;
};

class Reader {
 public:
  explicit Reader(Dwarf_Debug dbg) : dbg_(dbg) {}

  void Cu(Dwarf_Die cu, std::map<std::string, std::vector<Layout>>* out) { Scope(cu, out, 0); }

 private:
  Dwarf_Half Tag(Dwarf_Die d) {
    Dwarf_Half tag = 0;
    dwarf_tag(d, &tag, &err_);
    return tag;
  }
  std::string Name(Dwarf_Die d) {
    char* name = nullptr;
    if (dwarf_diename(d, &name, &err_) != DW_DLV_OK || name == nullptr) return "";
    return name;
  }
  bool Has(Dwarf_Die d, Dwarf_Half at) {
    Dwarf_Bool has = 0;
    return dwarf_hasattr(d, at, &has, &err_) == DW_DLV_OK && has;
  }
  bool Flag(Dwarf_Die d, Dwarf_Half at) {
    Dwarf_Attribute attr = nullptr;
    if (dwarf_attr(d, at, &attr, &err_) != DW_DLV_OK) return false;
    Dwarf_Bool v = 0;
    bool ok = dwarf_formflag(attr, &v, &err_) == DW_DLV_OK && v;
    dwarf_dealloc_attribute(attr);
    return ok;
  }
  // An unsigned constant attribute.
  bool Unsigned(Dwarf_Die d, Dwarf_Half at, int64_t* out) {
    Dwarf_Attribute attr = nullptr;
    if (dwarf_attr(d, at, &attr, &err_) != DW_DLV_OK) return false;
    Dwarf_Half form = 0;
    bool ok = false;
    if (dwarf_whatform(attr, &form, &err_) == DW_DLV_OK) {
      if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
        Dwarf_Signed v = 0;
        ok = dwarf_formsdata(attr, &v, &err_) == DW_DLV_OK;
        *out = v;
      } else if (form == DW_FORM_data1 || form == DW_FORM_data2 || form == DW_FORM_data4 ||
                 form == DW_FORM_data8 || form == DW_FORM_udata) {
        Dwarf_Unsigned v = 0;
        ok = dwarf_formudata(attr, &v, &err_) == DW_DLV_OK;
        *out = static_cast<int64_t>(v);
      }
    }
    dwarf_dealloc_attribute(attr);
    return ok;
  }
  Die Ref(Dwarf_Die d, Dwarf_Half at) {
    Dwarf_Attribute attr = nullptr;
    if (dwarf_attr(d, at, &attr, &err_) != DW_DLV_OK) return Die();
    Dwarf_Off off = 0;
    Dwarf_Die target = nullptr;
    if (dwarf_global_formref(attr, &off, &err_) != DW_DLV_OK ||
        dwarf_offdie_b(dbg_, off, true, &target, &err_) != DW_DLV_OK) {
      target = nullptr;
    }
    dwarf_dealloc_attribute(attr);
    return Die(target);
  }
  uint64_t Offset(Dwarf_Die d) {
    Dwarf_Off off = 0;
    dwarf_dieoffset(d, &off, &err_);
    return off;
  }
  template <typename Fn>
  void Children(Dwarf_Die parent, Fn fn) {
    Dwarf_Die child = nullptr;
    if (dwarf_child(parent, &child, &err_) != DW_DLV_OK) return;
    Die current(child);
    for (;;) {
      fn(current.get());
      Dwarf_Die next = nullptr;
      if (dwarf_siblingof_b(dbg_, current.get(), true, &next, &err_) != DW_DLV_OK) return;
      current = Die(next);
    }
  }

  static bool IsQualifierOrTypedef(Dwarf_Half tag) {
    return tag == DW_TAG_typedef || tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
           tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type;
  }
  static bool IsAggregate(Dwarf_Half tag) {
    return tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type;
  }

  // The type behind typedefs and qualifiers; empty for void.
  Die Peel(Dwarf_Die d) {
    Die cur = Ref(d, DW_AT_type);
    for (int i = 0; cur && i < kMaxDepth && IsQualifierOrTypedef(Tag(cur.get())); ++i) {
      cur = Ref(cur.get(), DW_AT_type);
    }
    return cur;
  }

  int64_t AddressSize(Dwarf_Die d) {
    Dwarf_Half size = 0;
    return dwarf_get_die_address_size(d, &size, &err_) == DW_DLV_OK ? size : -1;
  }

  // Elements of one array dimension, -1 when not a constant.
  int64_t Extent(Dwarf_Die sub) {
    int64_t count = 0, upper = 0, lower = 0;
    if (Unsigned(sub, DW_AT_count, &count)) return count;
    if (!Unsigned(sub, DW_AT_upper_bound, &upper)) return -1;
    Unsigned(sub, DW_AT_lower_bound, &lower);  // C and C++ count from 0
    return upper - lower + 1;
  }

  int64_t Size(Dwarf_Die d, int depth) {
    if (depth > kMaxDepth) return -1;
    int64_t size = 0;
    if (Unsigned(d, DW_AT_byte_size, &size)) return size;
    Dwarf_Half tag = Tag(d);
    if (IsQualifierOrTypedef(tag)) {
      Die next = Ref(d, DW_AT_type);
      return next ? Size(next.get(), depth + 1) : -1;
    }
    if (tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
        tag == DW_TAG_rvalue_reference_type) {
      return AddressSize(d);
    }
    if (tag == DW_TAG_array_type) {
      Die element = Ref(d, DW_AT_type);
      int64_t total = element ? Size(element.get(), depth + 1) : -1;
      bool any_dimension = false;
      Children(d, [&](Dwarf_Die sub) {
        if (Tag(sub) != DW_TAG_subrange_type) return;
        any_dimension = true;
        int64_t n = Extent(sub);
        total = (total < 0 || n < 0) ? -1 : total * n;
      });
      return any_dimension ? total : -1;
    }
    return -1;
  }

  // DW_AT_data_member_location: a constant or a DW_OP_plus_uconst expression; absent
  // (union members) is 0.
  bool MemberOffset(Dwarf_Die m, int64_t* out) {
    *out = 0;
    if (!Has(m, DW_AT_data_member_location)) return true;
    if (Unsigned(m, DW_AT_data_member_location, out)) return true;
    Dwarf_Attribute attr = nullptr;
    if (dwarf_attr(m, DW_AT_data_member_location, &attr, &err_) != DW_DLV_OK) return false;
    Dwarf_Unsigned len = 0;
    Dwarf_Ptr expr = nullptr;
    bool ok = dwarf_formexprloc(attr, &len, &expr, &err_) == DW_DLV_OK && len >= 2 &&
              static_cast<const uint8_t*>(expr)[0] == DW_OP_plus_uconst;
    if (ok) {
      // ULEB128 operand.
      const uint8_t* p = static_cast<const uint8_t*>(expr) + 1;
      uint64_t v = 0;
      int shift = 0;
      for (Dwarf_Unsigned i = 1; i < len && shift < 64; ++i, ++p, shift += 7) {
        v |= static_cast<uint64_t>(*p & 0x7f) << shift;
        if ((*p & 0x80) == 0) break;
      }
      *out = static_cast<int64_t>(v);
    }
    dwarf_dealloc_attribute(attr);
    return ok;
  }

  void Members(Dwarf_Die type, int64_t base, Layout* layout, int depth) {
    if (depth > kMaxDepth) return;
    Children(type, [&](Dwarf_Die m) {
      if (Tag(m) != DW_TAG_member) return;
      std::string name = Name(m);
      if (Has(m, DW_AT_bit_size) || Has(m, DW_AT_data_bit_offset)) {
        if (!name.empty()) layout->bitfields.push_back(name);
        return;
      }
      if (Flag(m, DW_AT_declaration)) return;  // a static member (DWARF 4 style)
      int64_t off = 0;
      if (!MemberOffset(m, &off)) return;
      if (!name.empty()) {
        layout->members.emplace(name, base + off);  // the first of a name wins
        return;
      }
      // An anonymous struct/union: its members belong to the enclosing type.
      Die inner = Peel(m);
      if (inner && IsAggregate(Tag(inner.get()))) {
        Members(inner.get(), base + off, layout, depth + 1);
      }
    });
  }

  void Scope(Dwarf_Die parent, std::map<std::string, std::vector<Layout>>* out, int depth) {
    if (depth > 8) return;
    Children(parent, [&](Dwarf_Die d) {
      Dwarf_Half tag = Tag(d);
      if (tag == DW_TAG_namespace) {
        Scope(d, out, depth + 1);
        return;
      }
      const char* kind = tag == DW_TAG_structure_type     ? "struct"
                         : tag == DW_TAG_class_type       ? "class"
                         : tag == DW_TAG_union_type       ? "union"
                         : tag == DW_TAG_typedef          ? "typedef"
                         : tag == DW_TAG_base_type        ? "base"
                         : tag == DW_TAG_enumeration_type ? "enum"
                                                          : nullptr;
      if (kind == nullptr || Flag(d, DW_AT_declaration)) return;
      std::string name = Name(d);
      if (name.empty()) return;
      Layout layout;
      layout.tag = kind;
      layout.die_offset = Offset(d);
      if (tag == DW_TAG_typedef) {
        Die target = Peel(d);
        // A typedef of an incomplete type has no layout (and none of void).
        if (!target || Flag(target.get(), DW_AT_declaration)) return;
        layout.size = Size(d, 0);
        if (IsAggregate(Tag(target.get()))) Members(target.get(), 0, &layout, 0);
      } else {
        layout.size = Size(d, 0);
        if (IsAggregate(tag)) Members(d, 0, &layout, 0);
      }
      (*out)[name].push_back(std::move(layout));
    });
  }

  Dwarf_Debug dbg_;
  Dwarf_Error err_ = nullptr;
};

}  // namespace

bool ReadLayouts(const std::string& path, Layouts* out, std::string* error) {
  Dwarf_Debug dbg = nullptr;
  Dwarf_Error err = nullptr;
  int rc = dwarf_init_path(path.c_str(), nullptr, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY, nullptr,
                           nullptr, &dbg, nullptr, 0, nullptr, &err);
  if (rc != DW_DLV_OK) {
    *error = rc == DW_DLV_NO_ENTRY ? "no DWARF" : dwarf_errmsg(err);
    return false;
  }
  Reader reader(dbg);
  for (;;) {
    Dwarf_Unsigned header_length = 0, type_offset = 0, next = 0;
    Dwarf_Half version = 0, address_size = 0, length_size = 0, extension_size = 0, cu_type = 0;
    Dwarf_Off abbrev = 0;
    Dwarf_Sig8 signature;
    rc = dwarf_next_cu_header_d(dbg, true, &header_length, &version, &abbrev, &address_size,
                                &length_size, &extension_size, &signature, &type_offset, &next,
                                &cu_type, &err);
    if (rc != DW_DLV_OK) break;
    Dwarf_Die cu = nullptr;
    if (dwarf_siblingof_b(dbg, nullptr, true, &cu, &err) != DW_DLV_OK) continue;
    reader.Cu(cu, out);
    dwarf_dealloc_die(cu);
  }
  dwarf_finish(dbg, &err);
  if (rc == DW_DLV_ERROR) {
    *error = "error walking the compilation units";
    return false;
  }
  return true;
}

}  // namespace mpidbg::xcheck
