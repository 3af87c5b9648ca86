// node_record_writer.cc — writing "mpidbg.node/1" line by line.
#include "host/collect/node_record_writer.h"

#include <nlohmann/json.hpp>

#include "host/collect/node_record_schema.h"
#include "host/snapshot/snapshot_json.h"
#include "host/util/rank_list_text.h"

namespace mpidbg::host {

using nlohmann::json;

namespace {

json TextOrNull(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

}  // namespace

void NodeRecordWriter::Header(const NodeRecordHeader& header) {
  Header(header, kNodeContentSnapshot, nullptr);
}

void NodeRecordWriter::Header(const NodeRecordHeader& header, const std::string& content,
                              const json& job) {
  json line = {{"record", "header"},
               {"schema", kNodeRecordSchema},
               {"hostname", header.hostname},
               {"job", TextOrNull(header.job)},
               {"ranks", header.ranks},
               {"mpidbg_version", header.version}};
  content_ = content;
  if (content_ != kNodeContentSnapshot) {
    line["content"] = content_;
    line[content_] = job;
  }
  out_ << line.dump() << '\n' << std::flush;
}

bool NodeRecordWriter::InTable(const model::Communicator& c) {
  if (c.id.empty()) return false;
  auto found = written_.find(c.id);
  if (found != written_.end()) {
    return found->second.world_ranks == c.world_ranks &&
           found->second.remote_world_ranks == c.remote_world_ranks;
  }
  written_.emplace(c.id, Membership{c.world_ranks, c.remote_world_ranks});
  json line = {{"record", "comm"},
               {"id", c.id},
               {"members", RankListText(c.world_ranks.ranks())},
               {"remote_members", c.remote_world_ranks
                                      ? json(RankListText(c.remote_world_ranks->ranks()))
                                      : json(nullptr)}};
  out_ << line.dump() << '\n';
  return true;
}

void NodeRecordWriter::Rank(const model::ProcessSnapshot& snap) {
  json doc = SnapshotToJson(snap);
  doc.erase("schema");
  doc.erase("handles");
  if (doc.contains("metadata")) doc["metadata"].erase("mpi_t");
  json& comms = doc["communicators"];
  for (std::size_t i = 0; i < snap.communicators.size() && i < comms.size(); ++i) {
    if (!InTable(snap.communicators[i])) continue;
    comms[i].erase("world_ranks");
    comms[i].erase("remote_world_ranks");
  }
  out_ << json{{"record", "rank"}, {"snapshot", std::move(doc)}}.dump() << '\n' << std::flush;
  ++ranks_read_;
}

void NodeRecordWriter::Section(const json& rank) {
  out_ << json{{"record", "rank"}, {content_, rank}}.dump() << '\n' << std::flush;
  ++ranks_read_;
}

void NodeRecordWriter::Failure(int64_t pid, const std::string& source, const Status& why) {
  failures_.push_back(json{{"pid", pid},
                           {"source", source},
                           {"error", why.message()},
                           {"error_kind", why.exit_code()}});
}

void NodeRecordWriter::Skipped(int64_t pid, const Status& why) {
  skipped_.push_back(json{{"pid", pid}, {"error", why.message()}, {"error_kind", why.exit_code()}});
}

void NodeRecordWriter::Trailer(double elapsed_seconds) {
  json line = {{"record", "trailer"},
               {"ranks_read", ranks_read_},
               {"ranks_failed", failures_.size()},
               {"failed", failures_},
               {"skipped", skipped_},
               {"elapsed_s", elapsed_seconds}};
  out_ << line.dump() << '\n' << std::flush;
}

}  // namespace mpidbg::host
