#include "output_forwarder.h"

#include <unistd.h>

#include <cerrno>

namespace tandem::oshrun {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
// A "line" longer than this is forwarded in pieces rather than held without bound.
constexpr std::size_t kMaxPendingLine = 1024 * 1024;

}  // namespace

void OutputSink::write(const std::string& data) {
  if (broken || data.empty()) return;
  if (!write_all(fd, data.data(), data.size())) broken = true;
}

OutputStream::OutputStream(int rank, StreamKind kind, UniqueFd source, OutputSink& sink, bool tag)
    : source_(std::move(source)), sink_(sink), tag_(tag) {
  if (tag_) {
    prefix_ = "[1," + std::to_string(rank) + "]" +
              (kind == StreamKind::kStdout ? "<stdout>: " : "<stderr>: ");
  }
}

void OutputStream::on_readable() {
  if (!source_.valid()) return;
  char buffer[kReadChunk];
  ssize_t n;
  do {
    n = ::read(source_.get(), buffer, sizeof buffer);
  } while (n < 0 && errno == EINTR);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
  if (n <= 0) {  // end of file, or an error that ends the stream just the same
    close();
    return;
  }
  pending_.append(buffer, static_cast<std::size_t>(n));
  emit_complete_lines();
  if (pending_.size() > kMaxPendingLine) emit_rest();
}

void OutputStream::close() {
  emit_rest();
  source_.reset();
}

void OutputStream::emit_complete_lines() {
  std::size_t last_newline = pending_.rfind('\n');
  if (last_newline == std::string::npos) return;
  if (!tag_) {
    sink_.write(pending_.substr(0, last_newline + 1));
  } else {
    std::string out;
    std::size_t start = 0;
    while (start <= last_newline) {
      std::size_t end = pending_.find('\n', start);
      out += prefix_;
      out.append(pending_, start, end - start + 1);
      start = end + 1;
    }
    sink_.write(out);
  }
  pending_.erase(0, last_newline + 1);
}

// Untagged output is passed on byte for byte; a tagged fragment gets a line of its own so
// that the next tag starts a line.
void OutputStream::emit_rest() {
  if (pending_.empty()) return;
  if (tag_) {
    sink_.write(prefix_ + pending_ + "\n");
  } else {
    sink_.write(pending_);
  }
  pending_.clear();
}

}  // namespace tandem::oshrun
