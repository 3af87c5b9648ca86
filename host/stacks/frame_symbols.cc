// frame_symbols.cc — pc to function, file:line and module through libdwfl.
#include "host/stacks/frame_symbols.h"

#include <cxxabi.h>
#include <gelf.h>

#include <cstdlib>
#include <cstring>

namespace mpidbg::host {
namespace {

// C++ names read as a person writes them; anything that does not demangle stays as is.
// A symbol version ("__libc_start_main@@GLIBC_2.34") is not part of the name.
std::string Demangle(const char* symbol) {
  std::string name(symbol);
  const std::size_t at = name.find('@');
  if (at != std::string::npos && at > 0) name.resize(at);
  if (name.compare(0, 2, "_Z") != 0) return name;
  int status = 0;
  char* out = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) return name;
  std::string result(out);
  std::free(out);
  return result;
}

std::string BaseName(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

Dwarf_Addr LookupAddress(const RawFrame& raw) {
  return raw.activation || raw.pc == 0 ? raw.pc : raw.pc - 1;
}

}  // namespace

model::Frame DescribeFrame(Dwfl* dwfl, const RawFrame& raw) {
  model::Frame frame;
  frame.pc = raw.pc;
  const Dwarf_Addr at = LookupAddress(raw);
  Dwfl_Module* mod = dwfl_addrmodule(dwfl, at);
  if (mod == nullptr) return frame;
  const char* name =
      dwfl_module_info(mod, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  if (name != nullptr) frame.module = BaseName(name);
  GElf_Off offset = 0;
  GElf_Sym sym;
  const char* symbol = dwfl_module_addrinfo(mod, at, &offset, &sym, nullptr, nullptr, nullptr);
  if (symbol != nullptr && *symbol != '\0') frame.function = Demangle(symbol);
  return frame;
}

void AddSourceLine(Dwfl* dwfl, const RawFrame& raw, model::Frame* frame) {
  const Dwarf_Addr at = LookupAddress(raw);
  Dwfl_Module* mod = dwfl_addrmodule(dwfl, at);
  if (mod == nullptr) return;
  Dwfl_Line* line = dwfl_module_getsrc(mod, at);
  if (line == nullptr) return;
  int lineno = 0;
  const char* file = dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr);
  if (file != nullptr && *file != '\0' && lineno > 0) {
    frame->file = file;
    frame->line = lineno;
  }
}

}  // namespace mpidbg::host
