// datatype_lifetime.cc — see datatype_lifetime.h.
//
// A derived type record has an Entry counting who depends on it, made when something
// first does (EntryMadeLocked):
//   readers     kept records (live, held or orphan) whose `types` name it
//   users       of those, the ones not yet released by MPI
//   extra_refs  references the application holds beyond the first (handed out by
//               MPI_Type_get_contents as the type's own handle value)
// and whether an open file's view named it when last checked (view_held): such a freed
// record is kept out of the orphan list, like one with readers.
// Entries are keyed by record address and checked against the record's create_serial,
// so a slot reused by a record the runtime did not track is never mistaken for one.
// Orphans made here carry their own release callback, which drops the dependencies of
// the record going away before the record itself.
#include "rt/datatypes/datatype_lifetime.h"

#include <stdlib.h>

#include "core/concurrency.h"
#include "core/handle_map.h"
#include "core/spinlock.h"
#include "rt/handle_widening.h"
#include "rt/hot/datatype_info.h"
#include "rt/hot/flight_ring.h"
#include "rt/process/registry.h"

namespace mpidbg::rt {
namespace {

// Bounds the release cascade along a chain of types (as deep as the recording allows).
constexpr int kMaxDepth = 64;

struct Entry {
  mpidbg_object_head* rec;
  uint64_t create_serial;
  uint32_t readers;
  uint32_t users;
  uint32_t extra_refs;
  bool freed;
  bool released;
  bool orphaned;      // handed to the orphan list
  bool awaiting_requests;  // in g_awaiting (kept back by operations or a file view)
  bool view_held;     // freed, and an open file's view named it at the last check
  int n_inputs;
  Entry** inputs;
};

core::SpinLock g_lock;            // guards everything below
core::HandleMap g_entries(64);    // record address -> Entry*
// g_entries.size(), written under g_lock after every change of it, read without it:
// while it is 0 no record has an entry (DatatypeFreed's plain free).
uint32_t g_entry_count = 0;

void PublishEntryCountLocked() {
  __atomic_store_n(&g_entry_count, g_entries.size(), __ATOMIC_RELAXED);
}
Entry** g_awaiting = nullptr;     // freed, not released: operations or file views used them
// Written under g_lock; also read without it (RecheckFreedDatatypes' early return), so
// every write is an atomic store.
int g_awaiting_count = 0;
int g_awaiting_capacity = 0;

void SetAwaitingCount(int n) { __atomic_store_n(&g_awaiting_count, n, __ATOMIC_RELAXED); }

Entry* EntryAt(uint64_t value) { return reinterpret_cast<Entry*>(static_cast<uintptr_t>(value)); }

Entry* EntryOfLocked(const mpidbg_object_head* rec) {
  uint64_t value = 0;
  if (rec == nullptr || g_entries.size() == 0 || !g_entries.Find(AddressOf(rec), &value) ||
      value == 0)
    return nullptr;
  Entry* e = EntryAt(value);
  return e->rec == rec && e->create_serial == rec->create_serial ? e : nullptr;
}

// A new entry for `rec` with room for `n` inputs, mapped; nullptr when memory ran out. A
// stale entry at this address (its record went without the runtime seeing) is replaced
// in the map and left allocated: entries that named it as an input may still point at it.
Entry* NewEntryLocked(mpidbg_object_head* rec, int n) {
  auto* e = static_cast<Entry*>(malloc(sizeof(Entry)));
  auto* list = n > 0 ? static_cast<Entry**>(malloc(sizeof(Entry*) * n)) : nullptr;
  if (e == nullptr || (n > 0 && list == nullptr)) {
    free(e);
    free(list);
    return nullptr;
  }
  *e = Entry{rec, rec->create_serial, 0, 0, 0, false, false, false, false, false, 0, list};
  if (!g_entries.Insert(AddressOf(rec), AddressOf(e))) {
    free(list);
    free(e);
    return nullptr;
  }
  PublishEntryCountLocked();
  return e;
}

// The entry of `rec`, made now for a record that has none yet. A type built from
// predefined types only gets its entry when something first depends on it (a derived
// type built from it, a reference MPI_Type_get_contents handed out, an operation or
// file view still using it when it is freed); until then it has no dependents, so
// freeing it is the plain way. Never for a freed record (freed the plain way already)
// or a predefined one (never freed).
Entry* EntryMadeLocked(mpidbg_object_head* rec) {
  if (rec == nullptr) return nullptr;
  if (Entry* e = EntryOfLocked(rec)) return e;
  if ((__atomic_load_n(&rec->hdr.flags, __ATOMIC_RELAXED) &
       (MPIDBG_REC_FREED | MPIDBG_REC_PREDEFINED)) != 0)
    return nullptr;
  return NewEntryLocked(rec, 0);
}

// References beyond the first the application holds, over all entries: while there are
// none, MPI_Type_free need not look for one (TakeDatatypeReference). Written under
// g_lock, read without it.
uint64_t g_extra_refs_total = 0;

void AddExtraRefsLocked(Entry* e, int64_t delta) {
  e->extra_refs = static_cast<uint32_t>(static_cast<int64_t>(e->extra_refs) + delta);
  __atomic_store_n(&g_extra_refs_total,
                   static_cast<uint64_t>(static_cast<int64_t>(g_extra_refs_total) + delta),
                   __ATOMIC_RELAXED);
}

// Whether any op record in the runtime's table names `handle` as its datatype; read
// the way a debugger walks the table. A type never described for an operation is in no
// op record: no walk (the walk costs the table's size, several thousand instructions).
bool UsedByOperations(uint64_t handle) {
  if (!DatatypeMayBeInOperations(handle)) return false;
  if (FlightRingsUseDatatype(handle)) return true;
  bool used = false;
  ForEachRecord(mpidbg_runtime_root.operations, [&](mpidbg_record_header* h) {
    used = used || __atomic_load_n(&reinterpret_cast<const mpidbg_operation_record*>(h)->datatype,
                                   __ATOMIC_RELAXED) == handle;
  });
  return used;
}

// Whether the record of an open file (not freed) names `handle` as the etype or filetype
// of its view: MPI keeps those types while the view is set.
bool UsedByFileViews(uint64_t handle) {
  bool used = false;
  ForEachRecord(mpidbg_runtime_root.files, [&](mpidbg_record_header* h) {
    if (used || (__atomic_load_n(&h->flags, __ATOMIC_ACQUIRE) & MPIDBG_REC_FREED) != 0) return;
    const auto* f = reinterpret_cast<const mpidbg_file_record*>(h);
    used = __atomic_load_n(&f->etype, __ATOMIC_RELAXED) == handle ||
           __atomic_load_n(&f->filetype, __ATOMIC_RELAXED) == handle;
  });
  return used;
}

void AwaitLocked(Entry* e) {
  if (e->awaiting_requests) return;
  if (g_awaiting_count == g_awaiting_capacity) {
    int capacity = g_awaiting_capacity == 0 ? 16 : g_awaiting_capacity * 2;
    auto* grown = static_cast<Entry**>(realloc(g_awaiting, sizeof(Entry*) * capacity));
    if (grown == nullptr) return;  // not rechecked: stays unreleased, which is safe
    g_awaiting = grown;
    g_awaiting_capacity = capacity;
  }
  g_awaiting[g_awaiting_count] = e;
  SetAwaitingCount(g_awaiting_count + 1);
  e->awaiting_requests = true;
}

void UnawaitLocked(Entry* e) {
  if (!e->awaiting_requests) return;
  for (int i = 0; i < g_awaiting_count; ++i) {
    if (g_awaiting[i] == e) {
      g_awaiting[i] = g_awaiting[g_awaiting_count - 1];
      SetAwaitingCount(g_awaiting_count - 1);
      break;
    }
  }
  e->awaiting_requests = false;
}

// A kept list of records to hand to the orphan list once g_lock is dropped.
struct Pending {
  mpidbg_object_head* small[16];
  mpidbg_object_head** items = small;
  int count = 0;
  int capacity = 16;
  ~Pending() {
    if (items != small) free(items);
  }
  bool Push(mpidbg_object_head* rec) {
    if (count == capacity) {
      auto* grown = static_cast<mpidbg_object_head**>(malloc(sizeof(void*) * capacity * 2));
      if (grown == nullptr) return false;
      for (int i = 0; i < count; ++i) grown[i] = items[i];
      if (items != small) free(items);
      items = grown;
      capacity *= 2;
    }
    items[count++] = rec;
    return true;
  }
};

// A freed record nothing keeps out of the orphan list any more (no reader, no file view)
// goes to `orphans`; without room there it stays held: kept, never dangling.
void OrphanIfUnkeptLocked(Entry* e, Pending* orphans) {
  if (!e->freed || e->orphaned || e->readers != 0 || e->view_held) return;
  if (orphans->Push(e->rec)) e->orphaned = true;
}

void TryReleaseLocked(Entry* e, int depth, Pending* orphans) {
  if (!e->freed || e->released || e->users != 0 || depth > kMaxDepth) return;
  const uint64_t handle = e->rec->handle;
  if (UsedByFileViews(handle)) {
    e->view_held = true;
    AwaitLocked(e);
    return;
  }
  if (e->view_held) {  // the view that kept it changed or its file was closed
    e->view_held = false;
    OrphanIfUnkeptLocked(e, orphans);
  }
  if (UsedByOperations(handle)) {
    AwaitLocked(e);
    return;
  }
  UnawaitLocked(e);
  e->released = true;
  g_datatypes.MarkReleased(e->rec);
  for (int i = 0; i < e->n_inputs; ++i) {
    Entry* in = e->inputs[i];
    if (in->users > 0) --in->users;
    TryReleaseLocked(in, depth + 1, orphans);
  }
}

void ReleaseHeld(mpidbg_record_header* hdr, void* owner);

void AddOrphans(const Pending& p) {
  for (int i = 0; i < p.count; ++i) g_orphans.Add(&p.items[i]->hdr, &ReleaseHeld, nullptr);
}

// The orphan list drops `hdr`'s record: its inputs lose a reader (and a user if MPI
// still held it), and those left freed with no reader become orphans in turn.
void ReleaseHeld(mpidbg_record_header* hdr, void*) {
  auto* rec = reinterpret_cast<mpidbg_object_head*>(hdr);
  Pending orphans;
  {
    core::SpinGuard guard(g_lock);
    Entry* e = EntryOfLocked(rec);
    if (e != nullptr) {
      UnawaitLocked(e);
      for (int i = 0; i < e->n_inputs; ++i) {
        Entry* in = e->inputs[i];
        if (in->readers > 0) --in->readers;
        if (!e->released) {
          if (in->users > 0) --in->users;
          TryReleaseLocked(in, 0, &orphans);
        }
        OrphanIfUnkeptLocked(in, &orphans);
      }
      g_entries.CompareErase(AddressOf(rec), AddressOf(e));
      PublishEntryCountLocked();
      free(e->inputs);
      free(e);
    }
  }
  g_datatypes.Discard(rec);
  AddOrphans(orphans);
}

}  // namespace

void NoteDatatypeInputs(mpidbg_object_head* rec, mpidbg_object_head* const* inputs, int n) {
  if (rec == nullptr || n <= 0) return;  // no derived input: an entry when one is needed
  core::SpinGuard guard(g_lock);
  Entry* e = NewEntryLocked(rec, n);
  if (e == nullptr) return;  // untracked: freed the plain way (DatatypeFreed)
  for (int i = 0; i < n; ++i) {
    Entry* in = EntryMadeLocked(inputs[i]);
    if (in == nullptr) continue;  // an input the runtime does not track
    ++in->readers;
    ++in->users;
    e->inputs[e->n_inputs++] = in;
  }
}

void DatatypeReferenced(mpidbg_object_head* rec) {
  if (rec == nullptr) return;
  core::SpinGuard guard(g_lock);
  Entry* e = EntryMadeLocked(rec);  // predefined records have none
  if (e != nullptr && !e->freed) AddExtraRefsLocked(e, 1);
}

bool TakeDatatypeReference(mpidbg_object_head* rec) {
  if (rec == nullptr || !DatatypeReferencesHeld()) return false;
  core::SpinGuard guard(g_lock);
  Entry* e = EntryOfLocked(rec);
  if (e == nullptr || e->freed || e->extra_refs == 0) return false;
  AddExtraRefsLocked(e, -1);
  return true;
}

bool DatatypeReferencesHeld() { return __atomic_load_n(&g_extra_refs_total, __ATOMIC_RELAXED) != 0; }

void DatatypeFreed(mpidbg_object_head* rec) {
  if (rec == nullptr) return;
  // The common free, without the lock: no record has an entry, and MPI does not still
  // use the type. Entries are made only by MPI calls; below MPI_THREAD_MULTIPLE no other
  // one runs now, and the runtime's own thread (releasing orphans) only drops entries.
  if (!core::Concurrent() && __atomic_load_n(&g_entry_count, __ATOMIC_RELAXED) == 0 &&
      !UsedByOperations(rec->handle) && !UsedByFileViews(rec->handle)) {
    g_datatypes.MarkDetachedFreed(rec, /*released_now=*/true);
    return;
  }
  bool tracked = false;
  Pending orphans;
  {
    core::SpinGuard guard(g_lock);
    Entry* e = EntryOfLocked(rec);
    // A type nothing depended on so far needs an entry now only if MPI still uses it.
    if (e == nullptr && (UsedByOperations(rec->handle) || UsedByFileViews(rec->handle))) {
      e = EntryMadeLocked(rec);
    }
    if (e != nullptr) {
      tracked = true;
      g_datatypes.MarkDetachedFreedHeld(rec);
      e->freed = true;
      AddExtraRefsLocked(e, -static_cast<int64_t>(e->extra_refs));
      TryReleaseLocked(e, 0, &orphans);
      OrphanIfUnkeptLocked(e, &orphans);
    }
  }
  if (tracked) {
    AddOrphans(orphans);
  } else if ((rec->hdr.flags & MPIDBG_REC_FREED) == 0) {
    g_datatypes.MarkDetachedFreed(rec, /*released_now=*/true);  // a record without an entry
  }
}

void RecheckFreedDatatypes() {
  if (__atomic_load_n(&g_awaiting_count, __ATOMIC_RELAXED) == 0) return;
  Pending orphans;
  {
    core::SpinGuard guard(g_lock);
    // Take the whole list; the ones operations or views still use put themselves back.
    Entry** list = g_awaiting;
    const int n = g_awaiting_count;
    g_awaiting = nullptr;
    SetAwaitingCount(0);
    g_awaiting_capacity = 0;
    for (int i = 0; i < n; ++i) list[i]->awaiting_requests = false;
    for (int i = 0; i < n; ++i) TryReleaseLocked(list[i], 0, &orphans);
    free(list);
  }
  AddOrphans(orphans);
}

}  // namespace mpidbg::rt
