/*
 * files_shared.c — the MPI-IO calls files.c leaves out: the shared file pointer
 * (independent, ordered, nonblocking, seek), split collectives, nonblocking collective
 * reads and writes, set_size/preallocate/atomicity, and what a file hands out (info in
 * use, view, errhandler); registering a data representation. A unique file in /tmp,
 * deleted at the end. Run with 2 ranks.
 */
#include <string.h>
#include <unistd.h>

#include "tp.h"

enum { N = 4 };

static void fill(int* v, int n, int base) {
  for (int i = 0; i < n; ++i) v[i] = base + i;
}

static int extent_fn(MPI_Datatype type, MPI_Aint* extent, void* state) {
  (void)state;
  MPI_Aint lb;
  return MPI_Type_get_extent(type, &lb, extent);
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  int r = tp_rank;
  char path[256];
  if (r == 0) snprintf(path, sizeof path, "/tmp/mpidbg-tp-shared-%ld.dat", (long)getpid());
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);

  MPI_File fh;
  int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  tp_out("open: %s", tp_err(rc));
  tp_out("set_size: %s", tp_err(MPI_File_set_size(fh, 0)));
  tp_out("preallocate: %s", tp_err(MPI_File_preallocate(fh, 1024)));
  tp_out("set_atomicity: %s", tp_err(MPI_File_set_atomicity(fh, 1)));
  MPI_File_set_atomicity(fh, 0);

  int out[N], in[N];
  /* MPI leaves a file status's source and tag as they were (MPICH does): a known pattern
   * there, so both runs print the same and a write by the runtime shows. */
  MPI_Status st;
  memset(&st, 0x5a, sizeof st);
  /* Ordered: rank 0's block first, then rank 1's. */
  fill(out, N, 10 * (r + 1));
  rc = MPI_File_write_ordered(fh, out, N, MPI_INT, &st);
  tp_out("write_ordered: %s %s", tp_err(rc), tp_status(&st, MPI_INT));
  rc = MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
  tp_out("seek_shared: %s", tp_err(rc));
  fill(in, N, -1);
  rc = MPI_File_read_ordered(fh, in, N, MPI_INT, &st);
  tp_out("read_ordered: %s %s", tp_err(rc), tp_ints(in, N));

  /* Split ordered collectives, appended after the first two blocks. */
  fill(out, N, 30 * (r + 1));
  MPI_File_write_ordered_begin(fh, out, N, MPI_INT);
  rc = MPI_File_write_ordered_end(fh, out, &st);
  tp_out("write_ordered split: %s", tp_err(rc));
  MPI_File_seek_shared(fh, (MPI_Offset)(2 * N * sizeof(int)), MPI_SEEK_SET);
  fill(in, N, -1);
  MPI_File_read_ordered_begin(fh, in, N, MPI_INT);
  rc = MPI_File_read_ordered_end(fh, in, &st);
  tp_out("read_ordered split: %s %s", tp_err(rc), tp_ints(in, N));

  /* Split explicit-offset and individual-pointer collectives: rank r's block at 4+r. */
  const MPI_Offset at = (MPI_Offset)((4 + r) * N * sizeof(int));
  fill(out, N, 50 * (r + 1));
  MPI_File_write_at_all_begin(fh, at, out, N, MPI_INT);
  rc = MPI_File_write_at_all_end(fh, out, &st);
  tp_out("write_at_all split: %s", tp_err(rc));
  fill(in, N, -1);
  MPI_File_read_at_all_begin(fh, at, in, N, MPI_INT);
  rc = MPI_File_read_at_all_end(fh, in, &st);
  tp_out("read_at_all split: %s %s", tp_err(rc), tp_ints(in, N));
  MPI_File_seek(fh, at, MPI_SEEK_SET);
  fill(out, N, 70 * (r + 1));
  MPI_File_write_all_begin(fh, out, N, MPI_INT);
  rc = MPI_File_write_all_end(fh, out, &st);
  tp_out("write_all split: %s", tp_err(rc));
  MPI_File_seek(fh, at, MPI_SEEK_SET);
  fill(in, N, -1);
  MPI_File_read_all_begin(fh, in, N, MPI_INT);
  rc = MPI_File_read_all_end(fh, in, &st);
  tp_out("read_all split: %s %s", tp_err(rc), tp_ints(in, N));

  /* Nonblocking collectives at block 6+r. */
  MPI_Request req;
  const MPI_Offset at2 = (MPI_Offset)((6 + r) * N * sizeof(int));
  fill(out, N, 90 * (r + 1));
  MPI_File_iwrite_at_all(fh, at2, out, N, MPI_INT, &req);
  MPI_Wait(&req, &st);
  fill(in, N, -1);
  MPI_File_iread_at_all(fh, at2, in, N, MPI_INT, &req);
  MPI_Wait(&req, &st);
  tp_out("iread_at_all: %s", tp_ints(in, N));
  MPI_File_seek(fh, at2, MPI_SEEK_SET);
  fill(out, N, 110 * (r + 1));
  MPI_File_iwrite_all(fh, out, N, MPI_INT, &req);
  MPI_Wait(&req, &st);
  MPI_File_seek(fh, at2, MPI_SEEK_SET);
  fill(in, N, -1);
  MPI_File_iread_all(fh, in, N, MPI_INT, &req);
  MPI_Wait(&req, &st);
  tp_out("iread_all: %s", tp_ints(in, N));

  /* Independent shared-pointer access, one rank after the other. */
  MPI_File_seek_shared(fh, (MPI_Offset)(8 * N * sizeof(int)), MPI_SEEK_SET);
  for (int turn = 0; turn < 2; ++turn) {
    if (turn == r) {
      fill(out, N, 130 * (r + 1));
      MPI_File_write_shared(fh, out, N, MPI_INT, &st);
      fill(out, N, 150 * (r + 1));
      MPI_File_iwrite_shared(fh, out, N, MPI_INT, &req);
      MPI_Wait(&req, &st);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_File_seek_shared(fh, (MPI_Offset)(8 * N * sizeof(int)), MPI_SEEK_SET);
  for (int turn = 0; turn < 2; ++turn) {
    if (turn == r) {
      fill(in, N, -1);
      MPI_File_read_shared(fh, in, N, MPI_INT, &st);
      tp_out("read_shared: %s", tp_ints(in, N));
      fill(in, N, -1);
      MPI_File_iread_shared(fh, in, N, MPI_INT, &req);
      MPI_Wait(&req, &st);
      tp_out("iread_shared: %s", tp_ints(in, N));
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }

  /* What the file hands out. */
  MPI_Info used;
  rc = MPI_File_get_info(fh, &used);
  tp_out("get_info: %s", tp_err(rc));
  if (rc == MPI_SUCCESS) MPI_Info_free(&used);
  MPI_Offset disp = -1;
  MPI_Datatype etype, filetype;
  char datarep[MPI_MAX_DATAREP_STRING];
  rc = MPI_File_get_view(fh, &disp, &etype, &filetype, datarep);
  tp_out("get_view: %s disp=%lld datarep=%s etype byte=%d", tp_err(rc), (long long)disp, datarep,
         etype == MPI_BYTE);
  MPI_Errhandler eh;
  rc = MPI_File_get_errhandler(fh, &eh);
  tp_out("get_errhandler: %s return=%d", tp_err(rc), eh == MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&eh);

  rc = MPI_Register_datarep("mpidbg_tp_rep", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                            extent_fn, NULL);
  tp_out("register_datarep: %s", tp_err(rc));

  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (r == 0) MPI_File_delete(path, MPI_INFO_NULL);
  return tp_finish();
}
