// call_arguments.cc — where each MPI call takes its peer, tag, communicator and root.
#include "host/stacks/call_arguments.h"

#include <cstdio>
#include <string_view>

namespace mpidbg::host {
namespace {

// Argument positions (0-based, C binding); -1: none, or past the six register arguments.
struct Signature {
  std::string_view call;
  int peer;
  bool is_send;
  int tag;
  int comm;
  int root;
};

constexpr Signature kSignatures[] = {
    // MPI_Send(buf, count, datatype, dest, tag, comm)
    {"MPI_Send", 3, true, 4, 5, -1},
    {"MPI_Ssend", 3, true, 4, 5, -1},
    {"MPI_Bsend", 3, true, 4, 5, -1},
    {"MPI_Rsend", 3, true, 4, 5, -1},
    // MPI_Recv(buf, count, datatype, source, tag, comm, status)
    {"MPI_Recv", 3, false, 4, 5, -1},
    // MPI_Probe(source, tag, comm, status), MPI_Mprobe(source, tag, comm, message, status)
    {"MPI_Probe", 0, false, 1, 2, -1},
    {"MPI_Mprobe", 0, false, 1, 2, -1},
    // MPI_Barrier(comm)
    {"MPI_Barrier", -1, false, -1, 0, -1},
    // MPI_Bcast(buf, count, datatype, root, comm)
    {"MPI_Bcast", -1, false, -1, 4, 3},
    // MPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm); Scan, Exscan and
    // Reduce_scatter_block the same
    {"MPI_Allreduce", -1, false, -1, 5, -1},
    {"MPI_Scan", -1, false, -1, 5, -1},
    {"MPI_Exscan", -1, false, -1, 5, -1},
    {"MPI_Reduce_scatter_block", -1, false, -1, 5, -1},
    // MPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm): comm is the 7th
    {"MPI_Reduce", -1, false, -1, -1, 5},
    // Communicator creation: the parent communicator first
    {"MPI_Comm_split", -1, false, -1, 0, -1},
    {"MPI_Comm_split_type", -1, false, -1, 0, -1},
    {"MPI_Comm_dup", -1, false, -1, 0, -1},
    {"MPI_Comm_create", -1, false, -1, 0, -1},
};

std::optional<uint64_t> Arg(const CallSiteValues& v, int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= kRegisterArguments) return std::nullopt;
  return v.args[static_cast<std::size_t>(index)];
}

// An int argument: the low 32 bits of its register, sign-extended.
int AsInt(uint64_t value) { return static_cast<int>(static_cast<int32_t>(value & 0xffffffffu)); }

std::string CommName(uint64_t handle, const MpiConstants& mpi) {
  if (mpi.known && mpi.comm_world && handle == *mpi.comm_world) return "MPI_COMM_WORLD";
  if (mpi.known && mpi.comm_self && handle == *mpi.comm_self) return "MPI_COMM_SELF";
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(handle));
  return hex;
}

model::Rank PeerRank(int value, const MpiConstants& mpi) {
  if (mpi.known && value == mpi.any_source) return model::Rank::AnySource();
  if (mpi.known && value == mpi.proc_null) return model::Rank::ProcNull();
  if (value < 0) return model::Rank::Unknown();
  return model::Rank::Of(value);
}

}  // namespace

MpiConstants MpichConstants() {
  MpiConstants c;
  c.comm_world = 0x44000000;
  c.comm_self = 0x44000001;
  c.any_source = -2;
  c.proc_null = -1;
  c.any_tag = -1;
  c.known = true;
  return c;
}

MpiConstants OpenMpiConstants(uint64_t comm_world, uint64_t comm_self) {
  MpiConstants c;
  c.comm_world = comm_world;
  c.comm_self = comm_self;
  c.any_source = -1;
  c.proc_null = -2;
  c.any_tag = -1;
  c.known = true;
  return c;
}

void ApplyCallArguments(const CallSiteValues& values, const MpiConstants& mpi, model::Thread* thread) {
  if (!values.found || !thread->call) return;
  const Signature* sig = nullptr;
  for (const Signature& s : kSignatures) {
    if (s.call == *thread->call) sig = &s;
  }
  if (sig == nullptr) return;
  const std::optional<uint64_t> comm = Arg(values, sig->comm);
  const std::optional<uint64_t> peer = Arg(values, sig->peer);
  const std::optional<uint64_t> tag = Arg(values, sig->tag);
  const std::optional<uint64_t> root = Arg(values, sig->root);
  bool read = false;
  if (sig->peer >= 0) {
    // An operation only when its whole envelope is known: a tag or peer shown as a
    // number must be the one passed.
    if (comm && peer && tag && PeerRank(AsInt(*peer), mpi).kind != model::Rank::Kind::kUnknown) {
      model::Operation op;
      op.call = *thread->call;
      op.is_send = sig->is_send;
      op.peer = PeerRank(AsInt(*peer), mpi);
      op.tag = mpi.known && AsInt(*tag) == mpi.any_tag && !sig->is_send
                   ? model::Tag{true, 0}
                   : model::Tag{false, AsInt(*tag)};
      op.comm_name = CommName(*comm, mpi);
      if (op.comm_name == "MPI_COMM_WORLD" && op.peer.is_rank()) op.peer_world = op.peer;
      op.blocking = true;
      thread->operation = std::move(op);
      read = true;
    }
  } else {
    if (comm) {
      thread->comm_name = CommName(*comm, mpi);
      read = true;
    }
    if (root) {
      thread->root = AsInt(*root);
      read = true;
    }
  }
  if (read) thread->arguments_from = "caller_frame";
}

}  // namespace mpidbg::host
