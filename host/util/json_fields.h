// json_fields.h — reading the runtime's JSON files strictly but tolerantly: unknown keys
// are ignored, a missing optional key keeps its default, a key of the wrong type is one
// error naming where it is ("ranks[2].p2p[0].sent_bytes is a string, not an unsigned
// integer"). The first error wins; later reads do nothing once one is recorded.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "host/util/status.h"

namespace mpidbg::host {

class JsonFields {
 public:
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  void Fail(const std::string& message) {
    if (error_.empty()) error_ = message;
  }

  // Each reads `obj[key]` when present; `where` names obj ("ranks[2]", "" for the top).
  // `required` turns a missing key into an error.
  void U64(const nlohmann::json& obj, const std::string& where, const char* key, uint64_t* out,
           bool required = false);
  void I64(const nlohmann::json& obj, const std::string& where, const char* key, int64_t* out,
           bool required = false);
  void Int(const nlohmann::json& obj, const std::string& where, const char* key, int* out,
           bool required = false);
  void Double(const nlohmann::json& obj, const std::string& where, const char* key, double* out);
  void Bool(const nlohmann::json& obj, const std::string& where, const char* key, bool* out);
  // A string; null leaves `out` as it is (a documented `null`).
  void String(const nlohmann::json& obj, const std::string& where, const char* key,
              std::string* out, bool required = false);
  // The member if it is an object (or an array); nullptr when absent or null, an error
  // when it has another type.
  const nlohmann::json* Object(const nlohmann::json& obj, const std::string& where,
                               const char* key, bool required = false);
  const nlohmann::json* Array(const nlohmann::json& obj, const std::string& where,
                              const char* key, bool required = false);

 private:
  const nlohmann::json* Find(const nlohmann::json& obj, const std::string& where, const char* key,
                             bool required);
  void WrongType(const std::string& where, const char* key, const nlohmann::json& value,
                 const char* wanted);
  std::string error_;
};

// The JSON document in `path`: unreadable (exit status 3) when the file cannot be
// opened or is not JSON.
Result<nlohmann::json> ReadJsonFile(const std::string& path);

// "ranks[2].p2p" from "ranks[2]" and "p2p"; the top level is "".
std::string JoinPath(const std::string& where, const std::string& key);
std::string IndexPath(const std::string& where, size_t index);

// What the readers of "mpidbg.monitor/1" and "mpidbg.profile/1" share.

// Each element of the array `obj[key]` (absent or null: none) with its location:
// `read(element, at)`, while `f` holds no error.
template <typename Read>
void ForEachElement(JsonFields& f, const nlohmann::json& obj, const std::string& where,
                    const char* key, Read read) {
  const nlohmann::json* list = f.Array(obj, where, key);
  if (list == nullptr) return;
  std::string path = JoinPath(where, key);
  for (size_t i = 0; i < list->size() && f.ok(); ++i) read((*list)[i], IndexPath(path, i));
}

// The file `path` read and given to `from_json(doc, path)`.
template <typename T>
Result<T> LoadJsonFile(const std::string& path,
                             Result<T> (*from_json)(const nlohmann::json&,
                                                          const std::string&)) {
  auto doc = ReadJsonFile(path);
  if (!doc.ok()) return doc.status();
  return from_json(doc.value(), path);
}

// Reads the required "schema" into `f`; a document of another schema is refused outright
// (unreadable, naming `name`), a missing one is left as `f`'s error.
Status CheckSchema(JsonFields& f, const nlohmann::json& doc, const std::string& name,
                         const char* schema);

// Largest world size accepted from a file or a target: a count read from outside never
// sizes an allocation by itself (each rank costs a few hundred bytes of model, and the
// JSON's dense matrices grow with the square).
constexpr int kMaxWorldSize = 1 << 16;

// job.world_size between 1 and `max` (a count from outside never sizes memory unbounded).
void CheckWorldSize(JsonFields& f, int world_size, int max);

// `obj[key]` (required) as a world rank of a `world_size`-rank job: false, with the error
// in `f`, when missing, of the wrong type or out of range.
bool RankOf(JsonFields& f, const nlohmann::json& obj, const std::string& where, const char* key,
            int world_size, int* out);

// The slot of `ranks` the entry's "rank" names, marked present; nullptr (error in `f`)
// when the rank is no rank of the job or was given before.
template <typename Rank>
Rank* ClaimRank(JsonFields& f, const nlohmann::json& entry, const std::string& at,
                std::vector<Rank>* ranks) {
  int rank = -1;
  if (!RankOf(f, entry, at, "rank", static_cast<int>(ranks->size()), &rank)) return nullptr;
  Rank& r = (*ranks)[static_cast<size_t>(rank)];
  if (r.present) {
    f.Fail(at + " repeats rank " + std::to_string(rank));
    return nullptr;
  }
  r.present = true;
  return &r;
}

// The required top-level "ranks" array: `ranks` becomes `world_size` numbered slots and
// each entry is claimed (ClaimRank) and given to `read(entry, at, &slot)`. Nothing is
// read once `f` holds an error.
template <typename Rank, typename Read>
void ReadRanks(JsonFields& f, const nlohmann::json& doc, int world_size, std::vector<Rank>* ranks,
               Read read) {
  const nlohmann::json* list = f.ok() ? f.Array(doc, "", "ranks", true) : nullptr;
  if (list == nullptr) return;
  ranks->resize(static_cast<size_t>(world_size));
  for (int i = 0; i < world_size; ++i) (*ranks)[static_cast<size_t>(i)].rank = i;
  for (size_t i = 0; i < list->size() && f.ok(); ++i) {
    std::string at = IndexPath("ranks", i);
    const nlohmann::json& entry = (*list)[i];
    if (Rank* r = ClaimRank(f, entry, at, ranks)) read(entry, at, r);
  }
}

}  // namespace mpidbg::host
