// predefined_objects.cc — this area's MPI_Init step (rt/process/init_steps.h): records of the
// predefined groups, reduction ops, errhandlers and MPI_INFO_ENV. The predefined
// communicators are recorded before (RegisterPredefinedComms), as they must exist
// before any other record refers to them.
#include "rt/comms/hooks_groups.h"
#include "rt/objects/hooks_objects.h"
#include "rt/process/init_steps.h"

namespace mpidbg::rt {

void PredefinedObjectsAfterInit(int32_t) {
  RegisterPredefinedGroups();
  RegisterPredefinedObjects();
}

}  // namespace mpidbg::rt
