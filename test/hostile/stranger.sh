#!/usr/bin/env bash
# A stranger on the network: while 2 PEs on 2 virtual nodes run stranger_target over
# PROVIDER, a process outside the job (test/hostile/stranger) finds their endpoints as a port
# scan of their host would (their listening TCP sockets), connects with an endpoint of its
# own on the same provider and settings, sends messages in the shape of Tandem's software
# requests and answers, and tries RMA writes with guessed keys at guessed addresses (KEYS:
# "sample", or "all" for every key from 0 to 4096; see stranger.c).  Passes when no write
# lands, the PEs say they dropped the messages and count (TANDEM_STATS) as many as went out,
# and the job's own checks pass.
#   TANDEM_BUILD=<build tree> stranger.sh PROVIDER KEYS   (PROVIDER: a '+' for each ';', as
#                                                        tcp+ofi_rxm, which CTest cannot pass)
# Needs ss (iproute2) and the provider; exits 77 (skipped) without them.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../launcher/lib.sh"
provider=${1//+/;}
keys=$2
build=${TANDEM_BUILD:?}
unset TANDEM_BUILD  # read; no setting of the PEs'
command -v ss >/dev/null || skip "needs ss (iproute2)"
command -v fi_info >/dev/null && ! fi_info -p "$provider" >/dev/null 2>&1 && skip "libfabric has no provider $provider"
mkdir -p "$WORKDIR/pids"
# Tandem's settings for ofi_rxm (src/transport/ofi/library.cc), which a stranger that read
# the source copies: ofi_rxm refuses connections whose buffer size differs.
export FI_OFI_RXM_BUFFER_SIZE=512 FI_OFI_RXM_MSG_RX_SIZE=32

. "$here/../netns/job.sh"
# The job's standard error joins its output: the PEs' warnings are checked below.
job_start sh -c 'exec "$@" 2>&1' job env TANDEM_OFI_PROVIDER="$provider" TANDEM_TEST_PIDDIR="$WORKDIR/pids" TANDEM_STATS=1 \
  "$OSHRUN" --nodes 2 -n 2 "$build/test/shmem/stranger_target" "$WORKDIR/stop"
job_ready 2
targets=""
for pid in $(ls "$WORKDIR/pids" | grep -E '^[0-9]+$'); do
  targets="$targets $(ss -tlnpH | awk -v p="pid=$pid," 'index($0, p) { print $4 }')"
done
guesses=""
for at in $(awk '/^ready/ { print $6, $8 }' "$job_out"); do guesses="$guesses -a $at -k $at"; done
echo "stranger.sh: the PEs listen on:$targets"
STRANGER_KEYS=$keys timeout 600 "$build/test/hostile/stranger" "$provider" $targets $guesses >"$WORKDIR/out.stranger" 2>&1
expect_eq "the stranger's status" 0 $?
touch "$WORKDIR/stop"
wait "$job"
expect_eq "the job's status" 0 $?
mv "$job_out" "$WORKDIR/out.job"
cat "$WORKDIR/out.stranger"
expect_eq "targets tried" "$(echo $targets | wc -w)" "$(grep -c '^stranger: .*messages sent$' "$WORKDIR/out.stranger")"
[ -n "$targets" ] || fail "no listening socket of the PEs found"
if grep -q "^stranger: .*: [1-9][0-9]* writes completed without an error" "$WORKDIR/out.stranger"; then
  fail "writes of the stranger landed"
fi
grep -q "^stranger: .* 0 messages sent$" "$WORKDIR/out.stranger" && fail "the stranger's messages did not go out: nothing was tried"
expect_grep "the job" "$WORKDIR/out.job" "^stranger_target: passed on 2 PE\(s\)$"
for pe in 0 1; do
  expect_grep "PE $pe" "$WORKDIR/out.job" \
    "^tandem: warning: progress on PE $pe: dropped a message that claims to come from PE [01]: .*\(sent by a process outside the job\?\)"
done
# Every message that went out reached a PE and was dropped there, and nothing of the job's own.
sent=$(awk '/^stranger: .*messages sent$/ { n += $(NF - 2) } END { print n + 0 }' "$WORKDIR/out.stranger")
dropped=$(awk '/^Tandem stats: PE [01]: [0-9]+ messages dropped as not from the job$/ { n += $5; k++ } END { print k == 2 ? n : "no count from each PE" }' "$WORKDIR/out.job")
expect_eq "messages the PEs dropped" "$sent" "$dropped"
finish
