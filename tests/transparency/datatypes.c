/*
 * datatypes.c — every datatype constructor: what MPI says about the type (size, extent,
 * true extent, envelope), the bytes MPI_Pack takes through it, and a message sent
 * through it from rank 0 and received both as plain ints and through the same type.
 * Names, dup, resized, the Fortran-90 parameterised types. Run with 2 ranks.
 */
#include <stddef.h>

#include "tp.h"

enum { SRC = 64 };

static int src[SRC];

static void describe(const char* what, MPI_Datatype t) {
  int size = -1;
  MPI_Aint lb = -1, extent = -1, tlb = -1, textent = -1;
  MPI_Type_size(t, &size);
  MPI_Type_get_extent(t, &lb, &extent);
  MPI_Type_get_true_extent(t, &tlb, &textent);
  int ni = -1, na = -1, nd = -1, combiner = -1;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
  tp_out("%s: size %d lb %ld extent %ld true_lb %ld true_extent %ld envelope %d/%d/%d combiner %d",
         what, size, (long)lb, (long)extent, (long)tlb, (long)textent, ni, na, nd, combiner);
}

/* Packs one element of t taken from src, sends it, receives it as ints and as t. */
static void exercise(const char* what, MPI_Datatype t, int ints_in_type) {
  describe(what, t);
  char packed[1024];
  int pos = 0;
  MPI_Pack(src, 1, t, packed, sizeof packed, &pos, MPI_COMM_WORLD);
  int psize = -1;
  MPI_Pack_size(1, t, MPI_COMM_WORLD, &psize);
  tp_out("  packed %d bytes (pack_size %d)", pos, psize);
  if (ints_in_type > 0) {
    int unpacked[SRC];
    for (int i = 0; i < SRC; ++i) unpacked[i] = -1;
    int upos = 0;
    MPI_Unpack(packed, pos, &upos, unpacked, 1, t, MPI_COMM_WORLD);
    tp_out("  unpacked into layout: %s", tp_ints(unpacked, SRC / 2));
  }
  if (tp_rank == 0) {
    MPI_Send(src, 1, t, 1, 1, MPI_COMM_WORLD);
    MPI_Send(src, 1, t, 1, 2, MPI_COMM_WORLD);
  } else if (tp_rank == 1) {
    MPI_Status st;
    if (ints_in_type > 0) {
      int flat[SRC];
      MPI_Recv(flat, SRC, MPI_INT, 0, 1, MPI_COMM_WORLD, &st);
      int count = -1;
      MPI_Get_count(&st, MPI_INT, &count);
      tp_out("  received as ints: %s", tp_ints(flat, count));
    } else {
      char bytes[1024];
      MPI_Recv(bytes, sizeof bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &st);
      int count = -1;
      MPI_Get_count(&st, MPI_BYTE, &count);
      unsigned sum = 0;
      for (int i = 0; i < count; ++i) sum = sum * 31u + (unsigned char)bytes[i];
      tp_out("  received %d bytes, checksum %u", count, sum);
    }
    int layout[SRC];
    for (int i = 0; i < SRC; ++i) layout[i] = -1;
    MPI_Recv(layout, 1, t, 0, 2, MPI_COMM_WORLD, &st);
    int count = -1, elements = -1;
    MPI_Get_count(&st, t, &count);
    MPI_Get_elements(&st, t, &elements);
    tp_out("  received through type: count %d elements %d layout %s", count, elements,
           ints_in_type > 0 ? tp_ints(layout, SRC / 2) : "(mixed)");
  }
}

int main(int argc, char** argv) {
  tp_init(&argc, &argv, -1);
  for (int i = 0; i < SRC; ++i) src[i] = i;

  MPI_Datatype contig, vector, hvector, indexed, hindexed, iblock, hiblock, strct, sub, darr,
      resized, dup;
  MPI_Type_contiguous(3, MPI_INT, &contig);
  MPI_Type_commit(&contig);
  exercise("contiguous 3", contig, 3);

  MPI_Type_vector(3, 2, 4, MPI_INT, &vector);
  MPI_Type_commit(&vector);
  exercise("vector 3x2 stride 4", vector, 6);

  MPI_Type_create_hvector(2, 1, 5 * sizeof(int), contig, &hvector);
  MPI_Type_commit(&hvector);
  exercise("hvector 2 of contiguous, stride 20 bytes", hvector, 6);

  int blens[3] = {2, 1, 3}, displs[3] = {0, 5, 9};
  MPI_Type_indexed(3, blens, displs, MPI_INT, &indexed);
  MPI_Type_commit(&indexed);
  exercise("indexed", indexed, 6);

  MPI_Aint hdispls[3] = {4 * sizeof(int), 0, 12 * sizeof(int)};
  MPI_Type_create_hindexed(3, blens, hdispls, MPI_INT, &hindexed);
  MPI_Type_commit(&hindexed);
  exercise("hindexed (out of order)", hindexed, 6);

  int bdispls[3] = {1, 7, 3};
  MPI_Type_create_indexed_block(3, 2, bdispls, MPI_INT, &iblock);
  MPI_Type_commit(&iblock);
  exercise("indexed_block", iblock, 6);

  MPI_Aint bhdispls[2] = {2 * sizeof(int), 10 * sizeof(int)};
  MPI_Type_create_hindexed_block(2, 3, bhdispls, MPI_INT, &hiblock);
  MPI_Type_commit(&hiblock);
  exercise("hindexed_block", hiblock, 6);

  struct rec {
    int a;
    double b;
    char c[3];
  };
  int sblens[3] = {1, 1, 3};
  MPI_Aint sdispls[3] = {offsetof(struct rec, a), offsetof(struct rec, b), offsetof(struct rec, c)};
  MPI_Datatype stypes[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
  MPI_Type_create_struct(3, sblens, sdispls, stypes, &strct);
  MPI_Type_commit(&strct);
  describe("struct int,double,char[3]", strct);
  {
    struct rec out[2] = {{7, 2.5, {'x', 'y', 'z'}}, {8, -1.25, {'p', 'q', 'r'}}};
    struct rec in[2];
    memset(in, 0, sizeof in);
    if (tp_rank == 0) MPI_Send(out, 2, strct, 1, 3, MPI_COMM_WORLD);
    if (tp_rank == 1) {
      MPI_Status st;
      MPI_Recv(in, 2, strct, 0, 3, MPI_COMM_WORLD, &st);
      int count = -1, elements = -1;
      MPI_Get_count(&st, strct, &count);
      MPI_Get_elements(&st, strct, &elements);
      tp_out("  struct received: count %d elements %d {%d %g %.3s} {%d %g %.3s}", count, elements,
             in[0].a, in[0].b, in[0].c, in[1].a, in[1].b, in[1].c);
    }
  }

  int sizes[2] = {6, 6}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &sub);
  MPI_Type_commit(&sub);
  exercise("subarray 2x3 at (1,2) of 6x6", sub, 6);

  int gsizes[2] = {4, 4}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
      dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 1}, psizes[2] = {2, 1};
  MPI_Type_create_darray(2, tp_rank % 2, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT,
                         &darr);
  MPI_Type_commit(&darr);
  /* Rank 0's darray describes its own block; both ranks describe theirs. */
  describe("darray block x cyclic, this rank's part", darr);
  {
    char packed[256];
    int pos = 0;
    MPI_Pack(src, 1, darr, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    int got[16];
    memcpy(got, packed, (size_t)pos);
    tp_out("  darray packs: %s", tp_ints(got, pos / (int)sizeof(int)));
  }

  MPI_Type_create_resized(vector, -2 * (MPI_Aint)sizeof(int), 16 * sizeof(int), &resized);
  MPI_Type_commit(&resized);
  describe("resized vector lb -8 extent 64", resized);
  {
    int out[48], in[48];
    for (int i = 0; i < 48; ++i) out[i] = 100 + i, in[i] = -1;
    if (tp_rank == 0) MPI_Send(out + 2, 2, resized, 1, 4, MPI_COMM_WORLD);
    if (tp_rank == 1) {
      MPI_Recv(in + 2, 2, resized, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      tp_out("  two resized elements: %s", tp_ints(in, 32));
    }
  }

  MPI_Type_dup(indexed, &dup);
  describe("dup of indexed", dup);
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  MPI_Type_get_name(dup, name, &len);
  tp_out("  dup name before: '%s' (%d)", name, len);
  MPI_Type_set_name(dup, "transparency-indexed");
  MPI_Type_get_name(dup, name, &len);
  tp_out("  dup name after: '%s' (%d)", name, len);
  MPI_Type_get_name(MPI_DOUBLE, name, &len);
  tp_out("  predefined name: '%s'", name);
  MPI_Type_commit(&dup);
  exercise("dup of indexed, committed", dup, 6);

  /* Contents of a derived type, as MPI gives them back. */
  {
    int ints[8], ni = 0, na = 0, nd = 0, comb = 0;
    MPI_Aint addrs[8];
    MPI_Datatype types[8];
    MPI_Type_get_envelope(vector, &ni, &na, &nd, &comb);
    /* Exact counts: Open MPI 4.1 crashes when max_addresses exceeds the count. */
    MPI_Type_get_contents(vector, ni, na, nd, ints, addrs, types);
    tp_out("vector contents: ints %s type-is-int %d", tp_ints(ints, ni), types[0] == MPI_INT);
  }

  MPI_Datatype f90r, f90c, f90i;
  MPI_Type_create_f90_real(6, MPI_UNDEFINED, &f90r);
  MPI_Type_create_f90_complex(15, MPI_UNDEFINED, &f90c);
  MPI_Type_create_f90_integer(9, &f90i);
  int s1 = -1, s2 = -1, s3 = -1;
  MPI_Type_size(f90r, &s1);
  MPI_Type_size(f90c, &s2);
  MPI_Type_size(f90i, &s3);
  tp_out("f90 real(6) %d bytes, complex(15) %d bytes, integer(9) %d bytes", s1, s2, s3);
  {
    double d[2] = {1.5, -2.25}, r[2] = {0, 0};
    MPI_Datatype f90d;
    MPI_Type_create_f90_real(15, MPI_UNDEFINED, &f90d);
    if (tp_rank == 0) MPI_Send(d, 2, f90d, 1, 5, MPI_COMM_WORLD);
    if (tp_rank == 1) {
      MPI_Recv(r, 2, f90d, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      tp_out("  f90 real(15) message: %s", tp_doubles(r, 2));
    }
  }

  /* Fortran indices: the same round trip, and (Open MPI gives an index only when first
   * asked) the same index for a type asked after others were made and freed unasked. */
  {
    MPI_Datatype a, b;
    MPI_Type_contiguous(2, MPI_INT, &a);
    MPI_Type_contiguous(3, MPI_INT, &b);
    MPI_Type_free(&a);
    const MPI_Fint fb = MPI_Type_c2f(b);
    tp_out("fortran index of a type made after a freed one: %d, round trip %d, again %d",
           (int)fb, MPI_Type_f2c(fb) == b, MPI_Type_c2f(b) == fb);
    MPI_Type_free(&b);
  }

  MPI_Datatype* all[] = {&contig, &vector, &hvector, &indexed, &hindexed, &iblock, &hiblock,
                         &strct, &sub, &darr, &resized, &dup};
  int nulls = 0;
  for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) {
    MPI_Type_free(all[k]);
    nulls += *all[k] == MPI_DATATYPE_NULL;
  }
  tp_out("freed %d types, %d now MPI_DATATYPE_NULL", (int)(sizeof all / sizeof all[0]), nulls);

  /* A type freed while a message through it is pending: the transfer still completes. */
  MPI_Datatype pending;
  MPI_Type_vector(2, 1, 3, MPI_INT, &pending);
  MPI_Type_commit(&pending);
  int in[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  MPI_Request rq = MPI_REQUEST_NULL;
  if (tp_rank == 1) MPI_Irecv(in, 1, pending, 0, 6, MPI_COMM_WORLD, &rq);
  MPI_Type_free(&pending);
  if (tp_rank == 0) MPI_Send(src + 10, 2, MPI_INT, 1, 6, MPI_COMM_WORLD);
  if (tp_rank == 1) {
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    tp_out("receive through a freed type: %s", tp_ints(in, 8));
  }
  return tp_finish();
}
