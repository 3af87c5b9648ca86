// node_record_parser.cc — reading "mpidbg.node/1" strictly, one bounded line at a time.
#include "host/collect/node_record_parser.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "host/collect/member_ranges.h"
#include "host/collect/node_record_schema.h"
#include "host/snapshot/snapshot_parse.h"
#include "host/snapshot/snapshot_schema.h"
#include "host/util/json_fields.h"

namespace mpidbg::host {
namespace {

using nlohmann::json;

enum class LineRead { kLine, kEnd, kCutShort, kTooLong };

// One line without its newline. A last line with no newline was cut short: the writer
// ends every line with one.
LineRead ReadLine(std::istream& in, std::string* line) {
  line->clear();
  std::streambuf* buf = in.rdbuf();
  if (buf == nullptr) return LineRead::kEnd;
  for (;;) {
    int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) return line->empty() ? LineRead::kEnd : LineRead::kCutShort;
    if (c == '\n') return LineRead::kLine;
    if (line->size() >= kMaxNodeRecordLineBytes) return LineRead::kTooLong;
    line->push_back(static_cast<char>(c));
  }
}

// Held once per record: every rank line naming the communicator shares these lists.
struct Membership {
  model::RankList world_ranks;
  std::optional<model::RankList> remote_world_ranks;
};

class RecordReader {
 public:
  RecordReader(NodeRecordSummary* summary, const NodeRecordSinks& sinks)
      : s_(*summary), sinks_(sinks) {}

  // Ok to go on; an error ends the record.
  Status Header(const json& line);
  Status Comm(const json& line);
  Status Rank(json line);
  Status Trailer(const json& line);

 private:
  Status Section(const json& line);

  NodeRecordSummary& s_;
  const NodeRecordSinks& sinks_;
  json content_job_;  // the header's object for a content other than snapshots
  std::unordered_map<std::string, Membership> table_;
  std::size_t table_ranks_ = 0;
};

Status Bad(const std::string& why) { return Status::Unreadable(why); }

const json* Field(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

Status RecordReader::Header(const json& line) {
  const json* schema = Field(line, "schema");
  if (schema == nullptr || !schema->is_string()) {
    return Bad("not a node record: the first line names no schema");
  }
  if (schema->get<std::string>() != kNodeRecordSchema) {
    return Bad("not a node record: schema is \"" + schema->get<std::string>().substr(0, 64) +
               "\", expected \"" + kNodeRecordSchema + "\"");
  }
  const json* ranks = Field(line, "ranks");
  if (ranks == nullptr || !ranks->is_number_integer() || ranks->get<int64_t>() < 0 ||
      ranks->get<int64_t>() > kMaxWorldSize) {
    return Bad("the header's rank count is missing or out of range");
  }
  s_.ranks_announced = ranks->get<int>();
  if (const json* h = Field(line, "hostname"); h != nullptr && h->is_string()) s_.hostname = *h;
  if (const json* j = Field(line, "job"); j != nullptr && j->is_string()) s_.job = *j;
  if (const json* v = Field(line, "mpidbg_version"); v != nullptr && v->is_string()) s_.version = *v;
  std::string content = kNodeContentSnapshot;
  if (const json* c = Field(line, "content"); c != nullptr) {
    if (!c->is_string()) return Bad("the header's content is not a name");
    content = c->get<std::string>().substr(0, 64);
  }
  if (content != sinks_.content) {
    return Bad("the record holds " + content + " ranks, " + sinks_.content + " ranks are wanted");
  }
  if (content != kNodeContentSnapshot) {
    const json* job = Field(line, content.c_str());
    if (job == nullptr || !job->is_object()) return Bad("the header lacks its " + content + " object");
    content_job_ = *job;
  }
  return Status::Ok();
}

Status RecordReader::Comm(const json& line) {
  const json* id = Field(line, "id");
  const json* members = Field(line, "members");
  const json* remote = Field(line, "remote_members");
  if (id == nullptr || !id->is_string() || id->get<std::string>().empty() ||
      members == nullptr || !members->is_string() || (remote != nullptr && !remote->is_string())) {
    return Bad("a communicator line lacks its id or members");
  }
  if (table_.count(*id) != 0) return Bad("communicator " + id->get<std::string>() + " is listed twice");
  if (table_.size() >= kMaxNodeCommunicators) return Bad("more communicators than a record may hold");
  auto local = ParseMemberRanges(*members, kMaxNodeTableRanks - table_ranks_);
  if (!local.ok()) return local.status();
  table_ranks_ += local->size();
  std::optional<model::RankList> far;
  if (remote != nullptr) {
    auto parsed = ParseMemberRanges(*remote, kMaxNodeTableRanks - table_ranks_);
    if (!parsed.ok()) return parsed.status();
    table_ranks_ += parsed->size();
    far = model::RankList(std::move(parsed.value()));
  }
  table_.emplace(id->get<std::string>(), Membership{std::move(local.value()), std::move(far)});
  return Status::Ok();
}

Status RecordReader::Rank(json line) {
  if (s_.ranks_read >= s_.ranks_announced) {
    return Bad("more rank lines than the header's " + std::to_string(s_.ranks_announced));
  }
  if (sinks_.content != kNodeContentSnapshot) return Section(line);
  auto it = line.find("snapshot");
  if (it == line.end() || !it->is_object()) return Bad("a rank line holds no snapshot");
  json& doc = *it;
  doc["schema"] = kSnapshotSchema;
  // Communicators whose lists were left out take them from the node's table.
  std::vector<std::pair<std::size_t, const Membership*>> shared;
  if (auto comms = doc.find("communicators"); comms != doc.end() && comms->is_array()) {
    for (std::size_t i = 0; i < comms->size(); ++i) {
      const json& c = (*comms)[i];
      if (!c.is_object() || c.contains("world_ranks")) continue;
      const json* id = Field(c, "id");
      auto found = id != nullptr && id->is_string() ? table_.find(*id) : table_.end();
      if (found == table_.end()) {
        return Bad("a rank line names a communicator with no communicator line before it");
      }
      shared.emplace_back(i, &found->second);
    }
  }
  auto snap = SnapshotFromJson(doc);
  if (!snap.ok()) return Bad("rank line " + std::to_string(s_.ranks_read + 1) + ": " + snap.status().message());
  for (const auto& [i, m] : shared) {
    if (i >= snap->communicators.size()) continue;
    snap->communicators[i].world_ranks = m->world_ranks;
    snap->communicators[i].remote_world_ranks = m->remote_world_ranks;
  }
  ++s_.ranks_read;
  if (sinks_.on_rank) sinks_.on_rank(std::move(snap.value()));
  return Status::Ok();
}

Status RecordReader::Section(const json& line) {
  const json* rank = Field(line, sinks_.content.c_str());
  if (rank == nullptr || !rank->is_object()) return Bad("a rank line holds no " + sinks_.content);
  if (sinks_.on_section) {
    Status st = sinks_.on_section(content_job_, *rank);
    if (!st.ok()) {
      return Bad("rank line " + std::to_string(s_.ranks_read + 1) + ": " + st.message());
    }
  }
  ++s_.ranks_read;
  return Status::Ok();
}

Status RecordReader::Trailer(const json& line) {
  const json* read = Field(line, "ranks_read");
  const json* failed = Field(line, "failed");
  if (read == nullptr || !read->is_number_integer() || failed == nullptr || !failed->is_array()) {
    return Bad("the trailer lacks ranks_read or failed");
  }
  if (read->get<int64_t>() != s_.ranks_read) {
    return Bad("the trailer counts " + std::to_string(read->get<int64_t>()) +
               " ranks read, the record holds " + std::to_string(s_.ranks_read));
  }
  if (s_.ranks_read + failed->size() > static_cast<std::size_t>(s_.ranks_announced)) {
    return Bad("the trailer lists more failed ranks than the header announced");
  }
  std::vector<model::ProcessSnapshot> unreadable;
  for (const json& f : *failed) {
    const json* pid = f.is_object() ? Field(f, "pid") : nullptr;
    const json* error = f.is_object() ? Field(f, "error") : nullptr;
    if (pid == nullptr || !pid->is_number_integer() || error == nullptr || !error->is_string()) {
      return Bad("a failed rank of the trailer lacks its pid or error");
    }
    model::ProcessSnapshot snap;
    snap.process.pid = pid->get<int64_t>();
    snap.process.state = "unreadable";
    snap.process.error = *error;
    const json* source = Field(f, "source");
    snap.process.source = source != nullptr && source->is_string() ? source->get<std::string>() : "live";
    const json* kind = Field(f, "error_kind");
    int k = kind != nullptr && kind->is_number_integer() ? kind->get<int>() : 0;
    snap.process.error_kind = k >= 0 && k <= 3 ? k : 0;
    unreadable.push_back(std::move(snap));
  }
  // Processes of unknown job (collect --job could not read them) are no ranks.
  if (const json* skipped = Field(line, "skipped"); skipped != nullptr && !skipped->is_array()) {
    return Bad("the trailer's skipped is not a list");
  }
  if (const json* e = Field(line, "elapsed_s"); e != nullptr && e->is_number()) s_.elapsed_s = *e;
  s_.ranks_failed = static_cast<int>(unreadable.size());
  if (sinks_.on_rank) {
    for (model::ProcessSnapshot& snap : unreadable) sinks_.on_rank(std::move(snap));
  }
  return Status::Ok();
}

}  // namespace

struct NodeRecordLines::State {
  State(NodeRecordSummary* summary, NodeRecordSinks sinks)
      : sinks(std::move(sinks)), reader(summary, this->sinks) {}
  NodeRecordSinks sinks;
  RecordReader reader;
  int number = 0;
  bool header = false;
  bool trailer = false;
};

NodeRecordLines::NodeRecordLines(const std::string& input,
                                 std::function<void(model::ProcessSnapshot&&)> on_rank)
    : NodeRecordLines(input, NodeRecordSinks{kNodeContentSnapshot, std::move(on_rank), nullptr}) {}

NodeRecordLines::NodeRecordLines(const std::string& input, NodeRecordSinks sinks) {
  summary_.input = input;
  state_ = std::make_unique<State>(&summary_, std::move(sinks));
}

NodeRecordLines::~NodeRecordLines() = default;

bool NodeRecordLines::Fail(const Status& why) {
  summary_.status = why;
  summary_.complete = false;
  failed_ = true;
  return false;
}

bool NodeRecordLines::Line(const std::string& text) {
  if (failed_) return false;
  State& s = *state_;
  std::string where = "line " + std::to_string(++s.number);
  if (text.size() > kMaxNodeRecordLineBytes) {
    return Fail(Bad(where + " is longer than " + std::to_string(kMaxNodeRecordLineBytes >> 20) +
                    " MiB"));
  }
  if (s.trailer) return Fail(Bad(where + " follows the trailer"));
  json line = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (line.is_discarded() || !line.is_object()) {
    return Fail(Bad(s.header ? where + " is not a JSON object"
                             : "not a node record: the first line is not JSON"));
  }
  const json* kind = Field(line, "record");
  std::string record = kind != nullptr && kind->is_string() ? kind->get<std::string>() : "";
  Status st;
  try {
    if (!s.header) {
      st = record == "header" || record.empty() ? s.reader.Header(line)
                                                : Bad("not a node record: the first line is no header");
      s.header = st.ok();
    } else if (record == "comm") {
      st = s.reader.Comm(line);
    } else if (record == "rank") {
      st = s.reader.Rank(std::move(line));
    } else if (record == "trailer") {
      st = s.reader.Trailer(line);
      s.trailer = st.ok();
    } else {
      st = Bad(where + " is of no known kind");
    }
  } catch (const json::exception& e) {
    st = Bad(where + ": " + e.what());
  }
  if (!st.ok()) return Fail(st);
  return true;
}

void NodeRecordLines::CutShort() {
  if (failed_) return;
  Fail(Bad("truncated: line " + std::to_string(state_->number + 1) + " is cut short"));
}

bool NodeRecordLines::ended() const { return failed_ || state_->trailer; }

NodeRecordSummary NodeRecordLines::Finish() {
  if (!failed_) {
    if (!state_->header) {
      Fail(Bad("empty: no header line"));
    } else if (!state_->trailer) {
      Fail(Bad("truncated: no trailer after " + std::to_string(summary_.ranks_read) +
               " rank lines"));
    } else {
      summary_.status = Status::Ok();
      summary_.complete = true;
    }
  }
  return summary_;
}

NodeRecordSummary ReadNodeRecord(std::istream& in, const std::string& input,
                                 const std::function<void(model::ProcessSnapshot&&)>& on_rank) {
  NodeRecordLines lines(input, on_rank);
  std::string text;
  for (;;) {
    LineRead got = ReadLine(in, &text);
    if (got == LineRead::kEnd) return lines.Finish();
    if (got == LineRead::kCutShort) {
      lines.CutShort();
      return lines.Finish();
    }
    if (got == LineRead::kTooLong) {
      text.push_back('x');  // one byte over the bound names the fault
      lines.Line(text);
      return lines.Finish();
    }
    if (!lines.Line(text)) return lines.Finish();
  }
}

}  // namespace mpidbg::host
