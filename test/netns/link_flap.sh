#!/usr/bin/env bash
# A node's link goes down for DOWN seconds (shorter than TANDEM_NET_TIMEOUT, 5 s) and comes
# back while puts, atomics and collectives cross it (flap_traffic): 4 PEs on 2 virtual nodes
# in separate network namespaces (netns.sh).  The job must go on and pass its checks.  (A
# link down for good is link_down.sh's.)
#   link_flap.sh DOWN OSHRUN PROGRAM
#   link_flap.sh --job DOWN OSHRUN PROGRAM   the job itself
# PROGRAM: test/shmem/flap_traffic.  Needs root and iproute2; exits 77 (skipped) without them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

. "$here/job.sh"

if [ "${1:-}" = "--job" ]; then
  down=$2
  oshrun=$3
  program=$4
  netns_job_start 2 4 "$oshrun" "$program" 4
  job_ready 4
  sleep 0.5
  ns="tandem-$TANDEM_TEST_NETNS_TAG-n1"
  echo "link_flap.sh: taking the link of node 1 down" >&2
  ip -n "$ns" link set tdm0 down
  sleep "$down"
  ip -n "$ns" link set tdm0 up
  echo "link_flap.sh: the link of node 1 is up again after ${down}s" >&2
  job_end
fi

down=$1
oshrun=$2
program=$3
needs_root link_flap.sh ip
netns_up 2
TANDEM_NET_TIMEOUT=5 timeout 60 bash "$0" --job "$down" "$oshrun" "$program"
status=$?
[ "$status" -eq 0 ] || { echo "link_flap.sh: the job ended with status $status after a ${down} s flap"; exit 1; }
