#include "core/cards.h"

#include <cstring>
#include <type_traits>

#include "core/pid_name.h"

namespace tandem {

namespace {

// The kinds of card, the last byte of the magic word.
enum Kind : char { kNode = 'n', kSegments = 's', kEndpoint = 'e' };

// Bounds of what a card may carry: far above what any provider or host gives, far below
// what would hurt to allocate.
constexpr size_t kMaxText = 4096;
constexpr size_t kMaxLocator = 255;

// A card is "TDM" and its kind, the version, then fields: fixed-size values in this
// machine's byte order (every PE of a job runs on one architecture) and texts with a 32-bit
// length before them.
class Writer {
 public:
  explicit Writer(Kind kind) : out_("TDM") {
    out_ += static_cast<char>(kind);
    put(kCardVersion);
  }
  template <typename T>
  Writer& put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
    return *this;
  }
  Writer& text(std::string_view text) {
    put(static_cast<uint32_t>(text.size()));
    out_.append(text);
    return *this;
  }
  std::string done() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  Reader(std::string_view card, Kind kind) : in_(card) {
    char magic[4] = {};
    uint16_t version = 0;
    ok_ = take(magic, sizeof magic) && memcmp(magic, "TDM", 3) == 0 && magic[3] == kind && get(&version) &&
          version == kCardVersion;
  }
  template <typename T>
  bool get(T* value) {
    static_assert(std::is_trivially_copyable_v<T>);
    return take(value, sizeof *value);
  }
  // A text of at most `max` bytes.
  bool text(std::string* out, size_t max) {
    uint32_t length = 0;
    if (!get(&length) || length > max || length > in_.size()) return ok_ = false;
    out->assign(in_.substr(0, length));
    in_.remove_prefix(length);
    return true;
  }
  // Everything read, nothing left over.
  bool done() const { return ok_ && in_.empty(); }

 private:
  bool take(void* out, size_t bytes) {
    if (!ok_ || in_.size() < bytes) return ok_ = false;
    memcpy(out, in_.data(), bytes);
    in_.remove_prefix(bytes);
    return true;
  }
  std::string_view in_;
  bool ok_ = true;
};

}  // namespace

std::string write_card(const NodeCard& card) { return Writer(kNode).put(card.affinity).text(card.key).done(); }

std::optional<NodeCard> read_node_card(std::string_view text) {
  NodeCard card;
  Reader r(text, kNode);
  if (!r.get(&card.affinity) || !r.text(&card.key, kMaxText) || !r.done() || card.key.empty()) return std::nullopt;
  return card;
}

std::string memfd_locator(long pid, int fd, uint64_t inode) {
  return "memfd:" + std::to_string(pid) + ":" + std::to_string(fd) + ":" + std::to_string(inode);
}

std::string file_locator(long pid, std::string_view what) {
  return "/" + std::string(kSharedFilePrefix) + std::to_string(pid) + "-" + std::string(what);
}

std::optional<SharedLocator> parse_shared_locator(std::string_view text) {
  // Decimal digits up to `end` (or the end of the text when end is 0), at most `max`.
  auto number = [&text](char end, uint64_t max) -> std::optional<uint64_t> {
    const size_t at = end ? text.find(end) : text.size();
    // One spelling of each number: no leading zeros.
    if (at == 0 || at == std::string_view::npos || at > 20 || (at > 1 && text[0] == '0')) return std::nullopt;
    uint64_t n = 0;
    for (char c : text.substr(0, at)) {
      if (c < '0' || c > '9' || n > (max - static_cast<uint64_t>(c - '0')) / 10) return std::nullopt;
      n = n * 10 + static_cast<uint64_t>(c - '0');
    }
    text.remove_prefix(end ? at + 1 : at);
    return n;
  };
  SharedLocator l;
  constexpr std::string_view kMemfd = "memfd:";
  if (text.starts_with(kMemfd)) {
    text.remove_prefix(kMemfd.size());
    auto pid = number(':', 1u << 30);
    auto fd = pid ? number(':', 1u << 30) : std::nullopt;
    auto inode = fd ? number('\0', ~uint64_t{0}) : std::nullopt;
    if (!inode || *pid == 0 || !text.empty()) return std::nullopt;
    l.memfd = true;
    l.pid = static_cast<long>(*pid);
    l.fd = static_cast<int>(*fd);
    l.inode = *inode;
    return l;
  }
  // A file: "/tandem-<pid>-<what>", <what> of letters, digits and '-' only, so that no
  // locator names another file or directory.
  const long pid = text.starts_with('/') ? pid_in_name(text.substr(1), kSharedFilePrefix, '-') : -1;
  if (pid <= 0 || text.size() > 63) return std::nullopt;
  const std::string_view what = text.substr(text.find('-', 1 + kSharedFilePrefix.size()) + 1);
  if (what.empty()) return std::nullopt;
  for (char c : what)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')) return std::nullopt;
  l.pid = pid;
  l.name = std::string(text);
  return l;
}

std::string write_card(const SegmentCard& card) {
  return Writer(kSegments).put(card.heap_size).put(card.data_size).text(card.heap_locator).text(card.data_locator).done();
}

std::optional<SegmentCard> read_segment_card(std::string_view text) {
  SegmentCard card;
  Reader r(text, kSegments);
  if (!r.get(&card.heap_size) || !r.get(&card.data_size) || !r.text(&card.heap_locator, kMaxLocator) ||
      !r.text(&card.data_locator, kMaxLocator) || !r.done())
    return std::nullopt;
  if (!parse_shared_locator(card.heap_locator)) return std::nullopt;
  if (card.data_size > 0 ? !parse_shared_locator(card.data_locator) : !card.data_locator.empty()) return std::nullopt;
  return card;
}

std::string write_card(const EndpointCard& card) {
  Writer w(kEndpoint);
  w.text(card.address).put(static_cast<uint32_t>(card.regions.size()));
  for (const EndpointCard::Region& region : card.regions) w.put(region.base).text(region.key);
  return w.put(card.doorbell).put(card.secret).done();
}

std::optional<EndpointCard> read_endpoint_card(std::string_view text, size_t regions) {
  EndpointCard card;
  Reader r(text, kEndpoint);
  uint32_t count = 0;
  if (!r.text(&card.address, kMaxText) || card.address.empty() || !r.get(&count) || count != regions)
    return std::nullopt;
  card.regions.resize(regions);
  for (EndpointCard::Region& region : card.regions)
    if (!r.get(&region.base) || !r.text(&region.key, kMaxText)) return std::nullopt;
  if (!r.get(&card.doorbell) || !r.get(&card.secret) || !r.done()) return std::nullopt;
  return card;
}

}  // namespace tandem
