#!/usr/bin/env bash
# A link that goes down mid-run ends the job (TANDEM_NET_TIMEOUT) instead of hanging it: 2 PEs
# on 2 virtual nodes in separate network namespaces (netns.sh); once both run, the link of
# node 1 is taken down while PE 0 keeps putting to PE 1.  Passes when the job ends within
# the time limit with PE 0's one-line message naming PE 1, leaving no process and no
# /dev/shm file behind (expect_failure.sh).  Needs root and iproute2; exits 77 (skipped)
# without them.
#   link_down.sh OSHRUN PROGRAM        (PROGRAM: test/shmem/net_timeout)
#   link_down.sh --job OSHRUN PROGRAM  (the job itself, run by expect_failure.sh)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

. "$here/job.sh"

if [ "${1:-}" = "--job" ]; then
  oshrun=$2
  program=$3
  netns_job_start 1 2 "$oshrun" "$program" link
  job_ready 2
  echo "link_down.sh: taking the link of node 1 down" >&2
  ip -n "tandem-$TANDEM_TEST_NETNS_TAG-n1" link set tdm0 down
  job_end
fi

oshrun=$1
program=$2
needs_root link_down.sh ip
netns_up 2
TANDEM_NET_TIMEOUT=3 TANDEM_TEST_TIME_LIMIT=40 bash "$here/../shmem/expect_failure.sh" 1 \
  "tandem: shmem_(long_put|quiet) on PE 0: PE 1 is unreachable: no network operation has completed for [0-9]+ s" \
  -- bash "$0" --job "$oshrun" "$program"
