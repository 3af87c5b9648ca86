/*
 * files.c — MPI-IO on a file in /tmp (a unique name per run, deleted at the end): open,
 * set_view with an interleaving filetype, set_info, every data access family (explicit
 * offset, individual pointer, collective, nonblocking), sync, get_group, errhandlers
 * (predefined and user-defined), close, delete, and the error of opening a missing
 * file. Run with 2 ranks.
 */
#include <unistd.h>

#include "tp.h"

enum { N = 4 };

static int file_errors = 0;
static int file_error_class = -1;

static void on_file_error(MPI_File* fh, int* code, ...) {
  (void)fh;
  ++file_errors;
  MPI_Error_class(*code, &file_error_class);
}

static void fill(int* v, int n, int base) {
  for (int i = 0; i < n; ++i) v[i] = base + i;
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  char path[256];
  if (tp_rank == 0) snprintf(path, sizeof path, "/tmp/mpidbg-tp-files-%ld.dat", (long)getpid());
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);

  MPI_File fh;
  int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  tp_out("open: %s", tp_err(rc));
  MPI_Group g;
  MPI_File_get_group(fh, &g);
  int gsize = -1;
  MPI_Group_size(g, &gsize);
  MPI_Group_free(&g);
  tp_out("file group size %d", gsize);
  MPI_Info hints;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "access_style", "read_mostly");
  rc = MPI_File_set_info(fh, hints);
  tp_out("set_info: %s", tp_err(rc));
  MPI_Info_free(&hints);

  /* Explicit offsets on the default view (bytes). */
  int out[N], in[N];
  fill(out, N, 100 * tp_rank);
  MPI_Status st;
  rc = MPI_File_write_at(fh, (MPI_Offset)(tp_rank * N * sizeof(int)), out, N, MPI_INT, &st);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  tp_out("write_at: %s count %d", tp_err(rc), count);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  int other = (tp_rank + 1) % tp_size;
  rc = MPI_File_read_at(fh, (MPI_Offset)(other * N * sizeof(int)), in, N, MPI_INT, &st);
  tp_out("read_at other's block: %s %s", tp_err(rc), tp_ints(in, N));

  /* Collective explicit offsets, beyond the first blocks. */
  MPI_Offset second = (MPI_Offset)((tp_size + tp_rank) * N * sizeof(int));
  fill(out, N, 1000 + 100 * tp_rank);
  rc = MPI_File_write_at_all(fh, second, out, N, MPI_INT, MPI_STATUS_IGNORE);
  tp_out("write_at_all: %s", tp_err(rc));
  memset(in, 0, sizeof in);
  rc = MPI_File_read_at_all(fh, second, in, N, MPI_INT, &st);
  tp_out("read_at_all: %s %s", tp_err(rc), tp_ints(in, N));

  /* A view that interleaves the ranks element by element, after the first region. */
  MPI_Datatype ftype, resized;
  MPI_Type_vector(1, 1, tp_size, MPI_INT, &ftype);
  MPI_Type_create_resized(ftype, 0, (MPI_Aint)(tp_size * sizeof(int)), &resized);
  MPI_Type_commit(&resized);
  MPI_Offset disp = (MPI_Offset)(2 * tp_size * N * sizeof(int) + tp_rank * sizeof(int));
  rc = MPI_File_set_view(fh, disp, MPI_INT, resized, "native", MPI_INFO_NULL);
  tp_out("set_view: %s", tp_err(rc));
  fill(out, N, 10 * (tp_rank + 1));
  rc = MPI_File_write_all(fh, out, N, MPI_INT, &st);
  tp_out("write_all: %s", tp_err(rc));
  MPI_Offset pos = -1;
  MPI_File_get_position(fh, &pos);
  tp_out("position after write_all: %ld", (long)pos);
  MPI_File_seek(fh, 0, MPI_SEEK_SET);
  memset(in, 0, sizeof in);
  rc = MPI_File_read_all(fh, in, N, MPI_INT, &st);
  tp_out("read_all through view: %s %s", tp_err(rc), tp_ints(in, N));

  /* Individual file pointer, blocking and nonblocking. */
  fill(out, N, 500 + tp_rank);
  MPI_File_seek(fh, N, MPI_SEEK_SET);
  rc = MPI_File_write(fh, out, 2, MPI_INT, &st);
  tp_out("write: %s", tp_err(rc));
  MPI_Request rq[2];
  rc = MPI_File_iwrite(fh, out + 2, 2, MPI_INT, &rq[0]);
  MPI_Wait(&rq[0], &st);
  tp_out("iwrite: %s", tp_err(rc));
  rc = MPI_File_iwrite_at(fh, 2 * N, out, 1, MPI_INT, &rq[1]);
  MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
  tp_out("iwrite_at: %s", tp_err(rc));
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  MPI_File_seek(fh, N, MPI_SEEK_SET);
  memset(in, 0, sizeof in);
  rc = MPI_File_read(fh, in, 2, MPI_INT, &st);
  tp_out("read: %s %s", tp_err(rc), tp_ints(in, 2));
  rc = MPI_File_iread(fh, in + 2, 2, MPI_INT, &rq[0]);
  int flag = 0;
  while (!flag) MPI_Test(&rq[0], &flag, &st);
  tp_out("iread: %s %s", tp_err(rc), tp_ints(in, N));
  int one = -1;
  rc = MPI_File_iread_at(fh, 2 * N, &one, 1, MPI_INT, &rq[1]);
  MPI_Wait(&rq[1], &st);
  tp_out("iread_at: %s %d", tp_err(rc), one);

  MPI_Offset size = -1;
  MPI_File_get_size(fh, &size);
  tp_out("file size %ld bytes", (long)size);

  /* Errhandlers: a user-defined handler is called for a read with a negative count. */
  MPI_Errhandler eh;
  MPI_File_create_errhandler(on_file_error, &eh);
  MPI_File_set_errhandler(fh, eh);
  rc = MPI_File_read_at(fh, 0, in, -1, MPI_INT, &st);
  tp_out("read_at count -1: %s, handler calls %d class %s", tp_err(rc), file_errors,
         tp_err(file_error_class));
  MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&eh);

  rc = MPI_File_close(&fh);
  tp_out("close: %s null=%d", tp_err(rc), fh == MPI_FILE_NULL);
  MPI_Type_free(&ftype);
  MPI_Type_free(&resized);
  MPI_Barrier(MPI_COMM_WORLD);
  if (tp_rank == 0) {
    rc = MPI_File_delete(path, MPI_INFO_NULL);
    tp_out("delete: %s, still there: %d", tp_err(rc), access(path, F_OK) == 0);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* Opening a file that does not exist, without CREATE (files return errors by default). */
  MPI_File missing;
  rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &missing);
  tp_out("open missing: %s", tp_err(rc));
  if (tp_rank == 0) {
    rc = MPI_File_delete(path, MPI_INFO_NULL);
    tp_out("delete missing: %s", tp_err(rc));
  }
  return tp_finish();
}
