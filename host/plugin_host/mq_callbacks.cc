// mq_callbacks.cc — every callback a message-queue DLL may call.
//
// Callbacks return mqs_ok only for a complete answer. They tolerate NULL out-pointers
// (some debuggers call find_function only to force symbols to load, and DLLs copy
// that) and never throw: they are called from C.
#include "host/plugin_host/mq_callbacks.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "host/plugin_host/mq_dll.h"

namespace mpidbg::host {
namespace {

// --- basic ------------------------------------------------------------------------

void* CbMalloc(size_t size) { return std::malloc(size == 0 ? 1 : size); }
void CbFree(void* p) { std::free(p); }

void CbDprints(const char* text) {
  // DLL chatter is shown only on request: stderr is for the command's diagnostics.
  if (text != nullptr && std::getenv("MPIDBG_DEBUG") != nullptr) {
    std::fprintf(stderr, "mpidbg: dll: %s", text);
    size_t n = std::strlen(text);
    if (n == 0 || text[n - 1] != '\n') std::fputc('\n', stderr);
  }
}

char* CbErrorString(int code) { return const_cast<char*>(HostErrorString(code)); }

void CbPutImageInfo(mqs_image* image, mqs_image_info* info) {
  if (image != nullptr) image->info = info;
}
mqs_image_info* CbGetImageInfo(mqs_image* image) {
  return image != nullptr ? image->info : nullptr;
}
void CbPutProcessInfo(mqs_process* process, mqs_process_info* info) {
  if (process != nullptr) process->info = info;
}
mqs_process_info* CbGetProcessInfo(mqs_process* process) {
  return process != nullptr ? process->info : nullptr;
}

// --- image ------------------------------------------------------------------------

void CbGetTypeSizes(mqs_process* process, mqs_target_type_sizes* sizes) {
  if (sizes == nullptr) return;
  int ptr = process != nullptr && process->ctx != nullptr ? process->ctx->pointer_size : 8;
  // LP64 or ILP32 Linux: the only target ABIs a Linux host reads.
  sizes->short_size = 2;
  sizes->int_size = 4;
  sizes->long_size = ptr;
  sizes->long_long_size = 8;
  sizes->pointer_size = ptr;
  sizes->bool_size = 1;
  sizes->size_t_size = ptr;
}

int FindAddress(mqs_image* image, const char* name, bool function, mqs_taddr_t* addr) {
  if (image == nullptr || image->ctx == nullptr || image->ctx->symbols == nullptr ||
      name == nullptr) {
    return kHostErrBadArgs;
  }
  SymbolIndex* syms = image->ctx->symbols;
  std::optional<uint64_t> found = function ? syms->FindFunction(name) : syms->FindSymbol(name);
  if (!found) return mqs_no_information;
  if (addr != nullptr) *addr = static_cast<mqs_taddr_t>(*found);
  return mqs_ok;
}

int CbFindFunction(mqs_image* image, char* name, mqs_lang_code, mqs_taddr_t* addr) {
  return FindAddress(image, name, true, addr);
}

int CbFindSymbol(mqs_image* image, char* name, mqs_taddr_t* addr) {
  return FindAddress(image, name, false, addr);
}

mqs_type* CbFindType(mqs_image* image, char* name, mqs_lang_code) {
  if (image == nullptr || image->ctx == nullptr || image->ctx->symbols == nullptr ||
      name == nullptr) {
    return nullptr;
  }
  DwarfTypes& types = image->ctx->symbols->types();
  TypeInfo* info = types.Find(name);
  if (info == nullptr) return nullptr;
  for (mqs_type_& t : image->types) {
    if (t.type == info) return &t;
  }
  image->types.push_back(mqs_type_{info, &types});
  return &image->types.back();
}

int CbFieldOffset(mqs_type* type, char* field) {
  if (type == nullptr || field == nullptr || type->types == nullptr) return -1;
  return type->types->FieldOffset(type->type, field);
}

int CbSizeof(mqs_type* type) {
  if (type == nullptr || type->types == nullptr) return -1;
  return type->types->SizeOf(type->type);
}

// --- process ----------------------------------------------------------------------

int CbGetGlobalRank(mqs_process* process) {
  return process != nullptr && process->ctx != nullptr ? process->ctx->global_rank : -1;
}

mqs_image* CbGetImage(mqs_process* process) {
  return process != nullptr ? process->image : nullptr;
}

int CbFetchData(mqs_process* process, mqs_taddr_t addr, int size, void* buf) {
  if (process == nullptr || process->ctx == nullptr || process->ctx->memory == nullptr ||
      size < 0 || (buf == nullptr && size > 0)) {
    return kHostErrBadArgs;
  }
  if (size == 0) return mqs_ok;
  Status st = process->ctx->memory->Read(TargetAddr(addr), static_cast<size_t>(size), buf);
  if (!st.ok()) {
    process->ctx->last_read_error = st.message();
    return kHostErrRead;
  }
  return mqs_ok;
}

void CbTargetToHost(mqs_process* process, const void* in, void* out, int size) {
  if (in == nullptr || out == nullptr || size <= 0) return;
  bool swap = process != nullptr && process->ctx != nullptr && process->ctx->swap_bytes;
  if (!swap) {
    std::memmove(out, in, static_cast<size_t>(size));
    return;
  }
  // Byte-reversed copy through a temporary, so in == out works too.
  unsigned char tmp[16];
  if (size > static_cast<int>(sizeof tmp)) {
    std::memmove(out, in, static_cast<size_t>(size));
    return;
  }
  std::memcpy(tmp, in, static_cast<size_t>(size));
  std::reverse(tmp, tmp + size);
  std::memcpy(out, tmp, static_cast<size_t>(size));
}

const mqs_basic_callbacks kBasic = {
    CbMalloc, CbFree, CbDprints, CbErrorString,
    CbPutImageInfo, CbGetImageInfo, CbPutProcessInfo, CbGetProcessInfo,
};

const mqs_image_callbacks kImage = {
    CbGetTypeSizes, CbFindFunction, CbFindSymbol, CbFindType, CbFieldOffset, CbSizeof,
};

const mqs_process_callbacks kProcess = {
    CbGetGlobalRank, CbGetImage, CbFetchData, CbTargetToHost,
};

}  // namespace

const mqs_basic_callbacks* BasicCallbacks() { return &kBasic; }
const mqs_image_callbacks* ImageCallbacks() { return &kImage; }
const mqs_process_callbacks* ProcessCallbacks() { return &kProcess; }

}  // namespace mpidbg::host
