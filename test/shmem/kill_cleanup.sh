#!/bin/bash
# kill_cleanup.sh OSHRUN PROGRAM [OSHRUN-OPTION...]
#
# oshrun must tear a job down when one of its PEs dies: after kill -9 of one PE, oshrun
# exits with a non-zero status within 5 seconds, no process of the job remains, and
# /dev/shm holds no tandem-<pid>-* file of any of its PEs.  Three cases:
#   running  the PEs are initialised and loop on barriers; one is killed;
#   init     three PEs are inside shmem_init (their shared-memory files exist, they wait
#            for the fourth), the fourth is held before shmem_init and killed there;
#   whole    as init, but oshrun and all four PEs are killed at once, so that nothing is
#            left to clean up: their files stay.  Made 20 minutes old, they must be gone
#            after the next job's start (the runtime sweeps files of dead processes older
#            than 10 minutes), while an old file of a live process and a new one of a dead
#            process stay.
# With TANDEM_SHARED_MEMORY=dev-shm the PEs' heaps and globals are files in /dev/shm, as
# above; otherwise they are memfds, and no case may leave (or even make) a file there: the
# whole case checks that nothing is left to sweep.
# PROGRAM is kill_target (see kill_target.c): it records its pid in TANDEM_TEST_PIDDIR,
# "running.<pid>" once initialised, and with TANDEM_TEST_HOLD=1 waits for
# "release.<pid>" before shmem_init.  OSHRUN-OPTIONs go to oshrun (for example
# "--nodes 2": the killed PE is then one of a virtual node's PEs, and its peers on the
# other node notice only through the launcher and the network).
set -u

[ $# -ge 2 ] || { echo "usage: $0 OSHRUN PROGRAM [OSHRUN-OPTION...]" >&2; exit 2; }
oshrun=$1
program=$2
shift 2
oshrun_options=("$@")
[ -x "$oshrun" ] || { echo "kill_cleanup: FAIL: $oshrun is not an executable"; exit 1; }
[ -x "$program" ] || { echo "kill_cleanup: FAIL: $program is not an executable"; exit 1; }

files=0
[ "${TANDEM_SHARED_MEMORY:-}" = dev-shm ] && files=1

failed=0
fail() {
  echo "kill_cleanup: FAIL: $*"
  failed=1
}

alive() {
  local state
  state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  case "$state" in Z*) return 1 ;; esac
  return 0
}

# Waits up to $2 seconds for `$1` (a shell condition) to hold.
wait_for() {
  local deadline=$(($(date +%s) + $2))
  while ! eval "$1"; do
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.05
  done
  return 0
}

count_files() { ls "$piddir" | grep -cE "^$1" || true; }

launcher=""
piddir=""
cleanup() {
  [ -n "$launcher" ] && kill -9 "$launcher" 2>/dev/null
  if [ -n "$piddir" ] && [ -d "$piddir" ]; then
    for pid in $(ls "$piddir" | grep -E '^[0-9]+$'); do kill -9 "$pid" 2>/dev/null; done
    rm -rf "$piddir"
  fi
}
trap cleanup EXIT

# The files the whole scenario left, made old; checked after the next job.
stale=""

# One scenario: $1 = running, init or whole.
scenario() {
  local mode=$1
  piddir=$(mktemp -d "${TMPDIR:-/tmp}/tandem-kill-test.XXXXXX")
  local log="$piddir/log"
  echo "== scenario: $mode"
  if [ "$mode" != running ]; then
    TANDEM_TEST_PIDDIR=$piddir TANDEM_TEST_HOLD=1 "$oshrun" "${oshrun_options[@]}" -n 4 "$program" >"$log" 2>&1 &
  else
    TANDEM_TEST_PIDDIR=$piddir "$oshrun" "${oshrun_options[@]}" -n 4 "$program" >"$log" 2>&1 &
  fi
  launcher=$!

  if ! wait_for '[ "$(count_files "[0-9]+$")" -eq 4 ]' 30; then
    fail "$mode: the 4 PEs did not start within 30 s"
    cat "$log"
    return
  fi
  local pids
  pids=$(ls "$piddir" | grep -E '^[0-9]+$' | sort -n)
  for pid in $pids; do
    local parent
    parent=$(ps -o ppid= -p "$pid" 2>/dev/null | tr -d ' ')
    [ "$parent" = "$launcher" ] || echo "kill_cleanup: note: PE $pid's parent is $parent, not oshrun ($launcher)"
  done
  local victim
  victim=$(echo "$pids" | sed -n 3p)

  if [ "$mode" != running ]; then
    for pid in $pids; do
      [ "$pid" = "$victim" ] || touch "$piddir/release.$pid"
    done
    # The released PEs create their shared memory and wait in shmem_init for the fourth.
    local others
    others=$(echo "$pids" | grep -vx "$victim")
    # A PE has made its shared memory once it holds its heap: a file in /dev/shm, or a memfd
    # among its descriptors.
    local deadline=$(($(date +%s) + 20)) ready=0 in_shm=0
    while [ "$(date +%s)" -lt "$deadline" ]; do
      ready=0
      in_shm=0
      for p in $others; do
        ls /dev/shm | grep -q "^tandem-$p-" && in_shm=$((in_shm + 1))
        if [ "$files" = 1 ]; then
          ls /dev/shm | grep -q "^tandem-$p-" && ready=$((ready + 1))
        else
          ls -l "/proc/$p/fd" 2>/dev/null | grep -q "memfd:tandem-heap" && ready=$((ready + 1))
        fi
      done
      [ "$ready" -eq 3 ] && break
      sleep 0.05
    done
    [ "$ready" -eq 3 ] || echo "kill_cleanup: note: only $ready of 3 PEs held their shared memory before the kill"
    [ "$files" = 1 ] || [ "$in_shm" -eq 0 ] || fail "$mode: $in_shm PEs made files in /dev/shm although their memory is memfds"
    sleep 0.2
  else
    if ! wait_for '[ "$(count_files running)" -eq 4 ]' 30; then
      fail "$mode: the 4 PEs did not reach their loop within 30 s"
      cat "$log"
      return
    fi
    sleep 0.3
  fi

  alive "$launcher" || { fail "$mode: oshrun ended before the kill"; cat "$log"; return; }
  if [ "$mode" = whole ]; then
    kill -9 "$launcher" $pids
    wait "$launcher" 2>/dev/null
    launcher=""
    sleep 0.2
    for pid in $pids; do
      alive "$pid" && fail "$mode: PE process $pid survived kill -9"
      stale="$stale $(ls /dev/shm 2>/dev/null | grep -E "^tandem-$pid-" || true)"
    done
    stale=$(echo $stale)
    if [ "$files" = 0 ]; then
      [ -z "$stale" ] || fail "$mode: a job whose memory is memfds left files in /dev/shm: $stale"
      echo "left by the whole job: nothing (memfds)"
      stale=""
      rm -rf "$piddir"
      piddir=""
      return
    fi
    [ -n "$stale" ] || fail "$mode: the killed job left no files in /dev/shm, so the sweep goes untested"
    for f in $stale; do touch -d '20 minutes ago' "/dev/shm/$f"; done
    echo "left by the whole job (made 20 minutes old): $stale"
    rm -rf "$piddir"
    piddir=""
    return
  fi
  local start
  start=$(date +%s.%N)
  kill -9 "$victim"
  # Poll for a little more than 5 s; the exact time is measured and judged below.
  local polls=0
  while alive "$launcher" && [ "$polls" -lt 110 ]; do sleep 0.05; polls=$((polls + 1)); done
  local elapsed
  elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
  if alive "$launcher"; then
    fail "$mode: oshrun did not exit within 5 s of kill -9 of PE process $victim"
    kill -9 "$launcher" 2>/dev/null
    wait "$launcher" 2>/dev/null
  else
    wait "$launcher"
    local status=$?
    echo "oshrun exited with status $status ${elapsed}s after the kill"
    awk -v t="$elapsed" 'BEGIN { exit !(t > 5.0) }' && fail "$mode: oshrun took ${elapsed}s (> 5 s) to exit"
    [ "$status" -ne 0 ] || fail "$mode: oshrun exited 0 although a PE was killed"
  fi
  launcher=""

  sleep 0.2
  for pid in $pids; do
    if alive "$pid"; then
      fail "$mode: PE process $pid is still running: $(ps -o pid=,stat=,args= -p "$pid")"
      kill -9 "$pid" 2>/dev/null
    fi
  done
  for pid in $pids; do
    local left
    left=$(ls /dev/shm 2>/dev/null | grep -E "^tandem-$pid-" || true)
    if [ -n "$left" ]; then
      fail "$mode: /dev/shm still holds files of PE process $pid: $(echo $left)"
      for f in $left; do rm -f "/dev/shm/$f"; done
    fi
  done
  echo "---- oshrun output ($mode) ----"
  cat "$log"
  rm -rf "$piddir"
  piddir=""
}

scenario whole
# An old file of a live process (this shell) and a new one of a dead process (a finished
# subshell): neither is a leftover.
dead_pid=$(sh -c 'echo $$')
keep_live="/dev/shm/tandem-$$-test-live"
keep_new="/dev/shm/tandem-$dead_pid-test-new"
touch -d '20 minutes ago' "$keep_live"
touch "$keep_new"
scenario running
for f in $stale; do
  if [ -e "/dev/shm/$f" ]; then
    fail "whole: the next job's start did not remove /dev/shm/$f"
    rm -f "/dev/shm/$f"
  fi
done
[ -e "$keep_live" ] || fail "the sweep removed a file of a live process: $keep_live"
[ -e "$keep_new" ] || fail "the sweep removed a new file: $keep_new"
rm -f "$keep_live" "$keep_new"
scenario init

if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "kill_cleanup: passed"
exit 0
