// datatype_predefined.cc — the predefined datatypes registered at MPI_Init.
//
// One table: every predefined C datatype, the C++ and pair types usable from C, and the
// Fortran types. Optional types are listed under #ifdef (each flavour's mpi.h defines
// the ones it knows as macros); a type this MPI build maps to MPI_DATATYPE_NULL (e.g.
// Fortran types without Fortran support) is skipped, and so is a second name for a
// handle already registered (MPI_LONG_LONG and MPI_LONG_LONG_INT).
#include <mpi.h>

#include "rt/datatypes/datatype_registry.h"
#include "rt/handle_widening.h"
#include "rt/hot/datatype_info.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {
namespace {

const MPI_Datatype kPredefined[] = {
    // C
    MPI_CHAR, MPI_SHORT, MPI_INT, MPI_LONG, MPI_LONG_LONG_INT, MPI_LONG_LONG,
    MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_UNSIGNED_SHORT, MPI_UNSIGNED, MPI_UNSIGNED_LONG,
    MPI_UNSIGNED_LONG_LONG, MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_WCHAR, MPI_C_BOOL,
    MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T,
    MPI_UINT32_T, MPI_UINT64_T, MPI_C_COMPLEX, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
    MPI_C_LONG_DOUBLE_COMPLEX, MPI_BYTE, MPI_PACKED, MPI_AINT, MPI_OFFSET, MPI_COUNT,
    // C++ types, also usable from C
    MPI_CXX_BOOL, MPI_CXX_FLOAT_COMPLEX, MPI_CXX_DOUBLE_COMPLEX, MPI_CXX_LONG_DOUBLE_COMPLEX,
    // pair types of MPI_MINLOC/MPI_MAXLOC
    MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT,
    // Fortran
    MPI_CHARACTER, MPI_INTEGER, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX,
    MPI_DOUBLE_COMPLEX, MPI_LOGICAL, MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER,
#ifdef MPI_2COMPLEX
    MPI_2COMPLEX,
#endif
#ifdef MPI_2DOUBLE_COMPLEX
    MPI_2DOUBLE_COMPLEX,
#endif
#ifdef MPI_LOGICAL1
    MPI_LOGICAL1,
#endif
#ifdef MPI_LOGICAL2
    MPI_LOGICAL2,
#endif
#ifdef MPI_LOGICAL4
    MPI_LOGICAL4,
#endif
#ifdef MPI_LOGICAL8
    MPI_LOGICAL8,
#endif
#ifdef MPI_INTEGER1
    MPI_INTEGER1,
#endif
#ifdef MPI_INTEGER2
    MPI_INTEGER2,
#endif
#ifdef MPI_INTEGER4
    MPI_INTEGER4,
#endif
#ifdef MPI_INTEGER8
    MPI_INTEGER8,
#endif
#ifdef MPI_INTEGER16
    MPI_INTEGER16,
#endif
#ifdef MPI_REAL2
    MPI_REAL2,
#endif
#ifdef MPI_REAL4
    MPI_REAL4,
#endif
#ifdef MPI_REAL8
    MPI_REAL8,
#endif
#ifdef MPI_REAL16
    MPI_REAL16,
#endif
#ifdef MPI_COMPLEX4
    MPI_COMPLEX4,
#endif
#ifdef MPI_COMPLEX8
    MPI_COMPLEX8,
#endif
#ifdef MPI_COMPLEX16
    MPI_COMPLEX16,
#endif
#ifdef MPI_COMPLEX32
    MPI_COMPLEX32,
#endif
};

}  // namespace

void RegisterPredefinedDatatypes() {
  for (MPI_Datatype t : kPredefined) {
    if (t == MPI_DATATYPE_NULL) continue;
    // Described once here, so the named-type cache knows it from the start: messages,
    // and type constructors taking it as an input, then ask MPI nothing about it.
    DatatypeInfo info;
    DescribeDatatype(t, &info);
    if (g_datatypes.FindLive(HandleToU64(t)) != nullptr) continue;
    RecordDatatype(t, MPIDBG_CALL_NONE);
  }
}

}  // namespace mpidbg::rt
