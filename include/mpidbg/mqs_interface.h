/*
 * mqs_interface.h — the MPI Forum "Message Queue Dumping Interface" 1.0,
 * compatibility level 2, as a debugger and a message-queue DLL see it.
 *
 * Written from the interface document (shared/reference/msgq-interface-v1.0.txt);
 * the type layouts below are the ABI that TotalView, DDT and padb expect on LP64
 * Linux, and include/mpidbg/abi_checks.h pins them at compile time.
 */
#ifndef MPIDBG_MQS_INTERFACE_H
#define MPIDBG_MQS_INTERFACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A target address and a target `long`, wide enough for any target we read. */
typedef unsigned long mqs_taddr_t;
typedef long mqs_tword_t;

/* Opaque objects owned by the debugger. */
typedef struct mqs_image_ mqs_image;
typedef struct mqs_process_ mqs_process;
typedef struct mqs_type_ mqs_type;

/* Opaque objects owned by the DLL, attached to the debugger's objects. */
typedef struct _mqs_image_info mqs_image_info;
typedef struct _mqs_process_info mqs_process_info;

enum { MQS_INTERFACE_COMPATIBILITY = 2 };
enum { MQS_INVALID_PROCESS = -1 };

enum {
  mqs_ok = 0,
  mqs_no_information = 1,
  mqs_end_of_list = 2,
  mqs_first_user_code = 100
};

typedef enum {
  mqs_lang_c = 'c',
  mqs_lang_cplus = 'C',
  mqs_lang_f77 = 'f',
  mqs_lang_f90 = 'F'
} mqs_lang_code;

typedef enum {
  mqs_pending_sends = 0,
  mqs_pending_receives = 1,
  mqs_unexpected_messages = 2
} mqs_op_class;

enum mqs_status { mqs_st_pending = 0, mqs_st_matched = 1, mqs_st_complete = 2 };

/* The Forum defines the first five fields; Open MPI appends bool_size and
 * size_t_size. Hosts fill all seven, DLLs read only the first five. */
typedef struct {
  int short_size;
  int int_size;
  int long_size;
  int long_long_size;
  int pointer_size;
  int bool_size;
  int size_t_size;
} mqs_target_type_sizes;

typedef struct {
  mqs_taddr_t unique_id;
  mqs_tword_t local_rank;
  mqs_tword_t size;
  char name[64];
} mqs_communicator;

typedef struct {
  /* Fields for all operations. */
  int status;
  mqs_tword_t desired_local_rank;
  mqs_tword_t desired_global_rank;
  int tag_wild;
  mqs_tword_t desired_tag;
  mqs_tword_t desired_length; /* bytes */
  int system_buffer;
  mqs_taddr_t buffer;
  /* Valid for sends, and for receives once status >= mqs_st_matched. */
  mqs_tword_t actual_local_rank;
  mqs_tword_t actual_global_rank;
  mqs_tword_t actual_tag;
  mqs_tword_t actual_length;
  char extra_text[5][64];
} mqs_pending_operation;

/* Basic callbacks. */
typedef void* (*mqs_malloc_ft)(size_t size);
typedef void (*mqs_free_ft)(void* buf);
typedef void (*mqs_dprints_ft)(const char* text);
typedef char* (*mqs_errorstring_ft)(int error_code);
typedef void (*mqs_put_image_info_ft)(mqs_image* image, mqs_image_info* info);
typedef mqs_image_info* (*mqs_get_image_info_ft)(mqs_image* image);
typedef void (*mqs_put_process_info_ft)(mqs_process* process, mqs_process_info* info);
typedef mqs_process_info* (*mqs_get_process_info_ft)(mqs_process* process);

typedef struct mqs_basic_callbacks {
  mqs_malloc_ft mqs_malloc_fp;
  mqs_free_ft mqs_free_fp;
  mqs_dprints_ft mqs_dprints_fp;
  mqs_errorstring_ft mqs_errorstring_fp;
  mqs_put_image_info_ft mqs_put_image_info_fp;
  mqs_get_image_info_ft mqs_get_image_info_fp;
  mqs_put_process_info_ft mqs_put_process_info_fp;
  mqs_get_process_info_ft mqs_get_process_info_fp;
} mqs_basic_callbacks;

/* Image callbacks. */
typedef void (*mqs_get_type_sizes_ft)(mqs_process* process, mqs_target_type_sizes* sizes);
typedef int (*mqs_find_function_ft)(mqs_image* image, char* name, mqs_lang_code lang,
                                    mqs_taddr_t* addr);
typedef int (*mqs_find_symbol_ft)(mqs_image* image, char* name, mqs_taddr_t* addr);
typedef mqs_type* (*mqs_find_type_ft)(mqs_image* image, char* name, mqs_lang_code lang);
typedef int (*mqs_field_offset_ft)(mqs_type* type, char* field);
typedef int (*mqs_sizeof_ft)(mqs_type* type);

typedef struct mqs_image_callbacks {
  mqs_get_type_sizes_ft mqs_get_type_sizes_fp;
  mqs_find_function_ft mqs_find_function_fp;
  mqs_find_symbol_ft mqs_find_symbol_fp;
  mqs_find_type_ft mqs_find_type_fp;
  mqs_field_offset_ft mqs_field_offset_fp;
  mqs_sizeof_ft mqs_sizeof_fp;
} mqs_image_callbacks;

/* Process callbacks. */
typedef int (*mqs_get_global_rank_ft)(mqs_process* process);
typedef mqs_image* (*mqs_get_image_ft)(mqs_process* process);
typedef int (*mqs_fetch_data_ft)(mqs_process* process, mqs_taddr_t addr, int size, void* buf);
typedef void (*mqs_target_to_host_ft)(mqs_process* process, const void* in, void* out,
                                      int size);

typedef struct mqs_process_callbacks {
  mqs_get_global_rank_ft mqs_get_global_rank_fp;
  mqs_get_image_ft mqs_get_image_fp;
  mqs_fetch_data_ft mqs_fetch_data_fp;
  mqs_target_to_host_ft mqs_target_to_host_fp;
} mqs_process_callbacks;

/* Functions a message-queue DLL exports. */
void mqs_setup_basic_callbacks(const mqs_basic_callbacks* cb);
char* mqs_version_string(void);
int mqs_version_compatibility(void);
int mqs_dll_taddr_width(void);
char* mqs_dll_error_string(int error_code);

int mqs_setup_image(mqs_image* image, const mqs_image_callbacks* cb);
int mqs_image_has_queues(mqs_image* image, char** message);
int mqs_destroy_image_info(mqs_image_info* info);

int mqs_setup_process(mqs_process* process, const mqs_process_callbacks* cb);
int mqs_process_has_queues(mqs_process* process, char** message);
int mqs_destroy_process_info(mqs_process_info* info);

int mqs_update_communicator_list(mqs_process* process);
int mqs_setup_communicator_iterator(mqs_process* process);
int mqs_get_communicator(mqs_process* process, mqs_communicator* comm);
int mqs_get_comm_group(mqs_process* process, int* world_ranks);
int mqs_next_communicator(mqs_process* process);
int mqs_setup_operation_iterator(mqs_process* process, int op_class);
int mqs_next_operation(mqs_process* process, mqs_pending_operation* op);

#ifdef __cplusplus
}
#endif

#endif /* MPIDBG_MQS_INTERFACE_H */
