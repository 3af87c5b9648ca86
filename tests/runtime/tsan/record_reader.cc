// record_reader.cc — see record_reader.h. Built WITHOUT ThreadSanitizer (a debugger's
// reads are not part of the program's memory model); everything here only reads.
#include "record_reader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <atomic>
#include <unordered_map>

#include "mpidbg/records.h"

namespace {

const mpidbg_root* g_root = nullptr;
std::atomic<bool> g_stop{false};
pthread_t g_thread;
ReaderReport g_report;
std::unordered_map<uintptr_t, uint32_t> g_last_seq;
uint64_t g_last_generation = 0;

template <typename T>
const T* At(uint64_t address) {
  return reinterpret_cast<const T*>(static_cast<uintptr_t>(address));
}

void Problem(const char* table, const char* what) {
  ++g_report.inconsistent;
  if (g_report.first_problem[0] == '\0') {
    snprintf(g_report.first_problem, sizeof g_report.first_problem, "%s record: %s", table, what);
  }
}

// Byte-wise copy through volatile loads: the compiler may neither skip nor merge the
// loads, as a debugger's memory read would not.
void CopyBytes(void* dst, const void* src, size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  auto* s = static_cast<const volatile unsigned char*>(src);
  for (size_t i = 0; i < n; ++i) d[i] = s[i];
}

// MPIDBG_CALL_NONE or an id of call_ids.h (ids are not contiguous).
bool ValidCall(int32_t call) {
  switch (call) {
    case MPIDBG_CALL_NONE:
#define MPIDBG_X_CASE(name, id, cls) case id:
      MPIDBG_CALL_LIST(MPIDBG_X_CASE)
#undef MPIDBG_X_CASE
      return true;
    default:
      return false;
  }
}

bool ValidArray(const mpidbg_array& a) {
  if (a.count == 0) return true;
  return a.address != 0 && (a.elem_size == 1 || a.elem_size == 4 || a.elem_size == 8);
}

bool Terminated(const char* s, size_t n) { return memchr(s, '\0', n) != nullptr; }

void CheckObjectHead(const char* table, const mpidbg_object_head& o) {
  if (!ValidCall(o.creator)) Problem(table, "creator is not a call id");
  // fortran_index is any int: MPICH's Fortran handles are its C handles, often negative.
  if ((o.hdr.flags & MPIDBG_REC_FREED) != 0 && o.free_serial == 0) {
    Problem(table, "freed without a free serial");
  }
  if (!Terminated(o.name, sizeof o.name)) Problem(table, "name not terminated");
}

// Checks one stable copy of a record of `kind`.
void CheckRecord(const char* table, uint32_t kind, const unsigned char* bytes) {
  const auto* hdr = reinterpret_cast<const mpidbg_record_header*>(bytes);
  if (hdr->kind != kind) Problem(table, "kind changed under a stable seq");
  switch (kind) {
    case MPIDBG_KIND_THREAD: {
      const auto* t = reinterpret_cast<const mpidbg_thread_record*>(bytes);
      if (t->state < MPIDBG_THREAD_NOT_IN_MPI || t->state > MPIDBG_THREAD_BLOCKED) {
        Problem(table, "state out of range");
      }
      if (!ValidCall(t->call)) Problem(table, "call is not a call id");
      if ((t->call == MPIDBG_CALL_NONE) != (t->state == MPIDBG_THREAD_NOT_IN_MPI)) {
        Problem(table, "call and state disagree");
      }
      if (t->requests == 0 && t->request_count != 0) Problem(table, "request count without array");
      if (t->request_count < 0) Problem(table, "negative request count");
      if (t->tid == 0) Problem(table, "no thread id");
      break;
    }
    case MPIDBG_KIND_COMM: {
      const auto* c = reinterpret_cast<const mpidbg_comm_record*>(bytes);
      if (c->size < 1) Problem(table, "size below 1");
      if (c->rank < 0 || c->rank >= c->size) Problem(table, "rank outside the group");
      if (c->remote_size < 0) Problem(table, "negative remote size");
      if ((c->hdr.flags & MPIDBG_COMM_INTER) != 0 && c->remote_size < 1) {
        Problem(table, "intercommunicator without remote group");
      }
      if (!ValidCall(c->creator)) Problem(table, "creator is not a call id");
      if (c->world_ranks == 0) Problem(table, "no world rank table");
      if (!ValidArray(c->topo_args) || !ValidArray(c->attributes)) Problem(table, "bad array");
      if (!Terminated(c->name, sizeof c->name)) Problem(table, "name not terminated");
      break;
    }
    case MPIDBG_KIND_OPERATION: {
      const auto* o = reinterpret_cast<const mpidbg_operation_record*>(bytes);
      if (o->direction < MPIDBG_OPERATION_SEND || o->direction > MPIDBG_OPERATION_GENERALIZED) {
        Problem(table, "direction out of range");
      }
      if (o->status < MPIDBG_OPERATION_PENDING || o->status > MPIDBG_OPERATION_COMPLETE) {
        Problem(table, "status out of range");
      }
      if (o->mode < MPIDBG_MODE_NONE || o->mode > MPIDBG_MODE_READY) Problem(table, "mode out of range");
      if (!ValidCall(o->call) || o->call == MPIDBG_CALL_NONE) Problem(table, "call is not a call id");
      if (o->count < 0 || o->bytes < 0) Problem(table, "negative count or bytes");
      if (!Terminated(o->datatype_name, sizeof o->datatype_name)) Problem(table, "name not terminated");
      break;
    }
    case MPIDBG_KIND_GROUP: {
      const auto* g = reinterpret_cast<const mpidbg_group_record*>(bytes);
      CheckObjectHead(table, g->obj);
      if (g->size < 0) Problem(table, "negative size");
      if (g->rank != -1 && (g->rank < 0 || g->rank >= g->size)) Problem(table, "rank outside the group");
      if (!ValidArray(g->world_ranks) || !ValidArray(g->args)) Problem(table, "bad array");
      break;
    }
    case MPIDBG_KIND_DATATYPE: {
      const auto* d = reinterpret_cast<const mpidbg_datatype_record*>(bytes);
      CheckObjectHead(table, d->obj);
      if (d->size < 0) Problem(table, "negative size");
      if (d->combiner < MPIDBG_COMBINER_UNKNOWN || d->combiner > MPIDBG_COMBINER_RESIZED) {
        Problem(table, "combiner out of range");
      }
      if (!ValidArray(d->integers) || !ValidArray(d->addresses) || !ValidArray(d->types)) {
        Problem(table, "bad array");
      }
      break;
    }
    case MPIDBG_KIND_INFO: {
      const auto* i = reinterpret_cast<const mpidbg_info_record*>(bytes);
      CheckObjectHead(table, i->obj);
      if (i->nkeys < 0 || !ValidArray(i->entries)) Problem(table, "bad entries");
      break;
    }
    case MPIDBG_KIND_WINDOW: {
      const auto* w = reinterpret_cast<const mpidbg_window_record*>(bytes);
      CheckObjectHead(table, w->obj);
      if (!ValidArray(w->target_locks) || !ValidArray(w->access_group) ||
          !ValidArray(w->exposure_group) || !ValidArray(w->attached)) {
        Problem(table, "bad array");
      }
      break;
    }
    case MPIDBG_KIND_FILE: {
      const auto* f = reinterpret_cast<const mpidbg_file_record*>(bytes);
      CheckObjectHead(table, f->obj);
      if (!Terminated(f->filename, sizeof f->filename)) Problem(table, "file name not terminated");
      break;
    }
    default: {  // reduce ops, errhandlers, messages, sessions: the common head
      CheckObjectHead(table, *reinterpret_cast<const mpidbg_object_head*>(bytes));
      break;
    }
  }
}

void WalkTable(const char* name, const mpidbg_table& t) {
  const uint32_t kind = t.kind;
  uint64_t addr = __atomic_load_n(&t.first_slab, __ATOMIC_ACQUIRE);
  const uint32_t bound = __atomic_load_n(&t.slab_count, __ATOMIC_ACQUIRE);
  alignas(8) unsigned char copy[4096];
  for (uint32_t n = 0; addr != 0 && n < bound; ++n) {
    const auto* slab = At<mpidbg_slab>(addr);
    if (slab->magic != MPIDBG_SLAB_MAGIC || slab->kind != kind || slab->record_size > sizeof copy ||
        slab->record_size < sizeof(mpidbg_record_header)) {
      Problem(name, "bad slab header");
      return;
    }
    const char* first = reinterpret_cast<const char*>(slab) + slab->header_size;
    for (uint32_t i = 0; i < slab->capacity; ++i) {
      const auto* h = reinterpret_cast<const mpidbg_record_header*>(first + uint64_t{i} * slab->record_size);
      const uint32_t before = __atomic_load_n(&h->seq, __ATOMIC_ACQUIRE);
      auto& last = g_last_seq[reinterpret_cast<uintptr_t>(h)];
      if (before < last && last - before < (1u << 30)) ++g_report.seq_backwards;
      last = before;
      if ((before & 1u) != 0) {
        ++g_report.torn;
        continue;
      }
      if (__atomic_load_n(&h->kind, __ATOMIC_ACQUIRE) != kind) continue;  // free slot
      CopyBytes(copy, h, slab->record_size);
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      if (__atomic_load_n(&h->seq, __ATOMIC_RELAXED) != before) {
        ++g_report.torn;
        continue;
      }
      ++g_report.records;
      CheckRecord(name, kind, copy);
    }
    addr = __atomic_load_n(&slab->next, __ATOMIC_ACQUIRE);
  }
}

void Pass() {
  const uint64_t generation = __atomic_load_n(&g_root->generation, __ATOMIC_ACQUIRE);
  if (generation < g_last_generation) Problem("root", "generation went backwards");
  g_last_generation = generation;
  const mpidbg_root& r = *g_root;
  WalkTable("comm", r.comms);
  WalkTable("op", r.operations);
  WalkTable("thread", r.threads);
  WalkTable("group", r.groups);
  WalkTable("datatype", r.datatypes);
  WalkTable("reduce op", r.reduce_ops);
  WalkTable("errhandler", r.errhandlers);
  WalkTable("info", r.infos);
  WalkTable("window", r.windows);
  WalkTable("file", r.files);
  WalkTable("message", r.messages);
  WalkTable("session", r.sessions);
  ++g_report.passes;
}

void* ReaderMain(void*) {
  while (!g_stop.load(std::memory_order_acquire)) Pass();
  Pass();
  return nullptr;
}

}  // namespace

bool StartRecordReader() {
  g_root = static_cast<const mpidbg_root*>(dlsym(RTLD_DEFAULT, MPIDBG_ROOT_SYMBOL));
  if (g_root == nullptr || g_root->magic != MPIDBG_ROOT_MAGIC) return false;
  g_stop.store(false, std::memory_order_release);
  return pthread_create(&g_thread, nullptr, ReaderMain, nullptr) == 0;
}

ReaderReport StopRecordReader() {
  g_stop.store(true, std::memory_order_release);
  pthread_join(g_thread, nullptr);
  return g_report;
}
