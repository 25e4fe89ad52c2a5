// Forwarding a PE's stdout or stderr to oshrun's: whole lines only, so that lines from
// different PEs never interleave mid-line; optional "[1,RANK]<stdout>: " tags.
#pragma once

#include <string>

#include "fd_util.h"

namespace tandem::oshrun {

// One of oshrun's own output descriptors.  After a write error (a closed pipe, say),
// output is dropped but PEs are still drained, so that none blocks on a full pipe.
struct OutputSink {
  int fd;
  bool broken = false;

  void write(const std::string& data);
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
  // Forwards buffered data and stops reading (used when oshrun stops waiting for EOF).
  void close();

 private:
  void emit_complete_lines();
  void emit_rest();

  std::string prefix_;
  UniqueFd source_;
  OutputSink& sink_;
  bool tag_;
  std::string pending_;
};

}  // namespace tandem::oshrun
