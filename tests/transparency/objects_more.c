/*
 * objects_more.c — the object calls the other programs leave out: attribute keyvals of
 * communicators, datatypes and windows (and the MPI-1 attribute calls), the info and
 * errhandler objects a communicator or window hands out, window hints, added error
 * classes, codes and strings, memory from MPI_Alloc_mem, the buffered-send buffer,
 * MPI_Type_match_size, MPI_Comm_get_parent of a job nobody spawned, and the MPI-1
 * constructors MPICH still exports. Run with 2 ranks.
 */
#include "tp.h"

/* The MPI-1 attribute calls are deprecated: using them is the point. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int deletes = 0;

static int count_delete(MPI_Comm comm, int keyval, void* value, void* state) {
  (void)comm, (void)keyval, (void)value, (void)state;
  ++deletes;
  return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype type, int keyval, void* value, void* state) {
  (void)type, (void)keyval, (void)value, (void)state;
  ++deletes;
  return MPI_SUCCESS;
}

static int win_delete(MPI_Win win, int keyval, void* value, void* state) {
  (void)win, (void)keyval, (void)value, (void)state;
  ++deletes;
  return MPI_SUCCESS;
}

static void keyvals(void) {
  int value = 7, *got = NULL, flag = 0;
  int ck;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &ck, NULL);
  MPI_Comm_set_attr(MPI_COMM_WORLD, ck, &value);
  MPI_Comm_delete_attr(MPI_COMM_WORLD, ck);
  MPI_Comm_free_keyval(&ck);
  tp_out("comm keyval freed: %d, deletes %d", ck == MPI_KEYVAL_INVALID, deletes);

  int k1;
  MPI_Keyval_create(MPI_NULL_COPY_FN, count_delete, &k1, NULL);
  MPI_Attr_put(MPI_COMM_WORLD, k1, &value);
  MPI_Attr_get(MPI_COMM_WORLD, k1, &got, &flag);
  tp_out("attr_put/get: flag %d value %d", flag, flag ? *got : -1);
  MPI_Attr_delete(MPI_COMM_WORLD, k1);
  MPI_Keyval_free(&k1);
  tp_out("mpi-1 keyval freed: %d, deletes %d", k1 == MPI_KEYVAL_INVALID, deletes);

  int tk;
  MPI_Datatype t;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_delete, &tk, NULL);
  MPI_Type_set_attr(t, tk, &value);
  MPI_Type_get_attr(t, tk, &got, &flag);
  tp_out("type attr: flag %d value %d", flag, flag ? *got : -1);
  MPI_Type_delete_attr(t, tk);
  MPI_Type_free_keyval(&tk);
  MPI_Type_free(&t);
  tp_out("type keyval freed: %d, deletes %d", tk == MPI_KEYVAL_INVALID, deletes);

  int wk;
  MPI_Win win;
  int base[4] = {0};
  MPI_Win_create(base, sizeof base, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &wk, NULL);
  MPI_Win_set_attr(win, wk, &value);
  MPI_Win_get_attr(win, wk, &got, &flag);
  tp_out("win attr: flag %d value %d", flag, flag ? *got : -1);
  MPI_Win_delete_attr(win, wk);
  MPI_Win_free_keyval(&wk);
  tp_out("win keyval freed: %d, deletes %d", wk == MPI_KEYVAL_INVALID, deletes);

  MPI_Info hints, used;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "no_locks", "true");
  tp_out("win set_info: %s", tp_err(MPI_Win_set_info(win, hints)));
  MPI_Info_free(&hints);
  tp_out("win get_info: %s", tp_err(MPI_Win_get_info(win, &used)));
  MPI_Info_free(&used);
  MPI_Errhandler eh;
  MPI_Win_get_errhandler(win, &eh);
  tp_out("win errhandler fatal: %d", eh == MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&eh);
  MPI_Win_free(&win);
}

static void handed_out(void) {
  MPI_Info used;
  tp_out("comm get_info: %s", tp_err(MPI_Comm_get_info(MPI_COMM_WORLD, &used)));
  MPI_Info_free(&used);
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
  tp_out("comm errhandler fatal: %d", eh == MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&eh);
  MPI_Datatype matched;
  int rc = MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &matched);
  int size = -1;
  if (rc == MPI_SUCCESS) MPI_Type_size(matched, &size);
  tp_out("type_match_size: %s size %d", tp_err(rc), size);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  tp_out("get_parent null: %d", parent == MPI_COMM_NULL);
}

static void errors_memory_buffers(void) {
  int cls = -1, code = -1;
  MPI_Add_error_class(&cls);
  MPI_Add_error_code(cls, &code);
  MPI_Add_error_string(code, "mpidbg transparency error");
  char text[MPI_MAX_ERROR_STRING];
  int len = 0, back = -1;
  MPI_Error_string(code, text, &len);
  MPI_Error_class(code, &back);
  tp_out("added error: class matches %d, string %s", back == cls, text);

  int* mem = NULL;
  int rc = MPI_Alloc_mem((MPI_Aint)(16 * sizeof(int)), MPI_INFO_NULL, &mem);
  tp_out("alloc_mem: %s", tp_err(rc));
  if (rc == MPI_SUCCESS) {
    for (int i = 0; i < 16; ++i) mem[i] = i;
    tp_out("free_mem: %s", tp_err(MPI_Free_mem(mem)));
  }

  int bsize = MPI_BSEND_OVERHEAD + 64;
  char* buffer = malloc((size_t)bsize);
  MPI_Buffer_attach(buffer, bsize);
  int peer = 1 - tp_rank, out[4] = {tp_rank, 1, 2, 3}, in[4] = {0};
  MPI_Bsend(out, 4, MPI_INT, peer, 5, MPI_COMM_WORLD);
  MPI_Recv(in, 4, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  void* detached = NULL;
  int dsize = 0;
  MPI_Buffer_detach(&detached, &dsize);
  tp_out("buffer: detached same %d size %d, got %s", detached == buffer, dsize == bsize,
         tp_ints(in, 4));
  free(buffer);
}

#if defined(MPICH_VERSION)
static void on_comm_error(MPI_Comm* comm, int* code, ...) {
  (void)comm, (void)code;
}

/* MPI-1 constructors and errhandler calls, removed from the standard in MPI-3. */
static void mpi1_calls(void) {
  int lengths[2] = {1, 2};
  MPI_Aint displs[2] = {0, 8};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT}, t;
  int size = -1;
  MPI_Type_hvector(2, 1, 8, MPI_INT, &t);
  MPI_Type_size(t, &size);
  tp_out("type_hvector size %d", size);
  MPI_Type_free(&t);
  MPI_Type_hindexed(2, lengths, displs, MPI_INT, &t);
  MPI_Type_size(t, &size);
  tp_out("type_hindexed size %d", size);
  MPI_Type_free(&t);
  MPI_Type_struct(2, lengths, displs, types, &t);
  MPI_Type_size(t, &size);
  tp_out("type_struct size %d", size);
  MPI_Type_free(&t);
  MPI_Errhandler eh, got;
  MPI_Errhandler_create(on_comm_error, &eh);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Errhandler_set(dup, eh);
  MPI_Errhandler_get(dup, &got);
  tp_out("errhandler_get same: %d", got == eh);
  MPI_Errhandler_free(&got);
  MPI_Errhandler_free(&eh);
  MPI_Comm_free(&dup);
}
#endif

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  keyvals();
  handed_out();
  errors_memory_buffers();
#if defined(MPICH_VERSION)
  mpi1_calls();
#endif
  return tp_finish();
}
