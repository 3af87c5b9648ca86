#include "plugin/debugger_memory.h"

namespace mpidbg::plugin {
namespace {

mqs_basic_callbacks g_callbacks;
bool g_have_callbacks = false;

}  // namespace

void set_basic_callbacks(const mqs_basic_callbacks* cb) {
  if (cb == nullptr) {
    g_have_callbacks = false;
    return;
  }
  g_callbacks = *cb;
  g_have_callbacks = true;
}

const mqs_basic_callbacks* basic_callbacks() { return g_have_callbacks ? &g_callbacks : nullptr; }

void* debugger_alloc(size_t bytes) {
  if (!g_have_callbacks || g_callbacks.mqs_malloc_fp == nullptr || bytes == 0) return nullptr;
  return g_callbacks.mqs_malloc_fp(bytes);
}

void debugger_free(void* p) {
  if (p == nullptr || !g_have_callbacks || g_callbacks.mqs_free_fp == nullptr) return;
  g_callbacks.mqs_free_fp(p);
}

void debug_print(const char* text) {
  if (g_have_callbacks && g_callbacks.mqs_dprints_fp != nullptr && text != nullptr) {
    g_callbacks.mqs_dprints_fp(text);
  }
}

}  // namespace mpidbg::plugin
