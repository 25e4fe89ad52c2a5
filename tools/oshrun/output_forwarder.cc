#include "output_forwarder.h"

#include <unistd.h>

#include <cerrno>

namespace tandem::oshrun {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
// A "line" longer than this is forwarded in pieces rather than held without bound.
constexpr std::size_t kMaxPendingLine = 1024 * 1024;
constexpr int kMaxReadsOnClose = 64;

}  // namespace

void OutputSink::write(const std::string& data, const void* writer) {
  if (broken_ || data.empty()) return;
  if (mid_line_ && writer != last_writer_ && !write_all(fd_, "\n", 1)) broken_ = true;
  if (!broken_ && !write_all(fd_, data.data(), data.size())) broken_ = true;
  mid_line_ = data.back() != '\n';
  last_writer_ = writer;
}

OutputStream::OutputStream(int rank, StreamKind kind, UniqueFd source, OutputSink& sink, bool tag)
    : source_(std::move(source)), sink_(sink), tag_(tag) {
  if (tag_) {
    prefix_ = "[1," + std::to_string(rank) + "]" +
              (kind == StreamKind::kStdout ? "<stdout>: " : "<stderr>: ");
  }
}

OutputStream::ReadResult OutputStream::read_once() {
  char buffer[kReadChunk];
  ssize_t n;
  do {
    n = ::read(source_.get(), buffer, sizeof buffer);
  } while (n < 0 && errno == EINTR);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return ReadResult::kEmpty;
  if (n <= 0) return ReadResult::kEnd;  // end of file, or an error that ends it just the same
  pending_.append(buffer, static_cast<std::size_t>(n));
  emit_complete_lines();
  if (pending_.size() > kMaxPendingLine) emit_rest();
  return ReadResult::kData;
}

void OutputStream::on_readable() {
  if (!source_.valid()) return;
  if (read_once() == ReadResult::kEnd) finish();
  if (sink_.broken()) {
    pending_.clear();
    source_.reset();
  }
}

void OutputStream::close() {
  if (!source_.valid()) return;
  // Take what is already in the pipe (bounded: a writer may still be producing).
  for (int i = 0; i < kMaxReadsOnClose && read_once() == ReadResult::kData; ++i) {
  }
  finish();
}

void OutputStream::finish() {
  emit_rest();
  source_.reset();
}

void OutputStream::emit_complete_lines() {
  std::size_t last_newline = pending_.rfind('\n');
  if (last_newline == std::string::npos) return;
  if (!tag_) {
    sink_.write(pending_.substr(0, last_newline + 1), this);
  } else {
    std::string out;
    std::size_t start = 0;
    while (start <= last_newline) {
      std::size_t end = pending_.find('\n', start);
      out += prefix_;
      out.append(pending_, start, end - start + 1);
      start = end + 1;
    }
    sink_.write(out, this);
  }
  pending_.erase(0, last_newline + 1);
}

// Untagged output is passed on byte for byte (the sink starts the next writer on a new
// line); a tagged fragment gets a line of its own so that every line carries its tag.
void OutputStream::emit_rest() {
  if (pending_.empty()) return;
  if (tag_) {
    sink_.write(prefix_ + pending_ + "\n", this);
  } else {
    sink_.write(pending_, this);
  }
  pending_.clear();
}

}  // namespace tandem::oshrun
