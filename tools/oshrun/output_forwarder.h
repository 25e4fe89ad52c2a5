// Forwarding a PE's stdout or stderr to oshrun's: whole lines only, so that lines from
// different PEs never interleave mid-line; optional "[1,RANK]<stdout>: " tags.
#pragma once

#include <string>

#include "fd_util.h"

namespace tandem::oshrun {

// One of oshrun's own output descriptors.  After a write error (a closed pipe, say),
// it is broken for good: the streams feeding it close their pipes, so that PEs writing
// there get SIGPIPE/EPIPE as they would writing to the broken pipe directly.
class OutputSink {
 public:
  explicit OutputSink(int fd) : fd_(fd) {}

  bool broken() const { return broken_; }

  // `writer` identifies the source (nullptr: oshrun itself).  When the previous writer
  // left a line unfinished, a different writer starts on a new line.
  void write(const std::string& data, const void* writer = nullptr);

 private:
  int fd_;
  bool broken_ = false;
  bool mid_line_ = false;
  const void* last_writer_ = nullptr;
};

enum class StreamKind { kStdout, kStderr };

class OutputStream {
 public:
  OutputStream(int rank, StreamKind kind, UniqueFd source, OutputSink& sink, bool tag);

  int fd() const { return source_.get(); }
  bool open() const { return source_.valid(); }

  // Reads what is available and forwards every complete line.  At end of file, forwards
  // the unterminated rest and closes the source.
  void on_readable();
  // Forwards what the pipe holds now and stops reading (when oshrun stops waiting for
  // end of file: a PE's descendant may keep the pipe open).
  void close();

 private:
  enum class ReadResult { kData, kEmpty, kEnd };
  ReadResult read_once();
  void finish();
  void emit_complete_lines();
  void emit_rest();

  std::string prefix_;
  UniqueFd source_;
  OutputSink& sink_;
  bool tag_;
  std::string pending_;
};

}  // namespace tandem::oshrun
