/*
 * dynamic.c — dynamic processes: a port opened by rank 0, accepted by rank 0 and
 * connected to by rank 1 (each over MPI_COMM_SELF, inside the one job); the name service
 * (publish, lookup, unpublish: whatever MPI answers without a name server, the same
 * with and without the runtime); MPI_Comm_join over a TCP connection between the two
 * ranks; MPI_Comm_spawn and MPI_Comm_spawn_multiple of this program as a child, which
 * finds its parent, answers and disconnects. Run with 2 ranks. Children print nothing.
 * An MPI without dynamic processes (MPICH 4.0 over UCX: MPI_Open_port fails) prints
 * the error class and does the rest of nothing.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tp.h"

/* One message over `inter` from its other side, printed. */
static void exchange(MPI_Comm inter, const char* what, int send_first) {
  int out = 100 + tp_rank, in = -1;
  if (send_first) {
    MPI_Send(&out, 1, MPI_INT, 0, 0, inter);
    MPI_Recv(&in, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&in, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
    MPI_Send(&out, 1, MPI_INT, 0, 0, inter);
  }
  int rsize = -1;
  MPI_Comm_remote_size(inter, &rsize);
  tp_out("%s: remote size %d got %d", what, rsize, in);
}

/* Whether this MPI opens ports (rank 0 tries, every rank learns the answer). */
static int have_ports(void) {
  int rc = MPI_SUCCESS;
  if (tp_rank == 0) {
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    rc = MPI_Open_port(MPI_INFO_NULL, port);
    if (rc == MPI_SUCCESS) MPI_Close_port(port);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    tp_out("open_port: %s", tp_err(rc));
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return rc == MPI_SUCCESS;
}

static void accept_connect(void) {
  char port[MPI_MAX_PORT_NAME] = "";
  if (tp_rank == 0) MPI_Open_port(MPI_INFO_NULL, port);
  MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Comm inter;
  if (tp_rank == 0) {
    MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
    exchange(inter, "accept", 0);
  } else {
    MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
    exchange(inter, "connect", 1);
  }
  MPI_Comm_disconnect(&inter);
  if (tp_rank == 0) MPI_Close_port(port);
}

static void names(void) {
  /* Errors of calls without an object go to MPI_COMM_SELF's handler (MPI-4) or
   * MPI_COMM_WORLD's (MPI-3): both return them. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  if (tp_rank == 0) {
    char port[MPI_MAX_PORT_NAME] = "", found[MPI_MAX_PORT_NAME] = "";
    MPI_Open_port(MPI_INFO_NULL, port);
    int rc = MPI_Publish_name("mpidbg-tp-service", MPI_INFO_NULL, port);
    tp_out("publish_name: %s", tp_err(rc));
    int lrc = MPI_Lookup_name("mpidbg-tp-service", MPI_INFO_NULL, found);
    tp_out("lookup_name: %s same %d", tp_err(lrc), lrc == MPI_SUCCESS && strcmp(port, found) == 0);
    if (rc == MPI_SUCCESS)
      tp_out("unpublish_name: %s", tp_err(MPI_Unpublish_name("mpidbg-tp-service", MPI_INFO_NULL, port)));
    MPI_Close_port(port);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

/* A TCP connection between the two ranks on the loopback interface. */
static int connected_socket(void) {
  int fd = -1;
  int port = 0;
  if (tp_rank == 0) {
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(listener, (struct sockaddr*)&a, sizeof a);
    listen(listener, 1);
    socklen_t len = sizeof a;
    getsockname(listener, (struct sockaddr*)&a, &len);
    port = ntohs(a.sin_port);
    MPI_Send(&port, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    fd = accept(listener, NULL, NULL);
    close(listener);
  } else {
    MPI_Recv(&port, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((uint16_t)port);
    connect(fd, (struct sockaddr*)&a, sizeof a);
  }
  return fd;
}

static void join(void) {
  int fd = connected_socket();
  MPI_Comm inter;
  MPI_Comm_join(fd, &inter);
  exchange(inter, "join", tp_rank == 1);
  MPI_Comm_disconnect(&inter);
  close(fd);
}

static void spawn(const char* self) {
  char* child_argv[] = {"child", NULL};
  MPI_Comm inter;
  int errcode = -1;
  MPI_Comm_spawn(self, child_argv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, &errcode);
  if (tp_rank == 0) exchange(inter, "spawn", 1);
  MPI_Comm_disconnect(&inter);

  char* commands[1] = {(char*)self};
  char** argvs[1] = {child_argv};
  int maxprocs[1] = {1};
  MPI_Info infos[1] = {MPI_INFO_NULL};
  MPI_Comm_spawn_multiple(1, commands, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, &inter, &errcode);
  if (tp_rank == 0) exchange(inter, "spawn_multiple", 1);
  MPI_Comm_disconnect(&inter);
}

/* The spawned side: answer rank 0 of the parent job, then leave. */
static int child(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  int in = -1, out = 0;
  MPI_Recv(&in, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
  out = in + 1000;
  MPI_Send(&out, 1, MPI_INT, 0, 0, parent);
  MPI_Comm_disconnect(&parent);
  MPI_Finalize();
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) return child(argc, argv);
  tp_init(&argc, &argv, -1);
  if (have_ports()) {
    accept_connect();
    names();
    join();
    spawn(argv[0]);
  }
  return tp_finish();
}
