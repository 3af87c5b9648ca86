// info_entries.cc — see info_entries.h.
#include "rt/objects/info_entries.h"

#include <stdlib.h>
#include <string.h>

#include <initializer_list>

#include "core/record_arrays.h"

namespace mpidbg::rt {
namespace {

struct Entry {
  char* key;
  char* value;
};

int CompareKeys(const void* a, const void* b) {
  return strcmp(static_cast<const Entry*>(a)->key, static_cast<const Entry*>(b)->key);
}

void FreeEntries(Entry* entries, int n) {
  for (int i = 0; i < n; ++i) {
    free(entries[i].key);
    free(entries[i].value);
  }
  free(entries);
}

// Reads the n-th entry; false if MPI refused or memory ran out.
bool ReadEntry(MPI_Info info, int n, Entry* out) {
  *out = Entry{nullptr, nullptr};
  char key[MPI_MAX_INFO_KEY + 1];
  key[0] = '\0';
  if (PMPI_Info_get_nthkey(info, n, key) != MPI_SUCCESS) return false;
  key[MPI_MAX_INFO_KEY] = '\0';
  int valuelen = 0, flag = 0;
  if (PMPI_Info_get_valuelen(info, key, &valuelen, &flag) != MPI_SUCCESS || flag == 0 ||
      valuelen < 0)
    return false;
  out->key = strdup(key);
  out->value = static_cast<char*>(malloc(static_cast<size_t>(valuelen) + 1));
  if (out->key == nullptr || out->value == nullptr) return false;
  out->value[0] = '\0';
  // MPI_Info_get is deprecated in MPI-4 but present in both MPIs; the buffer holds
  // valuelen characters and the NUL MPI adds.
  if (PMPI_Info_get(info, key, valuelen, out->value, &flag) != MPI_SUCCESS || flag == 0)
    return false;
  out->value[valuelen] = '\0';
  return true;
}

}  // namespace

bool ReadInfoEntries(MPI_Info info, mpidbg_array* entries, int32_t* nkeys) {
  *entries = mpidbg_array{0, 0, 1};
  *nkeys = 0;
  if (info == MPI_INFO_NULL) return true;
  int n = 0;
  if (PMPI_Info_get_nkeys(info, &n) != MPI_SUCCESS || n < 0) return false;
  if (n == 0) return true;
  auto* list = static_cast<Entry*>(calloc(static_cast<size_t>(n), sizeof(Entry)));
  if (list == nullptr) return false;
  size_t bytes = 0;
  for (int i = 0; i < n; ++i) {
    if (!ReadEntry(info, i, &list[i])) {
      FreeEntries(list, n);
      return false;
    }
    bytes += strlen(list[i].key) + 1 + strlen(list[i].value) + 1;
  }
  qsort(list, static_cast<size_t>(n), sizeof(Entry), &CompareKeys);
  char* buffer = static_cast<char*>(malloc(bytes));
  if (buffer == nullptr) {
    FreeEntries(list, n);
    return false;
  }
  char* p = buffer;
  for (int i = 0; i < n; ++i) {
    for (const char* s : {list[i].key, list[i].value}) {
      const size_t len = strlen(s) + 1;
      memcpy(p, s, len);
      p += len;
    }
  }
  FreeEntries(list, n);
  if (bytes > UINT32_MAX) {
    free(buffer);
    return false;
  }
  *entries = mpidbg_array{static_cast<uint64_t>(reinterpret_cast<uintptr_t>(buffer)),
                          static_cast<uint32_t>(bytes), 1};
  *nkeys = n;
  return true;
}

}  // namespace mpidbg::rt
