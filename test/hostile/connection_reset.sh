#!/usr/bin/env bash
# A TCP connection between two PEs on different nodes reset mid-job (ss -K, as a middlebox or
# a restarted switch port does) while a put is in flight on it: the job ends at once with
# PE 0's line naming PE 1, the operation and the likely cause, leaving no process and no
# /dev/shm file behind (expect_failure.sh).  2 PEs on 2 virtual nodes over tcp;ofi_rxm; PE 0
# keeps putting to PE 1 (net_timeout link).  PE 1 is stopped first, so that a put of PE 0's
# is seen waiting in PE 1's end of their connection before that end is destroyed.  (A
# connection reset with nothing in flight on it is one ofi_rxm may open again, and the job
# then goes on: that is not what this test is about.)  Needs root and an ss that can destroy
# sockets; exits 77 (skipped) without them.
#   connection_reset.sh OSHRUN PROGRAM        (PROGRAM: test/shmem/net_timeout)
#   connection_reset.sh --job OSHRUN PROGRAM  (the job itself, run by expect_failure.sh)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# The established TCP sockets of process $1: "RECV-Q LOCAL-ADDR:PORT PEER-ADDR:PORT" lines.
sockets_of() { ss -tnpH state established | awk -v p="pid=$1," 'index($0, p) { print $1, $3, $4 }'; }

# The port of PE 1's end ($2 its pid) of its connection to PE 0 ($1), when bytes from PE 0
# wait unread in it.
waiting_port() {
  awk 'NR == FNR { mine[$2] = 1; next } ($3 in mine) && $1 > 0 { sub(/.*:/, "", $2); print $2; exit }' \
    <(sockets_of "$1") <(sockets_of "$2")
}

. "$here/../netns/job.sh"

if [ "${1:-}" = "--job" ]; then
  oshrun=$2
  program=$3
  job_start env TANDEM_OFI_PROVIDER="tcp;ofi_rxm" "$oshrun" --nodes 2 -n 2 "$program" link
  job_ready 2 || job_end
  pe0=$(awk '/^ready on PE 0 pid / { print $6 }' "$job_out")
  pe1=$(awk '/^ready on PE 1 pid / { print $6 }' "$job_out")
  kill -STOP "$pe1"
  port=
  for _ in $(seq 100); do
    port=$(waiting_port "$pe0" "$pe1")
    [ -n "$port" ] && break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    echo "connection_reset.sh: no put from PE 0 (pid $pe0) waits in a connection of PE 1 (pid $pe1)" >&2
    kill -CONT "$pe1"
    kill "$job"
    job_end
  fi
  echo "connection_reset.sh: resetting PE 1's connection from port $port, a put in flight on it" >&2
  ss -K -tn state established "( sport = :$port )" >/dev/null
  if sockets_of "$pe1" | grep -q ":$port "; then
    echo "connection_reset.sh: ss -K left the socket in place (a kernel without CONFIG_INET_DIAG_DESTROY?)" >&2
  fi
  job_end
fi

oshrun=$1
program=$2
needs_root connection_reset.sh ss
ss -K -tn "( sport = :1 )" >/dev/null 2>&1 || { echo "connection_reset.sh: this ss cannot destroy sockets (ss -K); skipped"; exit 77; }
TANDEM_NET_TIMEOUT=10 TANDEM_TEST_TIME_LIMIT=40 bash "$here/../shmem/expect_failure.sh" 1 \
  "^tandem: (progress|shmem_[a-z_]+) on PE 0: libfabric: a write or atomic to PE 1 failed: .*; the connection was lost: the peer ended or its node went down, or the connection was reset on the way$" \
  -- bash "$0" --job "$oshrun" "$program"
