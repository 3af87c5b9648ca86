// mpit_capture.cc — enumerates MPI_T control/performance variables and categories.
//
// Only PMPI_T_* is called. Control-variable values are read for variables bound to no
// object with one element, and for strings; reading needs a handle (allocated and
// freed here), never a write. Performance variables are not started or read: their
// element count comes from a handle in a session of our own, freed at once (MPICH
// only, see kPvarHandlesAreSafe).
#include "rt/metadata/mpit_capture.h"

#include <mpi.h>
#include <string.h>

#include "core/record_arrays.h"
#include "rt/grow_buffer.h"

namespace mpidbg::rt {
namespace {

// Whether a performance-variable handle may be allocated to learn its element count.
// Not in Open MPI: MPI_T_init_thread opens every component, and a pvar of a component
// MPI_Init did not select reads that component's uninitialised state (4.1.4's psm2 MTL
// dereferences a null queue in psm2_mq_get_stats and the process dies).
constexpr bool kPvarHandlesAreSafe = MPIDBG_RT_FLAVOUR != MPIDBG_FLAVOUR_OPENMPI;

// Longest string value or description kept (MPI reports buffer sizes, not lengths).
constexpr int kMaxText = 1 << 16;
// Most members one category may list (a bound on what MPI reports).
constexpr int kMaxMembers = 1 << 20;

// The ordinal of `value` in `table` (records.h orders these as the standard lists
// them), or -1.
template <typename T, int N>
int32_t Ordinal(T value, const T (&table)[N]) {
  for (int i = 0; i < N; ++i) {
    if (table[i] == value) return i;
  }
  return -1;
}

int32_t VerbosityOrdinal(int v) {
  static const int kTable[] = {
      MPI_T_VERBOSITY_USER_BASIC,   MPI_T_VERBOSITY_USER_DETAIL,   MPI_T_VERBOSITY_USER_ALL,
      MPI_T_VERBOSITY_TUNER_BASIC,  MPI_T_VERBOSITY_TUNER_DETAIL,  MPI_T_VERBOSITY_TUNER_ALL,
      MPI_T_VERBOSITY_MPIDEV_BASIC, MPI_T_VERBOSITY_MPIDEV_DETAIL, MPI_T_VERBOSITY_MPIDEV_ALL};
  return Ordinal(v, kTable);
}

int32_t ScopeOrdinal(int v) {
  static const int kTable[] = {MPI_T_SCOPE_CONSTANT, MPI_T_SCOPE_READONLY, MPI_T_SCOPE_LOCAL,
                               MPI_T_SCOPE_GROUP,    MPI_T_SCOPE_GROUP_EQ, MPI_T_SCOPE_ALL,
                               MPI_T_SCOPE_ALL_EQ};
  return Ordinal(v, kTable);
}

int32_t BindOrdinal(int v) {
  static const int kTable[] = {
      MPI_T_BIND_NO_OBJECT,  MPI_T_BIND_MPI_COMM, MPI_T_BIND_MPI_DATATYPE,
      MPI_T_BIND_MPI_ERRHANDLER, MPI_T_BIND_MPI_FILE, MPI_T_BIND_MPI_GROUP,
      MPI_T_BIND_MPI_OP,     MPI_T_BIND_MPI_REQUEST, MPI_T_BIND_MPI_WIN,
      MPI_T_BIND_MPI_MESSAGE, MPI_T_BIND_MPI_INFO};
  return Ordinal(v, kTable);
}

int32_t PvarClassOrdinal(int v) {
  static const int kTable[] = {
      MPI_T_PVAR_CLASS_STATE,        MPI_T_PVAR_CLASS_LEVEL,        MPI_T_PVAR_CLASS_SIZE,
      MPI_T_PVAR_CLASS_PERCENTAGE,   MPI_T_PVAR_CLASS_HIGHWATERMARK,
      MPI_T_PVAR_CLASS_LOWWATERMARK, MPI_T_PVAR_CLASS_COUNTER,      MPI_T_PVAR_CLASS_AGGREGATE,
      MPI_T_PVAR_CLASS_TIMER,        MPI_T_PVAR_CLASS_GENERIC};
  return Ordinal(v, kTable);
}

int32_t NormalisedType(MPI_Datatype t) {
  if (t == MPI_INT) return MPIDBG_MPIT_INT;
  if (t == MPI_UNSIGNED) return MPIDBG_MPIT_UNSIGNED;
  if (t == MPI_UNSIGNED_LONG) return MPIDBG_MPIT_UNSIGNED_LONG;
  if (t == MPI_UNSIGNED_LONG_LONG) return MPIDBG_MPIT_UNSIGNED_LONG_LONG;
  if (t == MPI_COUNT) return MPIDBG_MPIT_COUNT;
  if (t == MPI_CHAR) return MPIDBG_MPIT_CHAR;
  if (t == MPI_DOUBLE) return MPIDBG_MPIT_DOUBLE;
  if (t == MPI_C_BOOL) return MPIDBG_MPIT_BOOL;  // Open MPI's boolean MCA parameters
  return MPIDBG_MPIT_OTHER;
}

// NUL-terminated strings, one copy each; offset 0 is "".
class StringPool {
 public:
  bool Init() { return bytes_.Push('\0'); }

  // Offset of a copy of s[0..len) (cut at kMaxText), or MPIDBG_MPIT_NO_STRING when
  // memory ran out.
  uint32_t Add(const char* s, size_t len) {
    if (len == 0) return 0;
    if (len > static_cast<size_t>(kMaxText)) len = static_cast<size_t>(kMaxText);
    uint32_t offset = bytes_.size();
    if (!bytes_.Reserve(len + 1)) return MPIDBG_MPIT_NO_STRING;
    bytes_.Append(s, static_cast<uint32_t>(len));
    bytes_.Push('\0');
    return offset;
  }

  GrowBuffer<char>& bytes() { return bytes_; }

 private:
  GrowBuffer<char> bytes_;
};

// A text buffer for MPI_T's string arguments, grown when a string did not fit.
struct TextBuffer {
  GrowBuffer<char> storage;
  int capacity = 0;

  bool Ensure(int n) {
    if (n <= capacity) return true;
    if (!storage.Resize(static_cast<uint32_t>(n))) return false;
    capacity = n;
    return true;
  }
  const char* text() const { return storage.data(); }
  size_t Length() const { return strnlen(storage.data(), static_cast<size_t>(capacity)); }
};

// Calls an MPI_T *_get_info function with a name and a description buffer, growing
// them until neither string was cut. When a string is cut, MPICH and Open MPI both set
// the length argument to the buffer's size (the standard also allows the length the
// string needs), so a length that reaches the capacity means "try again with more".
template <typename Call>
int GetInfo(TextBuffer& name, TextBuffer& desc, Call call) {
  int rc = MPI_SUCCESS;
  for (int attempt = 0; attempt < 6; ++attempt) {
    int name_len = name.capacity, desc_len = desc.capacity;
    name.storage.data()[0] = '\0';
    desc.storage.data()[0] = '\0';
    rc = call(name.storage.data(), &name_len, desc.storage.data(), &desc_len);
    if (rc != MPI_SUCCESS) return rc;
    bool grew = false;
    if (name_len >= name.capacity && name.capacity < kMaxText) {
      if (!name.Ensure(name.capacity * 4)) return MPI_ERR_NO_MEM;
      grew = true;
    }
    if (desc_len >= desc.capacity && desc.capacity < kMaxText) {
      if (!desc.Ensure(desc.capacity * 4)) return MPI_ERR_NO_MEM;
      grew = true;
    }
    if (!grew) break;
  }
  name.storage.data()[name.capacity - 1] = '\0';
  desc.storage.data()[desc.capacity - 1] = '\0';
  return rc;
}

class Capture {
 public:
  explicit Capture(bool read_values) : read_values_(read_values) {}
  bool Run(MpitSnapshot* out);

 private:
  bool Init();
  bool CaptureCvars();
  bool CapturePvars();
  bool CaptureCategories();
  void ReadCvarValue(int index, MPI_Datatype type, mpidbg_mpit_cvar* cvar);
  uint32_t Intern(const TextBuffer& text) { return strings_.Add(text.text(), text.Length()); }

  GrowBuffer<mpidbg_mpit_cvar> cvars_;
  GrowBuffer<mpidbg_mpit_pvar> pvars_;
  GrowBuffer<mpidbg_mpit_category> categories_;
  GrowBuffer<int32_t> members_;
  StringPool strings_;
  const bool read_values_;
  TextBuffer name_, desc_;
  GrowBuffer<char> value_;  // string values of control variables
  GrowBuffer<int> indices_; // category members as MPI returns them
};

bool Capture::Init() {
  return strings_.Init() && name_.Ensure(256) && desc_.Ensure(2048);
}

void Capture::ReadCvarValue(int index, MPI_Datatype type, mpidbg_mpit_cvar* cvar) {
  MPI_T_cvar_handle handle;
  int count = 0;
  if (PMPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS) return;
  cvar->count = count;
  if (type == MPI_CHAR) {
    // `count` is the size of the buffer MPI fills, not the string's length.
    if (count > 0 && count <= kMaxText && value_.Resize(static_cast<uint32_t>(count) + 1)) {
      char* text = value_.data();
      memset(text, 0, static_cast<size_t>(count) + 1);
      if (PMPI_T_cvar_read(handle, text) == MPI_SUCCESS) {
        uint32_t offset = strings_.Add(text, strnlen(text, static_cast<size_t>(count)));
        if (offset != MPIDBG_MPIT_NO_STRING) {
          cvar->value_text = offset;
          cvar->flags |= MPIDBG_CVAR_VALUE_VALID;
        }
      }
    }
  } else if (count == 1) {
    union {
      int i;
      unsigned u;
      unsigned long ul;
      unsigned long long ull;
      MPI_Count c;
      double d;
      unsigned char bytes[64];
    } value;
    memset(&value, 0, sizeof value);
    if (PMPI_T_cvar_read(handle, &value) == MPI_SUCCESS) {
      cvar->flags |= MPIDBG_CVAR_VALUE_VALID;
      switch (cvar->datatype) {
        case MPIDBG_MPIT_INT: cvar->value_int = value.i; break;
        case MPIDBG_MPIT_UNSIGNED: cvar->value_int = value.u; break;
        // Unsigned 64-bit values keep their bits; the datatype says how to read them.
        case MPIDBG_MPIT_UNSIGNED_LONG: cvar->value_int = static_cast<int64_t>(value.ul); break;
        case MPIDBG_MPIT_UNSIGNED_LONG_LONG:
          cvar->value_int = static_cast<int64_t>(value.ull);
          break;
        case MPIDBG_MPIT_COUNT: cvar->value_int = static_cast<int64_t>(value.c); break;
        case MPIDBG_MPIT_DOUBLE: cvar->value_double = value.d; break;
        case MPIDBG_MPIT_BOOL: {
          // Whatever width the library stores its booleans in, any set byte is true.
          bool any = false;
          for (size_t b = 0; b < sizeof(int); ++b) any = any || value.bytes[b] != 0;
          cvar->value_int = any ? 1 : 0;
          break;
        }
        default:
          cvar->flags &= ~MPIDBG_CVAR_VALUE_VALID;
          break;
      }
    }
  }
  PMPI_T_cvar_handle_free(&handle);
}

bool Capture::CaptureCvars() {
  int num = 0;
  if (PMPI_T_cvar_get_num(&num) != MPI_SUCCESS || num < 0) num = 0;
  if (!cvars_.Reserve(static_cast<uint32_t>(num))) return false;
  for (int i = 0; i < num; ++i) {
    mpidbg_mpit_cvar cvar;
    memset(&cvar, 0, sizeof cvar);
    cvar.name = cvar.desc = cvar.value_text = MPIDBG_MPIT_NO_STRING;
    cvar.verbosity = cvar.scope = cvar.bind = cvar.count = -1;
    int verbosity = 0, bind = 0, scope = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum enumtype;
    int rc = GetInfo(name_, desc_, [&](char* n, int* nl, char* d, int* dl) {
      return PMPI_T_cvar_get_info(i, n, nl, &verbosity, &type, &enumtype, d, dl, &bind, &scope);
    });
    if (rc == MPI_ERR_NO_MEM) return false;
    if (rc == MPI_SUCCESS) {
      cvar.name = Intern(name_);
      cvar.desc = Intern(desc_);
      cvar.verbosity = VerbosityOrdinal(verbosity);
      cvar.datatype = NormalisedType(type);
      cvar.scope = ScopeOrdinal(scope);
      cvar.bind = BindOrdinal(bind);
      if (read_values_ && bind == MPI_T_BIND_NO_OBJECT) ReadCvarValue(i, type, &cvar);
    }
    cvars_.Push(cvar);
  }
  return true;
}

bool Capture::CapturePvars() {
  int num = 0;
  if (PMPI_T_pvar_get_num(&num) != MPI_SUCCESS || num < 0) num = 0;
  if (!pvars_.Reserve(static_cast<uint32_t>(num))) return false;
  MPI_T_pvar_session session;
  bool have_session = kPvarHandlesAreSafe && num > 0 &&
                      PMPI_T_pvar_session_create(&session) == MPI_SUCCESS;
  for (int i = 0; i < num; ++i) {
    mpidbg_mpit_pvar pvar;
    memset(&pvar, 0, sizeof pvar);
    pvar.name = pvar.desc = MPIDBG_MPIT_NO_STRING;
    pvar.var_class = pvar.verbosity = pvar.bind = pvar.count = -1;
    int verbosity = 0, var_class = 0, bind = 0, readonly = 0, continuous = 0, atomic = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum enumtype;
    int rc = GetInfo(name_, desc_, [&](char* n, int* nl, char* d, int* dl) {
      return PMPI_T_pvar_get_info(i, n, nl, &verbosity, &var_class, &type, &enumtype, d, dl,
                                  &bind, &readonly, &continuous, &atomic);
    });
    if (rc == MPI_ERR_NO_MEM) {
      if (have_session) PMPI_T_pvar_session_free(&session);
      return false;
    }
    if (rc == MPI_SUCCESS) {
      pvar.name = Intern(name_);
      pvar.desc = Intern(desc_);
      pvar.var_class = PvarClassOrdinal(var_class);
      pvar.verbosity = VerbosityOrdinal(verbosity);
      pvar.datatype = NormalisedType(type);
      pvar.bind = BindOrdinal(bind);
      pvar.flags = (readonly ? MPIDBG_PVAR_READONLY : 0u) |
                   (continuous ? MPIDBG_PVAR_CONTINUOUS : 0u) | (atomic ? MPIDBG_PVAR_ATOMIC : 0u);
      if (kPvarHandlesAreSafe && have_session && bind == MPI_T_BIND_NO_OBJECT) {
        MPI_T_pvar_handle handle;
        int count = 0;
        if (PMPI_T_pvar_handle_alloc(session, i, nullptr, &handle, &count) == MPI_SUCCESS) {
          pvar.count = count;
          PMPI_T_pvar_handle_free(session, &handle);
        }
      }
    }
    pvars_.Push(pvar);
  }
  if (have_session) PMPI_T_pvar_session_free(&session);
  return true;
}

bool Capture::CaptureCategories() {
  int num = 0;
  if (PMPI_T_category_get_num(&num) != MPI_SUCCESS || num < 0) num = 0;
  if (!categories_.Reserve(static_cast<uint32_t>(num))) return false;
  for (int i = 0; i < num; ++i) {
    mpidbg_mpit_category cat;
    memset(&cat, 0, sizeof cat);
    cat.name = cat.desc = MPIDBG_MPIT_NO_STRING;
    cat.first_member = members_.size();
    int num_cvars = 0, num_pvars = 0, num_categories = 0;
    int rc = GetInfo(name_, desc_, [&](char* n, int* nl, char* d, int* dl) {
      return PMPI_T_category_get_info(i, n, nl, d, dl, &num_cvars, &num_pvars, &num_categories);
    });
    if (rc == MPI_ERR_NO_MEM) return false;
    if (rc == MPI_SUCCESS) {
      cat.name = Intern(name_);
      cat.desc = Intern(desc_);
      // cvars, then pvars, then subcategories, each list as MPI gives it.
      struct {
        int count;
        int32_t* field;
        int (*get)(int, int, int*);
      } lists[] = {{num_cvars, &cat.num_cvars, PMPI_T_category_get_cvars},
                   {num_pvars, &cat.num_pvars, PMPI_T_category_get_pvars},
                   {num_categories, &cat.num_categories, PMPI_T_category_get_categories}};
      for (auto& list : lists) {
        if (list.count <= 0 || list.count > kMaxMembers) continue;
        if (!indices_.Resize(static_cast<uint32_t>(list.count))) return false;
        if (list.get(i, list.count, indices_.data()) != MPI_SUCCESS) continue;
        if (!members_.Reserve(static_cast<uint32_t>(list.count))) return false;
        for (int m = 0; m < list.count; ++m) members_.Push(static_cast<int32_t>(indices_[m]));
        *list.field = list.count;
      }
    }
    categories_.Push(cat);
  }
  return true;
}

bool Capture::Run(MpitSnapshot* out) {
  if (!Init() || !CaptureCvars() || !CapturePvars() || !CaptureCategories()) return false;
  out->cvars = cvars_.Release();
  out->pvars = pvars_.Release();
  out->categories = categories_.Release();
  out->members = members_.Release();
  out->strings = strings_.bytes().Release();
  return true;
}

}  // namespace

bool CaptureMpit(bool read_values, MpitSnapshot* out) {
  Capture capture(read_values);  // owns every buffer until Run hands them over
  return capture.Run(out);
}

void FreeMpitSnapshot(const MpitSnapshot& s) {
  core::FreeArray(s.cvars);
  core::FreeArray(s.pvars);
  core::FreeArray(s.categories);
  core::FreeArray(s.members);
  core::FreeArray(s.strings);
}

}  // namespace mpidbg::rt
