// plugin_choice.cc — choosing the message-queue DLL for a target.
#include "host/plugin_host/plugin_choice.h"

#include <set>
#include <vector>

#include "host/plugin_host/dll_exports.h"
#include "host/plugin_host/plugin_locator.h"
#include "mpidbg/records.h"

namespace mpidbg::host {
namespace {

constexpr size_t kMaxDllName = 4096;
constexpr size_t kMaxModulesNamed = 12;

std::string Basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string ModuleList(const SymbolIndex& symbols) {
  std::vector<std::string> names = symbols.ModuleNames();
  if (names.empty()) return "(no modules found)";
  std::string out;
  for (size_t i = 0; i < names.size() && i < kMaxModulesNamed; ++i) {
    out += (i == 0 ? "" : ", ") + Basename(names[i]);
  }
  if (names.size() > kMaxModulesNamed) {
    out += " and " + std::to_string(names.size() - kMaxModulesNamed) + " more";
  }
  return out;
}

// --plugin names a file the user chose: one that is no DLL of ours to load is a mistake
// on the command line (2), not a target without support (1). Checked from the file, so
// nothing of it runs. A bare name is left to dlopen's search.
Status CheckPluginOption(const std::string& path) {
  if (path.find('/') == std::string::npos) return Status::Ok();
  std::set<std::string> names;
  std::string error;
  if (!DynamicSymbols(path, &names, &error)) {
    return Status::Usage("cannot load the message-queue DLL " + path + " (--plugin): " + error);
  }
  for (const std::string& name : names) {
    if (name.rfind("mqs_", 0) == 0 || name.rfind("mpidbg_", 0) == 0) return Status::Ok();
  }
  return Status::Usage(path + " (--plugin) is not a message-queue DLL: it does not export "
                       "mqs_setup_basic_callbacks or any other mqs_* function");
}

}  // namespace

Result<PluginChoice> ChoosePlugin(SymbolIndex& symbols, TargetMemory& memory,
                                  const std::string& override_path, int64_t pid) {
  PluginChoice choice;
  if (!override_path.empty()) {
    Status usable = CheckPluginOption(override_path);
    if (!usable.ok()) return usable;
    choice.path = override_path;
    choice.ours = Basename(override_path) == "libmpidbg_plugin.so";
    choice.reason = "--plugin";
    return choice;
  }
  if (symbols.FindSymbol(MPIDBG_ROOT_SYMBOL)) {
    std::vector<std::string> tried;
    std::optional<std::string> own = LocateOwnPlugin(&tried);
    if (!own) {
      std::string list;
      for (const std::string& t : tried) list += (list.empty() ? "" : ", ") + t;
      return Status::NoSupport("process " + std::to_string(pid) +
                               " runs the mpidbg runtime but libmpidbg_plugin.so was not found "
                               "(looked at " + list + "); name it with --plugin PATH");
    }
    choice.path = *own;
    choice.ours = true;
    choice.reason = std::string("symbol ") + MPIDBG_ROOT_SYMBOL;
    return choice;
  }
  if (std::optional<uint64_t> addr = symbols.FindSymbol("MPIR_dll_name")) {
    std::string name;
    Status st = memory.ReadCString(TargetAddr(*addr), kMaxDllName, &name);
    if (!st.ok()) {
      return Status::Unreadable("cannot read MPIR_dll_name of process " + std::to_string(pid) +
                                ": " + st.message());
    }
    if (!name.empty()) {
      choice.path = name;
      choice.ours = Basename(name) == "libmpidbg_plugin.so";
      choice.reason = "MPIR_dll_name";
      return choice;
    }
  }
  return Status::NoSupport("process " + std::to_string(pid) +
                           " has no MPI debugging support: looked for symbol " +
                           MPIDBG_ROOT_SYMBOL + " and MPIR_dll_name in " + ModuleList(symbols));
}

}  // namespace mpidbg::host
