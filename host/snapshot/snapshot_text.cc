// snapshot_text.cc — the text the commands print without --json.
#include "host/snapshot/snapshot_text.h"

#include <cstdio>
#include <sstream>

#include "host/util/hex_string.h"
#include "host/util/rank_list_text.h"

namespace mpidbg::host {
namespace {

std::string RankText(const model::Rank& r) {
  switch (r.kind) {
    case model::Rank::Kind::kRank:
      return std::to_string(r.value);
    case model::Rank::Kind::kAnySource:
      return "ANY_SOURCE";
    case model::Rank::Kind::kProcNull:
      return "PROC_NULL";
    default:
      return "?";
  }
}

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

void OperationList(std::ostringstream& out, const char* title,
                   const std::vector<model::Operation>& ops) {
  out << "    " << title << ": ";
  if (ops.empty()) {
    out << "none\n";
    return;
  }
  out << ops.size() << "\n";
  for (const model::Operation& op : ops) out << "      " << OperationText(op) << "\n";
}

}  // namespace

std::string OperationText(const model::Operation& op) {
  std::ostringstream out;
  out << (op.call.empty() ? "?" : op.call) << "(" << (op.is_send ? "dest=" : "source=")
      << RankText(op.peer);
  if (op.peer_world.is_rank() && !(op.peer_world == op.peer)) {
    out << " [world " << op.peer_world.value << "]";
  }
  out << ", tag=" << (op.tag.any ? std::string("ANY_TAG") : std::to_string(op.tag.value));
  if (!op.comm_name.empty()) {
    out << ", comm=" << op.comm_name;
  } else if (!op.comm_id.empty()) {
    out << ", comm=" << op.comm_id;
  }
  out << ") " << op.bytes << " bytes";
  if (!op.datatype.empty()) out << " " << op.datatype << " x" << op.count;
  out << ", " << op.status;
  if (op.mode && *op.mode != "standard") out << ", " << *op.mode;
  if (op.persistent) out << ", persistent";
  if (op.partitions) {
    out << ", " << op.partitions->done << " of " << op.partitions->count << " partitions "
        << (op.is_send ? "ready" : "arrived");
  }
  if (op.request) out << ", request " << HexString(*op.request);
  if (op.blocking) out << ", blocking";
  return out.str();
}

std::string ProcessHeaderText(const model::ProcessSnapshot& snap) {
  const model::ProcessInfo& p = snap.process;
  std::ostringstream out;
  if (p.view == "stacks") {
    out << "REDUCED VIEW (stacks only): this process does not carry mpidbg's runtime; run it "
           "under `mpidbg run` to see communicators, pending messages and requests.\n";
  }
  out << "process " << p.pid;
  if (p.rank >= 0) out << ", rank " << p.rank << " of " << p.size;
  if (p.rank >= 0 && !p.rank_from.empty()) out << " (rank from " << p.rank_from << ")";
  if (!p.hostname.empty()) out << ", host " << p.hostname;
  out << " (" << p.source << ")\n";
  // The process's place in MPI's life, not whether it runs: a rank asleep in sleep()
  // between MPI calls is "initialized", never "running".
  if (p.state == "before_init") {
    out << "  MPI: not initialized yet\n";
  } else if (p.state == "running") {
    out << "  MPI: initialized\n";
  } else if (p.state == "finalized") {
    out << "  MPI: finalized\n";
  } else if (!p.state.empty()) {
    out << "  MPI: " << p.state << "\n";
  }
  if (!p.mpi_library.empty()) out << "  MPI library: " << p.mpi_library << "\n";
  if (!p.thread_level.empty()) out << "  thread level: " << p.thread_level << "\n";
  if (!p.plugin.empty()) out << "  message-queue DLL: " << p.plugin << "\n";
  if (p.damage && p.damage->Partial()) {
    out << "  PARTIAL VIEW: " << p.damage->Sentence() << "\n";
  }
  if (snap.launch) {
    const model::LaunchInfo& l = *snap.launch;
    out << "  launcher: " << l.launcher;
    if (!l.job_id.empty()) out << ", job " << l.job_id;
    if (l.appnum >= 0) out << ", appnum " << l.appnum;
    if (l.universe_size >= 0) out << ", universe size " << l.universe_size;
    out << "\n";
    out << "  orphans: " << l.orphan_count << " kept (budget " << l.orphan_budget
        << (l.orphan_keep_all ? ", keep all" : "") << "), " << l.orphan_evictions
        << " evicted, " << l.orphan_releases << " released\n";
    if (l.debug_gate_hold) out << "  held in MPI_Init until a debugger releases MPIR_debug_gate\n";
  }
  if (snap.mpi_t) {
    out << "  MPI_T: " << snap.mpi_t->cvars.size() << " control variables, "
        << snap.mpi_t->pvars.size() << " performance variables, "
        << snap.mpi_t->categories.size() << " categories (--json lists them)\n";
  }
  return out.str();
}

// "#1 wait_for_token at hang.c:7", or with the module where there is no line table:
// "#0 MPI_Recv in libmpidbg_rt_mpich.so".
void StackLines(std::ostringstream& out, const model::Thread& t) {
  if (t.frames.empty()) {
    if (t.stack_error) out << "      stack not read: " << *t.stack_error << "\n";
    return;
  }
  for (std::size_t i = 0; i < t.frames.size(); ++i) {
    const model::Frame& f = t.frames[i];
    out << "      #" << i << ' ' << (f.function ? *f.function : HexString(f.pc));
    if (f.file && f.line) {
      out << " at " << *f.file << ':' << *f.line;
    } else if (!f.module.empty()) {
      out << " in " << f.module;
    }
    out << "\n";
  }
  if (t.stack_error) out << "      (" << *t.stack_error << ")\n";
}

// A thread that paused the runtime's recording: what its lines above rest on.
void PausedLine(std::ostringstream& out, const model::Thread& t) {
  if (!t.recording_paused) return;
  out << "      (recording paused by the program: its MPI calls are not recorded";
  if (t.state_from == "stack") {
    out << "; state and call read from its stack";
  } else if (t.state != "not_in_mpi" && t.state != "unknown") {
    // A completion of requests posted before the pause, MPI_Init or MPI_Finalize.
    out << ", but for this one, recorded despite the pause";
  }
  out << ")\n";
}

std::string ThreadsText(const model::ProcessSnapshot& snap) {
  std::ostringstream out;
  out << "threads: " << snap.threads.size() << "\n";
  for (const model::Thread& t : snap.threads) {
    out << "  " << t.tid << "  ";
    if (t.state == "not_in_mpi") {
      out << "not in MPI\n";
      PausedLine(out, t);
      StackLines(out, t);
      continue;
    }
    if (t.state == "unknown") {
      out << (snap.process.view == "stacks" || t.recording_paused
                  ? "state unknown (its stack could not be read)\n"
                  : "state unknown (the message-queue DLL does not report threads)\n");
      PausedLine(out, t);
      StackLines(out, t);
      continue;
    }
    out << (t.state == "blocked" ? "blocked in " : "in ") << t.call.value_or("an MPI call");
    if (t.seconds_in_call) out << " for " << Seconds(*t.seconds_in_call);
    if (!t.comm_name.empty()) out << " on " << t.comm_name;
    if (t.root) out << " (root " << *t.root << ")";
    out << "\n";
    if (t.operation && !t.arguments_from.empty()) {
      // Only the envelope is known: no size, status or request.
      const std::string text = OperationText(*t.operation);
      out << "      " << text.substr(0, text.find(") ") + 1) << "\n";
    } else if (t.operation) {
      out << "      " << OperationText(*t.operation) << "\n";
    }
    if (!t.arguments_from.empty()) out << "      (arguments read from the caller's frame)\n";
    PausedLine(out, t);
    for (const model::Operation& op : t.waited) out << "      waits for " << OperationText(op) << "\n";
    if (t.waited_unknown > 0) {
      out << "      waits for " << t.waited_unknown << " request(s) not known to mpidbg\n";
    }
    StackLines(out, t);
  }
  return out.str();
}

std::string QueuesText(const model::ProcessSnapshot& snap) {
  std::ostringstream out;
  if (snap.process.view == "stacks") {
    // Not "0": the stacks say nothing of communicators or queues.
    out << "communicators: not known in the reduced view (stacks only)\n";
    return out.str();
  }
  out << "communicators: " << snap.communicators.size() << "\n";
  for (const model::Communicator& c : snap.communicators) {
    out << "  " << (c.name.empty() ? "(unnamed)" : c.name) << "  id " << c.id << ", handle "
        << HexString(c.handle) << ", " << c.kind << ", rank " << c.rank << " of " << c.size;
    if (!c.world_ranks.empty()) out << ", world ranks " << RankListText(c.world_ranks.ranks());
    if (c.remote_job) {
      out << ", remote group: job " << (c.remote_job->job_id.empty() ? "(unnamed)" : c.remote_job->job_id)
          << " world ranks " << RankListText(c.remote_job->world_ranks);
    } else if (c.remote_world_ranks) {
      out << ", remote world ranks " << RankListText(c.remote_world_ranks->ranks());
    }
    if (c.topology) out << ", " << *c.topology << " topology";
    if (c.neighbors) {
      // In MPI's order, repeats kept: a periodic dimension of two names one rank twice.
      auto list = [](const std::vector<int>& ranks) {
        std::string text;
        for (int r : ranks) text += (text.empty() ? "" : " ") + std::to_string(r);
        return text.empty() ? std::string("none") : text;
      };
      out << " (neighbours: from " << list(c.neighbors->sources) << ", to "
          << list(c.neighbors->destinations) << ")";
    }
    if (c.freed) out << ", freed";
    out << "\n";
    OperationList(out, "pending sends", c.pending_sends);
    OperationList(out, "pending receives", c.pending_receives);
    if (c.unexpected) {
      OperationList(out, "unexpected messages", *c.unexpected);
    } else {
      out << "    unexpected messages: not known for this target\n";
    }
  }
  return out.str();
}

std::string SnapshotText(const model::ProcessSnapshot& snap) {
  return ProcessHeaderText(snap) + "\n" + ThreadsText(snap) + "\n" + QueuesText(snap);
}

}  // namespace mpidbg::host
