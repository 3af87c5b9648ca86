// message_registry.cc — see message_registry.h.
#include "rt/hot/message_registry.h"

#include "core/normalise.h"
#include "rt/comms/comm_registry.h"
#include "rt/handle_widening.h"
#include "rt/process/registry.h"
#include "rt/hot/thread_state.h"

namespace mpidbg::rt {

void RecordMatchedMessage(MPI_Message message, int32_t call, const CommView& comm,
                          const MPI_Status& status) {
  if (message == MPI_MESSAGE_NULL) return;
  const bool no_proc = message == MPI_MESSAGE_NO_PROC;
  mpidbg_object_head* head =
      g_messages.BeginCreate(HandleToU64(message), call, no_proc ? MPIDBG_MESSAGE_NO_PROC : 0u);
  if (head == nullptr) return;
  auto* rec = core::As<mpidbg_message_record>(head);
  rec->create_pc = (head->hdr.flags & MPIDBG_REC_PREDEFINED) != 0 ? 0 : CurrentCallSite();
  MPI_Count bytes = 0;
  if (PMPI_Get_elements_x(&status, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes < 0) bytes = 0;
  rec->comm_handle = comm.handle;
  rec->comm_job_id = comm.job_id;
  rec->bytes = bytes;
  rec->source = no_proc ? MPIDBG_RANK_PROC_NULL : core::NormaliseRank(status.MPI_SOURCE, kEncodings);
  rec->source_world = PeerWorld(comm, rec->source);
  rec->tag = core::NormaliseTag(status.MPI_TAG, kEncodings);
  rec->state = MPIDBG_MESSAGE_MATCHED;
  g_messages.EndCreate(head);
}

bool FindMessage(uint64_t handle, MessageEnvelope* out) {
  mpidbg_object_head* head = g_messages.FindLive(handle);
  if (head == nullptr) return false;
  const auto* rec = core::As<mpidbg_message_record>(head);
  out->comm_handle = rec->comm_handle;
  out->comm_job_id = rec->comm_job_id;
  out->bytes = rec->bytes;
  out->source = rec->source;
  out->source_world = rec->source_world;
  out->tag = rec->tag;
  out->no_proc = (rec->obj.hdr.flags & MPIDBG_MESSAGE_NO_PROC) != 0;
  return true;
}

void ConsumeMessage(uint64_t handle) {
  mpidbg_object_head* head = g_messages.FindLive(handle);
  if (head == nullptr) return;
  g_messages.BeginUpdate(head);
  core::As<mpidbg_message_record>(head)->state = MPIDBG_MESSAGE_RECEIVED;
  g_messages.EndUpdate(head);
  g_messages.MarkFreed(handle, /*released_now=*/true);
}

}  // namespace mpidbg::rt
