// leaks_check.cc — what a program leaves live at MPI_Finalize is what the leak report
// says: per rank, two committed contiguous datatypes, a duplicate of MPI_COMM_WORLD, an
// info object and an inactive persistent send request are never freed; a vector
// datatype, a split communicator and a group are freed and must not appear. Rank 0
// then reads the report it wrote and checks every line. 2 ranks.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <string>

#include "rt_check.h"

using namespace rtcheck;

namespace {

// The report's line of (kind, creator): "count N, ranks R" as text, "" when absent.
std::string Entry(const std::string& doc, const char* kind, const char* creator) {
  const std::string key =
      std::string("\"kind\": \"") + kind + "\", \"creator\": \"" + creator + "\"";
  const size_t at = doc.find(key);
  if (at == std::string::npos) return "";
  const size_t end = doc.find('}', at);
  return doc.substr(at + key.size(), end - at - key.size());
}

std::string ReadFile(const char* path) {
  std::string text;
  FILE* f = fopen(path, "r");
  if (f == nullptr) return text;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  fclose(f);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  // One path for the job, chosen by rank 0; the runtime reads it at MPI_Finalize.
  char path[256];
  if (g_rank == 0) snprintf(path, sizeof path, "/tmp/mpidbg-leaks-check.%d.json", (int)getpid());
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  setenv("MPIDBG_LEAKS", path, 1);

  MPI_Datatype kept[2], freed_type;
  for (MPI_Datatype& t : kept) {
    MPI_Type_contiguous(4, MPI_INT, &t);
    MPI_Type_commit(&t);
  }
  MPI_Type_vector(2, 1, 2, MPI_INT, &freed_type);
  MPI_Type_free(&freed_type);
  MPI_Comm dup, split;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(MPI_COMM_WORLD, 0, g_rank, &split);
  MPI_Comm_free(&split);
  MPI_Group group;
  MPI_Comm_group(MPI_COMM_WORLD, &group);
  MPI_Group_free(&group);
  MPI_Info info;
  MPI_Info_create(&info);
  int value = g_rank;
  MPI_Request send;
  MPI_Send_init(&value, 1, MPI_INT, (g_rank + 1) % size, 5, MPI_COMM_WORLD, &send);

  MPI_Finalize();

  if (g_rank == 0) {
    const std::string doc = ReadFile(path);
    RT_CHECK(!doc.empty());
    RT_CHECK(doc.find("\"schema\": \"mpidbg.leaks/1\"") != std::string::npos);
    const std::string per_rank = ", \"count\": " + std::to_string(size) +
                                 ", \"ranks\": " + std::to_string(size);
    const std::string two_each = ", \"count\": " + std::to_string(2 * size) +
                                 ", \"ranks\": " + std::to_string(size);
    const std::string types = Entry(doc, "datatype", "MPI_Type_contiguous");
    const std::string comms = Entry(doc, "comm", "MPI_Comm_dup");
    const std::string infos = Entry(doc, "info", "MPI_Info_create");
    const std::string requests = Entry(doc, "request", "MPI_Send_init");
    RT_CHECK_STREQ(types.c_str(), two_each.c_str());
    RT_CHECK_STREQ(comms.c_str(), per_rank.c_str());
    RT_CHECK_STREQ(infos.c_str(), per_rank.c_str());
    RT_CHECK_STREQ(requests.c_str(), per_rank.c_str());
    // Freed: not leaks.
    RT_CHECK(Entry(doc, "datatype", "MPI_Type_vector").empty());
    RT_CHECK(Entry(doc, "comm", "MPI_Comm_split").empty());
    RT_CHECK(Entry(doc, "group", "MPI_Comm_group").empty());
    const std::string total = "\"total\": " + std::to_string(5 * size);
    RT_CHECK(doc.find(total) != std::string::npos);
    if (g_failures != 0) fprintf(stderr, "%s\n", doc.c_str());
    unlink(path);
  }
  return Finish("leaks_check");
}
