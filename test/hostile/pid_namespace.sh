#!/usr/bin/env bash
# PEs of one node in different PID namespaces (a container per PE, sharing /dev/shm): they
# cannot open each other's memfds, and shmem_init says so on every PE, naming the peer and
# TANDEM_SHARED_MEMORY=dev-shm; with that setting the job runs.  PE 1 runs under
# `unshare -p -f --mount-proc` (needs root; exits 77, skipped, without it).
#   TANDEM_BUILD=<build tree> pid_namespace.sh
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
  echo "SKIP: pid_namespace: needs root and unshare"
  exit 77
fi
. "$here/../launcher/lib.sh"
program=${TANDEM_BUILD:?}/test/shmem/heap_touch
unset TANDEM_BUILD  # read; no setting of the PEs'
mkdir -p "$WORKDIR/pids"
cat >"$WORKDIR/pe.sh" <<'PE'
#!/bin/sh
if [ "$PMIX_RANK" = 1 ]; then exec unshare -p -f --mount-proc "$@"; fi
exec "$@"
PE
chmod +x "$WORKDIR/pe.sh"
run() {
  local name=$1
  shift
  TANDEM_TEST_PIDDIR="$WORKDIR/pids" "$OSHRUN" -n "$PES" "$WORKDIR/pe.sh" "$@" >"$WORKDIR/out.$name" 2>&1
}

PES=2 run memfd "$program" 1
expect_eq "memfd: status" 1 $?
for pe in 0 1; do
  expect_grep memfd "$WORKDIR/out.memfd" \
    "^tandem: shmem_init on PE $pe: cannot open PE $((1 - pe))'s shared memory \(its memfd, /proc/[0-9]+/fd/[0-9]+\): .*; a node's PEs must share a PID namespace and /proc to share memfds, else set TANDEM_SHARED_MEMORY=dev-shm$"
done
TANDEM_SHARED_MEMORY=dev-shm PES=2 passes files "$program" 1
finish
