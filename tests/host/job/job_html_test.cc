// The job's pictures and page from fixed jobs: the waits gathered per class, a
// collective mismatch drawn as one mark, hostile names escaped, the class tree, and a
// 4096-rank job's page in size and time.
#include <chrono>
#include <cstdio>

#include <gtest/gtest.h>

#include "job/class_graph.h"
#include "job/job_analysis.h"
#include "job/job_html.h"
#include "job_builder.h"

namespace mpidbg::job {
namespace {

using testing::JobBuilder;
using testing::R;
using testing::Tag;

// The job: ranks 0 and 2 in MPI_Allreduce, 1 in MPI_Barrier, 3 in MPI_Bcast.
JobReport ThreeCollectives() {
  JobBuilder job(4);
  job.Collective(0, "MPI_Allreduce").Collective(2, "MPI_Allreduce");
  job.Collective(1, "MPI_Barrier").Collective(3, "MPI_Bcast", testing::kWorld, 0);
  return Analyze(job.snapshots());
}

TEST(ClassGraph, CollectiveMismatchIsOneMarkNotAMesh) {
  const ClassGraph g = BuildClassGraph(ThreeCollectives());
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[0].ranks, (std::vector<int>{0, 2}));
  EXPECT_EQ(g.nodes[0].call, "MPI_Allreduce(comm=MPI_COMM_WORLD)");
  EXPECT_EQ(g.nodes[0].deadlocked, 2u);
  EXPECT_TRUE(g.edges.empty()) << "the waits between the sides are the mismatch mark";
  ASSERT_EQ(g.mismatches.size(), 1u);
  EXPECT_EQ(g.mismatches[0].comm_name, "MPI_COMM_WORLD");
  ASSERT_EQ(g.mismatches[0].sides.size(), 3u);
  EXPECT_EQ(g.mismatches[0].sides[2].call, "MPI_Bcast (root 0)");
}

TEST(ClassGraph, WaitsAreCountedPerClassPair) {
  // A ring of 8: every rank receives from the next; one class waiting on itself.
  JobBuilder job(8);
  for (int r = 0; r < 8; ++r) job.Recv(r, R((r + 1) % 8), Tag(5));
  const ClassGraph g = BuildClassGraph(Analyze(job.snapshots()));
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].call, "MPI_Recv (arguments differ by rank)");
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].waits, 8u);
  EXPECT_TRUE(g.edges[0].deadlocked);
  EXPECT_EQ(g.ClassOf(5), std::optional<std::size_t>(0));
  EXPECT_EQ(g.ClassOf(99), std::nullopt);
}

TEST(JobHtml, VerdictFirstThenClassesAndThePicture) {
  const JobReport report = ThreeCollectives();
  const std::string html = ToHtml(report, {"<?xml version=\"1.0\"?>\n<svg id=\"waits\"></svg>", ""});
  const std::size_t verdict = html.find("DEADLOCK: ranks 0-3 can never proceed");
  ASSERT_NE(verdict, std::string::npos);
  EXPECT_LT(verdict, html.find("<section id=\"classes\">"));
  EXPECT_NE(html.find("COLLECTIVE MISMATCH on MPI_COMM_WORLD: ranks 0,2 in MPI_Allreduce, rank 1 "
                      "in MPI_Barrier, rank 3 in MPI_Bcast (root 0)"),
            std::string::npos);
  // The classes: a collapsible entry each, its ranks clickable for their detail.
  EXPECT_NE(html.find("<details class=\"class\" open><summary><span class=\"ranks\" "
                      "data-rank=\"0\">ranks 0,2</span> (2) <span class=\"call\">"
                      "MPI_Allreduce(comm=MPI_COMM_WORLD)</span>"),
            std::string::npos)
      << html.substr(0, 4000);
  EXPECT_NE(html.find("MPI_Bcast(root=0, comm=MPI_COMM_WORLD)"), std::string::npos);
  // The picture inline, without its XML prolog.
  EXPECT_NE(html.find("<div class=\"picture\"><svg id=\"waits\"></svg></div>"), std::string::npos);
  EXPECT_EQ(html.find("<?xml"), std::string::npos);
  // Each rank's JSON entry is there for the detail.
  EXPECT_NE(html.find("\"summary\":\"MPI_Barrier(comm=MPI_COMM_WORLD)\""), std::string::npos);
}

TEST(JobHtml, WithoutGraphvizThePageSaysSo) {
  const std::string html = ToHtml(ThreeCollectives(), {"", "cannot run 'dot' (Graphviz is not installed?)"});
  EXPECT_NE(html.find("No picture: cannot run &#39;dot&#39; (Graphviz is not installed?)"),
            std::string::npos);
}

// Targets that were no MPI process (a launcher among --pids) are named where the text
// names them, above the verdict.
TEST(JobHtml, LeftOutProcessesAreNamedWithTheVerdict) {
  JobBuilder job(2);
  job.AddComm("h", "MPI_COMM_WORLD", {0, 1});
  job.Send(0, 1, 0, "h", "MPI_Ssend").Send(1, 0, 0, "h", "MPI_Ssend");
  JobReport report = Analyze(job.snapshots());
  report.left_out.push_back({4711, "live", "not an MPI process"});
  const std::string html = ToHtml(report, {});
  const std::size_t named = html.find("left out: pid 4711: not an MPI process");
  ASSERT_NE(named, std::string::npos);
  EXPECT_LT(named, html.find("DEADLOCK")) << "named before the verdict";
}

TEST(JobHtml, HostileNamesFromTargetMemoryAreEscaped) {
  JobBuilder job(2);
  const std::string name = "</script><img src=x onerror=alert(1)>";
  job.AddComm("h", name, {0, 1});
  job.Send(0, 1, 0, "h", "MPI_Ssend").Send(1, 0, 0, "h", "MPI_Ssend");
  const std::string html = ToHtml(Analyze(job.snapshots()), {});
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  // In the data block the name is JSON with no '<' that could close the script element.
  EXPECT_NE(html.find("\\u003c/script>\\u003cimg src=x"), std::string::npos);
  // One </script> per script element and no more: the head's hook, the data, the script.
  std::size_t closes = 0;
  for (std::size_t at = html.find("</script>"); at != std::string::npos; at = html.find("</script>", at + 1)) {
    ++closes;
  }
  EXPECT_EQ(closes, 3u);
}

// Ranks 0..n-1 of `job` in a ring of receives (tag 5), each stopped in MPI_Recv called
// from main at /src/ring.c line `line_of(rank)`: ranks with one line form one class.
template <typename LineOf>
void RingOfReceives(JobBuilder& job, int n, const LineOf& line_of, const char* rt_module = "",
                    const char* main_module = "") {
  for (int r = 0; r < n; ++r) {
    job.Recv(r, R((r + 1) % n), Tag(5));
    model::Frame call;
    call.function = "MPI_Recv";
    call.module = rt_module;
    model::Frame main;
    main.function = "main";
    main.file = "/src/ring.c";
    main.line = line_of(r);
    main.module = main_module;
    job.Thread(r).frames = {call, main};
  }
}

// A 4096-rank ring read from stacks in two places: two classes, a page of bounded size
// made quickly. Figures are printed; the bounds are generous (a slow CI machine).
TEST(JobHtml, FourThousandRanksStayReadable) {
  const int n = 4096;
  JobBuilder job(n);
  RingOfReceives(job, n, [](int r) { return r % 1024 == 7 ? 31 : 30; }, "libmpidbg_rt_mpich.so",
                 "ring");
  const JobReport report = Analyze(job.snapshots());
  const auto start = std::chrono::steady_clock::now();
  const std::string dot = ToDot(report);
  const std::string html = ToHtml(report, {});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ page     ] %d ranks: DOT %zu bytes, page %zu bytes, rendered in %.3f s\n", n,
              dot.size(), html.size(), seconds);
  EXPECT_EQ(report.classes.classes.size(), 2u);
  EXPECT_NE(html.find("ranks 0-6,8-1030,"), std::string::npos);
  EXPECT_LT(dot.size(), 4000u) << "the picture draws classes, not 4096 boxes";
  EXPECT_LT(html.size(), 8u << 20);
  EXPECT_LT(seconds, 10.0);
  // A class's many distinct calls are cut to a few lines; the detail has every rank.
  EXPECT_NE(html.find("more calls: see each rank"), std::string::npos);
}

// Every rank in a class of its own (a different line each): the picture keeps 60 boxes,
// the last standing for the smallest classes; the page still lists every class.
TEST(JobHtml, ThousandsOfClassesDrawAsAFewBoxes) {
  const int n = 4096;
  JobBuilder job(n);
  RingOfReceives(job, n, [](int r) { return 100 + r; });
  const JobReport report = Analyze(job.snapshots());
  ASSERT_EQ(report.classes.classes.size(), static_cast<std::size_t>(n));
  const auto start = std::chrono::steady_clock::now();
  const ClassGraph g = BuildClassGraph(report, kMaxPictureClasses);
  const std::string dot = ToDot(report);
  const std::string html = ToHtml(report, {});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ page     ] %d ranks in %d classes: DOT %zu bytes, page %zu bytes, %.3f s\n", n,
              n, dot.size(), html.size(), seconds);
  ASSERT_EQ(g.nodes.size(), kMaxPictureClasses);
  EXPECT_EQ(g.nodes.back().call, std::to_string(n - kMaxPictureClasses + 1) + " other classes");
  EXPECT_EQ(g.nodes.back().ranks.size(), static_cast<std::size_t>(n - kMaxPictureClasses + 1));
  EXPECT_EQ(g.ClassOf(n - 1), std::optional<std::size_t>(kMaxPictureClasses - 1));
  EXPECT_EQ(dot.find("c60 "), std::string::npos);
  EXPECT_NE(dot.find("label=\"ranks 59-4095\\n" + std::to_string(n - kMaxPictureClasses + 1) +
                     " other classes\""),
            std::string::npos);
  EXPECT_NE(html.find("rank 4095</span> (1)"), std::string::npos);
  EXPECT_LT(seconds, 10.0);
}

// The reduced view: no picture section, the different collectives with the verdict.
TEST(JobHtml, ReducedViewShowsCollectivesWithTheVerdict) {
  JobReport report = ThreeCollectives();
  report.view = "stacks";
  report.collective_mismatches.clear();
  report.stacks.collectives = {{{0, 2}, "MPI_Allreduce", std::nullopt}, {{1}, "MPI_Barrier", std::nullopt}};
  const std::string html = ToHtml(report, {});
  EXPECT_NE(html.find("the stacks show ranks in different collectives: ranks 0,2 in MPI_Allreduce, "
                      "rank 1 in MPI_Barrier"),
            std::string::npos);
  EXPECT_EQ(html.find("<section id=\"waits\">"), std::string::npos);
}

// Scattered ranks make ranges as many as the ranks: a box keeps the first few.
TEST(JobHtml, ScatteredRanksAreCutInTheirBox) {
  const int n = 1024;
  JobBuilder job(n);
  RingOfReceives(job, n, [](int r) { return 30 + r % 2; });
  const std::string dot = ToDot(Analyze(job.snapshots()));
  EXPECT_NE(dot.find("label=\"ranks 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,"
                     "... (512 ranks)\\n"),
            std::string::npos)
      << dot.substr(0, 1500);
  EXPECT_LT(dot.size(), 3000u);
}

}  // namespace
}  // namespace mpidbg::job
