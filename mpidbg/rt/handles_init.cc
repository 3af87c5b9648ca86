// handles_init.cc — placeholder: this area's init steps (rt/init_steps.h) do nothing yet.
#include "rt/init_steps.h"

namespace mpidbg::rt {

void HandlesAfterInit(int32_t) {}

}  // namespace mpidbg::rt
