// type_source.h — the type-map engine's TypeSource over the runtime's datatype records.
//
// References are indices into ObjectSnapshot::datatypes. An input handle of a record is
// resolved the way the runtime documents it (mpidbg/doc/datatypes_rma_files.md): to the
// newest record of that handle created before the record itself, since a freed input's
// handle may have been reused for a later type. Side arrays are read on first use
// through the bounded reader and kept until the source goes away.
#ifndef MPIDBG_HANDLES_TYPE_SOURCE_H
#define MPIDBG_HANDLES_TYPE_SOURCE_H

#include <cstddef>
#include <cstdint>

#include "handles/type_map.h"
#include "plugin/debugger_memory.h"
#include "plugin/object_snapshot.h"
#include "plugin/target_reader.h"

namespace mpidbg::handles {

class RecordTypeSource final : public TypeSource {
 public:
  RecordTypeSource(plugin::TargetReader& reader, const plugin::ObjectSnapshot& objects,
                   const plugin::ObjectLimits& limits)
      : reader_(reader), objects_(objects), limits_(limits) {}
  ~RecordTypeSource();
  RecordTypeSource(const RecordTypeSource&) = delete;
  RecordTypeSource& operator=(const RecordTypeSource&) = delete;

  // Builds the handle index; false when out of memory.
  bool init();

  TypeRef ref_of(const plugin::DatatypeEntry* entry) const;
  const plugin::DatatypeEntry* entry(TypeRef ref) const;

  bool facts(TypeRef ref, TypeFacts* out) override;
  bool contents(TypeRef ref, TypeContents* out) override;

  // Whether a contents() failed for lack of memory (rather than damage).
  bool out_of_memory() const { return oom_; }

 private:
  struct Loaded {
    int state;  // 0 not read yet, 1 read, 2 unreadable
    int32_t* integers;
    size_t num_integers;
    int64_t* addresses;
    size_t num_addresses;
    uint64_t* types;
    TypeRef* inputs;
    size_t num_types;
  };
  struct IndexEntry {
    uint64_t key;     // the handle on the MPI's handle width
    uint64_t serial;  // create_serial
    TypeRef ref;
  };

  bool load(TypeRef ref, Loaded* out);
  TypeRef resolve(uint64_t handle, uint64_t before_serial) const;
  uint64_t key_of(uint64_t handle) const;

  plugin::TargetReader& reader_;
  const plugin::ObjectSnapshot& objects_;
  const plugin::ObjectLimits& limits_;
  plugin::Vec<Loaded> loaded_;      // per record
  plugin::Vec<IndexEntry> index_;   // by (key, serial)
  bool oom_ = false;
};

}  // namespace mpidbg::handles

#endif  // MPIDBG_HANDLES_TYPE_SOURCE_H
