// element_chunks.h — reading a target array of fixed-size elements a bounded chunk at a
// time.
//
// The monitoring and sampling arrays can be large (a peer element per world rank), and
// their counts come from the target: the buffer is sized by the chunk, never by the
// count, and each chunk is one read through the bounded TargetReader.
#ifndef MPIDBG_PLUGIN_ELEMENT_CHUNKS_H
#define MPIDBG_PLUGIN_ELEMENT_CHUNKS_H

#include <cstddef>
#include <cstdint>

#include "plugin/debugger_memory.h"
#include "plugin/target_addr.h"
#include "plugin/target_reader.h"

namespace mpidbg::plugin {

class ElementChunks {
 public:
  static constexpr size_t kChunkBytes = size_t{1} << 20;

  // `count` elements of `elem_size` bytes (as the runtime wrote them) from `base`.
  ElementChunks(TargetReader& reader, TargetAddr base, uint32_t count, uint32_t elem_size);

  // Elements per chunk (at least 1).
  uint32_t per_chunk() const { return per_chunk_; }
  // Reads the chunk that starts at element `first`: mqs_ok, kErrNoMemory or the reader's
  // error (kErrReadFailed for an address outside the target or unreadable).
  int load(uint32_t first);
  // One past the last element of the loaded chunk.
  uint32_t loaded_end() const { return end_; }
  // Element i of the loaded chunk (first <= i < loaded_end()); empty outside it.
  Decoder element(uint32_t i) const;

 private:
  TargetReader& reader_;
  TargetAddr base_;
  uint32_t count_;
  uint32_t elem_size_;
  uint32_t per_chunk_;
  uint32_t first_ = 0;
  uint32_t end_ = 0;
  Vec<uint8_t> buf_;
};

}  // namespace mpidbg::plugin

#endif  // MPIDBG_PLUGIN_ELEMENT_CHUNKS_H
