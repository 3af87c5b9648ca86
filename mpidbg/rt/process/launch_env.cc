// launch_env.cc — the launcher's view of this process from its environment.
#include "rt/process/launch_env.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/record_write.h"

namespace mpidbg::rt {
namespace {

// Whole-string decimal integer within int32_t.
bool ParseInt(const char* text, int32_t* value) {
  if (text == nullptr || *text == '\0') return false;
  const char* p = text;
  bool negative = false;
  if (*p == '-') {
    negative = true;
    ++p;
  }
  if (*p == '\0') return false;
  int64_t v = 0;
  for (; *p != '\0'; ++p) {
    if (*p < '0' || *p > '9') return false;
    v = v * 10 + (*p - '0');
    if (v > INT32_MAX) return false;
  }
  *value = static_cast<int32_t>(negative ? -v : v);
  return true;
}

// The parent's argv, walked as NUL-separated strings.
class ParentArgs {
 public:
  ParentArgs(const char* text, size_t size) : text_(text), size_(text == nullptr ? 0 : size) {}

  // argv[0] without its directory, or "".
  const char* Program() const {
    if (size_ == 0) return "";
    const char* arg0 = text_;
    const char* slash = strrchr(arg0, '/');
    return slash == nullptr ? arg0 : slash + 1;
  }

  // The argument after the first `option`, or nullptr.
  const char* ValueOf(const char* option) const {
    const char* end = text_ + size_;
    for (const char* a = text_; a < end;) {
      const char* next = static_cast<const char*>(memchr(a, '\0', end - a));
      if (next == nullptr) return nullptr;  // unterminated tail
      if (strcmp(a, option) == 0) {
        const char* value = next + 1;
        if (value >= end || memchr(value, '\0', end - value) == nullptr) return nullptr;
        return value;
      }
      a = next + 1;
    }
    return nullptr;
  }

 private:
  const char* text_;
  size_t size_;
};

// Fills fields in order of preference: a setter leaves a field alone once it is known,
// so a chain of calls names the preferred variable first.
class Filler {
 public:
  Filler(const LaunchEnvironment& env, mpidbg_launch_info* out) : env_(env), out_(out) {}

  const char* Get(const char* name) const {
    const char* v = env_.lookup(env_.context, name);
    return (v != nullptr && *v != '\0') ? v : nullptr;
  }
  bool Has(const char* name) const { return Get(name) != nullptr; }

  void Int(int32_t* field, const char* name, uint32_t source) {
    int32_t v;
    if (*field != -1 || !ParseInt(Get(name), &v)) return;
    *field = v;
    out_->sources |= source;
  }

  void Text(char* field, uint32_t size, const char* name, uint32_t source) {
    const char* v = Get(name);
    if (field[0] != '\0' || v == nullptr) return;
    core::CopyName(field, size, v);
    out_->sources |= source;
  }

 private:
  const LaunchEnvironment& env_;
  mpidbg_launch_info* out_;
};

#define MPIDBG_TEXT_FIELD(f) f, static_cast<uint32_t>(sizeof f)

bool HasAnyPmix(const Filler& f) {
  return f.Has("PMIX_RANK") || f.Has("PMIX_NAMESPACE") || f.Has("PMIX_SERVER_URI2") ||
         f.Has("PMIX_SERVER_URI3") || f.Has("PMIX_SERVER_URI4");
}

bool IsHydra(const Filler& f, const ParentArgs& parent) {
  if (strcmp(parent.Program(), "hydra_pmi_proxy") == 0) return true;
  return (f.Has("PMI_FD") || f.Has("PMI_PORT")) && f.Has("MPI_LOCALNRANKS");
}

uint32_t DetectLauncher(const Filler& f, const ParentArgs& parent) {
  if (f.Has("OMPI_COMM_WORLD_RANK") || f.Has("OMPI_MCA_orte_hnp_uri") ||
      f.Has("OMPI_MCA_orte_local_daemon_uri")) {
    return MPIDBG_LAUNCHER_ORTE;
  }
  if (IsHydra(f, parent)) return MPIDBG_LAUNCHER_HYDRA;
  if (f.Has("SLURM_PROCID") && (f.Has("SLURM_STEP_ID") || f.Has("SLURM_STEPID"))) {
    return MPIDBG_LAUNCHER_SLURM;
  }
  if (f.Has("PMIX_RANK") || f.Has("PMIX_NAMESPACE")) return MPIDBG_LAUNCHER_PRRTE;
  if (f.Has("PMI_RANK")) return MPIDBG_LAUNCHER_UNKNOWN;
  return MPIDBG_LAUNCHER_SINGLETON;
}

const char* LauncherName(uint32_t launcher) {
  switch (launcher) {
    case MPIDBG_LAUNCHER_SINGLETON: return "singleton";
    case MPIDBG_LAUNCHER_HYDRA: return "hydra";
    case MPIDBG_LAUNCHER_ORTE: return "orte";
    case MPIDBG_LAUNCHER_PRRTE: return "prrte";
    case MPIDBG_LAUNCHER_SLURM: return "slurm";
    default: return "unknown";
  }
}

// Open MPI's orted (ORTE) and the PMIx reference launcher (PRRTE) export the same
// families: OMPI_* from Open MPI's side, PMIX_* from the PMIx server.
void FillOpenRte(Filler& f, mpidbg_launch_info* out) {
  f.Int(&out->rank, "OMPI_COMM_WORLD_RANK", MPIDBG_LAUNCH_FROM_OMPI);
  f.Int(&out->rank, "PMIX_RANK", MPIDBG_LAUNCH_FROM_PMIX);
  f.Int(&out->rank, "OMPI_MCA_ess_base_vpid", MPIDBG_LAUNCH_FROM_OMPI);
  f.Int(&out->world_size, "OMPI_COMM_WORLD_SIZE", MPIDBG_LAUNCH_FROM_OMPI);
  f.Int(&out->world_size, "OMPI_MCA_orte_ess_num_procs", MPIDBG_LAUNCH_FROM_OMPI);
  f.Int(&out->local_rank, "OMPI_COMM_WORLD_LOCAL_RANK", MPIDBG_LAUNCH_FROM_OMPI);
  f.Int(&out->local_size, "OMPI_COMM_WORLD_LOCAL_SIZE", MPIDBG_LAUNCH_FROM_OMPI);
  f.Int(&out->node_rank, "OMPI_COMM_WORLD_NODE_RANK", MPIDBG_LAUNCH_FROM_OMPI);
  f.Int(&out->appnum, "OMPI_MCA_orte_app_num", MPIDBG_LAUNCH_FROM_OMPI);
  f.Int(&out->universe_size, "OMPI_UNIVERSE_SIZE", MPIDBG_LAUNCH_FROM_OMPI);
  f.Text(MPIDBG_TEXT_FIELD(out->job_id), "PMIX_NAMESPACE", MPIDBG_LAUNCH_FROM_PMIX);
  f.Text(MPIDBG_TEXT_FIELD(out->job_id), "OMPI_MCA_ess_base_jobid", MPIDBG_LAUNCH_FROM_OMPI);
  f.Text(MPIDBG_TEXT_FIELD(out->host), "PMIX_HOSTNAME", MPIDBG_LAUNCH_FROM_PMIX);
  if (HasAnyPmix(f)) core::CopyName(MPIDBG_TEXT_FIELD(out->pmi_interface), "pmix");
}

void FillHydra(Filler& f, const ParentArgs& parent, mpidbg_launch_info* out) {
  f.Int(&out->rank, "PMI_RANK", MPIDBG_LAUNCH_FROM_PMI);
  f.Int(&out->world_size, "PMI_SIZE", MPIDBG_LAUNCH_FROM_PMI);
  f.Int(&out->local_rank, "MPI_LOCALRANKID", MPIDBG_LAUNCH_FROM_PMI);
  f.Int(&out->local_size, "MPI_LOCALNRANKS", MPIDBG_LAUNCH_FROM_PMI);
  f.Int(&out->appnum, "PMI_APPNUM", MPIDBG_LAUNCH_FROM_PMI);
  // Hydra names the host in its own terms (its host list) for MPICH to use.
  f.Text(MPIDBG_TEXT_FIELD(out->host), "MPIR_CVAR_CH3_INTERFACE_HOSTNAME",
         MPIDBG_LAUNCH_FROM_PMI);
  f.Text(MPIDBG_TEXT_FIELD(out->job_id), "PMI_KVSNAME", MPIDBG_LAUNCH_FROM_PMI);
  // Hydra keeps the KVS name inside the PMI conversation; its proxy's arguments name
  // the job instead: mpiexec's control port is unique while it runs, pgid numbers the
  // process groups (spawned jobs) of that mpiexec.
  const char* control = parent.ValueOf("--control-port");
  if (out->job_id[0] == '\0' && control != nullptr) {
    const char* pgid = parent.ValueOf("--pgid");
    snprintf(out->job_id, sizeof out->job_id, "%s/%s", control, pgid != nullptr ? pgid : "0");
    out->sources |= MPIDBG_LAUNCH_FROM_PMI;
  }
  int32_t usize = -1;
  if (ParseInt(parent.ValueOf("--usize"), &usize) && usize > 0 && out->universe_size == -1) {
    out->universe_size = usize;  // -1/-2 mean "not given" to hydra
  }
  if (f.Has("PMI_FD") || f.Has("PMI_PORT")) {
    core::CopyName(MPIDBG_TEXT_FIELD(out->pmi_interface), "pmi");
  }
}

void FillSlurm(Filler& f, mpidbg_launch_info* out) {
  f.Int(&out->rank, "SLURM_PROCID", MPIDBG_LAUNCH_FROM_SLURM);
  f.Int(&out->world_size, "SLURM_NTASKS", MPIDBG_LAUNCH_FROM_SLURM);
  f.Int(&out->world_size, "SLURM_NPROCS", MPIDBG_LAUNCH_FROM_SLURM);
  f.Int(&out->local_rank, "SLURM_LOCALID", MPIDBG_LAUNCH_FROM_SLURM);
  int32_t node = -1;
  if (ParseInt(f.Get("SLURM_NODEID"), &node)) {
    const char* per_node = f.Get("SLURM_STEP_TASKS_PER_NODE");
    if (per_node == nullptr) per_node = f.Get("SLURM_TASKS_PER_NODE");
    int tasks = TasksOnSlurmNode(per_node, node);
    if (tasks > 0) out->local_size = tasks;
  }
  const char* job = f.Get("SLURM_JOB_ID");
  if (job == nullptr) job = f.Get("SLURM_JOBID");
  const char* step = f.Get("SLURM_STEP_ID");
  if (step == nullptr) step = f.Get("SLURM_STEPID");
  if (job != nullptr) {
    if (step != nullptr) {
      snprintf(out->job_id, sizeof out->job_id, "%s.%s", job, step);
    } else {
      core::CopyName(MPIDBG_TEXT_FIELD(out->job_id), job);
    }
    out->sources |= MPIDBG_LAUNCH_FROM_SLURM;
  }
  f.Text(MPIDBG_TEXT_FIELD(out->host), "SLURMD_NODENAME", MPIDBG_LAUNCH_FROM_SLURM);
  // srun --mpi=pmix exports PMIX_*, --mpi=pmi2 a PMI-2 socket in PMI_FD.
  if (HasAnyPmix(f)) {
    core::CopyName(MPIDBG_TEXT_FIELD(out->pmi_interface), "pmix");
    f.Int(&out->rank, "PMIX_RANK", MPIDBG_LAUNCH_FROM_PMIX);
  } else if (f.Has("PMI_FD")) {
    core::CopyName(MPIDBG_TEXT_FIELD(out->pmi_interface), "pmi2");
    f.Int(&out->rank, "PMI_RANK", MPIDBG_LAUNCH_FROM_PMI);
    f.Int(&out->world_size, "PMI_SIZE", MPIDBG_LAUNCH_FROM_PMI);
  }
}

// Some other PMI server (gforker, a site launcher): only the PMI variables.
void FillGenericPmi(Filler& f, mpidbg_launch_info* out) {
  f.Int(&out->rank, "PMI_RANK", MPIDBG_LAUNCH_FROM_PMI);
  f.Int(&out->world_size, "PMI_SIZE", MPIDBG_LAUNCH_FROM_PMI);
  f.Int(&out->appnum, "PMI_APPNUM", MPIDBG_LAUNCH_FROM_PMI);
  f.Text(MPIDBG_TEXT_FIELD(out->job_id), "PMI_KVSNAME", MPIDBG_LAUNCH_FROM_PMI);
  f.Text(MPIDBG_TEXT_FIELD(out->job_id), "PMI_JOBID", MPIDBG_LAUNCH_FROM_PMI);
  core::CopyName(MPIDBG_TEXT_FIELD(out->pmi_interface), "pmi");
}

void FillSingleton(mpidbg_launch_info* out) {
  out->rank = 0;
  out->world_size = 1;
  out->local_rank = 0;
  out->local_size = 1;
  out->node_rank = 0;
}

}  // namespace

int TasksOnSlurmNode(const char* tasks_per_node, int node_index) {
  if (tasks_per_node == nullptr || node_index < 0) return -1;
  const char* p = tasks_per_node;
  int64_t first_node = 0;  // first node the current entry covers
  while (*p != '\0') {
    int64_t tasks = 0, repeat = 1;
    if (*p < '0' || *p > '9') return -1;
    for (; *p >= '0' && *p <= '9'; ++p) {
      tasks = tasks * 10 + (*p - '0');
      if (tasks > INT32_MAX) return -1;
    }
    if (*p == '(') {
      if (p[1] != 'x') return -1;
      p += 2;
      repeat = 0;
      if (*p < '0' || *p > '9') return -1;
      for (; *p >= '0' && *p <= '9'; ++p) {
        repeat = repeat * 10 + (*p - '0');
        if (repeat > INT32_MAX) return -1;
      }
      if (*p != ')') return -1;
      ++p;
    }
    if (node_index < first_node + repeat) return static_cast<int>(tasks);
    first_node += repeat;
    if (*p == ',') {
      ++p;
    } else if (*p != '\0') {
      return -1;
    }
  }
  return -1;
}

void LaunchInfoFromEnvironment(const LaunchEnvironment& env, mpidbg_launch_info* out) {
  memset(out, 0, sizeof *out);
  out->size = sizeof *out;
  out->rank = out->world_size = out->local_rank = out->local_size = -1;
  out->node_rank = out->appnum = out->universe_size = -1;
  out->pid = out->mpi_rank = -1;

  Filler f(env, out);
  ParentArgs parent(env.parent_cmdline, env.parent_cmdline_size);
  out->launcher = DetectLauncher(f, parent);
  switch (out->launcher) {
    case MPIDBG_LAUNCHER_ORTE:
    case MPIDBG_LAUNCHER_PRRTE:
      FillOpenRte(f, out);
      break;
    case MPIDBG_LAUNCHER_HYDRA:
      FillHydra(f, parent, out);
      break;
    case MPIDBG_LAUNCHER_SLURM:
      FillSlurm(f, out);
      break;
    case MPIDBG_LAUNCHER_UNKNOWN:
      FillGenericPmi(f, out);
      break;
    default:
      FillSingleton(out);
      break;
  }
  core::CopyName(MPIDBG_TEXT_FIELD(out->launcher_name), LauncherName(out->launcher));
}

#undef MPIDBG_TEXT_FIELD

}  // namespace mpidbg::rt
