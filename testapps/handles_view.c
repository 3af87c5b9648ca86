/* handles_view — a zoo of MPI handles with known contents, for `mpidbg handle`.
 * Run with 4 ranks.
 *
 * Every rank creates: a dup of MPI_COMM_WORLD named "dup_world" (with a user error
 * handler), a split named "halves" (colour rank % 2, key -rank: the group order is
 * reversed), a 2x2 cartesian communicator "grid" (periods 1,0), derived datatypes
 * (vector, struct of the vector and doubles, subarray, resized, contiguous of the
 * resized), a non-commutative user op, an info with two keys, a window "halo_win", a
 * group of world ranks {3, 1}, a status of a self send-receive, a message matched by
 * MPI_Mprobe and not received, a file opened on MPI_COMM_SELF with a view, and a
 * communicator "scratch" freed by the application whose handle value is kept. Each
 * handle is printed as
 *     rank R handle KIND NAME 0xVALUE
 * (VALUE widened as the runtime widens it: integer handles zero-extended), then the
 * rank prints "rank R ready" and blocks in MPI_Wait on an MPI_Irecv (tag 4242, 10
 * MPI_INT from the right neighbour on dup_world) that nobody matches. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_common.h"

/* Globals, so a debugger reads them by symbol (`mpidbg handle --expr NAME`). */
MPI_Comm dup_world = MPI_COMM_NULL;
MPI_Comm halves = MPI_COMM_NULL;
MPI_Comm grid = MPI_COMM_NULL;
MPI_Comm freed_comm = MPI_COMM_NULL;
MPI_Fint dup_world_f = 0;
MPI_Datatype pair_type = MPI_DATATYPE_NULL;
MPI_Datatype all_types[5]; /* vector, struct, subarray, resized, contiguous of resized */
MPI_Op user_op = MPI_OP_NULL;
MPI_Errhandler user_errh = MPI_ERRHANDLER_NULL;
MPI_Info info = MPI_INFO_NULL;
MPI_Win win = MPI_WIN_NULL;
MPI_Group world_group = MPI_GROUP_NULL;
MPI_Group pair_group = MPI_GROUP_NULL;
MPI_Request pending_recv = MPI_REQUEST_NULL;
MPI_Request self_send = MPI_REQUEST_NULL;
MPI_Message probed = MPI_MESSAGE_NULL;
MPI_Status self_status;
MPI_File file = MPI_FILE_NULL;

static int win_memory[64];
static int recv_buf[10];

static void show(int rank, const char* kind, const char* name, const void* handle, size_t size) {
  unsigned long long v = 0;
  if (size == 4) {
    uint32_t u;
    memcpy(&u, handle, 4);
    v = u;
  } else {
    uint64_t u;
    memcpy(&u, handle, 8);
    v = u;
  }
  printf("rank %d handle %s %s 0x%llx\n", rank, kind, name, v);
}
#define SHOW(kind, name, h) show(rank, kind, name, &(h), sizeof(h))

static void noncommutative_max(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) {
    if (((int*)in)[i] > ((int*)inout)[i]) ((int*)inout)[i] = ((int*)in)[i];
  }
}

static void ignore_errors(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  (void)code;
}

static void make_datatypes(int rank) {
  MPI_Datatype vec, str, sub, resized, row3;
  MPI_Type_vector(3, 2, 5, MPI_INT, &vec);
  MPI_Type_set_name(vec, "vec3x2s5");
  int blocklengths[2] = {1, 2};
  MPI_Aint displacements[2] = {0, 64};
  MPI_Datatype types[2] = {vec, MPI_DOUBLE};
  MPI_Type_create_struct(2, blocklengths, displacements, types, &str);
  MPI_Type_set_name(str, "vec_and_doubles");
  int sizes[2] = {4, 5}, subsizes[2] = {2, 3}, starts[2] = {1, 1};
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &sub);
  MPI_Type_contiguous(2, MPI_INT, &pair_type);
  MPI_Type_create_resized(pair_type, -4, 16, &resized);
  MPI_Type_contiguous(3, resized, &row3);
  MPI_Datatype made[5] = {vec, str, sub, resized, row3};
  for (int i = 0; i < 5; ++i) {
    MPI_Type_commit(&made[i]);
    all_types[i] = made[i];
  }
  SHOW("datatype", "vector", all_types[0]);
  SHOW("datatype", "struct", all_types[1]);
  SHOW("datatype", "subarray", all_types[2]);
  SHOW("datatype", "resized", all_types[3]);
  SHOW("datatype", "contiguous_of_resized", all_types[4]);
  SHOW("datatype", "pair", pair_type);
}

static void make_file(int rank) {
  const char* dir = getenv("MPIDBG_ITEST_JOB"); /* the test's scratch directory */
  char path[512];
  snprintf(path, sizeof path, "%s/handles_view.%d.dat", dir != NULL ? dir : "/tmp", rank);
  if (MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &file) !=
          MPI_SUCCESS ||
      MPI_File_set_view(file, 0, MPI_INT, all_types[0], "native", MPI_INFO_NULL) != MPI_SUCCESS) {
    printf("rank %d file unavailable\n", rank);
    return;
  }
  SHOW("file", path, file);
  printf("rank %d amode %d\n", rank, MPI_MODE_CREATE | MPI_MODE_RDWR);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  scenario_require_size(4);
  size = 4;

  MPI_Comm_dup(MPI_COMM_WORLD, &dup_world);
  MPI_Comm_set_name(dup_world, "dup_world");
  dup_world_f = MPI_Comm_c2f(dup_world);
  MPI_Comm_create_errhandler(ignore_errors, &user_errh);
  MPI_Comm_set_errhandler(dup_world, user_errh);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &halves);
  MPI_Comm_set_name(halves, "halves");
  int dims[2] = {2, 2}, periods[2] = {1, 0};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Comm_set_name(grid, "grid");
  SHOW("comm", "dup_world", dup_world);
  SHOW("comm", "halves", halves);
  SHOW("comm", "grid", grid);
  MPI_Comm world = MPI_COMM_WORLD;
  SHOW("comm", "world", world);
  printf("rank %d fortran dup_world %d\n", rank, (int)dup_world_f);
  SHOW("errhandler", "user_errh", user_errh);

  make_datatypes(rank);

  MPI_Op_create(noncommutative_max, 0, &user_op);
  SHOW("op", "user_op", user_op);
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpidbg_colour", "blue");
  MPI_Info_set(info, "access_style", "read_once");
  SHOW("info", "info", info);

  MPI_Win_create(win_memory, (MPI_Aint)sizeof win_memory, (int)sizeof(int), MPI_INFO_NULL,
                 MPI_COMM_WORLD, &win);
  MPI_Win_set_name(win, "halo_win");
  SHOW("win", "halo_win", win);
  printf("rank %d win_base 0x%llx\n", rank, (unsigned long long)(uintptr_t)win_memory);

  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int members[2] = {3, 1};
  MPI_Group_incl(world_group, 2, members, &pair_group);
  SHOW("group", "world_group", world_group);
  SHOW("group", "pair_group", pair_group);

  int out3[3] = {1, 2, 3}, in3[3];
  MPI_Sendrecv(out3, 3, MPI_INT, 0, 7, in3, 3, MPI_INT, 0, 7, MPI_COMM_SELF, &self_status);
  printf("rank %d handle status self_status 0x%llx\n", rank,
         (unsigned long long)(uintptr_t)&self_status);

  /* A message to ourselves, matched by MPI_Mprobe and left unreceived. */
  MPI_Isend(out3, 3, MPI_INT, rank, 99, dup_world, &self_send);
  MPI_Status probe_status;
  MPI_Mprobe(rank, 99, dup_world, &probed, &probe_status);
  SHOW("message", "probed", probed);

  make_file(rank);

  MPI_Irecv(recv_buf, 10, MPI_INT, (rank + 1) % size, 4242, dup_world, &pending_recv);
  SHOW("request", "pending_recv", pending_recv);

  /* Last, so no later creation reuses the freed handle's value. */
  MPI_Comm scratch;
  MPI_Comm_dup(MPI_COMM_WORLD, &scratch);
  MPI_Comm_set_name(scratch, "scratch");
  freed_comm = scratch;
  MPI_Comm_free(&scratch);
  SHOW("comm", "freed", freed_comm);

  scenario_ready(rank);
  MPI_Wait(&pending_recv, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
