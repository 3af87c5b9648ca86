// op_registry.cc — see op_registry.h (same hot-path rules).
#include "rt/op_registry.h"

#include <string.h>

#include "core/clock.h"
#include "core/handle_map.h"
#include "core/spinlock.h"
#include "rt/comm_registry.h"
#include "rt/datatype_info.h"
#include "rt/handles.h"
#include "rt/registry.h"
#include "rt/thread_state.h"

namespace mpidbg::rt {
namespace {

core::SpinLock g_lock;              // guards g_requests and updates of request records
core::HandleMap g_requests(1024);   // request handle -> op record address

mpidbg_op_record* OpAt(uint64_t address) {
  return reinterpret_cast<mpidbg_op_record*>(static_cast<uintptr_t>(address));
}

void CopyBody(mpidbg_op_record* dst, const mpidbg_op_record& src) {
  memcpy(reinterpret_cast<char*>(dst) + sizeof(mpidbg_record_header),
         reinterpret_cast<const char*>(&src) + sizeof(mpidbg_record_header),
         sizeof(mpidbg_op_record) - sizeof(mpidbg_record_header));
}

}  // namespace

void FillOp(mpidbg_op_record* rec, const OpDescription& d, uint64_t tid) {
  DatatypeInfo type;
  DescribeDatatype(d.datatype, &type);
  rec->request = 0;
  rec->comm_handle = d.comm != nullptr ? d.comm->handle : 0;
  rec->comm_job_id = d.comm != nullptr ? d.comm->job_id : 0;
  rec->post_serial = NextPostSerial();
  rec->buffer = AddressOf(d.buffer);
  rec->datatype = d.datatype == MPI_DATATYPE_NULL ? 0 : HandleToU64(d.datatype);
  rec->count = d.count;
  rec->bytes = d.bytes >= 0 ? d.bytes : d.count * type.size;
  rec->tid = tid;
  rec->post_time_ns = core::RealtimeNs();
  rec->actual_bytes = 0;
  rec->call = d.call;
  rec->direction = d.direction;
  rec->mode = d.mode;
  rec->status = d.status;
  rec->peer = d.peer;
  rec->peer_world = d.comm != nullptr ? PeerWorld(*d.comm, d.peer)
                                      : (d.peer < 0 ? d.peer : MPIDBG_RANK_UNKNOWN);
  rec->tag = d.tag;
  rec->actual_source = MPIDBG_RANK_UNKNOWN;
  rec->actual_tag = MPIDBG_TAG_ANY;
  rec->reserved = 0;
  memcpy(rec->datatype_name, type.name, sizeof rec->datatype_name);
  rec->object = d.object;
  rec->free_serial = 0;
  rec->file_offset = d.file_offset;
  rec->target_disp = d.target_disp;
  rec->extra_state = d.extra_state;
  rec->query_fn = d.query_fn;
}

void TrackRequest(uint64_t request, const OpDescription& d, uint32_t flags, uint64_t tid) {
  mpidbg_op_record body;
  FillOp(&body, d, tid);
  body.request = request;
  auto* hdr = g_op_table.Create(flags);
  if (hdr == nullptr) return;
  auto* rec = reinterpret_cast<mpidbg_op_record*>(hdr);
  CopyBody(rec, body);
  g_op_table.EndCreate(hdr);

  uint64_t previous = 0;
  {
    core::SpinGuard guard(g_lock);
    if (!g_requests.Insert(request, AddressOf(rec), &previous)) {
      previous = AddressOf(rec);  // could not index it: drop the record
    }
  }
  if (previous != 0) g_op_table.Release(&OpAt(previous)->hdr);
}

mpidbg_op_record* FindRequestOp(uint64_t request) {
  mpidbg_op_record* out = nullptr;
  FindRequestOps(&request, 1, &out);
  return out;
}

void FindRequestOps(const uint64_t* requests, int n, mpidbg_op_record** out) {
  core::SpinGuard guard(g_lock);
  for (int i = 0; i < n; ++i) {
    uint64_t address = 0;
    out[i] = g_requests.Find(requests[i], &address) ? OpAt(address) : nullptr;
  }
}

void StartRequest(uint64_t request, uint64_t tid) {
  core::SpinGuard guard(g_lock);
  uint64_t address = 0;
  if (!g_requests.Find(request, &address)) return;
  mpidbg_op_record* rec = OpAt(address);
  g_op_table.BeginUpdate(&rec->hdr);
  rec->hdr.flags &= ~MPIDBG_OP_INACTIVE;
  rec->status = MPIDBG_OP_PENDING;
  rec->post_serial = NextPostSerial();
  rec->post_time_ns = core::RealtimeNs();
  rec->tid = tid;
  g_op_table.EndUpdate(&rec->hdr);
}

void RetireRequest(uint64_t request, mpidbg_op_record* expected) {
  if (expected == nullptr) return;
  {
    core::SpinGuard guard(g_lock);
    uint64_t address = 0;
    if (!g_requests.Find(request, &address) || address != AddressOf(expected)) return;
    if ((expected->hdr.flags & MPIDBG_OP_PERSISTENT) != 0) {
      g_op_table.BeginUpdate(&expected->hdr);
      expected->hdr.flags |= MPIDBG_OP_INACTIVE;
      expected->status = MPIDBG_OP_COMPLETE;
      g_op_table.EndUpdate(&expected->hdr);
      return;
    }
    g_requests.CompareErase(request, address);
  }
  g_op_table.Release(&expected->hdr);
}

void ForgetRequest(uint64_t request) {
  uint64_t address = 0;
  {
    core::SpinGuard guard(g_lock);
    if (!g_requests.Erase(request, &address)) return;
  }
  g_op_table.Release(&OpAt(address)->hdr);
}

uint64_t BeginBlockingOp(ThreadState* ts, int which, const OpDescription& d) {
  mpidbg_op_record*& slot = ts->blocking_ops[which];
  if (slot == nullptr) {
    slot = reinterpret_cast<mpidbg_op_record*>(g_op_table.TakeSlot());
    if (slot == nullptr) return 0;
  }
  mpidbg_op_record body;
  FillOp(&body, d, ts->tid);
  g_op_table.BeginCreate(&slot->hdr, MPIDBG_OP_BLOCKING);
  CopyBody(slot, body);
  g_op_table.EndCreate(&slot->hdr);
  return AddressOf(slot);
}

void EndBlockingOp(ThreadState* ts, int which) {
  mpidbg_op_record* slot = ts->blocking_ops[which];
  if (slot != nullptr && slot->hdr.kind != MPIDBG_KIND_FREE) g_op_table.Clear(&slot->hdr);
}

}  // namespace mpidbg::rt
