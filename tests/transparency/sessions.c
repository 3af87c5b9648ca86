/*
 * sessions.c — the MPI-4 sessions model next to the world model: Session_init, the
 * process sets, Group_from_session_pset, Comm_create_from_group, communication on
 * that communicator, Session_finalize. Open MPI 4.1 (MPI 3.1) has no sessions and
 * says so. Any rank count (2 used).
 */
#include "tp.h"

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
#if MPI_VERSION >= 4
  MPI_Session s;
  int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
  tp_out("session_init: %s", tp_err(rc));
  int npsets = -1;
  MPI_Session_get_num_psets(s, MPI_INFO_NULL, &npsets);
  tp_out("process sets: %d", npsets);
  for (int i = 0; i < npsets; ++i) {
    char name[256];
    int len = sizeof name;
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name);
    tp_out("  pset %d: %s", i, name);
  }
  MPI_Group g;
  rc = MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
  int gsize = -1, grank = -1;
  MPI_Group_size(g, &gsize);
  MPI_Group_rank(g, &grank);
  tp_out("group_from_session_pset mpi://WORLD: %s size %d rank %d", tp_err(rc), gsize, grank);
  MPI_Group self;
  MPI_Group_from_session_pset(s, "mpi://SELF", &self);
  MPI_Group_size(self, &gsize);
  tp_out("mpi://SELF size %d", gsize);
  MPI_Comm c;
  rc = MPI_Comm_create_from_group(g, "org.mpidbg.transparency", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
  tp_out("comm_create_from_group: %s", tp_err(rc));
  int r = -1, n = -1, sum = -1;
  MPI_Comm_rank(c, &r);
  MPI_Comm_size(c, &n);
  int mine = 10 + r;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, c);
  int right = (r + 1) % n, left = (r + n - 1) % n, got = -1;
  MPI_Sendrecv(&mine, 1, MPI_INT, right, 0, &got, 1, MPI_INT, left, 0, c, MPI_STATUS_IGNORE);
  tp_out("session comm: rank %d size %d allreduce %d from left %d", r, n, sum, got);
  MPI_Comm_free(&c);
  MPI_Group_free(&self);
  MPI_Group_free(&g);
  rc = MPI_Session_finalize(&s);
  tp_out("session_finalize: %s null=%d", tp_err(rc), s == MPI_SESSION_NULL);
#else
  tp_out("sessions: not in MPI %d.%d", MPI_VERSION, MPI_SUBVERSION);
#endif
  return tp_finish();
}
