/* Live teams and windows per PE (TANDEM_TEAMS, TANDEM_WINDOWS; man 7 tandem): more of them
 * at once than the fixed tables of earlier versions held (64 teams, 32 windows), each used;
 * then as many as the setting allows, and one more, which fails on every PE; the slots freed
 * are taken again.  When a creation fails, one PE says why in one line, which tests.cmake
 * checks.  The limits are read from the environment, with the library's defaults.
 *
 *   limits teams       100 teams split from SHMEM_TEAM_WORLD (fewer when TANDEM_TEAMS allows
 *                      fewer), each synchronised and reduced over
 *   limits windows     50 windows (fewer when TANDEM_WINDOWS allows fewer), each with a fence
 *                      epoch of puts and a lock epoch of accumulates
 *   limits fragmented  2 PEs, TANDEM_TEAMS=4: PE 0 alone in one team, PE 1 alone in another,
 *                      so that each has a slot free but not the same one: a split of both fails
 */
#include <shmemx.h>

#include "common.h"

enum { TEAMS_USED = 100, WINDOWS_USED = 50 };

static int me, npes;

static int setting(const char *name, int fallback) {
  const char *v = getenv(name);
  return v && *v ? atoi(v) : fallback;
}

static int split_world(shmem_team_t *team) {
  return shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, team);
}

static void use_team(shmem_team_t team, int i) {
  static int mine, total;
  shmem_team_sync(team);
  mine = i + me;
  shmem_int_sum_reduce(team, &total, &mine, 1);
  CHECK(total == npes * i + npes * (npes - 1) / 2, "team %d: sum %d, expected %d", i, total,
        npes * i + npes * (npes - 1) / 2);
}

static void teams(void) {
  const int most = setting("TANDEM_TEAMS", 256) - 2; /* SHMEM_TEAM_WORLD and _SHARED hold two */
  const int used = most < TEAMS_USED ? most : TEAMS_USED;
  shmem_team_t *made = malloc(sizeof *made * (size_t)(most + 1));
  for (int i = 0; i < used; ++i) CHECK(split_world(&made[i]) == 0, "split %d of %d failed", i, used);
  for (int i = used - 1; i >= 0; --i) use_team(made[i], i);
  int n = used;
  while (n <= most && split_world(&made[n]) == 0) ++n;
  CHECK(n == most, "%d teams made by splits, expected %d", n, most);
  if (n <= most) CHECK(made[n] == SHMEM_TEAM_INVALID, "a failed split left a handle");
  if (n > 0) use_team(made[n - 1], n - 1);
  for (int i = 0; i < n; ++i) shmem_team_destroy(made[i]);
  shmem_team_t again;
  CHECK(split_world(&again) == 0, "no split after destroying every team");
  use_team(again, 7);
  shmem_team_destroy(again);
  free(made);
}

static void use_window(shmemx_win_t win, long *obj, int i) {
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  const long value = 1000L * i + me, one = 1;
  shmemx_win_fence(win);
  shmemx_win_long_put(win, &obj[1], &value, 1, right);
  shmemx_win_fence(win);
  CHECK(obj[1] == 1000L * i + left, "window %d: put %ld, expected %ld", i, obj[1], 1000L * i + left);
  shmemx_win_lock(win, SHMEMX_WIN_LOCK_SHARED, right);
  shmemx_win_long_accumulate(win, &obj[0], &one, 1, SHMEMX_WIN_SUM, right);
  shmemx_win_unlock(win, right);
}

static void windows(void) {
  const int most = setting("TANDEM_WINDOWS", 128);
  const int used = most < WINDOWS_USED ? most : WINDOWS_USED;
  shmemx_win_t *made = malloc(sizeof *made * (size_t)(most + 1));
  long *obj = shmem_calloc(2, sizeof(long)); /* an accumulated count, a put word */
  for (int i = 0; i < used; ++i)
    CHECK(shmemx_win_create(SHMEM_TEAM_WORLD, obj, 2 * sizeof(long), &made[i]) == 0, "window %d of %d", i, used);
  for (int i = used - 1; i >= 0; --i) use_window(made[i], obj, i);
  int n = used;
  while (n <= most && shmemx_win_create(SHMEM_TEAM_WORLD, obj, 2 * sizeof(long), &made[n]) == 0) ++n;
  CHECK(n == most, "%d windows made, expected %d", n, most);
  if (n <= most) CHECK(made[n] == SHMEMX_WIN_INVALID, "a failed create left a handle");
  if (n > 0) use_window(made[n - 1], obj, n - 1);
  for (int i = n - 1; i >= 0; --i) shmemx_win_free(&made[i]);
  shmem_barrier_all(); /* every accumulate has landed */
  CHECK(obj[0] == used + (n > 0), "accumulated %ld, expected %d", obj[0], used + (n > 0));
  shmemx_win_t again;
  CHECK(shmemx_win_create(SHMEM_TEAM_WORLD, obj, 2 * sizeof(long), &again) == 0, "no window after freeing all");
  use_window(again, obj, 7);
  shmemx_win_free(&again);
  shmem_free(obj);
  free(made);
}

/* Each PE of 2 alone in a team of its own, in different slots: TANDEM_TEAMS=4 leaves each
 * one slot, not the same one. */
static void fragmented(void) {
  shmem_team_t alone[2], both;
  for (int pe = 0; pe < 2; ++pe) {
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, pe, 1, 1, NULL, 0, &alone[pe]) == 0, "PE %d alone", pe);
    CHECK((alone[pe] != SHMEM_TEAM_INVALID) == (me == pe), "PE %d's team: a handle on PE %d", pe, me);
  }
  CHECK(split_world(&both) != 0 && both == SHMEM_TEAM_INVALID, "a split with no slot free in common succeeded");
  shmem_team_destroy(alone[me]);
  CHECK(split_world(&both) == 0, "no split after destroying");
  shmem_team_destroy(both);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s teams|windows|fragmented\n", argv[0]);
    return 2;
  }
  test_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  if (strcmp(argv[1], "teams") == 0) teams();
  else if (strcmp(argv[1], "windows") == 0) windows();
  else if (strcmp(argv[1], "fragmented") == 0 && npes == 2) fragmented();
  else CHECK(0, "unknown case %s on %d PE(s)", argv[1], npes);
  return test_finish("limits");
}
