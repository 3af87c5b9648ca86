/*
 * errhandlers.c — error handlers of every kind: user-defined communicator, window and
 * file handlers (created, attached, called with the right error class, freed),
 * predefined handlers attached and queried, handlers inherited by duplicates, and
 * MPI_ERRORS_RETURN giving the error back. Any rank count (2 used).
 */
#include <unistd.h>

#include "tp.h"

static int comm_calls = 0, comm_class = -1;
static int win_calls = 0, win_class = -1;
static int file_calls = 0, file_class = -1;

static void on_comm(MPI_Comm* c, int* code, ...) {
  (void)c;
  ++comm_calls;
  MPI_Error_class(*code, &comm_class);
}

static void on_win(MPI_Win* w, int* code, ...) {
  (void)w;
  ++win_calls;
  MPI_Error_class(*code, &win_class);
}

static void on_file(MPI_File* f, int* code, ...) {
  (void)f;
  ++file_calls;
  MPI_Error_class(*code, &file_class);
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  MPI_Errhandler ceh, weh, feh, got;

  /* Communicator. */
  MPI_Comm d;
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  MPI_Comm_create_errhandler(on_comm, &ceh);
  MPI_Comm_set_errhandler(d, ceh);
  int v = 1;
  int rc = MPI_Send(&v, 1, MPI_INT, tp_size + 3, 0, d);
  tp_out("comm handler: send to bad rank %s, calls %d class %s", tp_err(rc), comm_calls,
         tp_err(comm_class));
  MPI_Comm inherit;
  MPI_Comm_dup(d, &inherit);
  rc = MPI_Bcast(&v, 1, MPI_INT, tp_size + 1, inherit);
  tp_out("inherited by dup: bcast bad root %s, calls %d class %s", tp_err(rc), comm_calls,
         tp_err(comm_class));
  MPI_Comm_get_errhandler(inherit, &got);
  tp_out("get_errhandler of dup is the user handler: %d", got == ceh);
  MPI_Errhandler_free(&got);
  MPI_Comm_free(&inherit);
  MPI_Errhandler_free(&ceh);
  tp_out("freed handler handle null: %d", ceh == MPI_ERRHANDLER_NULL);
  rc = MPI_Send(&v, 1, MPI_INT, tp_size + 3, 0, d); /* still attached after the free */
  tp_out("handler freed but still attached: calls %d", comm_calls);
  MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
  rc = MPI_Send(&v, -1, MPI_INT, 0, 0, d);
  tp_out("errors_return: send count -1 %s, calls %d", tp_err(rc), comm_calls);
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
  tp_out("world handler is errors_are_fatal: %d", got == MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&got);
  MPI_Comm_free(&d);

  /* Window. */
  int buf[2] = {0, 0};
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_get_errhandler(win, &got);
  tp_out("window default handler is errors_are_fatal: %d", got == MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&got);
  MPI_Win_create_errhandler(on_win, &weh);
  MPI_Win_set_errhandler(win, weh);
  rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, -7, 0, win);
  tp_out("win handler: lock rank -7 %s, calls %d class %s", tp_err(rc), win_calls, tp_err(win_class));
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&weh);
  MPI_Win_free(&win);

  /* File. */
  char path[256];
  if (tp_rank == 0) snprintf(path, sizeof path, "/tmp/mpidbg-tp-errh-%ld.dat", (long)getpid());
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_File fh;
  rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                     MPI_INFO_NULL, &fh);
  tp_out("file open: %s", tp_err(rc));
  MPI_File_get_errhandler(fh, &got);
  tp_out("file default handler is errors_return: %d", got == MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&got);
  MPI_File_create_errhandler(on_file, &feh);
  MPI_File_set_errhandler(fh, feh);
  int in[2];
  rc = MPI_File_read_at(fh, 0, in, 2, MPI_INT, MPI_STATUS_IGNORE); /* write-only file */
  tp_out("file handler: read of a write-only file %s, calls %d class %s", tp_err(rc), file_calls,
         tp_err(file_class));
  MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&feh);
  MPI_File_close(&fh);
  /* The default handler for files not yet opened. */
  MPI_File_get_errhandler(MPI_FILE_NULL, &got);
  tp_out("MPI_FILE_NULL handler is errors_return: %d", got == MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&got);
  return tp_finish();
}
