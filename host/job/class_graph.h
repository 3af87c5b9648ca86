// class_graph.h — the wait-for graph between rank classes, the picture's model.
//
// A picture of ranks stops being read at a few dozen: 4096 ranks in a ring are 4096
// boxes, and four ranks in three different collectives draw an edge between every pair.
// The classes (rank_classes.h: ranks whose call paths agree) are few however many
// ranks, so the picture draws one box per class and one edge per (class, class, kind),
// counting the rank-to-rank waits it stands for. Members of a communicator sitting in
// different collectives are drawn as one mismatch mark tied to each side's class, not
// as the waits between them (each side waits for every other: a mesh that says
// nothing). DOT and the page draw the same graph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "job/job_analysis.h"

namespace mpidbg::job {

struct ClassNode {
  std::vector<int> ranks;              // sorted world ranks
  std::vector<std::string> path;       // outermost first (the class's call path)
  // The call with its arguments when every rank of the class has the same one
  // ("MPI_Allreduce(comm=MPI_COMM_WORLD)"), else the call and "arguments differ".
  std::string call;
  std::size_t deadlocked = 0;          // ranks of the class that can never proceed
  std::size_t blocked = 0;             // ranks of the class blocked
};

struct ClassEdge {
  std::size_t from = 0;                // indices into ClassGraph::nodes
  std::size_t to = 0;
  WaitKind kind = WaitKind::kAnd;
  std::size_t waits = 0;               // rank-to-rank waits drawn as this edge
  std::string reason;                  // the call of the first of them
  bool deadlocked = false;             // some wait of it joins two deadlocked ranks
};

// One collective mismatch (hints.h), its sides as the classes their ranks are in.
struct ClassMismatch {
  std::string comm_name;
  struct Side {
    std::size_t node = 0;
    std::string call;                  // "MPI_Bcast" or "MPI_Bcast (root 0)"
  };
  std::vector<Side> sides;             // one per (side, class) pair
};

// Messages nobody receives, gathered per pair of classes.
struct ClassUnmatched {
  std::size_t from = 0;
  std::size_t to = 0;
  std::size_t messages = 0;
  std::string first;                   // "MPI_Send tag 9" of the first
};

struct ClassGraph {
  std::vector<ClassNode> nodes;        // in the order of report.classes
  std::vector<ClassEdge> edges;
  std::vector<ClassMismatch> mismatches;
  std::vector<ClassUnmatched> unmatched;
  // The class of a world rank, or nullopt for a rank in none.
  std::optional<std::size_t> ClassOf(int rank) const;
  std::vector<std::pair<int, std::size_t>> rank_class;  // sorted by rank
};

// A picture of more boxes than this is no longer read (and Graphviz takes long to lay it
// out): the classes past the first kMaxPictureClasses - 1 (the smallest: classes come
// most ranks first) are drawn as one box standing for all of them.
inline constexpr std::size_t kMaxPictureClasses = 60;

// Linear in ranks plus edges: a wait on a shared group (rank_set.h) is counted per
// class of the group, not per member. With more classes than `max_nodes`, the last
// node stands for every class from max_nodes - 1 on ("N other classes").
ClassGraph BuildClassGraph(const JobReport& report, std::size_t max_nodes = SIZE_MAX);

}  // namespace mpidbg::job
