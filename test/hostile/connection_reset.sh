#!/usr/bin/env bash
# A TCP connection between two PEs on different nodes reset mid-job (ss -K, as a middlebox or
# a restarted switch port does): the job ends at once with PE 0's line naming PE 1, the
# operation and the likely cause, leaving no process and no /dev/shm file behind
# (expect_failure.sh).  2 PEs on 2 virtual nodes over tcp;ofi_rxm; PE 0 keeps putting to
# PE 1 (net_timeout link) while the connection PE 1 holds to PE 0 is destroyed.  Needs root
# and an ss that can destroy sockets; exits 77 (skipped) without them.
#   connection_reset.sh OSHRUN PROGRAM        (PROGRAM: test/shmem/net_timeout)
#   connection_reset.sh --job OSHRUN PROGRAM  (the job itself, run by expect_failure.sh)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# The local addresses (ADDR:PORT) of the established TCP sockets of process $1, with their
# peers: "local peer" lines.
sockets_of() { ss -tnpH state established | awk -v p="pid=$1," 'index($0, p) { print $3, $4 }'; }

. "$here/../netns/job.sh"

if [ "${1:-}" = "--job" ]; then
  oshrun=$2
  program=$3
  job_start env TANDEM_OFI_PROVIDER="tcp;ofi_rxm" "$oshrun" --nodes 2 -n 2 "$program" link
  job_ready 2
  pids=$(ls "$TANDEM_TEST_PIDDIR" | grep -E '^[0-9]+$' | sort -n)
  pe0=$(echo "$pids" | sed -n 1p)
  pe1=$(echo "$pids" | sed -n 2p)
  # PE 1's sockets whose peer is one of PE 0's: the connection between the two PEs.
  ports=$(awk 'NR == FNR { mine[$1] = 1; next } ($2 in mine) { sub(/.*:/, "", $1); print $1 }' \
    <(sockets_of "$pe0") <(sockets_of "$pe1"))
  [ -n "$ports" ] || echo "connection_reset.sh: no connection between PE 0 ($pe0) and PE 1 ($pe1) found" >&2
  for port in $ports; do
    echo "connection_reset.sh: resetting PE 1's connection from port $port" >&2
    ss -K -tn state established "( sport = :$port )" >/dev/null
  done
  job_end
fi

oshrun=$1
program=$2
needs_root connection_reset.sh ss
ss -K -tn "( sport = :1 )" >/dev/null 2>&1 || { echo "connection_reset.sh: this ss cannot destroy sockets (ss -K); skipped"; exit 77; }
TANDEM_NET_TIMEOUT=10 TANDEM_TEST_TIME_LIMIT=40 bash "$here/../shmem/expect_failure.sh" 1 \
  "^tandem: (progress|shmem_[a-z_]+) on PE 0: libfabric: a write or atomic to PE 1 failed: .*; the connection was lost: the peer ended or its node went down, or the connection was reset on the way$" \
  -- bash "$0" --job "$oshrun" "$program"
