#!/usr/bin/env bash
# Runs SHMEM test programs on 2 virtual nodes that live in separate network namespaces joined
# by a bridge (netns.sh), with the link shaped to 10 Gbit/s: inter-node traffic then crosses
# a veth link instead of loopback.  Needs root and iproute2; exits 77 (skipped) without them.
#   netns_run.sh OSHRUN PROGRAM...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
oshrun=$1
shift
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null; then
  echo "netns_run.sh: needs root and iproute2; skipped"
  exit 77
fi
export TANDEM_TEST_NETNS_TAG=$(( $$ % 200 + 20 ))
cleanup() { bash "$here/netns.sh" down; }
trap cleanup EXIT
bash "$here/netns.sh" up 2 10gbit 5us || exit 1
status=0
for program in "$@"; do
  echo "== $(basename "$program") on 4 PEs, 2 nodes in separate network namespaces"
  TANDEM_TEST_NETNS_PES_PER_NODE=2 SHMEM_INFO=1 timeout 120 "$oshrun" --nodes 2 -n 4 \
    -x TANDEM_TEST_NETNS_TAG -x TANDEM_TEST_NETNS_PES_PER_NODE bash "$here/netns.sh" pe "$program" > netns_out.$$ 2>&1
  rc=$?
  grep -E "network:|passed|FAIL|tandem:" netns_out.$$
  rm -f netns_out.$$
  [ $rc -eq 0 ] || { echo "exit status $rc"; status=1; }
done
exit $status
