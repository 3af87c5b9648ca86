// OrphanList on a fake root: budget, eviction order, keep_all, ReleaseAll, counters,
// growth of its ring, concurrent use.
#include "core/orphan_list.h"

#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace {

using mpidbg::core::OrphanList;

struct FakeRoot {
  uint32_t budget = 4;
  uint32_t keep_all = 0;
  uint64_t count = 0;
  uint64_t evictions = 0;
  uint64_t releases = 0;
};

// Records the order release callbacks run in (by the header's `reserved` tag).
struct Sink {
  std::mutex mu;
  std::vector<uint32_t> released;
};

void Release(mpidbg_record_header* rec, void* owner) {
  auto* sink = static_cast<Sink*>(owner);
  std::lock_guard<std::mutex> lock(sink->mu);
  sink->released.push_back(rec->reserved);
}

class OrphanListTest : public ::testing::Test {
 protected:
  OrphanListTest()
      : list(OrphanList::Counters{&root.budget, &root.keep_all, &root.count, &root.evictions,
                                  &root.releases}) {}
  ~OrphanListTest() override {
    list.ReleaseAll();
    list.ReleaseMemoryForTests();
  }

  // Adds orphans tagged first, first+1, ... (headers live in `recs`).
  void AddTagged(uint32_t first, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) {
      auto* h = new mpidbg_record_header{};
      h->reserved = first + i;
      recs.emplace_back(h);
      list.Add(h, &Release, &sink);
    }
  }
  static std::vector<uint32_t> Range(uint32_t first, uint32_t n) {
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < n; ++i) v.push_back(first + i);
    return v;
  }

  FakeRoot root;
  OrphanList list;
  Sink sink;
  std::vector<std::unique_ptr<mpidbg_record_header>> recs;
};

TEST_F(OrphanListTest, KeepsWithinBudgetEvictingOldestFirst) {
  AddTagged(0, 4);
  EXPECT_TRUE(sink.released.empty());
  EXPECT_EQ(root.count, 4u);
  EXPECT_EQ(root.evictions, 0u);
  AddTagged(4, 6);
  EXPECT_EQ(sink.released, Range(0, 6));
  EXPECT_EQ(root.count, 4u);
  EXPECT_EQ(list.size(), 4u);
  EXPECT_EQ(root.evictions, 6u);
  EXPECT_EQ(root.releases, 0u);
}

TEST_F(OrphanListTest, TakesTheOldestForReuseOnlyWhenTheNextAddWouldEvictIt) {
  Sink other;
  AddTagged(0, 3);
  // Below the budget: nothing to evict, nothing taken.
  EXPECT_EQ(list.TakeOldestForReuse(&Release, &sink), nullptr);
  AddTagged(3, 1);
  // Full: the oldest is taken, counted as evicted, and not released by the list.
  mpidbg_record_header* taken = list.TakeOldestForReuse(&Release, &sink);
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(taken->reserved, 0u);
  EXPECT_EQ(root.count, 3u);
  EXPECT_EQ(root.evictions, 1u);
  EXPECT_TRUE(sink.released.empty());
  // Only by its owner, with its release.
  AddTagged(4, 1);
  EXPECT_EQ(list.TakeOldestForReuse(&Release, &other), nullptr);
  EXPECT_EQ(list.TakeOldestForReuse(nullptr, &sink), nullptr);
  EXPECT_EQ(root.count, 4u);
  // keep_all keeps everything, also from reuse.
  root.keep_all = 1;
  EXPECT_EQ(list.TakeOldestForReuse(&Release, &sink), nullptr);
  root.keep_all = 0;
  EXPECT_EQ(list.TakeOldestForReuse(&Release, &sink)->reserved, 1u);
  // What stays is released in its order.
  EXPECT_EQ(list.ReleaseAll(), 3u);
  EXPECT_EQ(sink.released, Range(2, 3));
}

TEST_F(OrphanListTest, ZeroBudgetReleasesAtOnce) {
  root.budget = 0;
  AddTagged(0, 3);
  EXPECT_EQ(sink.released, Range(0, 3));
  EXPECT_EQ(root.count, 0u);
  EXPECT_EQ(root.evictions, 3u);
}

TEST_F(OrphanListTest, KeepAllIgnoresTheBudgetUntilCleared) {
  root.keep_all = 1;
  AddTagged(0, 10);
  EXPECT_TRUE(sink.released.empty());
  EXPECT_EQ(root.count, 10u);
  EXPECT_EQ(root.evictions, 0u);
  root.keep_all = 0;
  AddTagged(10, 1);  // the next orphan brings the list back within the budget
  EXPECT_EQ(sink.released, Range(0, 7));
  EXPECT_EQ(root.count, 4u);
  EXPECT_EQ(root.evictions, 7u);
}

TEST_F(OrphanListTest, ReleaseAllDropsEverythingOldestFirst) {
  root.budget = 100;
  AddTagged(0, 40);
  EXPECT_EQ(list.ReleaseAll(), 40u);
  EXPECT_EQ(sink.released, Range(0, 40));
  EXPECT_EQ(root.count, 0u);
  EXPECT_EQ(root.releases, 40u);
  EXPECT_EQ(root.evictions, 0u);
  EXPECT_EQ(list.ReleaseAll(), 0u);
  EXPECT_EQ(root.releases, 40u);
  // The list works on after being emptied.
  AddTagged(40, 2);
  EXPECT_EQ(root.count, 2u);
}

TEST_F(OrphanListTest, SetBudgetShrinksNowAndGrowsLater) {
  root.budget = 10;
  AddTagged(0, 10);
  list.SetBudget(3);
  EXPECT_EQ(root.budget, 3u);
  EXPECT_EQ(sink.released, Range(0, 7));
  EXPECT_EQ(root.count, 3u);
  EXPECT_EQ(root.evictions, 7u);
  list.SetBudget(5);
  AddTagged(10, 2);
  EXPECT_EQ(root.count, 5u);
  EXPECT_EQ(sink.released.size(), 7u);
}

TEST_F(OrphanListTest, GrowsPastItsFirstRingKeepingOrderAfterWrapAround) {
  // Move the ring's head around first so growth has to unwrap it.
  root.budget = 50;
  AddTagged(0, 100);
  EXPECT_EQ(sink.released, Range(0, 50));
  root.budget = 100000;
  AddTagged(100, 1000);  // several doublings
  EXPECT_EQ(root.count, 1050u);
  sink.released.clear();
  list.SetBudget(0);
  EXPECT_EQ(sink.released, Range(50, 1050));
  EXPECT_EQ(root.evictions, 50u + 1050u);
}

TEST_F(OrphanListTest, EvictsInBatchesLargerThanOneCallbackBatch) {
  root.keep_all = 1;
  AddTagged(0, 300);
  root.keep_all = 0;
  list.SetBudget(1);
  EXPECT_EQ(sink.released, Range(0, 299));
  EXPECT_EQ(root.count, 1u);
}

TEST_F(OrphanListTest, ConcurrentAddsLoseNothing) {
  root.budget = 64;
  constexpr int kThreads = 4, kPerThread = 2000;
  std::vector<std::vector<std::unique_ptr<mpidbg_record_header>>> per(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        auto* h = new mpidbg_record_header{};
        h->reserved = static_cast<uint32_t>(t * kPerThread + i);
        per[t].emplace_back(h);
        list.Add(h, &Release, &sink);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(root.count, 64u);
  EXPECT_EQ(root.evictions, uint64_t{kThreads * kPerThread - 64});
  EXPECT_EQ(sink.released.size(), size_t{kThreads * kPerThread - 64});
  EXPECT_EQ(list.ReleaseAll(), 64u);
  std::vector<bool> seen(kThreads * kPerThread, false);
  for (uint32_t tag : sink.released) {
    ASSERT_LT(tag, seen.size());
    EXPECT_FALSE(seen[tag]) << "released twice: " << tag;
    seen[tag] = true;
  }
}

// A list whose root carries a debugger's release request (asked above done: pending).
class OrphanListBeside : public ::testing::Test {
 protected:
  OrphanListBeside() : list(CountersOf(root, &asked, &done)) { root.budget = 100; }

  static OrphanList::Counters CountersOf(FakeRoot& r, uint64_t* asked, uint64_t* done) {
    OrphanList::Counters c{&r.budget, &r.keep_all, &r.count, &r.evictions, &r.releases};
    c.release_asked = asked;
    c.release_done = done;
    return c;
  }

  FakeRoot root;
  uint64_t asked = 0, done = 0;
  OrphanList list;
};

// Orphans added with `beside` false (a request's, below MPI_THREAD_MULTIPLE) stay when
// the release runs beside MPI calls (the clock thread), in their place as the oldest,
// and keep the debugger's request outstanding until a release inside MPI finishes it.
TEST_F(OrphanListBeside, ReleaseBesideMpiLeavesWhatOnlyMpiCallsMayRelease) {
  Sink sink;
  std::vector<std::unique_ptr<mpidbg_record_header>> recs;
  for (uint32_t i = 0; i < 70; ++i) {  // more than one callback batch
    auto* h = new mpidbg_record_header{};
    h->reserved = i;
    recs.emplace_back(h);
    list.Add(h, &Release, &sink, /*beside=*/i % 3 != 0);
  }
  std::vector<uint32_t> stays, goes;
  for (uint32_t i = 0; i < 70; ++i) (i % 3 == 0 ? stays : goes).push_back(i);

  asked = 1;
  EXPECT_TRUE(list.CarryOutAskedRelease(/*beside_mpi=*/true));
  EXPECT_EQ(sink.released, goes);
  EXPECT_EQ(done, 0u) << "orphans left for an MPI call: the request stays outstanding";
  EXPECT_EQ(list.size(), stays.size());
  EXPECT_EQ(root.count, stays.size());
  EXPECT_EQ(root.releases, goes.size());

  // They are still the oldest, in their order: a budget now evicts them first.
  auto* newer = new mpidbg_record_header{};
  newer->reserved = 1000;
  recs.emplace_back(newer);
  sink.released.clear();
  root.budget = static_cast<uint32_t>(stays.size());
  list.Add(newer, &Release, &sink);  // inside MPI: finishes the outstanding release first
  EXPECT_EQ(done, 1u);
  EXPECT_EQ(sink.released, stays);
  EXPECT_EQ(list.size(), 1u);
  EXPECT_EQ(root.releases, 70u);

  // Beside MPI with nothing of the kind left: released and acknowledged at once.
  asked = 2;
  sink.released.clear();
  EXPECT_TRUE(list.CarryOutAskedRelease(/*beside_mpi=*/true));
  EXPECT_EQ(done, 2u);
  EXPECT_EQ(sink.released, std::vector<uint32_t>{1000});
  EXPECT_EQ(list.size(), 0u);
  list.ReleaseMemoryForTests();
}

// An MPI call's release that runs while the clock thread's release is midway (here:
// from inside one of its callbacks, where the clock thread holds aside the orphans only
// MPI calls may release) must not acknowledge the request: those orphans are not
// released yet. The next release inside MPI, once the clock thread's is over, finishes
// it.
struct Interleaved {
  OrphanList* list = nullptr;
  uint64_t* done = nullptr;
  uint64_t done_seen_inside = ~uint64_t{0};
  bool ran = false;
};

void ReleaseAndInterleave(mpidbg_record_header*, void* owner) {
  auto* in = static_cast<Interleaved*>(owner);
  if (in->ran) return;
  in->ran = true;
  in->list->CarryOutAskedRelease(/*beside_mpi=*/false);  // an MPI call's free, meanwhile
  in->done_seen_inside = *in->done;
}

void ReleaseQuietly(mpidbg_record_header*, void*) {}

TEST_F(OrphanListBeside, AReleaseInsideMpiMeanwhileDoesNotAcknowledgeEarly) {
  Interleaved in{&list, &done};
  mpidbg_record_header request_orphan{}, other{};
  list.Add(&request_orphan, &ReleaseQuietly, nullptr, /*beside=*/false);
  list.Add(&other, &ReleaseAndInterleave, &in, /*beside=*/true);

  asked = 1;
  EXPECT_TRUE(list.CarryOutAskedRelease(/*beside_mpi=*/true));
  ASSERT_TRUE(in.ran);
  EXPECT_EQ(in.done_seen_inside, 0u) << "acknowledged while an orphan was held aside";
  EXPECT_EQ(done, 0u);
  EXPECT_EQ(list.size(), 1u) << "the request's orphan stays, in its place";

  list.CarryOutAskedRelease(/*beside_mpi=*/false);  // the next MPI call's free
  EXPECT_EQ(done, 1u);
  EXPECT_EQ(list.size(), 0u);
  list.ReleaseMemoryForTests();
}

TEST_F(OrphanListTest, IgnoresNullArguments) {
  list.Add(nullptr, &Release, &sink);
  mpidbg_record_header h{};
  list.Add(&h, nullptr, &sink);
  EXPECT_EQ(root.count, 0u);
  EXPECT_EQ(list.size(), 0u);
}

}  // namespace
