// record_map.cc — see record_map.h.
#include "core/record_map.h"

namespace mpidbg::core {

namespace {
template <typename Record>
uint64_t AddressOf(const Record* rec) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(rec));
}
}  // namespace

template <typename Record>
Record* RecordMapOf<Record>::MapFind(uint64_t handle) const {
  if (spilled_.load(std::memory_order_acquire) == 0) return nullptr;
  uint64_t address = 0;
  if (!map_.Find(handle, &address) || address == 0) return nullptr;
  return reinterpret_cast<Record*>(static_cast<uintptr_t>(address));
}

template <typename Record>
Record* RecordMapOf<Record>::Find(uint64_t handle) const {
  if (!HandleMap::ValidKey(handle)) return nullptr;
  Record* rec = slots_[SlotOf(handle)].load(std::memory_order_acquire);
  if (rec != nullptr && __atomic_load_n(&rec->handle, __ATOMIC_RELAXED) == handle) return rec;
  return MapFind(handle);
}

template <typename Record>
bool RecordMapOf<Record>::Insert(Record* rec, Record** previous) {
  *previous = nullptr;
  const uint64_t handle = rec->handle;
  if (!HandleMap::ValidKey(handle)) return false;
  std::atomic<Record*>& slot = slots_[SlotOf(handle)];
  Record* held = slot.load(std::memory_order_relaxed);
  if (held != nullptr && held->handle == handle) {
    *previous = held;
    slot.store(rec, std::memory_order_release);
    return true;
  }
  uint64_t mapped = 0;  // spilled earlier: stays spilled
  if (spilled_.load(std::memory_order_relaxed) != 0 && map_.FindAsWriter(handle, &mapped) &&
      mapped != 0) {
    *previous = reinterpret_cast<Record*>(static_cast<uintptr_t>(mapped));
    return map_.Insert(handle, AddressOf(rec));
  }
  if (held == nullptr) {
    slot.store(rec, std::memory_order_release);
    return true;
  }
  if (!map_.Insert(handle, AddressOf(rec))) return false;
  spilled_.fetch_add(1, std::memory_order_release);
  return true;
}

template <typename Record>
void RecordMapOf<Record>::CompareErase(uint64_t handle, const Record* expected) {
  std::atomic<Record*>& slot = slots_[SlotOf(handle)];
  if (expected != nullptr && slot.load(std::memory_order_relaxed) == expected) {
    slot.store(nullptr, std::memory_order_release);
    return;
  }
  if (spilled_.load(std::memory_order_relaxed) != 0 &&
      map_.CompareErase(handle, AddressOf(expected))) {
    spilled_.fetch_sub(1, std::memory_order_release);
  }
}

template class RecordMapOf<mpidbg_object_head>;
template class RecordMapOf<mpidbg_comm_record>;

}  // namespace mpidbg::core
