// read_with_dll.cc — load, start a session, read, close.
#include "host/snapshot/read_with_dll.h"

#include "host/objects/object_listing.h"
#include "host/plugin_host/handle_dll.h"
#include "host/plugin_host/handle_session.h"
#include "host/snapshot/snapshot_reader.h"
#include "host/stacks/read_stacks.h"
#include "host/stacks/stack_call.h"

namespace mpidbg::host {
namespace {

// Every object of every kind for handles[], through the same DLL's handle interface;
// nullopt when the DLL has none or cannot list (handles[] then falls back to the
// communicators, as before the listing existed).
std::optional<model::ObjectListing> ReadObjectListing(OpenedTarget& target,
                                                      const PluginChoice& choice,
                                                      TargetContext* ctx) {
  auto dll = HandleDll::Load(choice.path);
  if (!dll.ok()) return std::nullopt;
  auto session = HandleSession::Start(dll.value().get(), ctx);
  if (!session.ok()) return std::nullopt;
  ListingClock clock;
  clock.live = target.is_live();
  clock.now_ns = target.capture_time_ns();
  auto listing = ListObjects(*session.value(), target.symbols().dwfl(), 0, clock);
  if (!listing.ok()) return std::nullopt;
  return std::move(listing.value());
}

}  // namespace

Result<model::ProcessSnapshot> ReadWithDll(OpenedTarget& target, const PluginChoice& choice,
                                           bool want_mpit, ReadCost* cost) {
  ReadCost ignored;
  if (cost == nullptr) cost = &ignored;
  int64_t start = MonotonicNowNs();
  auto dll = MqDll::Load(choice.path);
  if (!dll.ok()) return dll.status();
  TargetContext ctx;
  ctx.memory = &target.memory();
  ctx.symbols = &target.symbols();
  std::string image = target.image_name().empty() ? "process " + std::to_string(target.pid())
                                                  : target.image_name();
  Result<model::ProcessSnapshot> snap = Status::NoSupport("not read");
  {
    auto session = MqSession::Start(dll.value().get(), &ctx, image);
    if (!session.ok()) return session.status();
    cost->session_ns = MonotonicNowNs() - start;
    start = MonotonicNowNs();
    CaptureFacts facts;
    facts.pid = target.pid();
    facts.source = target.source();
    facts.capture_time_ns = target.capture_time_ns();
    facts.tids = target.tids();
    facts.plugin = choice.path;
    facts.want_mpit = want_mpit;
    snap = ReadSnapshot(*session.value(), ctx, facts);
  }
  cost->records_ns = MonotonicNowNs() - start;
  if (snap.ok()) snap->objects = ReadObjectListing(target, choice, &ctx);
  // Stacks while a live target's threads are still stopped; the threads are the ones
  // the snapshot lists (those that called MPI, or all of them for a foreign DLL).
  if (snap.ok() && StacksWanted()) {
    std::vector<int64_t> tids;
    for (const model::Thread& t : snap->threads) tids.push_back(t.tid);
    start = MonotonicNowNs();
    AttachStacks(ReadStacks(target, tids), &snap->threads);
    cost->stacks_ns = MonotonicNowNs() - start;
    cost->threads = static_cast<int>(tids.size());
  }
  // A thread whose recording is paused: its records cannot say where it is.
  if (snap.ok()) {
    for (model::Thread& t : snap->threads) StateFromStackWhenPaused(&t);
  }
  start = MonotonicNowNs();
  Status closed = target.Close();
  cost->detach_ns = MonotonicNowNs() - start;
  if (snap.ok() && !closed.ok()) return closed;
  return snap;
}

}  // namespace mpidbg::host
