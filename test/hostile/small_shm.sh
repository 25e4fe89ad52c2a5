#!/usr/bin/env bash
# A container's small /dev/shm (Docker's default is 64 MB): PEs whose heaps hold far more
# than that run, because the heap and globals are memfds, which the mount's size does not
# limit; and with TANDEM_SHARED_MEMORY=dev-shm (files in /dev/shm), a heap that does not fit
# comes out of shmem_malloc as NULL with a line naming the size, the space free and the
# setting, never as a SIGBUS.  Runs in a mount namespace of its own with a 64 MB tmpfs on
# /dev/shm (needs root and unshare; exits 77, skipped, without them).
#   TANDEM_BUILD=<build tree> small_shm.sh
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" != --inside ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
    echo "SKIP: small_shm: needs root and unshare"
    exit 77
  fi
  exec unshare -m --propagation private bash "$0" --inside
fi
. "$here/../launcher/lib.sh"
mount -t tmpfs -o size=64m tmpfs /dev/shm || skip "cannot mount a tmpfs on /dev/shm"
program=${TANDEM_BUILD:?}/test/shmem/heap_touch
unset TANDEM_BUILD  # read; no setting of the PEs'
mkdir -p "$WORKDIR/pids"

# run NAME PES PROGRAM ARGS... (oshrun options in $OPTIONS)
run() {
  local name=$1 program=$2
  shift 2
  TANDEM_TEST_PIDDIR="$WORKDIR/pids" "$OSHRUN" ${OPTIONS:-} -n "$PES" "$program" "$@" >"$WORKDIR/out.$name" 2>&1
}
nothing_left() {
  local left
  left=$(ls -A /dev/shm)
  [ -z "$left" ] || fail "$1: /dev/shm holds: $left"
}

# Each PE touches 200 MiB of its heap (100 MiB block, 100 MiB received), 4 PEs on one node:
# 800 MiB shared on the node, with 64 MiB in /dev/shm.
PES=4 passes memfd-one-node "$program" 100
nothing_left memfd-one-node
PES=4 OPTIONS="--nodes 2" passes memfd-nodes2 "$program" 100
nothing_left memfd-nodes2

# Files in /dev/shm: what fits runs; what does not is refused by shmem_malloc.
TANDEM_SHARED_MEMORY=dev-shm PES=2 passes files-fit "$program" 8
nothing_left files-fit
TANDEM_SHARED_MEMORY=dev-shm PES=4 run files-too-big "$program" 100
expect_eq "files-too-big: status (shmem_global_exit(3) after a NULL shmem_malloc)" 3 $?
expect_grep files-too-big "$WORKDIR/out.files-too-big" \
  "^tandem: warning: shmem_malloc on PE [0-3]: cannot reserve 104857600 bytes of the symmetric heap in /dev/shm \([0-9]+ bytes are free there\): No space left on device; give /dev/shm more room or set TANDEM_SHARED_MEMORY=memfd$"
expect_grep files-too-big "$WORKDIR/out.files-too-big" "^heap_touch: PE [0-3]: shmem_malloc\(104857600\) returned NULL$"
if grep -q "signal" "$WORKDIR/out.files-too-big"; then
  fail "files-too-big: a PE died of a signal:"
  sed 's/^/    | /' "$WORKDIR/out.files-too-big" >&2
fi
nothing_left files-too-big
expect_pes_gone 14
finish
