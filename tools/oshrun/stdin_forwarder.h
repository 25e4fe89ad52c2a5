// Copies oshrun's standard input to PE 0 through a pipe, without ever blocking the main
// loop: oshrun reads more only once PE 0 has taken what was read before.
#pragma once

#include <poll.h>

#include <string>

#include "fd_util.h"

namespace tandem::oshrun {

class StdinForwarder {
 public:
  // Makes the pipe.  PE 0 gets child_end(); every other PE gets /dev/null.
  bool open();
  int child_end() const { return pipe_.read_end.get(); }
  // After PE 0 has started: oshrun's copy of the read end is no longer needed.
  void close_child_end() { pipe_.read_end.reset(); }

  // The descriptor to poll now and for what (fd -1: nothing to do).
  pollfd poll_request() const;
  // Handles the poll result for that descriptor.
  void on_ready(short revents);
  // PE 0 is gone: drop the pipe and stop reading oshrun's stdin.
  void stop();

 private:
  void read_source();
  void write_sink();

  Pipe pipe_;
  int source_ = 0;  // oshrun's stdin; -1 once at end of file
  std::string buffer_;
};

}  // namespace tandem::oshrun
