// call_names.h — names and classes of the call ids in include/mpidbg/call_ids.h.
#ifndef MPIDBG_PLUGIN_CALL_NAMES_H
#define MPIDBG_PLUGIN_CALL_NAMES_H

#include "mpidbg/call_ids.h"

namespace mpidbg::plugin {

// "MPI_Irecv" for a known id, nullptr for an unknown one.
const char* call_name(int call_id);
// enum mpidbg_call_class; MPIDBG_CLASS_OTHER for unknown ids.
int call_class(int call_id);

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_CALL_NAMES_H
