// rt_check.h — what MPI check programs under tests/runtime share: failure counting
// CHECK macros, handle widening, and a debugger-style walk of the runtime's tables
// (found through the dynamic symbol table, so a program works with the runtime linked
// or LD_PRELOADed).
#ifndef MPIDBG_TESTS_RUNTIME_RT_CHECK_H
#define MPIDBG_TESTS_RUNTIME_RT_CHECK_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <deque>
#include <utility>
#include <vector>

#include "mpidbg/records.h"

namespace rtcheck {

inline int g_rank = -1;
inline int g_failures = 0;

#define RT_CHECK(cond)                                                                   \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      fprintf(stderr, "[rank %d] %s:%d: check failed: %s\n", ::rtcheck::g_rank, __FILE__, \
              __LINE__, #cond);                                                          \
      ++::rtcheck::g_failures;                                                           \
    }                                                                                    \
  } while (0)

#define RT_CHECK_EQ(a, b)                                                                 \
  do {                                                                                    \
    long long va_ = static_cast<long long>(a), vb_ = static_cast<long long>(b);           \
    if (va_ != vb_) {                                                                     \
      fprintf(stderr, "[rank %d] %s:%d: check failed: %s == %s (%lld vs %lld)\n",         \
              ::rtcheck::g_rank, __FILE__, __LINE__, #a, #b, va_, vb_);                   \
      ++::rtcheck::g_failures;                                                            \
    }                                                                                     \
  } while (0)

#define RT_CHECK_STREQ(a, b)                                                              \
  do {                                                                                    \
    const char *sa_ = (a), *sb_ = (b);                                                    \
    if (strcmp(sa_, sb_) != 0) {                                                          \
      fprintf(stderr, "[rank %d] %s:%d: check failed: %s == %s (\"%s\" vs \"%s\")\n",     \
              ::rtcheck::g_rank, __FILE__, __LINE__, #a, #b, sa_, sb_);                   \
      ++::rtcheck::g_failures;                                                            \
    }                                                                                     \
  } while (0)

[[maybe_unused]] inline uint64_t U64(int h) {
  return static_cast<uint64_t>(static_cast<uint32_t>(h));
}
template <typename T>
uint64_t U64(T* h) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(h));
}
inline uint64_t Addr(const void* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }
template <typename T>
const T* At(uint64_t a) {
  return reinterpret_cast<const T*>(static_cast<uintptr_t>(a));
}

// *fn = the runtime's exported function `name`, found at run time so a check works
// with the runtime linked or LD_PRELOADed; nullptr with a failure counted when missing.
template <typename F>
void Resolve(F* fn, const char* name) {
  *fn = reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
  if (*fn == nullptr) {
    fprintf(stderr, "[rank %d] %s not found: check failed\n", g_rank, name);
    ++g_failures;
  }
}

// The runtime's root, or nullptr (with a failure counted) when it is not loaded.
inline const mpidbg_root* Root() {
  static const mpidbg_root* root = nullptr;
  if (root == nullptr) {
    root = static_cast<const mpidbg_root*>(dlsym(RTLD_DEFAULT, MPIDBG_ROOT_SYMBOL));
    RT_CHECK(root != nullptr);
  }
  return root;
}

// Every record of a table whose slot is in use (live or orphan), as a debugger walks it.
template <typename R>
std::vector<const R*> Records(const mpidbg_table& t) {
  std::vector<const R*> out;
  uint64_t addr = __atomic_load_n(&t.first_slab, __ATOMIC_ACQUIRE);
  for (uint32_t n = 0; addr != 0 && n < t.slab_count; ++n) {
    const auto* slab = At<mpidbg_slab>(addr);
    if (slab->magic != MPIDBG_SLAB_MAGIC) {
      RT_CHECK(slab->magic == MPIDBG_SLAB_MAGIC);
      break;
    }
    const char* first = reinterpret_cast<const char*>(slab) + slab->header_size;
    for (uint32_t i = 0; i < slab->capacity; ++i) {
      const auto* h = reinterpret_cast<const mpidbg_record_header*>(
          first + uint64_t{i} * slab->record_size);
      if (__atomic_load_n(&h->kind, __ATOMIC_ACQUIRE) == t.kind) {
        out.push_back(reinterpret_cast<const R*>(h));
      }
    }
    addr = __atomic_load_n(&slab->next, __ATOMIC_ACQUIRE);
  }
  return out;
}

// The newest record (highest create_serial) of `handle` in a table of object records;
// with `live_only`, only one not freed by the application.
template <typename R>
const R* FindObject(const mpidbg_table& t, uint64_t handle, bool live_only = true) {
  const R* best = nullptr;
  for (const R* r : Records<R>(t)) {
    const mpidbg_object_head& h = r->obj;
    if (h.handle != handle) continue;
    if (live_only && (h.hdr.flags & MPIDBG_REC_FREED) != 0) continue;
    if (best == nullptr || h.create_serial > best->obj.create_serial) best = r;
  }
  return best;
}

template <typename T>
const T* ArrayAt(const mpidbg_array& a) {
  return At<T>(a.address);
}

// A side array's elements as a vector (for comparisons).
template <typename T>
std::vector<T> ArrayValues(const mpidbg_array& a) {
  const T* p = ArrayAt<T>(a);
  return p == nullptr ? std::vector<T>() : std::vector<T>(p, p + a.count);
}
inline std::vector<int32_t> Int32s(const mpidbg_array& a) { return ArrayValues<int32_t>(a); }

// Job-wide id of the newest live record of a communicator handle, 0 when none.
inline uint64_t CommJobId(uint64_t comm_handle) {
  const mpidbg_comm_record* best = nullptr;
  for (const auto* c : Records<mpidbg_comm_record>(Root()->comms)) {
    if (c->handle != comm_handle || (c->hdr.flags & MPIDBG_REC_FREED) != 0) continue;
    if (best == nullptr || c->create_serial > best->create_serial) best = c;
  }
  return best != nullptr ? best->job_id : 0;
}

// Calls fn(entry) for every whole entry of a thread's flight ring, oldest first: an
// entry at position p holds post p only while its seq is 2 * (p + 1) (records.h).
template <typename Fn>
void ForEachWholeEntry(const mpidbg_thread_record& t, Fn fn) {
  const auto* entries = At<mpidbg_flight_entry>(t.flight_entries);
  const uint64_t head = t.flight_head, capacity = t.flight_capacity;
  if (entries == nullptr || capacity == 0) return;
  for (uint64_t p = head > capacity ? head - capacity : 0; p < head; ++p) {
    const mpidbg_flight_entry& e = entries[p % capacity];
    if (e.seq == static_cast<uint32_t>(2 * (p + 1))) fn(e);
  }
}

// Operation records as a reader derives them (records.h, mpidbg_flight_entry): the
// operation table's, and one per POSTED entry of every thread's flight ring that no
// record carries (same post_serial), with the fields records.h gives; a persistent
// request's start (MPIDBG_FLIGHT_START) applied to a copy of the request's inactive
// record instead. The derived ones stay valid until the next call.
inline std::vector<const mpidbg_operation_record*> Operations(
    std::vector<std::pair<uint64_t, const mpidbg_operation_record*>>* at = nullptr) {
  static std::deque<mpidbg_operation_record> derived;
  derived.clear();
  std::vector<const mpidbg_operation_record*> out =
      Records<mpidbg_operation_record>(Root()->operations);
  const size_t recorded = out.size();
  for (const auto* t : Records<mpidbg_thread_record>(Root()->threads)) {
    ForEachWholeEntry(*t, [&](const mpidbg_flight_entry& e) {
      if (e.state != MPIDBG_FLIGHT_POSTED) return;
      bool carried = false;
      for (size_t i = 0; i < recorded; ++i) carried = carried || out[i]->post_serial == e.post_serial;
      if (carried) return;
      if ((e.flags & MPIDBG_FLIGHT_START) != 0) {
        // A persistent request's start: its inactive record, as the start makes it.
        for (size_t i = 0; i < recorded; ++i) {
          if (!mpidbg_operation_takes_start(out[i], e.request)) continue;
          mpidbg_operation_record started = *out[i];
          mpidbg_operation_apply_start(&e, t->tid, &started);
          derived.push_back(started);
          if (at != nullptr) at->emplace_back(Addr(out[i]), &derived.back());
          out[i] = &derived.back();
          return;
        }
      }
      mpidbg_operation_record r;
      mpidbg_operation_from_flight(&e, t->tid, &r);
      if (const auto* type = FindObject<mpidbg_datatype_record>(Root()->datatypes, e.datatype, false)) {
        memcpy(r.datatype_name, type->obj.name, sizeof r.datatype_name - 1);  // zeroed: ends in NUL
      }
      derived.push_back(r);
      out.push_back(&derived.back());
      if (at != nullptr) at->emplace_back(Addr(&e), &derived.back());
    });
  }
  return out;
}

// The operation a thread's `op` names (ThreadNow: a blocking send's or receive's flight
// entry is named by the live words): an op record, or one derived from the flight ring
// entry there (records.h), or nullptr. Valid until the next call.
inline const mpidbg_operation_record* OperationAt(uint64_t address) {
  if (address == 0) return nullptr;
  std::vector<std::pair<uint64_t, const mpidbg_operation_record*>> at;
  for (const auto* op : Operations(&at)) {
    if (Addr(op) == address) return op;
  }
  for (const auto& [entry, op] : at) {
    if (entry == address) return op;
  }
  return nullptr;
}

// The op record of a request handle (derived from a flight ring or not), or nullptr.
inline const mpidbg_operation_record* RequestOp(uint64_t request) {
  for (const auto* op : Operations()) {
    if (op->request == request) return op;
  }
  return nullptr;
}

// The same for a request the application still holds: an orphan of a freed request
// whose handle value MPI has since handed out again is not it.
inline const mpidbg_operation_record* HeldRequestOp(uint64_t request) {
  for (const auto* op : Operations()) {
    if (op->request == request && (op->hdr.flags & MPIDBG_REC_FREED) == 0) return op;
  }
  return nullptr;
}

// The calling thread's Linux thread id, and its record as a debugger finds it (nullptr
// before its first MPI call).
inline uint64_t Tid() { return static_cast<uint64_t>(syscall(SYS_gettid)); }
inline const mpidbg_thread_record* MyThread() {
  for (const auto* t : Records<mpidbg_thread_record>(Root()->threads)) {
    if (t->tid == Tid()) return t;
  }
  return nullptr;
}

// A thread as a debugger shows it: its record with its live words merged in, as many
// bytes of them as the record says (records.h, mpidbg_thread_live).
inline mpidbg_thread_record ThreadNow(const mpidbg_thread_record* t) {
  mpidbg_thread_record out = *t;
  const uint32_t bytes = mpidbg_thread_live_bytes(t);
  const auto* words = At<mpidbg_thread_live>(t->live);
  if (bytes == 0 || words == nullptr) return out;
  mpidbg_thread_live live;
  memset(&live, 0, sizeof live);
  memcpy(&live, words, bytes);
  mpidbg_thread_merge_live(t, &live, &out);
  return out;
}

// Whether some thread of this process shows `call` BLOCKED on `comm_handle` within
// `seconds` (polled by another thread while the caller is inside the call).
inline bool SeenBlocked(int32_t call, uint64_t comm_handle, double seconds) {
  for (int i = 0; i < seconds * 1000; ++i) {
    for (const auto* r : Records<mpidbg_thread_record>(Root()->threads)) {
      const mpidbg_thread_record t = ThreadNow(r);
      if (t.call == call && t.state == MPIDBG_THREAD_BLOCKED && t.comm_handle == comm_handle)
        return true;
    }
    usleep(1000);
  }
  return false;
}

// Prints the verdict line the CTest FAIL regex looks for; returns the exit status.
inline int Finish(const char* program) {
  if (g_failures != 0) {
    fprintf(stderr, "[rank %d] %s: FAIL (%d checks failed)\n", g_rank, program, g_failures);
    return 1;
  }
  printf("[rank %d] %s: all checks passed\n", g_rank, program);
  return 0;
}

}  // namespace rtcheck

#endif  // MPIDBG_TESTS_RUNTIME_RT_CHECK_H
