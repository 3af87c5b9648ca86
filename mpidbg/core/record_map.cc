// record_map.cc — see record_map.h.
#include "core/record_map.h"

namespace mpidbg::core {

namespace {
uint64_t AddressOf(const mpidbg_object_head* rec) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(rec));
}
}  // namespace

mpidbg_object_head* RecordMap::MapFind(uint64_t handle) const {
  if (spilled_.load(std::memory_order_acquire) == 0) return nullptr;
  uint64_t address = 0;
  if (!map_.Find(handle, &address) || address == 0) return nullptr;
  return reinterpret_cast<mpidbg_object_head*>(static_cast<uintptr_t>(address));
}

mpidbg_object_head* RecordMap::Find(uint64_t handle) const {
  if (!HandleMap::ValidKey(handle)) return nullptr;
  mpidbg_object_head* rec = slots_[SlotOf(handle)].load(std::memory_order_acquire);
  if (rec != nullptr && __atomic_load_n(&rec->handle, __ATOMIC_RELAXED) == handle) return rec;
  return MapFind(handle);
}

bool RecordMap::Insert(mpidbg_object_head* rec, mpidbg_object_head** previous) {
  *previous = nullptr;
  const uint64_t handle = rec->handle;
  if (!HandleMap::ValidKey(handle)) return false;
  std::atomic<mpidbg_object_head*>& slot = slots_[SlotOf(handle)];
  mpidbg_object_head* held = slot.load(std::memory_order_relaxed);
  if (held != nullptr && held->handle == handle) {
    *previous = held;
    slot.store(rec, std::memory_order_release);
    return true;
  }
  if (mpidbg_object_head* mapped = MapFind(handle)) {  // spilled earlier: stays spilled
    *previous = mapped;
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

void RecordMap::CompareErase(uint64_t handle, const mpidbg_object_head* expected) {
  std::atomic<mpidbg_object_head*>& slot = slots_[SlotOf(handle)];
  if (expected != nullptr && slot.load(std::memory_order_relaxed) == expected) {
    slot.store(nullptr, std::memory_order_release);
    return;
  }
  if (spilled_.load(std::memory_order_relaxed) != 0 &&
      map_.CompareErase(handle, AddressOf(expected))) {
    spilled_.fetch_sub(1, std::memory_order_release);
  }
}

}  // namespace mpidbg::core
