#!/usr/bin/env bash
# A link that goes down for good mid-run ends the job (TANDEM_NET_TIMEOUT) instead of hanging
# it, leaving no process and no /dev/shm file behind (expect_failure.sh).  Virtual nodes in
# separate network namespaces (netns.sh); once every PE runs, the link of node 1 is taken
# down.  Needs root and iproute2; exits 77 (skipped) without them.  PROGRAM picks the job:
#   net_timeout    2 PEs on 2 nodes; PE 0 keeps putting to PE 1, which waits.  PE 0's line
#                  must name PE 1, from the put or the quiet with it outstanding.
#   flap_traffic   4 PEs, 2 a node, in puts, atomics and collectives (flap_traffic.c): PEs
#                  mostly wait in a collective with nothing outstanding, for a write from a
#                  PE across the link (a write that completes once it is in a socket).  A
#                  line must name a PE of the other node, unreachable.
#   link_down.sh OSHRUN PROGRAM        (PROGRAM: test/shmem/net_timeout or flap_traffic)
#   link_down.sh --job OSHRUN PROGRAM  (the job itself, run by expect_failure.sh)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

. "$here/job.sh"

if [ "${1:-}" = "--job" ]; then
  oshrun=$2
  program=$3
  case "$(basename "$program")" in
    net_timeout) netns_job_start 1 2 "$oshrun" "$program" link && job_ready 2 ;;
    *) netns_job_start 2 4 "$oshrun" "$program" 600 && job_ready 4 && sleep 0.5 ;;
  esac
  echo "link_down.sh: taking the link of node 1 down" >&2
  ip -n "tandem-$TANDEM_TEST_NETNS_TAG-n1" link set tdm0 down
  job_end
fi

oshrun=$1
program=$2
needs_root link_down.sh ip
netns_up 2
case "$(basename "$program")" in
  net_timeout) line="^tandem: shmem_(long_put|quiet) on PE 0: PE 1 is unreachable: no network operation has completed for [0-9]+ s" ;;
  *) line="^tandem: shmem_[a-z_]+ on PE ([01]: PE [23]|[23]: PE [01]) is unreachable: (no network operation has completed|it has not answered) for [0-9]+ s" ;;
esac
TANDEM_NET_TIMEOUT=3 TANDEM_TEST_TIME_LIMIT=40 bash "$here/../shmem/expect_failure.sh" 1 "$line" \
  -- bash "$0" --job "$oshrun" "$program"
