/*
 * info.c — info objects: create, set (new and replaced keys), get, nkeys/nthkey, dup,
 * delete, free, and info given to communicators. Any rank count (2 used).
 */
#include "tp.h"

static void show(const char* what, MPI_Info info) {
  int n = -1;
  MPI_Info_get_nkeys(info, &n);
  tp_out("%s: %d keys", what, n);
  for (int i = 0; i < n; ++i) {
    char key[MPI_MAX_INFO_KEY + 1], value[256];
    int len = -1, flag = 0;
    MPI_Info_get_nthkey(info, i, key);
    MPI_Info_get_valuelen(info, key, &len, &flag);
    MPI_Info_get(info, key, sizeof value - 1, value, &flag);
    tp_out("  %s = '%s' (len %d, flag %d)", key, value, len, flag);
  }
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  MPI_Info a, b;
  MPI_Info_create(&a);
  show("empty", a);
  MPI_Info_set(a, "zeta", "1");
  MPI_Info_set(a, "alpha", "two words");
  MPI_Info_set(a, "middle", "3");
  show("three keys", a);
  MPI_Info_set(a, "alpha", "replaced");
  show("alpha replaced", a);

  MPI_Info_dup(a, &b);
  MPI_Info_delete(b, "middle");
  show("dup minus middle", b);
  show("original unchanged", a);

  char value[16];
  int flag = -1;
  MPI_Info_get(a, "absent", sizeof value - 1, value, &flag);
  tp_out("get absent key: flag=%d", flag);

  /* A long value and an empty-looking one. */
  char longv[200];
  memset(longv, 'v', sizeof longv - 1);
  longv[sizeof longv - 1] = '\0';
  MPI_Info_set(b, "long", longv);
  int len = -1;
  MPI_Info_get_valuelen(b, "long", &len, &flag);
  tp_out("long value length %d flag %d", len, flag);

  /* Info handed to a communicator: the implementation keeps what it understands. */
  MPI_Comm c;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, a, &c);
  MPI_Info used;
  MPI_Comm_get_info(c, &used);
  int n = -1;
  MPI_Info_get_nkeys(used, &n);
  tp_out("comm_get_info after dup_with_info: %d keys", n);
  MPI_Info_free(&used);
  MPI_Comm_free(&c);

  MPI_Info_free(&a);
  MPI_Info_free(&b);
  tp_out("freed: null=%d", a == MPI_INFO_NULL && b == MPI_INFO_NULL);

  /* The environment info object exists; its contents are the launcher's business. */
  MPI_Info_get_nkeys(MPI_INFO_ENV, &n);
  tp_out("MPI_INFO_ENV has keys: %d", n >= 0);
  return tp_finish();
}
