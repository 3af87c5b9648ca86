// mq_callbacks.h — the debugger side of the message-queue interface: the objects a DLL
// sees as mqs_image / mqs_process / mqs_type, and the callback tables over a target's
// memory and symbols.
#pragma once

#include <deque>
#include <string>

#include "host/symbols/symbol_index.h"
#include "host/target/target_memory.h"
#include "mpidbg/mqs_interface.h"

namespace mpidbg::host {

// What the callbacks read a target through. One per target being read.
struct TargetContext {
  TargetMemory* memory = nullptr;
  SymbolIndex* symbols = nullptr;
  int global_rank = -1;        // -1 until known
  bool swap_bytes = false;     // target byte order differs from the host's
  int pointer_size = sizeof(void*);
  std::string last_read_error;  // the message of the last failed fetch_data
};

const mqs_basic_callbacks* BasicCallbacks();
const mqs_image_callbacks* ImageCallbacks();
const mqs_process_callbacks* ProcessCallbacks();

}  // namespace mpidbg::host

// The debugger-owned opaque objects of mqs_interface.h.
struct mqs_type_ {
  mpidbg::host::TypeInfo* type = nullptr;
  mpidbg::host::DwarfTypes* types = nullptr;
};

struct mqs_image_ {
  mpidbg::host::TargetContext* ctx = nullptr;
  mqs_image_info* info = nullptr;
  std::deque<mqs_type_> types;  // handed out by find_type; stable addresses
};

struct mqs_process_ {
  mpidbg::host::TargetContext* ctx = nullptr;
  mqs_image_* image = nullptr;
  mqs_process_info* info = nullptr;
};
