// A communication operation on its way through the scheduler: what to move between a local
// buffer and a symmetric object on some PE, or a signal to update after such a move.
// Blocking and non-blocking RMA both travel as Ops.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mem/target.h"

namespace tandem {

struct Op {
  // Signal: a put-with-signal's signal update, held behind its deferred data.  Notify: a
  // notified put's or get's notification, held behind its deferred copy.
  enum class Kind : uint8_t { Put, Get, Signal, Notify };
  Kind kind = Kind::Put;
  Target remote{};      // the symmetric object (mapped for node peers); Signal: the signal word;
                        // Notify: remote.pe is the PE notified
  void* local = nullptr;  // the local buffer: source of a put, destination of a get
  size_t bytes = 0;
  uint64_t signal = 0;      // Signal: the value; Notify: the tag
  bool signal_add = false;  // Signal: add it (SHMEM_SIGNAL_ADD) instead of setting it
};

}  // namespace tandem
