// read_objects.cc — see read_objects.h.
#include "host/handle/read_objects.h"

#include "host/objects/object_listing.h"
#include "host/plugin_host/handle_dll.h"
#include "host/plugin_host/handle_session.h"
#include "host/plugin_host/plugin_choice.h"

namespace mpidbg::host {

Result<ObjectsReading> ReadObjects(const ObjectsRequest& req) {
  const int kind = ObjectKindNumber(req.kind);
  if (kind < 0) return Status::Usage("unknown object kind '" + req.kind + "'");
  auto opened = OpenedTarget::Open(req.target);
  if (!opened.ok()) return opened.status();
  OpenedTarget& target = *opened.value();
  auto choice = ChoosePlugin(target.symbols(), target.memory(), req.target.plugin, target.pid());
  if (!choice.ok()) return choice.status();
  auto dll = HandleDll::Load(choice->path);
  if (!dll.ok()) return dll.status();

  TargetContext ctx;
  ctx.memory = &target.memory();
  ctx.symbols = &target.symbols();
  ListingClock clock;
  clock.live = target.is_live();
  clock.now_ns = RealtimeNowNs();
  Result<model::ObjectListing> listing = Status::NoSupport("not read");
  {
    auto session = HandleSession::Start(dll.value().get(), &ctx);
    if (!session.ok()) return session.status();
    // Sites are symbolized while a live process is still stopped: its modules are the
    // ones the addresses belong to.
    listing = ListObjects(*session.value(), target.symbols().dwfl(), kind, clock);
  }
  Status closed = target.Close();
  if (!listing.ok()) return listing.status();
  if (!closed.ok()) return closed;

  ObjectsReading out;
  out.pid = target.pid();
  out.source = target.source();
  out.plugin = choice->path;
  out.listing = std::move(listing.value());
  if (req.freed) {
    std::vector<model::ObjectHandle> kept;
    for (model::ObjectHandle& o : out.listing.objects) {
      if (o.freed) kept.push_back(std::move(o));
    }
    out.listing.objects = std::move(kept);
  }
  return out;
}

}  // namespace mpidbg::host
