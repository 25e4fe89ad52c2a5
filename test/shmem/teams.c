/* Teams: the predefined teams, split_strided, split_2d, translation, configuration,
 * contexts on a team, team_ptr, team_sync, slot reuse over many create/destroy rounds, and
 * sessions (running out of slots: limits.c). */
#include "common.h"

static long target[64];

/* Checks that `team` holds the world PEs first, first + stride, ... (size of them). */
static void check_members(shmem_team_t team, const char *name, int first, int stride, int size) {
  CHECK(shmem_team_n_pes(team) == size, "%s: %d PEs, expected %d", name, shmem_team_n_pes(team), size);
  int mine = -1;
  for (int r = 0; r < size; ++r) {
    const int world = first + r * stride;
    CHECK(shmem_team_translate_pe(team, r, SHMEM_TEAM_WORLD) == world, "%s: rank %d is world PE %d, expected %d",
          name, r, shmem_team_translate_pe(team, r, SHMEM_TEAM_WORLD), world);
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, world, team) == r, "%s: world PE %d is rank %d, expected %d",
          name, world, shmem_team_translate_pe(SHMEM_TEAM_WORLD, world, team), r);
    if (world == shmem_my_pe()) mine = r;
  }
  CHECK(shmem_team_my_pe(team) == mine, "%s: my rank %d, expected %d", name, shmem_team_my_pe(team), mine);
  CHECK(shmem_team_translate_pe(team, size, SHMEM_TEAM_WORLD) == -1, "%s: rank %d translated", name, size);
}

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();

  /* The predefined teams. */
  check_members(SHMEM_TEAM_WORLD, "SHMEM_TEAM_WORLD", 0, 1, npes);
  const int shared = shmem_team_n_pes(SHMEM_TEAM_SHARED);
  CHECK(shared >= 1 && shared <= npes, "SHMEM_TEAM_SHARED has %d PEs", shared);
  for (int pe = 0; pe < npes; ++pe) {
    const int rank = shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED);
    const int mapped = shmem_ptr(target, pe) != NULL;
    CHECK((rank >= 0) == mapped, "PE %d: rank %d in SHMEM_TEAM_SHARED but shmem_ptr says %s", pe, rank,
          mapped ? "shared" : "not shared");
    if (rank >= 0)
      CHECK(shmem_team_ptr(SHMEM_TEAM_SHARED, target, rank) == shmem_ptr(target, pe), "team_ptr of shared rank %d", rank);
  }
  CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1 && shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1,
        "SHMEM_TEAM_INVALID must give -1");
  CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) == -1, "translate from an invalid team");
  CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, target, me) == target, "team_ptr to myself");
  shmem_team_t t = SHMEM_TEAM_WORLD;
  CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t) == 0 && t == SHMEM_TEAM_WORLD, "the default context's team");

  /* Even PEs, with a configuration. */
  shmem_team_config_t config = {.num_contexts = 3};
  shmem_team_t evens;
  const int n_evens = (npes + 1) / 2;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, n_evens, &config, SHMEM_TEAM_NUM_CONTEXTS, &evens) == 0,
        "split_strided of the even PEs failed");
  if (me % 2 == 0) {
    check_members(evens, "evens", 0, 2, n_evens);
    shmem_team_config_t got = {0};
    CHECK(shmem_team_get_config(evens, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == 3,
          "evens: num_contexts %d, expected 3", got.num_contexts);
  } else {
    CHECK(evens == SHMEM_TEAM_INVALID, "an odd PE got a handle to the even team");
  }

  /* A context on the even team names its PEs by team rank. */
  memset(target, 0, sizeof target);
  shmem_barrier_all();
  if (evens != SHMEM_TEAM_INVALID) {
    shmem_ctx_t ctx;
    CHECK(shmem_team_create_ctx(evens, 0, &ctx) == 0, "team_create_ctx failed");
    shmem_team_t back = SHMEM_TEAM_INVALID;
    CHECK(shmem_ctx_get_team(ctx, &back) == 0 && back == evens, "ctx_get_team did not give the even team");
    const int rank = shmem_team_my_pe(evens), size = shmem_team_n_pes(evens);
    for (int r = 0; r < size; ++r) shmem_ctx_long_p(ctx, &target[rank], 1000 + rank, r);
    shmem_ctx_long_atomic_add(ctx, &target[63], 1, (rank + 1) % size);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(evens);
    for (int r = 0; r < size; ++r)
      CHECK(target[r] == 1000 + r, "evens: slot %d holds %ld, expected %d", r, target[r], 1000 + r);
    CHECK(target[63] == 1, "evens: the ctx atomic landed %ld times here", target[63]);
    shmem_ctx_destroy(ctx);
  }
  shmem_barrier_all();

  /* Nested: every second PE of the evens (world PEs 0, 4, 8, ...). */
  shmem_team_t quarter = SHMEM_TEAM_INVALID;
  if (evens != SHMEM_TEAM_INVALID) {
    CHECK(shmem_team_split_strided(evens, 0, 2, (n_evens + 1) / 2, NULL, 0, &quarter) == 0, "nested split failed");
    if (me % 4 == 0) {
      check_members(quarter, "quarter", 0, 4, (n_evens + 1) / 2);
      for (int i = 0; i < 20; ++i) shmem_team_sync(quarter);
    } else {
      CHECK(quarter == SHMEM_TEAM_INVALID, "PE %d is not a multiple of 4 but got the team", me);
    }
  }
  shmem_team_destroy(quarter);
  shmem_team_destroy(evens);

  /* A negative stride: the world PEs from the last down to the first. */
  shmem_team_t reversed;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &reversed) == 0, "reversed split");
  check_members(reversed, "reversed", npes - 1, -1, npes);
  shmem_team_sync(reversed);
  shmem_team_destroy(reversed);

  /* split_2d: rows of 2 PEs (x) and the columns (y). */
  shmem_team_t xteam, yteam;
  CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &xteam, NULL, 0, &yteam) == 0, "split_2d failed");
  const int row = me / 2, column = me % 2;
  check_members(xteam, "x axis", row * 2, 1, (row * 2 + 1 < npes) ? 2 : 1);
  check_members(yteam, "y axis", column, 2, (npes - column + 1) / 2);
  for (int i = 0; i < 10; ++i) {
    shmem_team_sync(xteam);
    shmem_team_sync(yteam);
  }
  shmem_team_destroy(xteam);
  shmem_team_destroy(yteam);

  /* Slots are reused: far more create/destroy rounds than there are slots, each team
   * synchronising a different number of times so that stale counters would show, and
   * broadcasting a different number of times through its boxes, in broadcasts large enough
   * that the PEs tell their parents on other nodes how far they are (each a write that must
   * not land in the slot's next team). */
  enum { BOX_BYTES = 32 * 1024 };
  char *box_src = shmem_malloc(BOX_BYTES), *box_dst = shmem_malloc(BOX_BYTES);
  for (int round = 0; round < 150; ++round) {
    shmem_team_t team;
    const int size = 1 + round % npes;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, size, NULL, 0, &team) == 0, "round %d: split failed", round);
    if (me < size) {
      for (int i = 0; i <= round % 3; ++i) shmem_team_sync(team);
      static int one = 1, total;
      shmem_int_sum_reduce(team, &total, &one, 1);
      CHECK(total == size, "round %d: %d PEs counted, expected %d", round, total, size);
      for (int i = 0; i <= round % 4; ++i) {
        const int root = (round + i) % size;
        memset(box_src, 'a' + (round + i + me) % 26, BOX_BYTES);
        shmem_broadcastmem(team, box_dst, box_src, BOX_BYTES, root);
        const char want = (char)('a' + (round + i + root) % 26);
        for (size_t b = 0; b < BOX_BYTES; ++b)
          CHECK(box_dst[b] == want, "round %d, broadcast %d from rank %d: byte %zu is %d, expected %d", round, i, root,
                b, box_dst[b], want);
      }
    }
    shmem_team_destroy(team);
  }
  shmem_free(box_dst);
  shmem_free(box_src);

  /* Running out of slots: test/shmem/limits.c. */
  shmem_team_t again;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &again) != 0 && again == SHMEM_TEAM_INVALID,
        "a split of SHMEM_TEAM_INVALID must fail");
  /* Triplets that name no set of the parent's PEs: the split fails on every PE. */
  {
    const int bad[][3] = {{0, 1, 0}, {0, 1, npes + 1}, {-1, 1, 1}, {npes, 1, 1}, {0, 0, 2}, {0, 1, npes + 5},
                          {npes - 1, 1, 2}, {0, -1, 2}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
      again = SHMEM_TEAM_WORLD;
      CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, bad[i][0], bad[i][1], bad[i][2], NULL, 0, &again) != 0 &&
                again == SHMEM_TEAM_INVALID,
            "split_strided(start %d, stride %d, size %d) of %d PEs did not fail", bad[i][0], bad[i][1], bad[i][2],
            npes);
    }
    shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &x, NULL, 0, &y) != 0 && x == SHMEM_TEAM_INVALID &&
              y == SHMEM_TEAM_INVALID,
          "split_2d with xrange 0 did not fail");
  }

  /* Sessions: a batch of small puts between start and stop, completed by quiet. */
  shmem_ctx_session_config_t session = {.total_ops = 64};
  shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, &session, SHMEM_CTX_SESSION_TOTAL_OPS);
  const int next = (me + 1) % npes;
  for (int i = 0; i < 64; ++i) shmem_long_p(&target[i], 7 * i + me, next);
  shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
  shmem_ctx_session_stop(SHMEM_CTX_DEFAULT); /* a second stop has no effect */
  shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, NULL, 0);
  shmem_ctx_session_stop(SHMEM_CTX_INVALID);
  shmem_barrier_all();
  const int prev = (me + npes - 1) % npes;
  for (int i = 0; i < 64; ++i)
    CHECK(target[i] == 7 * i + prev, "session: slot %d holds %ld, expected %d", i, target[i], 7 * i + prev);
  shmem_pcontrol(1);
  return test_finish("teams");
}
