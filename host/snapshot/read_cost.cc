// read_cost.cc — see read_cost.h.
#include "host/snapshot/read_cost.h"

#include <cstdio>

namespace mpidbg::host {

std::string ReadCostText(const ReadCost& c) {
  auto ms = [](int64_t ns) { return static_cast<double>(ns) * 1e-6; };
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "attach=%.1f modules=%.1f choose=%.1f session=%.1f records=%.1f stacks=%.1f "
                "detach=%.1f ms threads=%d",
                ms(c.attach_ns), ms(c.modules_ns), ms(c.choose_ns), ms(c.session_ns),
                ms(c.records_ns), ms(c.stacks_ns), ms(c.detach_ns), c.threads);
  return buf;
}

}  // namespace mpidbg::host
