// datatype_registry.cc — placeholder: this area's init steps (rt/init_steps.h) do nothing yet.
#include "rt/init_steps.h"

namespace mpidbg::rt {

void DatatypesAfterInit() {}

}  // namespace mpidbg::rt
