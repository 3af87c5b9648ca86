// read_stacks_view.cc — the reduced view: stacks, the MPI call each thread is in, and
// the rank from the environment.
#include "host/snapshot/read_stacks_view.h"

#include <algorithm>

#include "host/target/rank_environment.h"
#include "host/stacks/call_arguments.h"
#include "host/stacks/read_stacks.h"
#include "host/stacks/stack_call.h"

namespace mpidbg::host {
namespace {

// Where an Open MPI predefined communicator lives. A program that names it gets a copy
// of the object (a copy relocation) and every module uses that copy, so the symbol's
// address depends on which module's definition one finds; Open MPI's own pointer to it
// (`ompi_mpi_comm_world_addr`, relocated at load) holds the one in use.
std::optional<uint64_t> OpenMpiObject(OpenedTarget& target, const std::string& name) {
  if (std::optional<uint64_t> slot = target.symbols().FindSymbol(name + "_addr")) {
    uint64_t value = 0;
    if (target.memory().Read(TargetAddr(*slot), sizeof value, &value).ok() && value != 0) {
      return value;
    }
  }
  return target.symbols().FindSymbol(name);
}

// How the target's MPI library encodes MPI_COMM_WORLD and the wildcards.
MpiConstants ConstantsOf(OpenedTarget& target, const std::string& library) {
  std::optional<uint64_t> world = OpenMpiObject(target, "ompi_mpi_comm_world");
  if (world) {
    return OpenMpiConstants(*world, OpenMpiObject(target, "ompi_mpi_comm_self").value_or(0));
  }
  if (library.find("mpich") != std::string::npos || target.symbols().FindSymbol("MPIR_Process")) {
    return MpichConstants();
  }
  return MpiConstants{};
}

}  // namespace

Result<model::ProcessSnapshot> ReadStacksView(OpenedTarget& target, const std::string& library) {
  const std::string who = "process " + std::to_string(target.pid());
  if (!StacksWanted()) {
    return Status::NoSupport(who + " has no MPI debugging support, and stacks are turned off "
                             "(MPIDBG_STACKS=0)");
  }
  model::ProcessSnapshot snap;
  snap.process.view = "stacks";
  snap.process.pid = target.pid();
  snap.process.source = target.source();
  snap.process.mpi_library = library;
  const RankFromEnvironment rank = RankOfEnvironment(TargetEnvironment(target));
  snap.process.rank = rank.rank;
  snap.process.size = rank.size;
  snap.process.rank_from = rank.from;

  const MpiConstants constants = ConstantsOf(target, library);
  std::map<int64_t, ThreadStack> stacks =
      ReadStacks(target, target.tids(), nullptr, /*call_sites=*/true);
  Status closed = target.Close();
  if (!closed.ok()) return closed;
  std::optional<std::string> first_error;
  for (auto& [tid, stack] : stacks) {
    if (stack.frames.empty()) {
      if (!first_error) first_error = stack.error.value_or("no frames");
      // A thread that could not be unwound may be any thread: kept, state unknown.
      snap.threads.push_back(ThreadFromStack(tid, {}, std::move(stack.error)));
      continue;
    }
    if (!HasProgramFrame(stack.frames)) continue;  // the MPI library's own thread
    model::Thread thread = ThreadFromStack(tid, std::move(stack.frames), std::move(stack.error));
    ApplyCallArguments(stack.call_site, constants, &thread);
    snap.threads.push_back(std::move(thread));
  }
  bool any_unwound = false;
  for (const model::Thread& t : snap.threads) any_unwound = any_unwound || !t.frames.empty();
  if (!any_unwound) {
    return Status::Unreadable(who + " has no MPI debugging support and its stacks cannot be read: " +
                              first_error.value_or("no thread has a frame of the program"));
  }
  // The main thread (tid = pid) first, as the runtime lists it.
  std::stable_partition(snap.threads.begin(), snap.threads.end(),
                        [&](const model::Thread& t) { return t.tid == snap.process.pid; });
  return snap;
}

}  // namespace mpidbg::host
