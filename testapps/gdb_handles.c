/* gdb_handles — one live handle of every common kind, held in globals, for the gdb
 * extension's pretty printers and commands. Run with 4 ranks.
 *
 * Every rank creates: a split of MPI_COMM_WORLD named "odds" or "evens", a dup named
 * "dup_of_world", a communicator copy whose original was freed, a committed vector
 * datatype, a group, a user op, a communicator error handler, an info with two keys, a
 * window named "gdb_win", a status filled by a self send-receive, an Issend of 10 ints
 * to the right neighbour with tag 200 and an Irecv from the right neighbour with tag 300
 * on the dup (nobody sends or receives those tags: both stay pending). Two more threads
 * (MPI_THREAD_MULTIPLE) pause the runtime's recording (mpidbg_pause_recording, looked
 * up by name: without the runtime it is not there): one sleeps outside MPI; the other
 * posted an Irecv of tag 400 on MPI_COMM_SELF that nothing matches before its pause, and
 * waits for it with MPI_Wait: a call the runtime records despite the pause, since it
 * collects a request posted before it. Then the main thread prints "rank N ready" and
 * sleeps outside MPI until killed. */
#include <dlfcn.h>
#include <pthread.h>

#include "scenario_common.h"

/* Globals: a debugger finds them whatever frame the process stopped in. */
MPI_Comm split_comm = MPI_COMM_NULL;
MPI_Comm dup_comm = MPI_COMM_NULL;
MPI_Comm freed_comm_copy = MPI_COMM_NULL;
MPI_Datatype vector_type = MPI_DATATYPE_NULL;
MPI_Group split_group = MPI_GROUP_NULL;
MPI_Op sum_op = MPI_OP_NULL;
MPI_Errhandler comm_errhandler = MPI_ERRHANDLER_NULL;
MPI_Info win_info = MPI_INFO_NULL;
MPI_Win window = MPI_WIN_NULL;
MPI_Status self_status;
MPI_Request pending_send = MPI_REQUEST_NULL;
MPI_Request pending_recv = MPI_REQUEST_NULL;
MPI_Comm world_comm = MPI_COMM_NULL;

static int send_buf[10];
static int recv_buf[10];
static int window_memory[64];

static void int_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) ((int*)inout)[i] += ((int*)in)[i];
}

static int paused_threads_ready;
static int drained_buf;
MPI_Request drained_recv = MPI_REQUEST_NULL;

static void pause_recording(void) {
  int (*pause)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "mpidbg_pause_recording");
  if (pause != NULL) pause();
}

static void* paused_thread(void* arg) {
  (void)arg;
  pause_recording();
  __atomic_add_fetch(&paused_threads_ready, 1, __ATOMIC_RELEASE);
  for (;;) sleep(1);
  return NULL;
}

static void* paused_waiting_thread(void* arg) {
  (void)arg;
  MPI_Irecv(&drained_buf, 1, MPI_INT, 0, 400, MPI_COMM_SELF, &drained_recv);
  pause_recording();
  __atomic_add_fetch(&paused_threads_ready, 1, __ATOMIC_RELEASE);
  MPI_Wait(&drained_recv, MPI_STATUS_IGNORE);  /* never returns: nothing sends tag 400 */
  return NULL;
}

static void on_error(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  (void)code;
}

int main(int argc, char** argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "gdb_handles needs MPI_THREAD_MULTIPLE\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  world_comm = MPI_COMM_WORLD;

  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &split_comm);
  MPI_Comm_set_name(split_comm, rank % 2 ? "odds" : "evens");
  MPI_Comm_dup(MPI_COMM_WORLD, &dup_comm);
  MPI_Comm_set_name(dup_comm, "dup_of_world");

  /* A stale copy: the handle it holds was freed by the application. */
  MPI_Comm scratch;
  MPI_Comm_dup(MPI_COMM_WORLD, &scratch);
  MPI_Comm_set_name(scratch, "scratch");
  freed_comm_copy = scratch;
  MPI_Comm_free(&scratch);

  MPI_Type_vector(3, 2, 4, MPI_INT, &vector_type);
  MPI_Type_set_name(vector_type, "three_pairs");
  MPI_Type_commit(&vector_type);
  MPI_Comm_group(split_comm, &split_group);
  MPI_Op_create(int_sum, 1, &sum_op);
  MPI_Comm_create_errhandler(on_error, &comm_errhandler);

  MPI_Info_create(&win_info);
  MPI_Info_set(win_info, "gdb_key", "gdb_value");
  MPI_Info_set(win_info, "no_locks", "true");
  MPI_Win_create(window_memory, (MPI_Aint)sizeof window_memory, (int)sizeof(int), win_info,
                 MPI_COMM_WORLD, &window);
  MPI_Win_set_name(window, "gdb_win");

  int self_out[5] = {1, 2, 3, 4, 5}, self_in[5];
  MPI_Sendrecv(self_out, 5, MPI_INT, 0, 7, self_in, 5, MPI_INT, 0, 7, MPI_COMM_SELF,
               &self_status);

  MPI_Issend(send_buf, 10, MPI_INT, (rank + 1) % size, 200, MPI_COMM_WORLD, &pending_send);
  MPI_Irecv(recv_buf, 10, MPI_INT, (rank + 1) % size, 300, dup_comm, &pending_recv);

  /* One after the other, so their order in the thread table is fixed. */
  pthread_t paused, waiting;
  if (pthread_create(&paused, NULL, paused_thread, NULL) == 0) {
    while (__atomic_load_n(&paused_threads_ready, __ATOMIC_ACQUIRE) < 1) usleep(1000);
  }
  if (pthread_create(&waiting, NULL, paused_waiting_thread, NULL) == 0) {
    while (__atomic_load_n(&paused_threads_ready, __ATOMIC_ACQUIRE) < 2) usleep(1000);
  }

  scenario_ready(rank);
  scenario_spin_outside_mpi();
  MPI_Finalize();
  return 0;
}
