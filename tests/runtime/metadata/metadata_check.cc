// metadata_check.cc — an MPI program checking the runtime's process metadata from inside:
// launch info against the environment and MPI, MPI version, the MPI_T catalogue against
// MPI_T itself, mpidbg_refresh_mpit(), and the MPIR symbols a debugger looks up.
//
//   metadata_check <flavour> <plugin path> [singleton] [mpit-off] [mpit-before-init]
//                  [ompi-debugger]
//
//   singleton       run without a launcher: launcher SINGLETON, rank 0 of 1
//   mpit-off        run with MPIDBG_MPIT=0: no catalogue until the first refresh
//   mpit-before-init  the program opens MPI_T before MPI_Init and keeps it open: the
//                   runtime's own MPI_T use must not end it; with Open MPI the catalogue
//                   then has no values (reading them may fault, see mpit_catalogue.cc)
//   ompi-debugger   run with ORTE_TEST_DEBUGGER_ATTACH=1 (Open MPI then stores its own
//                   DLL lists in mpimsgq_dll_locations/mpidbg_dll_locations): ours are
//                   back after MPI_Init, and Open MPI's own variables were never used
#include <dlfcn.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <string>

#include "rt_check.h"

using namespace rtcheck;

namespace {

struct Options {
  std::string flavour;
  std::string plugin;
  bool singleton = false;
  bool mpit_off = false;
  bool mpit_before_init = false;
  bool ompi_debugger = false;
};

double NowMs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// The object file that defines what `address` points into.
std::string DefiningObject(const void* address) {
  Dl_info info;
  if (address == nullptr || dladdr(address, &info) == 0 || info.dli_fname == nullptr) return "";
  return info.dli_fname;
}

bool IsRuntime(const std::string& object) {
  return object.find("libmpidbg_rt_") != std::string::npos;
}

// The MPIR symbols as a debugger resolves them: the first definition in lookup order.
void CheckMpirSymbols(const Options& o) {
  static const char* const kNames[] = {"MPIR_dll_name", "MPIR_being_debugged",
                                       "MPIR_debug_gate", "MPIR_debug_typedefs_sizeof",
                                       "mpimsgq_dll_locations", "mpidbg_dll_locations"};
  for (const char* name : kNames) {
    void* first = dlsym(RTLD_DEFAULT, name);
    RT_CHECK(first != nullptr);
    if (first == nullptr) continue;
    std::string object = DefiningObject(first);
    if (!IsRuntime(object)) {
      fprintf(stderr, "[rank %d] %s resolves into %s, not the runtime\n", g_rank, name,
              object.c_str());
    }
    RT_CHECK(IsRuntime(object));
  }
  const char* dll = static_cast<const char*>(dlsym(RTLD_DEFAULT, "MPIR_dll_name"));
  if (dll != nullptr) RT_CHECK_STREQ(dll, o.plugin.c_str());
  RT_CHECK(access(o.plugin.c_str(), R_OK) == 0);
  for (const char* list_name : {"mpimsgq_dll_locations", "mpidbg_dll_locations"}) {
    char*** list = static_cast<char***>(dlsym(RTLD_DEFAULT, list_name));
    RT_CHECK(list != nullptr && *list != nullptr);
    if (list == nullptr || *list == nullptr) continue;
    RT_CHECK((*list)[0] != nullptr);
    if ((*list)[0] != nullptr) RT_CHECK_STREQ((*list)[0], o.plugin.c_str());
    RT_CHECK((*list)[1] == nullptr);
  }
  const int* sizes = static_cast<const int*>(dlsym(RTLD_DEFAULT, "MPIR_debug_typedefs_sizeof"));
  if (sizes != nullptr) {
    RT_CHECK_EQ(sizes[0], sizeof(short));
    RT_CHECK_EQ(sizes[1], sizeof(int));
    RT_CHECK_EQ(sizes[2], sizeof(long));
    RT_CHECK_EQ(sizes[3], sizeof(long long));
    RT_CHECK_EQ(sizes[4], sizeof(void*));
    RT_CHECK_EQ(sizes[5], sizeof(bool));
    RT_CHECK_EQ(sizes[6], sizeof(size_t));
  }
  const int* gate = static_cast<const int*>(dlsym(RTLD_DEFAULT, "MPIR_debug_gate"));
  if (gate != nullptr) RT_CHECK_EQ(*gate, 0);
  const mpidbg_root* root = Root();
  if (root != nullptr) RT_CHECK_EQ(root->debug_gate_hold, 0);
}

// Open MPI's own definitions (looked up in libmpi itself) were never written: Open MPI's
// code reached ours through its GOT.
void CheckOpenMpiOwnSymbols() {
  void* libmpi = dlopen("libmpi.so.40", RTLD_NOW | RTLD_NOLOAD);
  RT_CHECK(libmpi != nullptr);
  if (libmpi == nullptr) return;
  for (const char* name : {"mpimsgq_dll_locations", "mpidbg_dll_locations"}) {
    char*** own = static_cast<char***>(dlsym(libmpi, name));
    RT_CHECK(own != nullptr);
    if (own == nullptr) continue;
    RT_CHECK(!IsRuntime(DefiningObject(own)));
    RT_CHECK(*own == nullptr);
  }
  dlclose(libmpi);
}

const char* EnvOr(const char* name, const char* fallback) {
  const char* v = getenv(name);
  return (v != nullptr && *v != '\0') ? v : fallback;
}

void CheckLaunchInfo(const Options& o, const mpidbg_root* root, int rank, int size) {
  RT_CHECK(root->launch != 0);
  if (root->launch == 0) return;
  const auto* l = At<mpidbg_launch_info>(root->launch);
  RT_CHECK_EQ(l->size, sizeof(mpidbg_launch_info));
  RT_CHECK_EQ(l->rank, rank);
  RT_CHECK_EQ(l->world_size, size);
  RT_CHECK_EQ(l->mpi_rank, rank);
  RT_CHECK_EQ(l->pid, getpid());
  // A singleton's MPI is not asked for MPI_APPNUM and MPI_UNIVERSE_SIZE (MPICH would
  // start a process manager to answer).
  RT_CHECK_EQ(l->appnum, o.singleton ? -1 : 0);
  RT_CHECK(l->job_id[0] != '\0');
  RT_CHECK((l->sources & MPIDBG_LAUNCH_FROM_MPI) != 0);

  char host[256] = "";
  gethostname(host, sizeof host);
  int* universe = nullptr;
  int flag = 0;
  if (!o.singleton) MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag);
  if (o.singleton) {
    RT_CHECK_EQ(l->universe_size, -1);
  } else if (flag) {
    RT_CHECK_EQ(l->universe_size, *universe);
    RT_CHECK(l->universe_size >= size);
  } else {
    // MPI does not know it (hydra without -usize): neither does the launcher.
    RT_CHECK_EQ(l->universe_size, -1);
  }

  if (o.singleton) {
    RT_CHECK_EQ(l->launcher, MPIDBG_LAUNCHER_SINGLETON);
    RT_CHECK_STREQ(l->launcher_name, "singleton");
    RT_CHECK_STREQ(l->host, host);
    RT_CHECK_EQ(l->local_rank, 0);
    RT_CHECK_EQ(l->local_size, 1);
  } else if (o.flavour == "mpich") {
    RT_CHECK_EQ(l->launcher, MPIDBG_LAUNCHER_HYDRA);
    RT_CHECK_STREQ(l->launcher_name, "hydra");
    RT_CHECK((l->sources & MPIDBG_LAUNCH_FROM_PMI) != 0);
    RT_CHECK_STREQ(l->pmi_interface, "pmi");
    RT_CHECK_EQ(l->rank, atoi(EnvOr("PMI_RANK", "-1")));
    RT_CHECK_EQ(l->local_rank, atoi(EnvOr("MPI_LOCALRANKID", "-1")));
    RT_CHECK_EQ(l->local_size, atoi(EnvOr("MPI_LOCALNRANKS", "-1")));
    RT_CHECK_STREQ(l->host, EnvOr("MPIR_CVAR_CH3_INTERFACE_HOSTNAME", host));
  } else {
    RT_CHECK_EQ(l->launcher, MPIDBG_LAUNCHER_ORTE);
    RT_CHECK_STREQ(l->launcher_name, "orte");
    RT_CHECK((l->sources & MPIDBG_LAUNCH_FROM_OMPI) != 0);
    RT_CHECK_STREQ(l->pmi_interface, "pmix");
    RT_CHECK_STREQ(l->job_id, EnvOr("PMIX_NAMESPACE", "?"));
    RT_CHECK_EQ(l->local_rank, atoi(EnvOr("OMPI_COMM_WORLD_LOCAL_RANK", "-1")));
    RT_CHECK_EQ(l->local_size, atoi(EnvOr("OMPI_COMM_WORLD_LOCAL_SIZE", "-1")));
    RT_CHECK_EQ(l->node_rank, atoi(EnvOr("OMPI_COMM_WORLD_NODE_RANK", "-1")));
    RT_CHECK_STREQ(l->host, EnvOr("PMIX_HOSTNAME", host));
  }

  // Every rank names the same job.
  char mine[sizeof l->job_id] = {0}, first[sizeof l->job_id] = {0};
  memcpy(mine, l->job_id, sizeof mine);
  memcpy(first, mine, sizeof first);
  MPI_Bcast(first, sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
  RT_CHECK_STREQ(mine, first);
  if (rank == 0) {
    printf("[rank 0] launch: launcher %s, job %s, host %s, rank %d of %d, local %d of %d, "
           "appnum %d, universe %d, sources 0x%x, pmi %s\n",
           l->launcher_name, l->job_id, l->host, l->rank, l->world_size, l->local_rank,
           l->local_size, l->appnum, l->universe_size, l->sources, l->pmi_interface);
  }
}

// A string of the catalogue's pool, or nullptr when the offset is bad.
const char* PoolString(const mpidbg_mpit_catalogue* c, uint32_t offset) {
  if (offset == MPIDBG_MPIT_NO_STRING || offset >= c->strings.count) return nullptr;
  const char* pool = ArrayAt<char>(c->strings);
  if (memchr(pool + offset, '\0', c->strings.count - offset) == nullptr) return nullptr;
  return pool + offset;
}

int FindCvar(const mpidbg_mpit_catalogue* c, const char* name) {
  const auto* cvars = ArrayAt<mpidbg_mpit_cvar>(c->cvars);
  for (uint32_t i = 0; i < c->cvars.count; ++i) {
    const char* n = PoolString(c, cvars[i].name);
    if (n != nullptr && strcmp(n, name) == 0) return static_cast<int>(i);
  }
  return -1;
}

int FindPvar(const mpidbg_mpit_catalogue* c, const char* name) {
  const auto* pvars = ArrayAt<mpidbg_mpit_pvar>(c->pvars);
  for (uint32_t i = 0; i < c->pvars.count; ++i) {
    const char* n = PoolString(c, pvars[i].name);
    if (n != nullptr && strcmp(n, name) == 0) return static_cast<int>(i);
  }
  return -1;
}

// Reads control variable `index` through the application's own MPI_T into `out`
// (as int64_t); false when it has no scalar value.
bool ReadCvarOurselves(int index, int32_t type, int64_t* out) {
  MPI_T_cvar_handle h;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &h, &count) != MPI_SUCCESS) return false;
  bool ok = false;
  if (count == 1) {
    union {
      int i;
      unsigned u;
      unsigned long ul;
      unsigned long long ull;
      MPI_Count c;
      unsigned char b[64];
    } v;
    memset(&v, 0, sizeof v);
    if (MPI_T_cvar_read(h, &v) == MPI_SUCCESS) {
      ok = true;
      switch (type) {
        case MPIDBG_MPIT_INT: *out = v.i; break;
        case MPIDBG_MPIT_UNSIGNED: *out = v.u; break;
        case MPIDBG_MPIT_UNSIGNED_LONG: *out = static_cast<int64_t>(v.ul); break;
        case MPIDBG_MPIT_UNSIGNED_LONG_LONG: *out = static_cast<int64_t>(v.ull); break;
        case MPIDBG_MPIT_COUNT: *out = static_cast<int64_t>(v.c); break;
        default: *out = (v.b[0] | v.b[1] | v.b[2] | v.b[3]) != 0; break;
      }
    }
  }
  MPI_T_cvar_handle_free(&h);
  return ok;
}

// `current`: captured with MPI_T in the state the program sees now (a refresh). Open MPI
// registers more variables as components come and go, so an older capture may list
// fewer; indices never change meaning.
void CheckCatalogue(const Options& o, const mpidbg_mpit_catalogue* c, uint64_t refreshes,
                    bool current) {
  RT_CHECK_EQ(c->size, sizeof(mpidbg_mpit_catalogue));
  RT_CHECK_EQ(c->seq % 2, 0);
  RT_CHECK_EQ(c->refreshes, refreshes);
  RT_CHECK_EQ(c->available, 1);
  RT_CHECK(c->captured_time_ns > 0);
  RT_CHECK_EQ(c->cvars.elem_size, sizeof(mpidbg_mpit_cvar));
  RT_CHECK_EQ(c->pvars.elem_size, sizeof(mpidbg_mpit_pvar));
  RT_CHECK_EQ(c->categories.elem_size, sizeof(mpidbg_mpit_category));
  RT_CHECK_EQ(c->members.elem_size, sizeof(int32_t));
  RT_CHECK_EQ(c->strings.elem_size, 1);
  int num_cvars = 0, num_pvars = 0, num_categories = 0;
  MPI_T_cvar_get_num(&num_cvars);
  MPI_T_pvar_get_num(&num_pvars);
  MPI_T_category_get_num(&num_categories);
  if (current) {
    RT_CHECK_EQ(c->cvars.count, num_cvars);
    RT_CHECK_EQ(c->pvars.count, num_pvars);
    RT_CHECK_EQ(c->categories.count, num_categories);
  } else {
    RT_CHECK(c->cvars.count <= uint32_t(num_cvars));
    RT_CHECK(c->pvars.count <= uint32_t(num_pvars));
    RT_CHECK(c->categories.count <= uint32_t(num_categories));
  }
  RT_CHECK(c->cvars.count > 100);
  RT_CHECK(c->categories.count > 0);
  RT_CHECK(c->strings.count > 0 && ArrayAt<char>(c->strings)[0] == '\0');

  // Every control variable: strings in the pool, ordinals in range, and the value the
  // application reads itself (not with Open MPI when MPI_T was open across MPI_Init:
  // then there are no values, and reading some would fault).
  const bool values = !(o.mpit_before_init && o.flavour == "openmpi");
  const auto* cvars = ArrayAt<mpidbg_mpit_cvar>(c->cvars);
  int named = 0, valued = 0, compared = 0;
  for (uint32_t i = 0; i < c->cvars.count; ++i) {
    const mpidbg_mpit_cvar& v = cvars[i];
    if (v.name == MPIDBG_MPIT_NO_STRING) continue;  // an index MPI_T calls invalid
    ++named;
    RT_CHECK(PoolString(c, v.name) != nullptr);
    RT_CHECK(v.desc == MPIDBG_MPIT_NO_STRING || PoolString(c, v.desc) != nullptr);
    {
      // Whole strings, as MPI_T gives them with room to spare.
      static char name[4096], desc[65536];
      int name_len = sizeof name, desc_len = sizeof desc, verbosity, bind, scope;
      MPI_Datatype type;
      MPI_T_enum enumtype;
      if (MPI_T_cvar_get_info(static_cast<int>(i), name, &name_len, &verbosity, &type,
                              &enumtype, desc, &desc_len, &bind, &scope) == MPI_SUCCESS) {
        const char* n = PoolString(c, v.name);
        const char* d = PoolString(c, v.desc);
        RT_CHECK(n != nullptr && strcmp(n, name) == 0);
        RT_CHECK(d != nullptr && strcmp(d, desc) == 0);
      }
    }
    RT_CHECK(v.verbosity >= 0 && v.verbosity <= 8);
    RT_CHECK(v.scope >= 0 && v.scope <= 6);
    RT_CHECK(v.bind >= 0 && v.bind <= 10);
    RT_CHECK(v.datatype >= MPIDBG_MPIT_OTHER && v.datatype <= MPIDBG_MPIT_BOOL);
    if ((v.flags & MPIDBG_CVAR_VALUE_VALID) == 0) continue;
    ++valued;
    if (v.datatype == MPIDBG_MPIT_CHAR) {
      RT_CHECK(PoolString(c, v.value_text) != nullptr);
    } else if (v.datatype != MPIDBG_MPIT_DOUBLE) {
      int64_t mine = 0;
      if (ReadCvarOurselves(static_cast<int>(i), v.datatype, &mine)) {
        ++compared;
        if (mine != v.value_int) {
          fprintf(stderr, "[rank %d] cvar %s: captured %lld, MPI_T reads %lld\n", g_rank,
                  PoolString(c, v.name), static_cast<long long>(v.value_int),
                  static_cast<long long>(mine));
        }
        RT_CHECK_EQ(v.value_int, mine);
      }
    }
  }
  RT_CHECK(named > 100);
  if (values) {
    RT_CHECK(valued > 100);
    RT_CHECK(compared > 100);
  } else {
    RT_CHECK_EQ(valued, 0);
  }

  // Categories reference valid indices.
  const auto* cats = ArrayAt<mpidbg_mpit_category>(c->categories);
  const auto* members = ArrayAt<int32_t>(c->members);
  uint64_t listed = 0;
  for (uint32_t i = 0; i < c->categories.count; ++i) {
    const mpidbg_mpit_category& cat = cats[i];
    RT_CHECK(cat.num_cvars >= 0 && cat.num_pvars >= 0 && cat.num_categories >= 0);
    uint64_t end = uint64_t{cat.first_member} + cat.num_cvars + cat.num_pvars + cat.num_categories;
    RT_CHECK(end <= c->members.count);
    if (end > c->members.count) continue;
    const int32_t* m = members + cat.first_member;
    for (int32_t k = 0; k < cat.num_cvars; ++k) RT_CHECK(m[k] >= 0 && uint32_t(m[k]) < c->cvars.count);
    m += cat.num_cvars;
    for (int32_t k = 0; k < cat.num_pvars; ++k) RT_CHECK(m[k] >= 0 && uint32_t(m[k]) < c->pvars.count);
    m += cat.num_pvars;
    for (int32_t k = 0; k < cat.num_categories; ++k) {
      RT_CHECK(m[k] >= 0 && uint32_t(m[k]) < c->categories.count);
    }
    listed += cat.num_cvars;
  }
  RT_CHECK(listed > 0);

  // Known variables of each library.
  if (o.flavour == "mpich") {
    int i = FindCvar(c, "MPIR_CVAR_CH4_COMM_CONNECT_TIMEOUT");  // set to 123 by the test
    RT_CHECK(i >= 0);
    if (i >= 0) {
      RT_CHECK_EQ(cvars[i].datatype, MPIDBG_MPIT_INT);
      RT_CHECK((cvars[i].flags & MPIDBG_CVAR_VALUE_VALID) != 0);
      RT_CHECK_EQ(cvars[i].value_int, 123);
      RT_CHECK_EQ(cvars[i].bind, 0);
      RT_CHECK_EQ(cvars[i].count, 1);
    }
    i = FindCvar(c, "MPIR_CVAR_IBCAST_TREE_TYPE");
    RT_CHECK(i >= 0);
    if (i >= 0) {
      RT_CHECK_EQ(cvars[i].datatype, MPIDBG_MPIT_CHAR);
      const char* text = PoolString(c, cvars[i].value_text);
      RT_CHECK(text != nullptr && strcmp(text, "kary") == 0);
    }
  } else {
    int i = FindCvar(c, "btl_tcp_eager_limit");  // set to 65432 by the test
    RT_CHECK(i >= 0);
    if (i >= 0 && values) {
      RT_CHECK_EQ(cvars[i].datatype, MPIDBG_MPIT_UNSIGNED_LONG);
      RT_CHECK((cvars[i].flags & MPIDBG_CVAR_VALUE_VALID) != 0);
      RT_CHECK_EQ(cvars[i].value_int, 65432);
    }
    i = FindCvar(c, "mpi_param_check");
    RT_CHECK(i >= 0);
    if (i >= 0 && values) RT_CHECK((cvars[i].flags & MPIDBG_CVAR_VALUE_VALID) != 0);
    int p = FindPvar(c, "pml_ob1_unexpected_msgq_length");
    RT_CHECK(p >= 0);
    if (p >= 0) {
      const auto& pv = ArrayAt<mpidbg_mpit_pvar>(c->pvars)[p];
      RT_CHECK_EQ(pv.bind, 1);  // MPI_T_BIND_MPI_COMM
      RT_CHECK_EQ(pv.count, -1);
      RT_CHECK(pv.var_class >= 0 && pv.var_class <= 9);
    }
    p = FindPvar(c, "mpool_hugepage_bytes_allocated");
    RT_CHECK(p >= 0);
    if (p >= 0) {
      const auto& pv = ArrayAt<mpidbg_mpit_pvar>(c->pvars)[p];
      RT_CHECK_EQ(pv.bind, 0);
      RT_CHECK_EQ(pv.count, -1);  // no pvar handles in Open MPI (mpit_capture.cc)
      RT_CHECK_EQ(pv.var_class, 2);  // MPI_T_PVAR_CLASS_SIZE
    }
  }
}

const mpidbg_mpit_catalogue* Catalogue(const mpidbg_root* root) {
  return root->mpit == 0 ? nullptr : At<mpidbg_mpit_catalogue>(root->mpit);
}

void CheckRefresh(const Options& o, const mpidbg_root* root, int rank) {
  auto refresh = reinterpret_cast<int (*)(void)>(dlsym(RTLD_DEFAULT, "mpidbg_refresh_mpit"));
  RT_CHECK(refresh != nullptr);
  if (refresh == nullptr) return;
  const mpidbg_mpit_catalogue* before = Catalogue(root);
  uint64_t refreshes = before != nullptr ? before->refreshes : 0;
  uint32_t seq = before != nullptr ? before->seq : 0;
  int64_t time = before != nullptr ? before->captured_time_ns : 0;
  uint32_t cvar_count = before != nullptr ? before->cvars.count : 0;
  uint64_t generation = root->generation;

  double t0 = NowMs();
  RT_CHECK_EQ(refresh(), 0);
  double took = NowMs() - t0;

  const mpidbg_mpit_catalogue* after = Catalogue(root);
  RT_CHECK(after != nullptr);
  if (after == nullptr) return;
  RT_CHECK(before == nullptr || before == after);  // the catalogue itself stays put
  RT_CHECK(after->seq == seq + 2);
  RT_CHECK(after->captured_time_ns > time);
  RT_CHECK(root->generation > generation);
  if (before != nullptr) RT_CHECK_EQ(after->cvars.count, cvar_count);
  CheckCatalogue(o, after, refreshes + 1, true);
  if (rank == 0) {
    printf("[rank 0] MPI_T catalogue: %u cvars, %u pvars, %u categories, %u members, "
           "%u bytes of strings; a refresh took %.2f ms\n",
           after->cvars.count, after->pvars.count, after->categories.count,
           after->members.count, after->strings.count, took);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  o.flavour = argc > 1 ? argv[1] : "";
  o.plugin = argc > 2 ? argv[2] : "";
  for (int i = 3; i < argc; ++i) {
    if (strcmp(argv[i], "singleton") == 0) o.singleton = true;
    if (strcmp(argv[i], "mpit-off") == 0) o.mpit_off = true;
    if (strcmp(argv[i], "mpit-before-init") == 0) o.mpit_before_init = true;
    if (strcmp(argv[i], "ompi-debugger") == 0) o.ompi_debugger = true;
  }

  const mpidbg_root* root = Root();
  if (root == nullptr) return Finish("metadata_check");
  RT_CHECK_EQ(root->launch, 0);
  RT_CHECK_EQ(root->mpit, 0);
  // Before MPI_Init the symbols are already in place (a debugger may attach at once).
  CheckMpirSymbols(o);

  // The program uses MPI_T itself (to compare): the runtime's own MPI_T initialisation
  // and finalisation must not end it.
  int provided = 0;
  if (o.mpit_before_init) RT_CHECK_EQ(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);

  double t0 = NowMs();
  MPI_Init(&argc, &argv);
  double init_ms = NowMs() - t0;
  int rank = -1, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  g_rank = rank;
  if (rank == 0) printf("[rank 0] MPI_Init took %.1f ms\n", init_ms);
  if (!o.mpit_before_init) RT_CHECK_EQ(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);

  int version = 0, subversion = 0;
  MPI_Get_version(&version, &subversion);
  RT_CHECK_EQ(root->mpi_version, version);
  RT_CHECK_EQ(root->mpi_subversion, subversion);
  RT_CHECK_EQ(root->thread_level_requested, MPIDBG_THREAD_SINGLE);

  CheckLaunchInfo(o, root, rank, size);
  CheckMpirSymbols(o);
  if (o.flavour == "openmpi") CheckOpenMpiOwnSymbols();

  if (o.mpit_off) {
    RT_CHECK_EQ(root->mpit, 0);
  } else {
    RT_CHECK(root->mpit != 0);
    if (root->mpit != 0) CheckCatalogue(o, Catalogue(root), 1, false);
  }
  if (o.ompi_debugger && o.flavour == "openmpi" && root->mpit != 0) {
    // Registered only by Open MPI's ompi_debugger_setup_dlls(), the function that
    // stores its DLL lists: proof that it ran in this process.
    RT_CHECK(FindCvar(Catalogue(root), "ompi_debugger_dll_path") >= 0);
  }
  CheckRefresh(o, root, rank);
  RT_CHECK_EQ(MPI_T_finalize(), MPI_SUCCESS);

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  // After MPI_Finalize: everything still readable, refreshes refused.
  auto refresh = reinterpret_cast<int (*)(void)>(dlsym(RTLD_DEFAULT, "mpidbg_refresh_mpit"));
  if (refresh != nullptr) RT_CHECK_EQ(refresh(), -1);
  RT_CHECK(root->launch != 0 && root->mpit != 0);
  return Finish("metadata_check");
}
