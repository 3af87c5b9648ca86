// node_frames.cc — writing and reading frames (node_frames.h).
#include "host/fanout/node_frames.h"

#include <charconv>
#include <streambuf>
#include <utility>
#include <vector>

namespace mpidbg::host {
namespace {

bool Plain(unsigned char c) { return c > 0x20 && c < 0x7f && c != '%'; }

void AppendEscaped(unsigned char c, std::string* out) {
  static const char kHex[] = "0123456789ABCDEF";
  if (Plain(c)) {
    out->push_back(static_cast<char>(c));
  } else {
    out->push_back('%');
    out->push_back(kHex[c >> 4]);
    out->push_back(kHex[c & 15]);
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool Unescape(std::string_view text, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '%') {
      if (i + 2 >= text.size()) return false;
      int hi = HexValue(text[i + 1]), lo = HexValue(text[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out->push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (Plain(c)) {
      out->push_back(static_cast<char>(c));
    } else {
      return false;
    }
  }
  return true;
}

std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i <= s.size() && words.size() < 7) {
    std::size_t j = s.find(' ', i);
    if (j == std::string_view::npos) j = s.size();
    words.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return words;
}

bool Number(std::string_view text, uint64_t* out) {
  if (text.empty() || text.size() > 19) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

bool ValidFrameTag(std::string_view tag) {
  if (tag.empty() || tag.size() > kMaxFrameTagChars) return false;
  for (char c : tag) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

FrameWriter::FrameWriter(std::string tag, std::function<void(const std::string&)> emit)
    : tag_(ValidFrameTag(tag) ? std::move(tag) : std::string("unnamed")), emit_(std::move(emit)) {}

void FrameWriter::Emit(FrameFlag flag, const std::string& chunk) {
  const char f = flag == FrameFlag::kContinues ? '+' : flag == FrameFlag::kLineEnd ? '.' : '$';
  std::string line = std::string(kFrameMarker) + " " + tag_ + " " + std::to_string(seq_++) + " " +
                     f + " " + std::to_string(chunk.size());
  if (!chunk.empty()) line += " " + chunk;
  emit_(line);
}

void FrameWriter::RecordLine(std::string_view text) {
  std::string chunk;
  for (std::size_t i = 0; i < text.size(); ++i) {
    AppendEscaped(static_cast<unsigned char>(text[i]), &chunk);
    if (chunk.size() >= kFrameChunkChars && i + 1 < text.size()) {
      Emit(FrameFlag::kContinues, chunk);
      chunk.clear();
    }
  }
  Emit(FrameFlag::kLineEnd, chunk);
}

void FrameWriter::Partial(std::string_view text) {
  std::string chunk;
  for (unsigned char c : text) {
    AppendEscaped(c, &chunk);
    if (chunk.size() >= kFrameChunkChars) {
      Emit(FrameFlag::kContinues, chunk);
      chunk.clear();
    }
  }
  if (!chunk.empty()) Emit(FrameFlag::kContinues, chunk);
}

void FrameWriter::End() { Emit(FrameFlag::kStreamEnd, ""); }

// Collects the text up to each newline and hands it over as one record line.
class FramedOutput::Buf : public std::streambuf {
 public:
  Buf(std::ostream& out, const std::string& tag)
      : out_(out), writer_(tag, [this](const std::string& frame) {
          out_ << frame << '\n';
          out_.flush();
        }) {}

  void Close() {
    if (closed_) return;
    closed_ = true;
    if (!line_.empty()) writer_.Partial(line_);
    line_.clear();
    writer_.End();
  }

 protected:
  int_type overflow(int_type c) override {
    if (closed_ || traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    if (c == '\n') {
      writer_.RecordLine(line_);
      line_.clear();
    } else {
      line_.push_back(static_cast<char>(c));
    }
    return c;
  }
  int sync() override { return out_ ? 0 : -1; }

 private:
  std::ostream& out_;
  FrameWriter writer_;
  std::string line_;
  bool closed_ = false;
};

FramedOutput::FramedOutput(std::ostream& out, const std::string& tag)
    : buf_(std::make_unique<Buf>(out, tag)), stream_(std::make_unique<std::ostream>(buf_.get())) {}

FramedOutput::~FramedOutput() { Close(); }

std::ostream& FramedOutput::stream() { return *stream_; }

void FramedOutput::Close() { buf_->Close(); }

ParsedFrame ParseFrame(std::string_view line) {
  ParsedFrame p;
  std::size_t at = line.find(kFrameMarker);
  if (at == std::string_view::npos) return p;
  line.remove_prefix(at);
  p.kind = ParsedFrame::kBadFrame;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // a transport's CRLF
  std::vector<std::string_view> w = Words(line);
  if (w[0] != kFrameMarker) {
    p.why = "a frame marker of another version";
    return p;
  }
  if (w.size() < 5 || w.size() > 6) {
    if (w.size() > 1 && ValidFrameTag(w[1])) p.frame.tag = std::string(w[1]);
    p.why = "a frame with " + std::to_string(w.size()) + " fields";
    return p;
  }
  if (!ValidFrameTag(w[1])) {
    p.why = "a frame whose node tag is not a host name";
    return p;
  }
  p.frame.tag = std::string(w[1]);
  uint64_t seq = 0, length = 0;
  if (!Number(w[2], &seq)) {
    p.why = "a frame whose sequence number is not a number";
    return p;
  }
  p.frame.seq = seq;
  const std::string which = "frame " + std::to_string(seq);
  if (w[3] == "+") {
    p.frame.flag = FrameFlag::kContinues;
  } else if (w[3] == ".") {
    p.frame.flag = FrameFlag::kLineEnd;
  } else if (w[3] == "$") {
    p.frame.flag = FrameFlag::kStreamEnd;
  } else {
    p.why = which + " has an unknown flag";
    return p;
  }
  std::string_view chunk = w.size() == 6 ? w[5] : std::string_view();
  // The length tells a frame cut short (its reader stopped mid-line) from a whole one.
  if (!Number(w[4], &length) || length != chunk.size() || (w.size() == 6 && chunk.empty())) {
    p.why = which + " is cut short or its length is wrong";
    return p;
  }
  if (chunk.size() > kMaxFrameChunkChars) {
    p.why = which + " is longer than a frame may be";
    return p;
  }
  if (p.frame.flag == FrameFlag::kStreamEnd && !chunk.empty()) {
    p.why = which + " ends the stream but carries text";
    return p;
  }
  if (!Unescape(chunk, &p.frame.chunk)) {
    p.why = which + " holds a badly escaped chunk";
    return p;
  }
  p.kind = ParsedFrame::kFrame;
  p.why.clear();
  return p;
}

}  // namespace mpidbg::host
