// profile_model.h — a job's MPI-state profile (sampling: outside MPI, in MPI working,
// in MPI blocked), one model whether it came from the runtime's file (profile_file.cc)
// or from live processes / cores through the plugin (profile_plugin.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mpidbg::profile {

struct StateCounts {
  uint64_t not_in_mpi = 0;
  uint64_t in_mpi = 0;   // in MPI, working
  uint64_t blocked = 0;  // in MPI, waiting for other processes
  uint64_t Total() const { return not_in_mpi + in_mpi + blocked; }
};

struct FunctionSamples {
  std::string call;  // "MPI_Recv"
  uint64_t working = 0;
  uint64_t blocked = 0;
};

// Where the application called MPI.
struct SiteSamples {
  std::string site;    // "ring.c:12" where DWARF covers it, else "ring+0x11a9" (module + offset)
  std::string module;  // the module's path
  std::string offset;  // "0x11a9", in the module
  std::optional<std::string> symbol;  // "main+0x44"
  std::string call;
  uint64_t working = 0;
  uint64_t blocked = 0;
  int ranks = 1;
};

struct RankProfile {
  int rank = -1;
  bool present = false;
  int64_t pid = 0;
  std::string host;
  uint64_t threads = 0;
  uint64_t lost = 0;
  int64_t start_time_ns = 0;
  int64_t stop_time_ns = 0;
  StateCounts samples;
  std::vector<FunctionSamples> functions;  // most samples first
  std::vector<SiteSamples> sites;          // most samples first
};

struct JobProfile {
  std::string source = "file";  // "file" | "live" | "core"
  std::string id;
  int world_size = 0;
  int64_t period_ns = 0;
  std::string clock = "wall";  // "wall" | "cpu"
  int signal = 0;
  int64_t written_time_ns = 0;
  StateCounts samples;  // all ranks merged
  std::vector<FunctionSamples> functions;
  std::vector<SiteSamples> sites;  // merged by module + offset
  std::vector<RankProfile> ranks;  // world_size entries, element i is rank i
};

double Seconds(uint64_t samples, int64_t period_ns);

// The job-wide samples, functions and sites from the ranks' (for live and core reads;
// a file carries them already).
void MergeRanks(JobProfile* job);

// Orders by working + blocked, most first; the name breaks ties.
void SortFunctions(std::vector<FunctionSamples>* functions);
void SortSites(std::vector<SiteSamples>* sites);

}  // namespace mpidbg::profile
