#include "plugin/call_names.h"

namespace mpidbg::plugin {

const char* call_name(int call_id) { return mpidbg_call_name(call_id); }

int call_class(int call_id) {
  switch (call_id) {
#define MPIDBG_X_CLASS(name, id, cls) \
  case id:                            \
    return MPIDBG_CLASS_##cls;
    MPIDBG_CALL_LIST(MPIDBG_X_CLASS)
#undef MPIDBG_X_CLASS
    default:
      return MPIDBG_CLASS_OTHER;
  }
}

}  // namespace mpidbg::plugin
