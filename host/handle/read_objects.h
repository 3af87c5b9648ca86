// read_objects.h — the whole path of `mpidbg handles`: open the target, choose its DLL,
// start the handle interface, list the objects with their creation sites, close.
#pragma once

#include <string>

#include "host/model/snapshot.h"
#include "host/target/opened_target.h"
#include "host/util/status.h"

namespace mpidbg::host {

struct ObjectsRequest {
  TargetSpec target;
  std::string kind;     // "" for every kind
  bool freed = false;   // only objects the application freed (orphans)
};

struct ObjectsReading {
  int64_t pid = 0;
  std::string source;   // "live" | "core"
  std::string plugin;
  model::ObjectListing listing;
};

Result<ObjectsReading> ReadObjects(const ObjectsRequest& request);

}  // namespace mpidbg::host
