#include "plugin/unexpected_join.h"

#include <algorithm>
#include <climits>
#include <tuple>

namespace mpidbg::plugin {
namespace {

struct TagCount {
  int32_t tag;
  uint64_t count;
};

// Target memory is untrusted: the tables may be large, so every lookup below works on
// the entries of this one (communicator, sender, receiver) pair, sorted once.
bool by_tag_ordinal(const mpidbg_send_log_entry& a, const mpidbg_send_log_entry& b) {
  return std::make_tuple(a.tag, a.ordinal) < std::make_tuple(b.tag, b.ordinal);
}

}  // namespace

bool join_unexpected(const plugin::TrafficSnapshot& receiver, int32_t receiver_world,
                     const plugin::TrafficSnapshot& sender, int32_t sender_world,
                     uint64_t comm_job_id, uint64_t max_per_flow,
                     plugin::Vec<UnexpectedMessage>* out) {
  // What the receiver took from the sender on this communicator, per tag.
  plugin::Vec<TagCount> taken;
  for (const mpidbg_traffic_entry& e : receiver.entries) {
    if (e.comm_job_id != comm_job_id || e.peer_world != sender_world) continue;
    if (!taken.push_back(TagCount{e.tag, e.receives})) return false;
  }
  std::sort(taken.begin(), taken.end(),
            [](const TagCount& a, const TagCount& b) { return a.tag < b.tag; });
  auto received = [&taken](int32_t tag) {
    uint64_t total = 0;
    auto it = std::lower_bound(taken.begin(), taken.end(), tag,
                               [](const TagCount& t, int32_t v) { return t.tag < v; });
    for (; it != taken.end() && it->tag == tag; ++it) total += it->count;
    return total;
  };
  // The sender's logged sends to the receiver on this communicator.
  plugin::Vec<mpidbg_send_log_entry> log;
  for (const mpidbg_send_log_entry& s : sender.sends) {
    if (s.comm_job_id != comm_job_id || s.peer_world != receiver_world) continue;
    if (!log.push_back(s)) return false;
  }
  std::sort(log.begin(), log.end(), by_tag_ordinal);

  for (const mpidbg_traffic_entry& flow : sender.entries) {
    if (flow.comm_job_id != comm_job_id || flow.peer_world != receiver_world) continue;
    if (flow.tag < 0) continue;  // a send always has a real tag; anything else is damage
    const uint64_t got = received(flow.tag);
    if (flow.sends <= got) continue;
    const uint64_t listed = std::min(flow.sends - got, max_per_flow);
    int64_t order_time = INT64_MIN;
    for (uint64_t ordinal = got + 1; ordinal <= got + listed; ++ordinal) {
      UnexpectedMessage m{};
      m.sender_world = sender_world;
      m.tag = flow.tag;
      m.comm_job_id = comm_job_id;
      m.ordinal = ordinal;
      mpidbg_send_log_entry probe{};
      probe.tag = flow.tag;
      probe.ordinal = ordinal;
      auto it = std::lower_bound(log.begin(), log.end(), probe, by_tag_ordinal);
      if (it != log.end() && it->tag == flow.tag && it->ordinal == ordinal) {
        m.logged = 1;
        m.send = *it;
        order_time = std::max(order_time, it->time_ns);
      }
      m.order_time_ns = order_time;
      if (!out->push_back(m)) return false;
    }
  }
  return true;
}

void sort_unexpected(plugin::Vec<UnexpectedMessage>* list) {
  auto key = [](const UnexpectedMessage& m) {
    return std::make_tuple(m.order_time_ns, m.sender_world, m.comm_job_id, m.tag, m.ordinal);
  };
  std::sort(list->begin(), list->end(),
            [&key](const UnexpectedMessage& a, const UnexpectedMessage& b) {
              return key(a) < key(b);
            });
}

}  // namespace mpidbg::plugin
