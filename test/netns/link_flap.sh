#!/usr/bin/env bash
# A node's link goes down and comes back while puts, atomics and collectives cross it
# (flap_traffic): 4 PEs on 2 virtual nodes in separate network namespaces (netns.sh).
#   link_flap.sh short OSHRUN PROGRAM  down for 0.5 s, shorter than TANDEM_NET_TIMEOUT (5 s):
#                                      the job goes on and passes its checks
#   link_flap.sh long OSHRUN PROGRAM   down for good with TANDEM_NET_TIMEOUT=3: the job ends
#                                      within the limit with a line naming an unreachable PE,
#                                      leaving no process and no /dev/shm file behind
#   link_flap.sh --job DOWN OSHRUN PROGRAM   the job itself (DOWN: seconds, or "forever")
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
  if [ "$down" != forever ]; then
    sleep "$down"
    ip -n "$ns" link set tdm0 up
    echo "link_flap.sh: the link of node 1 is up again after ${down}s" >&2
  fi
  job_end
fi

mode=$1
oshrun=$2
program=$3
needs_root link_flap.sh ip
netns_up 2
case "$mode" in
  short)
    TANDEM_NET_TIMEOUT=5 timeout 60 bash "$0" --job 0.5 "$oshrun" "$program"
    status=$?
    [ "$status" -eq 0 ] || { echo "link_flap.sh: the job ended with status $status after a 0.5 s flap"; exit 1; }
    ;;
  long)
    TANDEM_NET_TIMEOUT=3 TANDEM_TEST_TIME_LIMIT=40 bash "$here/../shmem/expect_failure.sh" 1 \
      "tandem: shmem_[a-z_]+ on PE [0-3]: PEs? [0-9, ]+ (is|are) unreachable: no network operation has completed for [0-9]+ s" \
      -- bash "$0" --job forever "$oshrun" "$program"
    ;;
  *)
    echo "usage: link_flap.sh short|long OSHRUN PROGRAM" >&2
    exit 2
    ;;
esac
