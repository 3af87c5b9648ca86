#include "scenario.h"

#include <cstring>

namespace mpidbg::test {

uint64_t request_value(uint64_t base, uint32_t handle_size) {
  return handle_size == 8 ? (uint64_t{0x55d0} << 32) | base : base;
}

uint64_t base_address(const TargetKind& kind) {
  return kind.pointer_size == 4 ? uint64_t{0x10000000} : uint64_t{0x7f1200000000};
}

Scenario build_main_scenario(const TargetKind& kind, uint32_t handle_size,
                             const ImageBuilder::Options& options) {
  Scenario s;
  s.handle_size = handle_size;
  s.target = std::make_unique<FakeTarget>(kind.pointer_size, kind.big_endian);
  s.builder = std::make_unique<ImageBuilder>(s.target.get(), base_address(kind), options);
  ImageBuilder& b = *s.builder;

  mpidbg_root& root = b.root;
  root.generation = 7;
  root.flavour = handle_size == 4 ? MPIDBG_FLAVOUR_MPICH : MPIDBG_FLAVOUR_OPENMPI;
  root.handle_size = handle_size;
  root.process_state = MPIDBG_PROCESS_RUNNING;
  root.world_rank = 1;
  root.world_size = 4;
  root.thread_level = MPIDBG_THREAD_MULTIPLE;
  root.pid = 4242;
  root.mpi_any_source = -2;
  root.mpi_any_tag = -1;
  root.mpi_proc_null = -1;
  root.comm_world_handle = kWorldHandle;
  root.comm_self_handle = kSelfHandle;
  root.init_time_ns = 1700000000000000000;
  root.post_counter = 20;
  std::strcpy(root.mpi_library, "MPICH Version: 4.0.2");
  std::strcpy(root.hostname, "node-a");

  s.world_ranks = b.add_int32_array({0, 1, 2, 3});
  const uint64_t self_ranks = b.add_int32_array({1});
  const uint64_t split_ranks = b.add_int32_array({1, 3});
  const uint64_t inter_local = b.add_int32_array({1, 3});
  const uint64_t inter_remote = b.add_int32_array({0, 2});

  // Added out of creation order: the plugin must sort by create_serial.
  mpidbg_comm_record split = make_comm(kSplitHandle, kSplitJob, 0, 2, split_ranks, 4, "evens");
  split.creator = MPIDBG_CALL_MPI_Comm_split;
  split.parent_job_id = kWorldJob;
  split.split_color = 1;
  split.split_key = 0;
  b.add_comm(split);

  mpidbg_comm_record world = make_comm(kWorldHandle, kWorldJob, 1, 4, s.world_ranks, 1, "MPI_COMM_WORLD");
  world.hdr.flags = MPIDBG_REC_PREDEFINED;
  world.creator = MPIDBG_CALL_MPIDBG_PREDEFINED;
  b.add_comm(world);

  // Predefined but unnamed: the plugin names it by its handle.
  mpidbg_comm_record self = make_comm(kSelfHandle, kSelfJob, 0, 1, self_ranks, 2, "");
  self.hdr.flags = MPIDBG_REC_PREDEFINED;
  self.creator = MPIDBG_CALL_MPIDBG_PREDEFINED;
  b.add_comm(self);

  mpidbg_comm_record dup = make_comm(kDupHandle, kDupJob, 1, 4, s.world_ranks, 3, "");
  dup.creator = MPIDBG_CALL_MPI_Comm_dup;
  dup.parent_job_id = kWorldJob;
  s.dup_comm_slot = b.add_comm(dup);

  mpidbg_comm_record inter = make_comm(kInterHandle, kInterJob, 0, 2, inter_local, 5, "inter");
  inter.hdr.flags = MPIDBG_COMM_INTER;
  inter.remote_size = 2;
  inter.remote_world_ranks = inter_remote;
  inter.creator = MPIDBG_CALL_MPI_Intercomm_create;
  b.add_comm(inter);

  mpidbg_comm_record busy = make_comm(kFreedBusyHandle, kFreedBusyJob, 1, 4, s.world_ranks, 6, "busy");
  busy.hdr.flags = MPIDBG_REC_FREED;
  busy.creator = MPIDBG_CALL_MPI_Comm_dup;
  b.add_comm(busy);

  mpidbg_comm_record idle = make_comm(kFreedIdleHandle, kFreedIdleJob, 1, 4, s.world_ranks, 7, "idle");
  idle.hdr.flags = MPIDBG_REC_FREED;
  b.add_comm(idle);

  // Operations on MPI_COMM_WORLD, added out of posting order.
  mpidbg_operation_record probe = make_op(MPIDBG_CALL_MPI_Probe, MPIDBG_OPERATION_PROBE, kWorldHandle, kWorldJob, 15, 3, 3, 1);
  probe.hdr.flags = MPIDBG_OPERATION_BLOCKING;
  probe.tid = 1260;
  b.add_op(probe);

  mpidbg_operation_record isend = make_op(MPIDBG_CALL_MPI_Isend, MPIDBG_OPERATION_SEND, kWorldHandle, kWorldJob, 10, 2, 2, 7);
  isend.request = request_value(kIsendRequest, handle_size);
  isend.count = 10;
  isend.bytes = 40;
  isend.buffer = base_address(kind) + 0x9000;
  isend.datatype = 0x4c00040b;
  std::strcpy(isend.datatype_name, "MPI_INT");
  isend.tid = kWaitallTid;
  b.add_op(isend);

  mpidbg_operation_record irecv_any = make_op(MPIDBG_CALL_MPI_Irecv, MPIDBG_OPERATION_RECV, kWorldHandle, kWorldJob, 11,
                                       MPIDBG_RANK_ANY_SOURCE, MPIDBG_RANK_ANY_SOURCE, MPIDBG_TAG_ANY);
  irecv_any.request = request_value(kIrecvAnyRequest, handle_size);
  irecv_any.count = 3;
  irecv_any.bytes = 24;
  std::strcpy(irecv_any.datatype_name, "MPI_DOUBLE");
  irecv_any.tid = kWaitallTid;
  b.add_op(irecv_any);

  mpidbg_operation_record ibsend = make_op(MPIDBG_CALL_MPI_Ibsend, MPIDBG_OPERATION_SEND, kWorldHandle, kWorldJob, 12, 3, 3, 8);
  ibsend.request = request_value(kIbsendRequest, handle_size);
  ibsend.mode = MPIDBG_MODE_BUFFERED;
  ibsend.count = static_cast<int64_t>(kBigBytes);
  ibsend.bytes = static_cast<int64_t>(kBigBytes);
  std::strcpy(ibsend.datatype_name, "MPI_BYTE");
  b.add_op(ibsend);

  mpidbg_operation_record recv = make_op(MPIDBG_CALL_MPI_Recv, MPIDBG_OPERATION_RECV, kWorldHandle, kWorldJob, 13, 0, 0, 5);
  recv.hdr.flags = MPIDBG_OPERATION_BLOCKING;
  recv.count = 1;
  recv.bytes = 4;
  recv.tid = kBlockedRecvTid;
  std::strcpy(recv.datatype_name, "MPI_INT");
  s.blocked_recv_op_slot = b.add_op(recv);

  mpidbg_operation_record matched = make_op(MPIDBG_CALL_MPI_Irecv, MPIDBG_OPERATION_RECV, kWorldHandle, kWorldJob, 14,
                                     MPIDBG_RANK_ANY_SOURCE, MPIDBG_RANK_ANY_SOURCE, 9);
  matched.request = request_value(kMatchedRequest, handle_size);
  matched.status = MPIDBG_OPERATION_MATCHED;
  matched.actual_source = 2;
  matched.actual_tag = 9;
  matched.actual_bytes = 16;
  matched.bytes = 64;
  b.add_op(matched);

  mpidbg_operation_record inactive = make_op(MPIDBG_CALL_MPI_Send_init, MPIDBG_OPERATION_SEND, kWorldHandle, kWorldJob, 16, 2, 2, 3);
  inactive.hdr.flags = MPIDBG_OPERATION_PERSISTENT | MPIDBG_OPERATION_INACTIVE;
  inactive.request = request_value(0xac000010, handle_size);
  b.add_op(inactive);

  mpidbg_operation_record ibarrier = make_op(MPIDBG_CALL_MPI_Ibarrier, MPIDBG_OPERATION_COLLECTIVE, kWorldHandle, kWorldJob, 17,
                                      -1, -1, 0);
  ibarrier.request = request_value(0xac000011, handle_size);
  b.add_op(ibarrier);

  // On the dup: the runtime did not know the peer's world rank.
  mpidbg_operation_record issend = make_op(MPIDBG_CALL_MPI_Issend, MPIDBG_OPERATION_SEND, kDupHandle, kDupJob, 9, 3,
                                    MPIDBG_RANK_UNKNOWN, 4);
  issend.mode = MPIDBG_MODE_SYNCHRONOUS;
  issend.request = request_value(0xac000020, handle_size);
  s.dup_op_slot = b.add_op(issend);

  // On the freed communicator.
  mpidbg_operation_record late = make_op(MPIDBG_CALL_MPI_Irecv, MPIDBG_OPERATION_RECV, kFreedBusyHandle, kFreedBusyJob, 18, 2, 2, 11);
  late.request = request_value(0xac000030, handle_size);
  b.add_op(late);

  // On the intercommunicator: the peer is a rank of the remote group.
  mpidbg_operation_record remote = make_op(MPIDBG_CALL_MPI_Irecv, MPIDBG_OPERATION_RECV, kInterHandle, kInterJob, 19, 1,
                                    MPIDBG_RANK_UNKNOWN, 2);
  remote.status = MPIDBG_OPERATION_COMPLETE;
  remote.actual_source = 1;
  remote.actual_tag = 2;
  remote.actual_bytes = 8;
  remote.request = request_value(0xac000040, handle_size);
  b.add_op(remote);

  // Threads.
  mpidbg_thread_record blocked{};
  blocked.tid = kBlockedRecvTid;
  blocked.state = MPIDBG_THREAD_BLOCKED;
  blocked.call = MPIDBG_CALL_MPI_Recv;
  blocked.entry_time_ns = 1700000000500000000;
  blocked.comm_handle = kWorldHandle;
  blocked.comm_job_id = kWorldJob;
  blocked.op = s.blocked_recv_op_slot;
  blocked.calls = 99;
  blocked.root = -1;
  b.add_thread(blocked);

  const uint64_t requests = b.add_handle_array(
      {request_value(kIsendRequest, handle_size), request_value(kIrecvAnyRequest, handle_size), 0,
       request_value(0xdeadbeef, handle_size)},
      handle_size);
  mpidbg_thread_record waiting{};
  waiting.tid = kWaitallTid;
  waiting.state = MPIDBG_THREAD_BLOCKED;
  waiting.call = MPIDBG_CALL_MPI_Waitall;
  waiting.entry_time_ns = 1700000000600000000;
  waiting.requests = requests;
  waiting.request_count = 4;
  waiting.calls = 12;
  waiting.root = -1;
  b.add_thread(waiting);

  mpidbg_thread_record idle_thread{};
  idle_thread.tid = kIdleTid;
  idle_thread.state = MPIDBG_THREAD_NOT_IN_MPI;
  idle_thread.call = MPIDBG_CALL_NONE;
  idle_thread.calls = 3;
  idle_thread.root = -1;
  b.add_thread(idle_thread);

  b.commit();
  return s;
}

void set_status_layout(mpidbg_root& r, bool mpich, int pointer_size) {
  if (mpich) {
    r.status_size = 20;
    r.status_count_offset = 0;
    r.status_cancelled_offset = 4;
    r.status_source_offset = 8;
    r.status_tag_offset = 12;
    r.status_error_offset = 16;
    r.status_count_encoding = MPIDBG_STATUS_COUNT_LO_HI_CANCELLED;
  } else {
    r.status_source_offset = 0;
    r.status_tag_offset = 4;
    r.status_error_offset = 8;
    r.status_cancelled_offset = 12;
    r.status_count_offset = 16;
    r.status_size = static_cast<uint32_t>(16 + pointer_size);
    r.status_count_encoding = MPIDBG_STATUS_COUNT_SIZE_T;
  }
}

}  // namespace mpidbg::test
