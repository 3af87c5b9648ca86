// type_envelope.cc — see type_envelope.h.
#include "rt/datatypes/type_envelope.h"

#include <limits.h>
#include <stdlib.h>

namespace mpidbg::rt {

#if MPI_VERSION >= 4
namespace {

int Clamped(MPI_Count n) { return n < 0 ? 0 : n > INT_MAX ? INT_MAX : static_cast<int>(n); }

}  // namespace

bool ReadTypeEnvelope(MPI_Datatype t, TypeEnvelope* e) {
  *e = TypeEnvelope{};
  MPI_Count ni = 0, na = 0, nc = 0, nd = 0;
  if (PMPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &e->combiner) != MPI_SUCCESS) return false;
  e->large = nc > 0;
  e->ni = e->large ? 0 : Clamped(ni);
  e->na = e->large ? 0 : Clamped(na);
  e->nd = Clamped(nd);
  return true;
}

bool ReadTypeContents(MPI_Datatype t, const TypeEnvelope& e, int* ints, MPI_Aint* addrs,
                      MPI_Datatype* types) {
  if (!e.large) return PMPI_Type_get_contents(t, e.ni, e.na, e.nd, ints, addrs, types) == MPI_SUCCESS;
  // Every array the query fills, sized from a fresh envelope (e holds the clamped view).
  MPI_Count ni = 0, na = 0, nc = 0, nd = 0;
  int combiner = 0;
  if (PMPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &combiner) != MPI_SUCCESS || nd != e.nd)
    return false;
  int* all_ints = static_cast<int*>(malloc(sizeof(int) * static_cast<size_t>(ni + 1)));
  MPI_Aint* all_addrs = static_cast<MPI_Aint*>(malloc(sizeof(MPI_Aint) * static_cast<size_t>(na + 1)));
  MPI_Count* counts = static_cast<MPI_Count*>(malloc(sizeof(MPI_Count) * static_cast<size_t>(nc + 1)));
  const bool ok = all_ints != nullptr && all_addrs != nullptr && counts != nullptr &&
                  PMPI_Type_get_contents_c(t, ni, na, nc, nd, all_ints, all_addrs, counts,
                                           types) == MPI_SUCCESS;
  free(all_ints);
  free(all_addrs);
  free(counts);
  (void)ints;
  (void)addrs;
  return ok;
}
#else
bool ReadTypeEnvelope(MPI_Datatype t, TypeEnvelope* e) {
  *e = TypeEnvelope{};
  return PMPI_Type_get_envelope(t, &e->ni, &e->na, &e->nd, &e->combiner) == MPI_SUCCESS;
}

bool ReadTypeContents(MPI_Datatype t, const TypeEnvelope& e, int* ints, MPI_Aint* addrs,
                      MPI_Datatype* types) {
  return PMPI_Type_get_contents(t, e.ni, e.na, e.nd, ints, addrs, types) == MPI_SUCCESS;
}
#endif

}  // namespace mpidbg::rt
