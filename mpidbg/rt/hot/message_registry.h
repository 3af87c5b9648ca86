// message_registry.h — MPI_Message records (records.h, mpidbg_message_record).
//
// A successful MPI_Mprobe, or an MPI_Improbe that found a message, creates a record in
// g_messages in state MATCHED (communicator, source, tag and size from the probe's
// status; MPIDBG_MESSAGE_NO_PROC for a probe of MPI_PROC_NULL). MPI_Mrecv/MPI_Imrecv
// consume the handle: the record goes to state RECEIVED and is freed into an orphan,
// released at once (MPI keeps nothing of a consumed message handle; an MPI_Imrecv's
// transfer continues under its request's record). One record per matched message;
// not on the path of ordinary sends and receives.
#ifndef MPIDBG_RT_MESSAGE_REGISTRY_H
#define MPIDBG_RT_MESSAGE_REGISTRY_H

#include <mpi.h>
#include <stdint.h>

#include "mpidbg/records.h"

namespace mpidbg::rt {

struct CommView;

// Records a matched message; `status` is the probe's.
void RecordMatchedMessage(MPI_Message message, int32_t call, const CommView& comm,
                          const MPI_Status& status);

// The envelope of a matched message handle, for the receive that consumes it.
struct MessageEnvelope {
  uint64_t comm_handle = 0;
  uint64_t comm_job_id = 0;
  int64_t bytes = -1;
  int32_t source = MPIDBG_RANK_UNKNOWN;
  int32_t source_world = MPIDBG_RANK_UNKNOWN;
  int32_t tag = MPIDBG_TAG_ANY;
  bool no_proc = false;
};
bool FindMessage(uint64_t handle, MessageEnvelope* out);

// MPI_Mrecv/MPI_Imrecv consumed `handle`.
void ConsumeMessage(uint64_t handle);

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_MESSAGE_REGISTRY_H
