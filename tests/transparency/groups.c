/*
 * groups.c — groups from communicators (local and remote), every group constructor,
 * the set operations, and the queries that show what a group holds. Run with 4 ranks.
 */
#include "tp.h"

/* Size, this process's rank and the world rank of every member. */
static void show(const char* what, MPI_Group g) {
  if (g == MPI_GROUP_EMPTY) {
    tp_out("%s: MPI_GROUP_EMPTY", what);
  }
  int size = -1, rank = -1;
  MPI_Group_size(g, &size);
  MPI_Group_rank(g, &rank);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int in[64], out[64];
  for (int i = 0; i < size && i < 64; ++i) in[i] = i;
  if (size > 0) MPI_Group_translate_ranks(g, size, in, world, out);
  int cmp = -1;
  MPI_Group_compare(g, world, &cmp);
  const char* cmp_name = cmp == MPI_IDENT ? "ident" : cmp == MPI_SIMILAR ? "similar" : "unequal";
  char rank_text[16];
  if (rank == MPI_UNDEFINED) {
    snprintf(rank_text, sizeof rank_text, "undefined");
  } else {
    snprintf(rank_text, sizeof rank_text, "%d", rank);
  }
  tp_out("%s: size %d rank %s world ranks [%s] vs world %s", what, size, rank_text,
         size > 0 ? tp_ints(out, size) : "", cmp_name);
  MPI_Group_free(&world);
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  MPI_Group world, g;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  show("comm_group world", world);

  int n = tp_size;
  int pick[3] = {n - 1, 0, n / 2};
  MPI_Group_incl(world, 3, pick, &g);
  show("incl last,0,middle", g);
  MPI_Group incl = g;

  int drop[1] = {1};
  MPI_Group excl;
  MPI_Group_excl(world, 1, drop, &excl);
  show("excl 1", excl);

  int ranges[2][3] = {{0, n - 1, 2}, {n - 1, n - 1, 1}};
  MPI_Group rincl, rexcl;
  MPI_Group_range_incl(world, 2, ranges, &rincl);
  show("range_incl evens + last", rincl);
  int xr[1][3] = {{n - 1, 0, -2}};
  MPI_Group_range_excl(world, 1, xr, &rexcl);
  show("range_excl descending stride 2", rexcl);

  MPI_Group u, i, d, d2, e;
  MPI_Group_union(incl, excl, &u);
  show("union incl excl", u);
  MPI_Group_intersection(incl, excl, &i);
  show("intersection incl excl", i);
  MPI_Group_difference(world, incl, &d);
  show("difference world incl", d);
  MPI_Group_difference(incl, world, &d2);
  show("difference incl world (empty)", d2);
  int empty_is_empty = d2 == MPI_GROUP_EMPTY;
  tp_out("empty difference is MPI_GROUP_EMPTY: %d", empty_is_empty);
  MPI_Group_incl(world, 0, NULL, &e);
  show("incl nothing", e);

  int cmp = -1;
  MPI_Group_compare(incl, incl, &cmp);
  tp_out("compare incl incl: %d", cmp == MPI_IDENT);
  MPI_Group_compare(u, world, &cmp);
  tp_out("compare union world: %s", cmp == MPI_IDENT ? "ident" : cmp == MPI_SIMILAR ? "similar" : "unequal");

  /* Remote group of an intercommunicator between the low and high halves. */
  MPI_Comm half, ic;
  int low = tp_rank < n / 2;
  MPI_Comm_split(MPI_COMM_WORLD, low, tp_rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? n / 2 : 0, 3, &ic);
  MPI_Group local, remote;
  MPI_Comm_group(ic, &local);
  MPI_Comm_remote_group(ic, &remote);
  show("intercomm local group", local);
  show("intercomm remote group", remote);
  MPI_Group_free(&local);
  MPI_Group_free(&remote);
  MPI_Comm_free(&ic);
  MPI_Comm_free(&half);

  /* A communicator made from a group, and its group back. */
  MPI_Comm from;
  MPI_Comm_create(MPI_COMM_WORLD, rincl, &from);
  if (from != MPI_COMM_NULL) {
    MPI_Group back;
    MPI_Comm_group(from, &back);
    MPI_Group_compare(back, rincl, &cmp);
    tp_out("group of comm from range_incl is ident: %d", cmp == MPI_IDENT);
    MPI_Group_free(&back);
    MPI_Comm_free(&from);
  }

  MPI_Group* all[] = {&incl, &excl, &rincl, &rexcl, &u, &i, &d, &d2, &e, &world};
  int nulls = 0;
  for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) {
    MPI_Group_free(all[k]);
    nulls += *all[k] == MPI_GROUP_NULL;
  }
  tp_out("freed %d groups, %d now MPI_GROUP_NULL", (int)(sizeof all / sizeof all[0]), nulls);
  return tp_finish();
}
