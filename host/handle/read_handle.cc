// read_handle.cc — `mpidbg handle`: open the target, find the handle value (typed, or
// read from a program variable), set the DLL's handle interface up on the target, ask.
//
// The DLL runs in this process: HandleDll::Load refuses, before running any of its
// code, a DLL whose dynamic symbols lack the handle interface (every foreign
// message-queue DLL in the wild), and mpidbg's own plugin is trusted as for `snapshot`.
#include "host/handle/read_handle.h"

#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "host/handle/handle_describer.h"
#include "host/plugin_host/handle_query.h"
#include "host/plugin_host/handle_session.h"
#include "host/plugin_host/plugin_choice.h"
#include "host/symbols/variable_types.h"
#include "mpidbg/records.h"

namespace mpidbg::host {
namespace {

using nlohmann::json;

const char* const kKindNames[] = {"comm", "request", "datatype", "group",   "op",     "errhandler",
                                  "info", "win",     "file",     "message", "status", nullptr};

// A Fortran handle is a default INTEGER.
constexpr int kFortranIntegerSize = 4;

// What the runtime's root says about this process, when the target runs the runtime.
struct RootFacts {
  int handle_size = 0;  // 4 (MPICH) or 8 (Open MPI); 0 when unknown
  int world_rank = -1;
};

RootFacts ReadRootFacts(SymbolIndex& symbols, TargetMemory& memory) {
  RootFacts facts;
  std::optional<uint64_t> root = symbols.FindSymbol(MPIDBG_ROOT_SYMBOL);
  if (!root) return facts;
  uint64_t magic = 0;
  uint32_t handle_size = 0;
  int32_t rank = -1;
  TargetAddr base(*root), at;
  if (!memory.Read(base, sizeof magic, &magic).ok() || magic != MPIDBG_ROOT_MAGIC) return facts;
  if (base.Advance(offsetof(mpidbg_root, handle_size), &at) &&
      memory.Read(at, sizeof handle_size, &handle_size).ok() &&
      (handle_size == 4 || handle_size == 8)) {
    facts.handle_size = static_cast<int>(handle_size);
  }
  if (base.Advance(offsetof(mpidbg_root, world_rank), &at) &&
      memory.Read(at, sizeof rank, &rank).ok()) {
    facts.world_rank = rank;
  }
  return facts;
}

// Bytes of a `kind` value in the target, 0 when unknown. Handles have the runtime's
// handle size, except MPI_File, a pointer in both MPIs (MPICH's file handles are not
// integers); a status is named by its address.
int ValueWidth(const std::string& kind, const RootFacts& root) {
  if (kind == "status" || kind == "file") return 8;
  return root.handle_size;
}

// "0x..." hex or decimal, optionally negative (a negative 4-byte handle as gdb prints an
// int); the result has the width `handle_size` (0: 64 bits).
bool ParseValue(const std::string& text, int handle_size, uint64_t* out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  if (text[0] == '-') {
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (*end != '\0' || errno != 0) return false;
    *out = static_cast<uint64_t>(v);
  } else {
    unsigned long long v = std::strtoull(text.c_str(), &end, hex ? 16 : 10);
    if (*end != '\0' || errno != 0) return false;
    *out = v;
  }
  if (handle_size == 4) {
    // Zero-extended, as the runtime widens integer handles.
    if (text[0] == '-' ? static_cast<int64_t>(*out) < INT32_MIN : *out > UINT32_MAX) return false;
    *out &= 0xffffffffull;
  }
  return true;
}

// NAME or NAME[INDEX].
bool ParseExpr(const std::string& expr, std::string* name, int64_t* index) {
  *index = -1;
  size_t open = expr.find('[');
  *name = expr.substr(0, open);
  if (name->empty()) return false;
  for (char c : *name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':')) {
      return false;
    }
  }
  if (open == std::string::npos) return true;
  if (expr.back() != ']' || expr.size() < open + 3) return false;
  std::string digits = expr.substr(open + 1, expr.size() - open - 2);
  char* end = nullptr;
  long long v = std::strtoll(digits.c_str(), &end, 10);
  if (*end != '\0' || v < 0 || v > (1ll << 40)) return false;
  *index = v;
  return true;
}

struct ExprValue {
  std::string kind;  // from the variable's type, "" when unknown
  uint64_t value = 0;
  uint64_t address = 0;
  std::string type_name;
};

// Reads the handle stored in a global variable (or, for statuses, takes its address).
Result<ExprValue> ReadExpr(const HandleRequest& req, OpenedTarget& target, const RootFacts& root) {
  std::string name;
  int64_t index = -1;
  if (!ParseExpr(req.expr, &name, &index)) {
    return Status::Usage("--expr takes a global variable, NAME or NAME[INDEX], not '" + req.expr +
                         "'");
  }
  std::optional<uint64_t> addr = target.symbols().FindSymbol(name);
  if (!addr) {
    return Status::Usage("process " + std::to_string(target.pid()) + " has no global variable " +
                         name + " in its symbol tables");
  }
  VariableType type = req.target.core.empty()
                          ? LiveVariableType(target.pid(), name)
                          : CoreVariableType(req.target.core, target.image_name(), name);
  ExprValue out;
  out.type_name = type.type_name;
  out.kind = HandleKindOfTypeName(type.type_name);
  if (!req.kind.empty() && !out.kind.empty() && out.kind != req.kind && !req.fortran) {
    return Status::Usage(name + " is an " + type.type_name + ", not a " + req.kind +
                         " handle; leave --kind out or name another variable");
  }
  std::string kind = req.kind.empty() ? out.kind : req.kind;
  if (kind.empty()) {
    return Status::Usage("the type of " + name + " is not known to be an MPI handle (" +
                         (type.found ? "its type is not MPI_Comm, MPI_Datatype, ..."
                                     : "no debug information for it") +
                         "); say which kind it holds with --kind");
  }
  int64_t elem = type.is_array ? type.element_size : type.size;
  if (index >= 0) {
    if (type.found && !type.is_array) return Status::Usage(name + " is not an array");
    if (type.array_length >= 0 && index >= type.array_length) {
      return Status::Usage(req.expr + " is past the end of " + name + " (" +
                           std::to_string(type.array_length) + " elements)");
    }
  }
  int size = req.fortran                ? kFortranIntegerSize
             : (elem == 4 || elem == 8) ? static_cast<int>(elem)
                                        : ValueWidth(kind, root);
  if (kind == "status" && !req.fortran) {
    // A status is a structure; the query takes its address.
    int64_t step = elem > 0 ? elem : 0;
    if (index > 0 && step == 0) {
      return Status::Usage("the size of " + name + "'s elements is unknown");
    }
    out.address = *addr + static_cast<uint64_t>(index > 0 ? index * step : 0);
    out.value = out.address;
    return out;
  }
  if (size != 4 && size != 8) {
    return Status::Usage("the size of the handle in " + name +
                         " is not known (no debug information and no mpidbg runtime); give its "
                         "value instead of --expr");
  }
  TargetAddr at(*addr);
  if (index > 0 && !at.Advance(static_cast<uint64_t>(index) * static_cast<uint64_t>(size), &at)) {
    return Status::Usage(req.expr + " is out of the address space");
  }
  out.address = at.value;
  uint64_t raw = 0;
  Status st = target.memory().Read(at, static_cast<size_t>(size), &raw);
  if (!st.ok()) return Status::Unreadable("cannot read " + req.expr + ": " + st.message());
  // The target has the host's byte order (a Linux host reads its own architecture);
  // a 4-byte handle is zero-extended as the runtime widens it.
  out.value = size == 4 ? static_cast<uint64_t>(static_cast<uint32_t>(raw)) : raw;
  return out;
}

}  // namespace

const char* const* HandleKindNames() { return kKindNames; }

bool IsHandleKind(const std::string& kind) {
  for (const char* const* k = kKindNames; *k != nullptr; ++k) {
    if (kind == *k) return true;
  }
  return false;
}

Result<HandleReading> ReadHandle(const HandleRequest& req) {
  if (!req.kind.empty() && !IsHandleKind(req.kind)) {
    return Status::Usage("unknown handle kind '" + req.kind + "'");
  }
  if (req.value.empty() == req.expr.empty()) {
    return Status::Usage("give exactly one of a handle VALUE or --expr VARIABLE");
  }
  if (req.expr.empty() && req.kind.empty()) {
    return Status::Usage("--kind KIND is needed with a handle value");
  }
  auto opened = OpenedTarget::Open(req.target);
  if (!opened.ok()) return opened.status();
  OpenedTarget& target = *opened.value();
  auto choice = ChoosePlugin(target.symbols(), target.memory(), req.target.plugin, target.pid());
  if (!choice.ok()) return choice.status();
  RootFacts root = ReadRootFacts(target.symbols(), target.memory());

  HandleReading out;
  out.expr = req.expr;
  out.fortran = req.fortran;
  std::string kind = req.kind;
  uint64_t value = 0;
  if (!req.expr.empty()) {
    auto ev = ReadExpr(req, target, root);
    if (!ev.ok()) return ev.status();
    if (kind.empty()) kind = ev->kind;
    value = ev->value;
    out.address = ev->address;
    out.type_name = ev->type_name;
  } else {
    int width = req.fortran ? kFortranIntegerSize : ValueWidth(kind, root);
    if (!ParseValue(req.value, width, &value)) {
      return Status::Usage("'" + req.value + "' is not a " + kind + " value (hex 0x... or decimal" +
                           std::string(width == 4 ? ", 32 bits" : "") + ")");
    }
  }
  out.kind = kind;
  out.value = value;

  auto dll = HandleDll::Load(choice->path);
  if (!dll.ok()) return dll.status();
  TargetContext ctx;
  ctx.memory = &target.memory();
  ctx.symbols = &target.symbols();
  ctx.global_rank = root.world_rank;
  Result<json> handle = Status::NoSupport("not read");
  {
    auto session = HandleSession::Start(dll.value().get(), &ctx);
    if (!session.ok()) return session.status();
    HandleQuery q(session.value()->calls());
    uint64_t c_value = value;
    if (req.fortran) {
      auto converted = q.FortranToC(kind, value);
      if (!converted.ok()) return converted.status();
      c_value = converted.value();
      out.c_value = c_value;
    }
    handle = HandleDescriber(&q).Describe(kind, c_value, req.max_map_entries);
  }
  Status closed = target.Close();
  if (!handle.ok()) return handle.status();
  if (!closed.ok()) return closed;
  out.pid = target.pid();
  out.world_rank = root.world_rank;
  out.source = target.source();
  out.plugin = choice->path;
  out.handle = std::move(handle.value());
  return out;
}

}  // namespace mpidbg::host
