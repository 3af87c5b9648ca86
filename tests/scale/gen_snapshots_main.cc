// gen_snapshots_main.cc — `mpidbg_scale_gen PATTERN RANKS DIR`: writes a synthetic job
// as per-rank snapshot documents for `mpidbg job --snapshots DIR`.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "job_patterns.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s PATTERN RANKS DIR\npatterns:", argv[0]);
    for (const std::string& p : mpidbg::scale::PatternNames()) std::fprintf(stderr, " %s", p.c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  char* end = nullptr;
  long ranks = std::strtol(argv[2], &end, 10);
  if (*end != '\0' || ranks < 2 || ranks > 1000000) {
    std::fprintf(stderr, "RANKS must be a number between 2 and 1000000\n");
    return 2;
  }
  std::string error = mpidbg::scale::WritePattern(argv[1], static_cast<int>(ranks), argv[3]);
  if (!error.empty()) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  return 0;
}
