#!/usr/bin/env bash
# The whole litmus matrix (make litmus): every test of litmus.c in every placement (one node,
# a node per PE, 2 nodes of 2), on every provider that serves here (tcp;ofi_rxm, sockets,
# net, shm), with the scheduler's deferral, aggregation, proxy writes and the progress thread
# each on and off.  Prints one line per run and a summary with the run time; exits 1 if any
# run saw a forbidden outcome or failed.
#   matrix.sh OSHRUN LITMUS [ROUNDS]
set -u
oshrun=$1
litmus=$2
rounds=${3:-20000}
start=$(date +%s)
runs=0
bad=0
seen=""  # the unordered tests that showed a reordering somewhere
run() {  # run LABEL ENV... -- OSHRUN-OPTIONS
  local label=$1
  shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local out
  out=$(env "${envs[@]}" timeout 300 "$oshrun" "$@" "$litmus" all "$rounds" 2>&1)
  local status=$?
  runs=$((runs + 1))
  local reordered
  reordered=$(echo "$out" | awk '/\(allowed\)/ && !/never seen/ { print $2 }' | sort -u | tr -d ':' | tr '\n' ' ')
  seen="$seen $reordered"
  if [ $status -ne 0 ]; then
    bad=$((bad + 1))
    echo "FAIL $label (status $status):"
    echo "$out" | grep -E "forbidden\)|FORBIDDEN|tandem:" | grep -v " 0 reordered" | sed 's/^/    /'
  else
    echo "ok   $label${reordered:+ (reorderings seen, allowed: $reordered)}"
  fi
}
settings=("TANDEM_DEFER_THRESHOLD=8K" "TANDEM_DEFER_THRESHOLD=off" "TANDEM_DEFER_THRESHOLD=auto"
          "TANDEM_AGGREGATE=off" "TANDEM_PROXY_WRITES=on" "TANDEM_PROXY_COPIES=on" "TANDEM_PROGRESS_THREAD=off")
for setting in "${settings[@]}"; do
  run "one node, 2 PEs, $setting" "$setting" -- -n 2
  run "one node, 4 PEs, $setting" "$setting" -- -n 4
done
for provider in "tcp;ofi_rxm" sockets net shm; do
  for setting in "${settings[@]}"; do
    run "$provider, a node per PE (2), $setting" "TANDEM_OFI_PROVIDER=$provider" "$setting" -- --nodes 2 -n 2
    run "$provider, 2 nodes of 2, $setting" "TANDEM_OFI_PROVIDER=$provider" "$setting" -- --nodes 2 -n 4
  done
  run "$provider, a node per PE (4)" "TANDEM_OFI_PROVIDER=$provider" -- --nodes 4 -n 4
done
echo "litmus matrix: $runs runs of $rounds rounds per test, $bad failed, in $(( $(date +%s) - start )) s"
seen=$(echo $seen | tr ' ' '\n' | sort -u | tr '\n' ' ')
echo "unordered tests that showed a reordering somewhere: ${seen:-none}"
[ $bad -eq 0 ]
