/* Put-with-signal and the signal routines.  Rounds of 1 MiB payloads go to the right
 * neighbour with SHMEM_SIGNAL_SET and SHMEM_SIGNAL_ADD, blocking and nbi, typed, sized, mem
 * and ctx forms; the receiver waits on the signal alone and checks every word, so a signal
 * that becomes visible before its data is caught.  Then shmem_signal_fetch, signal_add,
 * signal_set and signal_wait_until with each comparison, and put_signal for every RMA type;
 * quiet and fence complete signals; concurrent signal updates from every PE add up. */
#include <time.h>

#include "common.h"

#define PAYLOAD (1024 * 1024)
#define WORDS (PAYLOAD / 8)
#define ROUNDS 12

static uint64_t sig;      /* the data signal, written by the left neighbour */
static uint64_t ack_sig;  /* written by the right neighbour when it checked a round */
static uint64_t aux_sig[8];
static long total_rounds;
static int me, npes, right, left;

enum form { TYPED, TYPED_NBI, SIZED64, SIZED32_NBI, MEM, MEM_NBI, CTX_TYPED, CTX_MEM_NBI,
            SIZED128, CTX_SIZED8_NBI, FORMS };
static const char *const form_names[] = {
    "uint64_put_signal", "uint64_put_signal_nbi", "put64_signal", "put32_signal_nbi",
    "putmem_signal", "putmem_signal_nbi", "ctx_uint64_put_signal", "ctx_putmem_signal_nbi",
    "put128_signal", "ctx_put8_signal_nbi"};

static uint64_t pattern(int pe, long round, size_t i) {
  return ((uint64_t)(pe + 1) << 56) ^ ((uint64_t)round << 40) ^ (i * 0x2545f4914f6cdd1dULL >> 24);
}

static void send(enum form f, shmem_ctx_t ctx, uint64_t *dest, const uint64_t *source,
                 uint64_t value, int op) {
  switch (f) {
    case TYPED: shmem_uint64_put_signal(dest, source, WORDS, &sig, value, op, right); break;
    case TYPED_NBI: shmem_uint64_put_signal_nbi(dest, source, WORDS, &sig, value, op, right); break;
    case SIZED64: shmem_put64_signal(dest, source, WORDS, &sig, value, op, right); break;
    case SIZED32_NBI: shmem_put32_signal_nbi(dest, source, WORDS * 2, &sig, value, op, right); break;
    case MEM: shmem_putmem_signal(dest, source, PAYLOAD, &sig, value, op, right); break;
    case MEM_NBI: shmem_putmem_signal_nbi(dest, source, PAYLOAD, &sig, value, op, right); break;
    case CTX_TYPED: shmem_ctx_uint64_put_signal(ctx, dest, source, WORDS, &sig, value, op, right); break;
    case CTX_MEM_NBI: shmem_ctx_putmem_signal_nbi(ctx, dest, source, PAYLOAD, &sig, value, op, right); break;
    case SIZED128: shmem_put128_signal(dest, source, WORDS / 2, &sig, value, op, right); break;
    case CTX_SIZED8_NBI: shmem_ctx_put8_signal_nbi(ctx, dest, source, PAYLOAD, &sig, value, op, right); break;
    default: break;
  }
}

/* ROUNDS rounds of one form.  With SHMEM_SIGNAL_SET the signal is the round number + 1;
 * with SHMEM_SIGNAL_ADD each round adds 1. */
static void rounds(enum form f, int op, shmem_ctx_t ctx, uint64_t *data, uint64_t *source) {
  for (long r = 0; r < ROUNDS; ++r) {
    const long round = total_rounds + r;
    shmem_signal_wait_until(&ack_sig, SHMEM_CMP_GE, (uint64_t)round); /* receiver is done */
    for (size_t i = 0; i < WORDS; ++i) source[i] = pattern(me, round, i);
    send(f, ctx, data, source, op == SHMEM_SIGNAL_SET ? (uint64_t)round + 1 : 1, op);
    if (f == TYPED_NBI || f == SIZED32_NBI || f == MEM_NBI) shmem_quiet();
    if (f == CTX_MEM_NBI || f == CTX_SIZED8_NBI) shmem_ctx_quiet(ctx);
    const uint64_t seen = shmem_signal_wait_until(&sig, SHMEM_CMP_GE, (uint64_t)round + 1);
    CHECK(seen >= (uint64_t)round + 1, "%s: signal_wait_until returned %llu, below %ld",
          form_names[f], (unsigned long long)seen, round + 1);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < WORDS; ++i)
      if (data[i] != pattern(left, round, i) && bad++ == 0) first = i;
    CHECK(bad == 0, "%s (%s) round %ld: %zu of %d words not there when the signal was "
                    "(first at %zu: %#llx, expected %#llx)",
          form_names[f], op == SHMEM_SIGNAL_SET ? "set" : "add", round, bad, WORDS, first,
          (unsigned long long)data[first], (unsigned long long)pattern(left, round, first));
    const uint64_t now = shmem_signal_fetch(&sig);
    CHECK(now == (uint64_t)round + 1, "%s: signal is %llu after round %ld, expected %ld",
          form_names[f], (unsigned long long)now, round, round + 1);
    shmem_signal_add(&ack_sig, 1, left);
  }
  total_rounds += ROUNDS;
}

static void signal_routines(void) {
  shmem_barrier_all();
  for (int i = 0; i < 8; ++i) aux_sig[i] = 0;
  shmem_barrier_all();
  /* set, then adds from every PE */
  shmem_signal_set(&aux_sig[0], 100, right);
  shmem_barrier_all();
  CHECK(shmem_signal_fetch(&aux_sig[0]) == 100, "signal_set: %llu, expected 100",
        (unsigned long long)shmem_signal_fetch(&aux_sig[0]));
  shmem_barrier_all();
  for (int pe = 0; pe < npes; ++pe) shmem_signal_add(&aux_sig[1], (uint64_t)me + 1, pe);
  shmem_ctx_signal_add(SHMEM_CTX_DEFAULT, &aux_sig[2], 3, right);
  shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, &aux_sig[3], 0xfffffffffffffff0ULL, right);
  const uint64_t sum = (uint64_t)npes * (npes + 1) / 2;
  shmem_signal_wait_until(&aux_sig[1], SHMEM_CMP_EQ, sum);
  CHECK(shmem_signal_fetch(&aux_sig[1]) == sum, "signal_add from all PEs: %llu, expected %llu",
        (unsigned long long)aux_sig[1], (unsigned long long)sum);
  CHECK(shmem_signal_wait_until(&aux_sig[2], SHMEM_CMP_NE, 0) == 3, "ctx_signal_add: %llu",
        (unsigned long long)aux_sig[2]);
  CHECK(shmem_signal_wait_until(&aux_sig[3], SHMEM_CMP_GT, 0xffffffff00000000ULL) ==
            0xfffffffffffffff0ULL,
        "ctx_signal_set: %#llx", (unsigned long long)aux_sig[3]);
  /* every comparison, satisfied at once (unsigned: no sign surprises) */
  CHECK(shmem_signal_wait_until(&aux_sig[2], SHMEM_CMP_EQ, 3) == 3, "CMP_EQ");
  CHECK(shmem_signal_wait_until(&aux_sig[2], SHMEM_CMP_GE, 3) == 3, "CMP_GE");
  CHECK(shmem_signal_wait_until(&aux_sig[2], SHMEM_CMP_LE, 3) == 3, "CMP_LE");
  CHECK(shmem_signal_wait_until(&aux_sig[2], SHMEM_CMP_LT, 4) == 3, "CMP_LT");
  CHECK(shmem_signal_wait_until(&aux_sig[2], SHMEM_CMP_GT, 2) == 3, "CMP_GT");
  CHECK(shmem_signal_wait_until(&aux_sig[3], SHMEM_CMP_GT, 3) == 0xfffffffffffffff0ULL,
        "CMP_GT must compare as unsigned");
  shmem_barrier_all();
  /* A wait that must really wait: the left neighbour sets the signal after a pause. */
  if (npes > 1) {
    if (me == 0) usleep(20000);
    shmem_signal_set(&aux_sig[4], 42, right);
    CHECK(shmem_signal_wait_until(&aux_sig[4], SHMEM_CMP_EQ, 42) == 42, "delayed signal_set");
  }
  shmem_barrier_all();
}

/* put_signal and put_signal_nbi for every RMA type, small payloads, adding to one signal. */
static uint64_t type_sig;
#define PUT_SIGNAL_TYPE(T, N)                                                                   \
  {                                                                                             \
    T *d = shmem_calloc(16, sizeof(T));                                                         \
    T s[16];                                                                                    \
    for (int i = 0; i < 16; ++i) s[i] = (T)(me * 3 + i + 1);                                    \
    shmem_barrier_all();                                                                        \
    shmem_##N##_put_signal(d, s, 8, &type_sig, 1, SHMEM_SIGNAL_ADD, right);                     \
    shmem_##N##_put_signal_nbi(d + 8, s + 8, 8, &type_sig, 1, SHMEM_SIGNAL_ADD, right);         \
    shmem_quiet();                                                                              \
    expected += 2;                                                                              \
    shmem_signal_wait_until(&type_sig, SHMEM_CMP_GE, expected);                                 \
    for (int i = 0; i < 16; ++i)                                                                \
      CHECK(d[i] == (T)(left * 3 + i + 1), "%s_put_signal: element %d wrong", #N, i);           \
    shmem_ctx_##N##_put_signal(SHMEM_CTX_DEFAULT, d, s, 1, &type_sig, expected + 7,             \
                               SHMEM_SIGNAL_SET, right);                                        \
    shmem_fence(); /* the add must not overtake the set */                                      \
    shmem_ctx_##N##_put_signal_nbi(SHMEM_CTX_DEFAULT, d, s, 1, &type_sig, 1, SHMEM_SIGNAL_ADD,  \
                                   right);                                                      \
    shmem_quiet();                                                                              \
    expected += 8;                                                                              \
    shmem_signal_wait_until(&type_sig, SHMEM_CMP_EQ, expected);                                 \
    shmem_free(d);                                                                              \
  }
static void every_type(void) {
  uint64_t expected = 0;
  TANDEM_RMA_TYPES(PUT_SIGNAL_TYPE)
  shmem_barrier_all();
  CHECK(type_sig == expected, "typed put_signal total %llu, expected %llu",
        (unsigned long long)type_sig, (unsigned long long)expected);
}

/* quiet and fence complete a put-with-signal or a signal update at the target, also while
 * the target computes without calling the library: a fetch of the signal after quiet sees
 * it, and an atomic after a fence applies on top of it.  Across nodes the signal may ride on the data's write
 * and be applied by the target's progress after the data has landed; while the target
 * computes, the write and a later request wait in its socket together, so a quiet or fence
 * that did not wait for the target to apply the signal lets the request pass it. */
static uint64_t done_sig;
static void busy_for_ms(int ms) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do clock_gettime(CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) * 1000.0 + (t.tv_nsec - t0.tv_nsec) / 1e6 < ms);
}
static void signal_completion(uint64_t *data, const uint64_t *source) {
  /* Rounds 0-7 with data (shmem_putmem_signal), 8-15 without (shmem_signal_set). */
  for (int r = 0; r < 16; ++r) {
    const int sender = me % 2 == r % 2;  /* with an odd count, PE 0 may receive while it sends */
    const uint64_t base = 100 * (uint64_t)(r + 1);
    shmem_barrier_all();
    if (!sender) {
      busy_for_ms(6);
    } else if (r % 8 < 4) {
      usleep(2000); /* the target has left the barrier and computes */
      if (r < 8) shmem_putmem_signal_nbi(data, source, 64, &done_sig, base, SHMEM_SIGNAL_SET, right);
      else shmem_signal_set(&done_sig, base, right);
      shmem_quiet();
      const uint64_t seen = shmem_uint64_atomic_fetch(&done_sig, right);
      CHECK(seen == base, "round %d: the signal fetched after quiet is %llu, expected %llu", r,
            (unsigned long long)seen, (unsigned long long)base);
    } else {
      usleep(2000);
      if (r < 8) shmem_putmem_signal(data, source, 64, &done_sig, base, SHMEM_SIGNAL_SET, right);
      else shmem_signal_set(&done_sig, base, right);
      shmem_fence();
      shmem_uint64_atomic_add(&done_sig, 1, right);
      shmem_quiet();
    }
    shmem_barrier_all();
    if (left % 2 == r % 2 && r % 8 >= 4)
      CHECK(done_sig == base + 1, "round %d: an add after a fence left the signal at %llu, expected %llu", r,
            (unsigned long long)done_sig, (unsigned long long)base + 1);
  }
}

/* Signal updates from every PE at once on one word of every PE: shmem_signal_add of 1 and of
 * 2^32 (a value too wide to ride on a write across nodes), and put-with-signal adding 1,
 * blocking and nbi.  Signal updates are atomic with respect to one another (9.8.1): node
 * peers, whose updates may be CPU atomics, and PEs on other nodes, whose updates the target
 * applies, must not lose any. */
#define TALLY_ROUNDS 300
static uint64_t tally_sig;
static uint64_t tally_data[4];
static uint64_t tally_source[TALLY_ROUNDS]; /* an nbi put's source stays as it is until the quiet */
static void signal_tally(void) {
  const uint64_t wide = (uint64_t)1 << 32;
  for (int r = 0; r < TALLY_ROUNDS; ++r) {
    const uint64_t *v = &tally_source[r];
    tally_source[r] = (uint64_t)r;
    for (int k = 1; k <= npes; ++k) {
      const int pe = (me + k) % npes;
      shmem_signal_add(&tally_sig, 1, pe);
      shmem_signal_add(&tally_sig, wide, pe);
      shmem_putmem_signal(&tally_data[0], v, sizeof *v, &tally_sig, 1, SHMEM_SIGNAL_ADD, pe);
      shmem_putmem_signal_nbi(&tally_data[1], v, sizeof *v, &tally_sig, 1, SHMEM_SIGNAL_ADD, pe);
    }
  }
  shmem_quiet();
  shmem_barrier_all();
  const uint64_t each = (uint64_t)TALLY_ROUNDS * (uint64_t)npes;
  const uint64_t expected = each * 3 + each * wide;
  CHECK(tally_sig == expected, "signal updates from all PEs: %llu, expected %llu (%llu x 2^32 + %llu)",
        (unsigned long long)tally_sig, (unsigned long long)expected, (unsigned long long)(tally_sig >> 32),
        (unsigned long long)(tally_sig & 0xffffffffu));
}

int main(void) {
  test_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  right = test_right();
  left = test_left();
  uint64_t *data = shmem_malloc(PAYLOAD);
  uint64_t *source = malloc(PAYLOAD);
  shmem_ctx_t ctx;
  CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create failed");

  for (int f = 0; f < FORMS; ++f) {
    /* SET rounds: the signal goes to round + 1. */
    rounds((enum form)f, SHMEM_SIGNAL_SET, ctx, data, source);
    /* ADD rounds continue from there, one per round. */
    rounds((enum form)f, SHMEM_SIGNAL_ADD, ctx, data, source);
  }
  signal_routines();
  every_type();
  signal_completion(data, source);
  signal_tally();
  shmem_ctx_destroy(ctx);
  free(source);
  shmem_free(data);
  return test_finish("signal");
}
