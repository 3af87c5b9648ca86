/* mpidbg_describe.h — MPI handles described as `mpidbg handle` describes them, for a
 * debugger that drives a DLL's handle interface (mpidbg_handles.h) itself, such as the
 * gdb extension: libmpidbg_describe.so holds the one describer the command line uses,
 * so a debugger shows the same words and fields.
 *
 * The caller has loaded the DLL, given it its callbacks (mpidbg_init_once) and set the
 * target up (mpidbg_init_per_image, mpidbg_init_per_process); the describer resolves
 * the same DLL by path (already loaded: it is never loaded twice) and runs its queries
 * with the caller's four objects. Results the DLL allocated with the caller's
 * mqs_malloc are released with the caller's mqs_free.
 *
 * Errors are values: a code and one sentence. No exception or signal crosses this
 * interface; what the target holds is read through the DLL, which bounds it. */
#ifndef MPIDBG_DESCRIBE_H
#define MPIDBG_DESCRIBE_H

#include <stdint.h>

#include "mpidbg/mqs_interface.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MPIDBG_DESCRIBE_VERSION 1

/* Return codes, the exit statuses `mpidbg handle` gives for the same failures. */
enum mpidbg_describe_code {
  MPIDBG_DESCRIBE_OK = 0,
  MPIDBG_DESCRIBE_NO_SUPPORT = 1,  /* the DLL cannot answer (lacks the query, no runtime) */
  MPIDBG_DESCRIBE_BAD_REQUEST = 2, /* unknown kind, or no such handle in the process */
  MPIDBG_DESCRIBE_UNREADABLE = 3,  /* the target's memory could not be read */
  MPIDBG_DESCRIBE_INTERNAL = 4     /* out of memory, or a fault of the describer itself */
};

typedef struct mpidbg_describe_target {
  const char *dll_path;  /* the DLL as the caller loaded it (the path given to dlopen) */
  mqs_image *image;
  mqs_image_info *image_info;
  mqs_process *process;
  mqs_process_info *process_info;
  void (*mqs_free)(void *); /* the caller's mqs_free */
} mpidbg_describe_target_t;

/* One handle described; every member is a NUL-terminated UTF-8 string the caller frees
 * with mpidbg_describe_release. */
typedef struct mpidbg_description {
  char *summary; /* one line: `comm 0x84000002 "odds" (MPI_Comm_split): intra, rank 0 of 2` */
  char *text;    /* `mpidbg handle`'s text: the summary, then indented detail lines */
  char *json;    /* the `handle` object of mpidbg.handle/1 (docs/OUTPUT.md) */
  char *fields;  /* a variable view's children: a JSON array of [name, value], each value
                    an integer, a string, an array of integers or of strings, or
                    {"address": "0x..."} for an address in the target */
} mpidbg_description_t;

int mpidbg_describe_version(void);

/* Describes the handle `value` of `kind` ("comm", "request", "datatype", "group", "op",
 * "errhandler", "info", "win", "file", "message"; "status" with the address of an
 * MPI_Status as `value`). `max_map_entries` bounds a datatype's type map in runs (0: the
 * DLL's default). On success fills `out`; otherwise leaves it zeroed and, when
 * `error` is not NULL, sets it to one sentence (free with mpidbg_describe_release). */
int mpidbg_describe_handle(const mpidbg_describe_target_t *target, const char *kind,
                           uint64_t value, int max_map_entries, mpidbg_description_t *out,
                           char **error);

/* The Fortran INTEGER handle `fortran_value` of `kind` as the C handle (for "status": the
 * C status address), through the DLL's *_f2c. */
int mpidbg_describe_fortran_to_c(const mpidbg_describe_target_t *target, const char *kind,
                                 uint64_t fortran_value, uint64_t *c_value, char **error);

/* Frees a string this library returned (NULL is ignored). */
void mpidbg_describe_release(char *text);
/* Frees every string of a description and zeroes it. */
void mpidbg_describe_clear(mpidbg_description_t *description);

#ifdef __cplusplus
}
#endif

#endif /* MPIDBG_DESCRIBE_H */
