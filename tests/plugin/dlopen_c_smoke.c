/* A plain C program loads the plugin the way a C debugger does: dlopen with RTLD_NOW
 * (every undefined symbol must resolve at once) and dlsym of every interface function
 * and datum. Then, as a C debugger of the handle interface, it drives the whole
 * sequence over a runtime image laid out in its own memory: init_once, per image, per
 * process, the query of MPI_COMM_WORLD, freeing the result member by member with its
 * own mqs_free, finalize; every allocation must be given back. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char* const kFunctions[] = {
    "mqs_setup_basic_callbacks", "mqs_version_string",
    "mqs_version_compatibility", "mqs_dll_taddr_width",
    "mqs_dll_error_string",      "mqs_setup_image",
    "mqs_image_has_queues",      "mqs_destroy_image_info",
    "mqs_setup_process",         "mqs_process_has_queues",
    "mqs_destroy_process_info",  "mqs_update_communicator_list",
    "mqs_setup_communicator_iterator", "mqs_get_communicator",
    "mqs_get_comm_group",        "mqs_next_communicator",
    "mqs_setup_operation_iterator", "mqs_next_operation",
    "mpidbg_ext_version",        "mpidbg_process_get_summary",
    "mpidbg_thread_count",       "mpidbg_thread_get",
    "mpidbg_thread_waited_operation", "mpidbg_comm_get_detail",
    "mpidbg_comm_get_remote_group", "mpidbg_comm_get_neighbors", "mpidbg_operation_get_detail",
    /* the handle interface */
    "mpidbg_init_once", "mpidbg_interface_version_compatibility", "mpidbg_version_string",
    "mpidbg_dll_taddr_width", "mpidbg_init_per_image", "mpidbg_finalize_per_image",
    "mpidbg_init_per_process", "mpidbg_finalize_per_process", "mpidbg_comm_query",
    "mpidbg_comm_f2c", "mpidbg_comm_cxx2c", "mpidbg_errhandler_query", "mpidbg_errhandler_f2c",
    "mpidbg_errhandler_cxx2c", "mpidbg_request_query", "mpidbg_request_f2c",
    "mpidbg_request_cxx2c", "mpidbg_status_query", "mpidbg_status_f2c", "mpidbg_status_cxx2c",
    "mpidbg_handle_ext_version", "mpidbg_name_map_query", "mpidbg_comm_query_ext",
    "mpidbg_request_query_ext", "mpidbg_status_query_ext", "mpidbg_datatype_query",
    "mpidbg_datatype_f2c", "mpidbg_group_query", "mpidbg_group_f2c", "mpidbg_op_query",
    "mpidbg_op_f2c", "mpidbg_info_query", "mpidbg_info_f2c", "mpidbg_win_query", "mpidbg_win_f2c",
    "mpidbg_file_query", "mpidbg_file_f2c", "mpidbg_message_query", "mpidbg_message_f2c",
    "mpidbg_object_list_query", "mpidbg_latest_time_query",
    /* and its data */
    "mpidbg_dll_is_big_endian", "mpidbg_dll_bitness", "mpidbg_comm_capabilities",
    "mpidbg_comm_name_map", "mpidbg_errhandler_capabilities", "mpidbg_errhandler_name_map",
};

#include <stddef.h>
#include <stdlib.h>

#include "mpidbg/mpidbg_handles.h"
#include "mpidbg/records.h"

/* ---- the debugger's side ---- */

static long g_live;  /* mqs_malloc'd blocks not yet mqs_free'd */
static mqs_image_info* g_image_info;
static mqs_process_info* g_process_info;
static char g_image_token, g_process_token;  /* what the debugger hands out as handles */

static void* cb_malloc(size_t n) {
  ++g_live;
  return malloc(n);
}
static void cb_free(void* p) {
  if (p != NULL) --g_live;
  free(p);
}
static void cb_dprints(const char* text) { (void)text; }
static char* cb_errorstring(int code) {
  (void)code;
  return (char*)"debugger error";
}
static void cb_put_image_info(mqs_image* image, mqs_image_info* info) {
  (void)image;
  g_image_info = info;
}
static mqs_image_info* cb_get_image_info(mqs_image* image) {
  (void)image;
  return g_image_info;
}
static void cb_put_process_info(mqs_process* process, mqs_process_info* info) {
  (void)process;
  g_process_info = info;
}
static mqs_process_info* cb_get_process_info(mqs_process* process) {
  (void)process;
  return g_process_info;
}

/* ---- the target: a runtime image in this program's memory ---- */

struct comm_slab {
  mpidbg_slab head;
  mpidbg_comm_record recs[2];
};
static mpidbg_root g_root;
static struct comm_slab g_slab;
static int32_t g_ranks[2] = {0, 1};

struct region {
  const void* start;
  size_t size;
};
static const struct region g_regions[] = {
    {&g_root, sizeof g_root}, {&g_slab, sizeof g_slab}, {g_ranks, sizeof g_ranks}};

static uint64_t addr_of(const void* p) { return (uint64_t)(uintptr_t)p; }

static void cb_type_sizes(mqs_process* process, mqs_target_type_sizes* sizes) {
  (void)process;
  sizes->short_size = sizeof(short);
  sizes->int_size = sizeof(int);
  sizes->long_size = sizeof(long);
  sizes->long_long_size = sizeof(long long);
  sizes->pointer_size = sizeof(void*);
  sizes->bool_size = 1;
  sizes->size_t_size = sizeof(size_t);
}
static int cb_find_function(mqs_image* image, char* name, mqs_lang_code lang, mqs_taddr_t* addr) {
  (void)image, (void)name, (void)lang, (void)addr;
  return 1;
}
static int cb_find_symbol(mqs_image* image, char* name, mqs_taddr_t* addr) {
  (void)image;
  if (strcmp(name, MPIDBG_ROOT_SYMBOL) != 0) return 1;
  *addr = addr_of(&g_root);
  return mqs_ok;
}
static mqs_type* cb_find_type(mqs_image* image, char* name, mqs_lang_code lang) {
  (void)image, (void)name, (void)lang;
  return NULL;
}
static int cb_field_offset(mqs_type* type, char* name) {
  (void)type, (void)name;
  return -1;
}
static int cb_sizeof(mqs_type* type) {
  (void)type;
  return -1;
}
static int cb_global_rank(mqs_process* process) {
  (void)process;
  return 0;
}
static mqs_image* cb_get_image(mqs_process* process) {
  (void)process;
  return (mqs_image*)&g_image_token;
}
/* Reads only inside the image's objects, as a debugger reads only mapped memory. */
static int cb_fetch(mqs_process* process, mqs_taddr_t addr, int size, void* out) {
  (void)process;
  for (size_t i = 0; i < sizeof g_regions / sizeof g_regions[0]; ++i) {
    const uint64_t start = addr_of(g_regions[i].start);
    if (size >= 0 && addr >= start && addr - start <= g_regions[i].size &&
        (uint64_t)size <= g_regions[i].size - (addr - start)) {
      memcpy(out, (const char*)g_regions[i].start + (addr - start), (size_t)size);
      return mqs_ok;
    }
  }
  return 1;
}
static void cb_target_to_host(mqs_process* process, const void* in, void* out, int size) {
  (void)process;
  memcpy(out, in, (size_t)size);
}

static const mqs_basic_callbacks kBasic = {cb_malloc, cb_free, cb_dprints, cb_errorstring,
                                           cb_put_image_info, cb_get_image_info,
                                           cb_put_process_info, cb_get_process_info};
static const mqs_image_callbacks kImage = {cb_type_sizes, cb_find_function, cb_find_symbol,
                                           cb_find_type, cb_field_offset, cb_sizeof};
static const mqs_process_callbacks kProcess = {cb_global_rank, cb_get_image, cb_fetch,
                                               cb_target_to_host};

static void build_image(void) {
  memset(&g_root, 0, sizeof g_root);
  g_root.magic = MPIDBG_ROOT_MAGIC;
  g_root.size = sizeof g_root;
  g_root.layout_version = MPIDBG_LAYOUT_VERSION;
  g_root.generation = 1;
  g_root.flavour = MPIDBG_FLAVOUR_MPICH;
  g_root.handle_size = 4;
  g_root.process_state = MPIDBG_PROCESS_RUNNING;
  g_root.world_rank = 0;
  g_root.world_size = 2;
  g_root.comm_world_handle = 0x44000000;
  g_root.comm_null_handle = 0x04000000;
  g_root.comms.first_slab = addr_of(&g_slab);
  g_root.comms.kind = MPIDBG_KIND_COMM;
  g_root.comms.record_size = sizeof(mpidbg_comm_record);
  g_root.comms.slab_count = 1;
  g_root.comms.live_count = 1;
  memset(&g_slab, 0, sizeof g_slab);
  g_slab.head.magic = MPIDBG_SLAB_MAGIC;
  g_slab.head.header_size = (uint32_t)offsetof(struct comm_slab, recs);
  g_slab.head.record_size = sizeof(mpidbg_comm_record);
  g_slab.head.capacity = 2;
  g_slab.head.kind = MPIDBG_KIND_COMM;
  mpidbg_comm_record* world = &g_slab.recs[0];
  world->hdr.seq = 2;
  world->hdr.kind = MPIDBG_KIND_COMM;
  world->hdr.size = sizeof *world;
  world->hdr.flags = MPIDBG_REC_PREDEFINED;
  world->handle = 0x44000000;
  world->job_id = 1;
  world->world_ranks = addr_of(g_ranks);
  world->rank = 0;
  world->size = 2;
  world->fortran_index = 0x44000000;
}

#define SMOKE_CHECK(cond)                                     \
  do {                                                        \
    if (!(cond)) {                                            \
      fprintf(stderr, "check failed: %s (line %d)\n", #cond, __LINE__); \
      ++failures;                                             \
    }                                                         \
  } while (0)

typedef int (*init_once_fn)(const mqs_basic_callbacks*);
typedef int (*init_image_fn)(mqs_image*, const mqs_image_callbacks*, struct mpidbg_handle_info_t*);
typedef int (*init_process_fn)(mqs_process*, const mqs_process_callbacks*,
                               struct mpidbg_handle_info_t*);
typedef void (*fin_image_fn)(mqs_image*, mqs_image_info*);
typedef void (*fin_process_fn)(mqs_process*, mqs_process_info*);
typedef int (*comm_query_fn)(mqs_image*, mqs_image_info*, mqs_process*, mqs_process_info*,
                             mqs_taddr_t, struct mpidbg_comm_info_t**);

/* The whole handle-interface sequence; returns the number of failed checks. */
static int handle_sequence(void* handle) {
  int failures = 0;
  init_once_fn init_once = (init_once_fn)dlsym(handle, "mpidbg_init_once");
  init_image_fn init_image = (init_image_fn)dlsym(handle, "mpidbg_init_per_image");
  init_process_fn init_process = (init_process_fn)dlsym(handle, "mpidbg_init_per_process");
  fin_image_fn fin_image = (fin_image_fn)dlsym(handle, "mpidbg_finalize_per_image");
  fin_process_fn fin_process = (fin_process_fn)dlsym(handle, "mpidbg_finalize_per_process");
  comm_query_fn comm_query = (comm_query_fn)dlsym(handle, "mpidbg_comm_query");
  struct mpidbg_name_map_t** comm_names =
      (struct mpidbg_name_map_t**)dlsym(handle, "mpidbg_comm_name_map");
  if (!init_once || !init_image || !init_process || !fin_image || !fin_process || !comm_query ||
      !comm_names) {
    fprintf(stderr, "handle interface functions missing\n");
    return 1;
  }
  build_image();
  mqs_image* image = (mqs_image*)&g_image_token;
  mqs_process* process = (mqs_process*)&g_process_token;
  struct mpidbg_handle_info_t types;
  SMOKE_CHECK(init_once(&kBasic) == MPIDBG_SUCCESS);
  SMOKE_CHECK(init_image(image, &kImage, &types) == MPIDBG_SUCCESS);
  SMOKE_CHECK(types.hi_c_comm == NULL);
  SMOKE_CHECK(init_process(process, &kProcess, &types) == MPIDBG_SUCCESS);
  SMOKE_CHECK(g_image_info != NULL && g_process_info != NULL);
  SMOKE_CHECK(*comm_names != NULL && (*comm_names)[0].map_name != NULL);

  struct mpidbg_comm_info_t* info = NULL;
  SMOKE_CHECK(comm_query(image, g_image_info, process, g_process_info, 0x44000000, &info) ==
              MPIDBG_SUCCESS);
  if (info != NULL) {
    SMOKE_CHECK(strcmp(info->comm_name, "MPI_COMM_WORLD") == 0);
    SMOKE_CHECK(info->comm_bitflags == MPIDBG_COMM_INFO_PREDEFINED);
    SMOKE_CHECK(info->comm_rank == 0 && info->comm_size == 2);
    SMOKE_CHECK(info->comm_num_local_procs == 2 && info->comm_local_procs != NULL &&
                info->comm_local_procs[1].mpi_comm_world_rank == 1);
    SMOKE_CHECK(info->comm_c_handle == 0x44000000);
    SMOKE_CHECK(info->comm_fortran_handle == 0x44000000);
    /* Freed as the interface says: every non-NULL pointer member, then the structure. */
    kBasic.mqs_free_fp(info->comm_local_procs);
    kBasic.mqs_free_fp(info->comm_remote_procs);
    kBasic.mqs_free_fp(info->comm_cart_dims);
    kBasic.mqs_free_fp(info->comm_cart_periods);
    kBasic.mqs_free_fp(info->comm_graph_index);
    kBasic.mqs_free_fp(info->comm_graph_edges);
    for (int i = 0; info->comm_attrs != NULL && i < info->comm_num_attrs; ++i) {
      kBasic.mqs_free_fp(info->comm_attrs[i].keyval_name);
      kBasic.mqs_free_fp(info->comm_attrs[i].value);
    }
    kBasic.mqs_free_fp(info->comm_attrs);
    kBasic.mqs_free_fp(info->comm_pending_requests);
    kBasic.mqs_free_fp(info->comm_derived_windows);
    kBasic.mqs_free_fp(info->comm_derived_files);
    kBasic.mqs_free_fp(info);
  }
  fin_process(process, g_process_info);
  fin_image(image, g_image_info);
  if (g_live != 0) {
    fprintf(stderr, "%ld debugger allocations not given back\n", g_live);
    ++failures;
  }
  if (failures == 0) printf("handle interface: MPI_COMM_WORLD answered, memory given back\n");
  return failures;
}

int main(void) {
  void* handle = dlopen(MPIDBG_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    fprintf(stderr, "dlopen %s: %s\n", MPIDBG_PLUGIN_PATH, dlerror());
    return 1;
  }
  int missing = 0;
  for (size_t i = 0; i < sizeof kFunctions / sizeof kFunctions[0]; ++i) {
    if (dlsym(handle, kFunctions[i]) == NULL) {
      fprintf(stderr, "missing %s\n", kFunctions[i]);
      ++missing;
    }
  }
  int (*compat)(void) = (int (*)(void))dlsym(handle, "mqs_version_compatibility");
  char* (*version)(void) = (char* (*)(void))dlsym(handle, "mqs_version_string");
  if (compat == NULL || compat() != 2 || version == NULL) {
    fprintf(stderr, "wrong compatibility level\n");
    ++missing;
  } else {
    printf("%s\n", version());
  }
  missing += handle_sequence(handle);
  if (dlclose(handle) != 0) {
    fprintf(stderr, "dlclose: %s\n", dlerror());
    ++missing;
  }
  return missing == 0 ? 0 : 1;
}
