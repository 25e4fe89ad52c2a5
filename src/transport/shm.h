// The intra-node engine: a node peer's symmetric memory is mapped into this process, so RMA
// is a CPU copy and atomics are CPU atomics on the peer's memory.  Every AMO of a job goes
// through one path, so CPU atomics here are atomic with each other.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tandem::shm {

// Up to 8 bytes, each written once: one store for 1, 2, 4 and 8 bytes.
inline void store_once(char* to, const char* from, size_t bytes) {
  switch (bytes) {
    case 8: { uint64_t v; memcpy(&v, from, 8); memcpy(to, &v, 8); return; }
    case 4: { uint32_t v; memcpy(&v, from, 4); memcpy(to, &v, 4); return; }
    case 2: { uint16_t v; memcpy(&v, from, 2); memcpy(to, &v, 2); return; }
    default: {
      volatile char* t = to;  // volatile: not turned back into a memcpy call
      for (size_t i = 0; i < bytes; ++i) t[i] = from[i];
    }
  }
}

// copy()'s bulk: forward in 64-byte blocks from 512 bytes to 8 KiB.  glibc (2.36) copies
// 512 bytes to 2 KiB with a loop that runs backward where source and destination share
// their offset within a page, as a stream of puts from one buffer to another does; in such a
// stream (perf/put_bw) its copies of 1 and 2 KiB moved 4.7 and 8.1 GB/s against 14 at 512
// bytes and 4 KiB, and the forward blocks 14-20 GB/s from 512 bytes to 8 KiB.
inline void copy_forward(char* t, const char* f, size_t bytes) {
  constexpr size_t kBlock = 64, kFrom = 512, kUpTo = 8192;
  if (bytes < kFrom || bytes > kUpTo) {
    memcpy(t, f, bytes);
    return;
  }
  size_t done = 0;
  for (; done + kBlock <= bytes; done += kBlock) __builtin_memcpy(t + done, f + done, kBlock);
  memcpy(t + done, f + done, bytes - done);
}

// A copy to or from a node peer's memory, as programs that poll the last word of a put
// expect it to land: every byte of that word is written once, and after the rest.  memcpy
// promises neither.  glibc copies 8 to 15 bytes with two overlapping 8-byte stores, so an
// 8-byte put writes its word twice: a peer that saw the first store and reset the word (the
// ping-pong of a flag) sees the old value come back when the writer is preempted between
// the two.  And it writes the end of a medium copy before its middle.  So the last 8 bytes
// (all of a smaller copy) are stored on their own, after a fence that orders the rest, whose
// large copies use weakly ordered string or non-temporal stores, before them.
inline void copy(void* to, const void* from, size_t bytes) {
  char* t = static_cast<char*>(to);
  const char* f = static_cast<const char*>(from);
  if (bytes > 8) {
    copy_forward(t, f, bytes - 8);
#if defined(__x86_64__) || defined(__i386__)
    if (bytes > 2048) __builtin_ia32_sfence();
#endif
    std::atomic_thread_fence(std::memory_order_release);
    t += bytes - 8;
    f += bytes - 8;
    bytes = 8;
  }
  store_once(t, f, bytes);
}

// copy_strided() of blocks of one word of W: a load and a store each, as store_once()'s.
template <typename W>
inline void copy_words(char* to, size_t to_step, const char* from, size_t from_step, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    W v;
    memcpy(&v, from + i * from_step, sizeof v);
    memcpy(to + i * to_step, &v, sizeof v);
  }
}

// Strided copy of `count` blocks of `block` elements of `elem` bytes, each block as copy()
// lands it; blocks without gaps between them as one copy().  Blocks of 1, 2, 4 or 8 bytes
// less than a page apart go word by word in one loop: through copy() each paid its size's
// dispatch (an alltoalls of 8-byte elements to every second place on one node, 2 PEs, 64 KiB
// a PE, took 8 times the alltoall, now 2.7; shmem_char_iget between node peers, 2 to 32
// bytes apart, 0.0004-0.0008 us an element against 0.0014-0.0016), but a page or more apart
// the loop took 1.2-1.3 times as long as copy() (4-8 KiB apart, perf/strided).
inline void copy_strided(char* to, ptrdiff_t to_stride, const char* from, ptrdiff_t from_stride,
                         size_t elem, size_t block, size_t count) {
  constexpr size_t kPage = 4096;
  const size_t bytes = elem * block;
  if (to_stride == static_cast<ptrdiff_t>(block) && from_stride == static_cast<ptrdiff_t>(block))
    return copy(to, from, bytes * count);
  const size_t to_step = static_cast<size_t>(to_stride) * elem, from_step = static_cast<size_t>(from_stride) * elem;
  switch (to_step < kPage && from_step < kPage ? bytes : 0) {
    case 1: return copy_words<uint8_t>(to, to_step, from, from_step, count);
    case 2: return copy_words<uint16_t>(to, to_step, from, from_step, count);
    case 4: return copy_words<uint32_t>(to, to_step, from, from_step, count);
    case 8: return copy_words<uint64_t>(to, to_step, from, from_step, count);
    default:
      for (size_t i = 0; i < count; ++i) copy(to + i * to_step, from + i * from_step, bytes);
  }
}

// The integer type an AMO on T operates on (floating types are handled as their bits).
template <typename T>
using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, std::conditional_t<sizeof(T) == 8, uint64_t, T>>;

template <typename T>
inline Bits<T> to_bits(T v) {
  Bits<T> b;
  memcpy(&b, &v, sizeof b);
  return b;
}
template <typename T>
inline T from_bits(Bits<T> b) {
  T v;
  memcpy(&v, &b, sizeof v);
  return v;
}

// Min and Max (both types) and Add on floating types are window accumulates only.
enum class AmoOp { Fetch, Set, Swap, CompareSwap, Add, And, Or, Xor, Min, Max };

// Replaces the value at `word` with f(value) atomically (a compare-and-swap loop) and
// returns the previous value.
template <typename T, typename F>
inline T update(Bits<T>* word, F f) {
  Bits<T> old = __atomic_load_n(word, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(word, &old, to_bits<T>(f(from_bits<T>(old))), true, __ATOMIC_ACQ_REL,
                                      __ATOMIC_RELAXED)) {
  }
  return from_bits<T>(old);
}

// Applies `op` at `target` (on a peer's mapped memory) and returns the previous value.
template <typename T>
inline T amo(AmoOp op, T* target, T operand, T compare = T()) {
  auto* word = reinterpret_cast<Bits<T>*>(target);
  if (op == AmoOp::Min) return update<T>(word, [&](T v) { return operand < v ? operand : v; });
  if (op == AmoOp::Max) return update<T>(word, [&](T v) { return operand > v ? operand : v; });
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case AmoOp::Fetch: return from_bits<T>(__atomic_load_n(word, __ATOMIC_ACQUIRE));
      case AmoOp::Set: __atomic_store_n(word, to_bits(operand), __ATOMIC_RELEASE); return T();
      case AmoOp::Swap: return from_bits<T>(__atomic_exchange_n(word, to_bits(operand), __ATOMIC_ACQ_REL));
      case AmoOp::Add: return update<T>(word, [&](T v) { return v + operand; });
      default: __builtin_unreachable();
    }
  } else {
    switch (op) {
      case AmoOp::Fetch: return __atomic_load_n(word, __ATOMIC_ACQUIRE);
      case AmoOp::Set: __atomic_store_n(word, operand, __ATOMIC_RELEASE); return T();
      case AmoOp::Swap: return __atomic_exchange_n(word, operand, __ATOMIC_ACQ_REL);
      case AmoOp::CompareSwap:
        __atomic_compare_exchange_n(word, &compare, operand, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
        return compare;
      case AmoOp::Add: return __atomic_fetch_add(word, operand, __ATOMIC_ACQ_REL);
      case AmoOp::And: return __atomic_fetch_and(word, operand, __ATOMIC_ACQ_REL);
      case AmoOp::Or: return __atomic_fetch_or(word, operand, __ATOMIC_ACQ_REL);
      case AmoOp::Xor: return __atomic_fetch_xor(word, operand, __ATOMIC_ACQ_REL);
      default: __builtin_unreachable();
    }
  }
}

// Makes every store this PE issued before visible before any store it issues after.
inline void order_stores() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

}  // namespace tandem::shm
