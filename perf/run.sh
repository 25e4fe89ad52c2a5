#!/usr/bin/env bash
# Runs every benchmark of perf/ and its raw reference, then writes the report.
# See perf/README.md.
#
# Usage: perf/run.sh [options] [-- options for every benchmark]
#   -l LAUNCHER  command that starts 2 PEs, the program follows it
#                (default: BUILD/tools/oshrun/oshrun -n 2 when it exists and works, else
#                 env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
#                 mpirun --oversubscribe --bind-to none -np 2)
#   -b BUILD     build folder holding perf/ and tools/ (default: build at the top of the tree)
#   -o DIR       results folder (default: perf/results/<date>_<time>)
#   -n ROUNDS    run the whole set this many times; the report pairs figures round by round (2)
#   -q           quick: fewer iterations and repetitions (-x 0.1 -r 3), for a smoke test
#   -L TASKS     before each program, wait (at most 2 minutes) for a second in which no
#                more than TASKS other tasks were runnable at any of 10 samples
#   -t SECONDS   time limit of one program (default 900)
#   -f           run even when benchmark processes from an earlier run are still alive
#   -I           inter-node set: the 2 PEs on 2 virtual nodes (oshrun --nodes 2 -n 2, or
#                the -l launcher with TANDEM_VIRTUAL_NODES=2), so that every operation goes
#                through libfabric, against the raw TCP and raw libfabric ping-pongs
#                (ref_tcp_pingpong, ref_ofi_pingpong, on the provider TANDEM_OFI_PROVIDER names,
#                else the one Tandem chooses, as tandem_info reports it)
#   -S SHAPE     the inter-node set with each virtual node in a network namespace of its own,
#                joined by veth links shaped by tc (test/netns/netns.sh; needs root):
#                SHAPE is "RATE [DELAY]", e.g. "10gbit 5us", or "none" for unshaped links
# Every benchmark pins itself (process or PE i on core i); pass -P after -- to turn that off.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build="$top/build"
launcher=""
out=""
rounds=2
quick=no
max_load=""
limit=900
force=no
internode=no
shape=""
while getopts "l:b:o:n:qL:t:fIS:h" opt; do
  case "$opt" in
    l) launcher=$OPTARG ;;
    b) build=$(cd "$OPTARG" && pwd) ;;
    o) out=$OPTARG ;;
    n) rounds=$OPTARG ;;
    q) quick=yes ;;
    L) max_load=$OPTARG ;;
    t) limit=$OPTARG ;;
    f) force=yes ;;
    I) internode=yes ;;
    S) internode=yes; shape=$OPTARG ;;
    h) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
extra=("$@")
[ "$quick" = yes ] && extra=(-x 0.1 -r 3 "${extra[@]}")

# ---------------------------------------------------------------- namespaces (-S)
netns_sh="$top/test/netns/netns.sh"
netns_line=""
if [ -n "$shape" ]; then
  [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null || { say "-S needs root and iproute2"; exit 1; }
  export TANDEM_TEST_NETNS_TAG=$(($$ % 200 + 20)) TANDEM_TEST_NETNS_PES_PER_NODE=1
  read -r -a shape_args <<<"$shape"
  [ "${shape_args[0]}" = none ] && shape_args=()
  trap 'bash "$netns_sh" down' EXIT
  bash "$netns_sh" up 2 "${shape_args[@]}" || { say "cannot create the namespaces"; exit 1; }
  octet=$((TANDEM_TEST_NETNS_TAG % 250 + 1))
  # The references' processes enter the nodes' namespaces and talk over the same links.
  export PERF_NETNS="/var/run/netns/tandem-$TANDEM_TEST_NETNS_TAG-n0 /var/run/netns/tandem-$TANDEM_TEST_NETNS_TAG-n1"
  export REF_TCP_ADDRESS="10.77.$octet.1" FI_TCP_IFACE=tdm0 FI_SOCKETS_IFACE=tdm0
  netns_line="-x TANDEM_TEST_NETNS_TAG -x TANDEM_TEST_NETNS_PES_PER_NODE bash $netns_sh pe"
fi

if [ "$internode" = yes ]; then
  shmem_benchmarks="pingpong get_latency put_bw fetch_add"
  references="ref_tcp_pingpong ref_ofi_pingpong"
  order="ref_tcp_pingpong ref_ofi_pingpong pingpong get_latency put_bw fetch_add"
  export TANDEM_VIRTUAL_NODES=2  # for a launcher given with -l; oshrun --nodes sets it too
  export PERF_SOLO_POLL=1        # idle PEs poll, as the references' passive sides do
else
  shmem_benchmarks="put_latency get_latency put_bw pingpong fetch_add barrier"
  references="ref_memcpy ref_shm_pingpong ref_shm_amo"
  # Order inside a round: each reference just before the Tandem figures compared with it.
  order="ref_memcpy put_latency get_latency put_bw ref_shm_pingpong pingpong ref_shm_amo fetch_add barrier"
fi

say() { echo "run.sh: $*" >&2; }

# ---------------------------------------------------------------- programs
missing=no
for p in $shmem_benchmarks $references; do [ -x "$build/perf/$p" ] || missing=yes; done
if [ "$missing" = yes ]; then
  say "building the benchmarks (make perf in $build)"
  make -C "$build" perf >/dev/null
fi

# ---------------------------------------------------------------- stray processes
pattern="perf/($(echo $shmem_benchmarks $references | tr ' ' '|'))( |\$)"
strays=$(ps -eo pid=,args= | grep -E "$pattern" | grep -v grep || true)
if [ -n "$strays" ]; then
  say "benchmark processes are still running (they would spoil the figures):"
  echo "$strays" >&2
  [ "$force" = yes ] || { say "stop them or pass -f"; exit 1; }
fi

# ---------------------------------------------------------------- launcher
mpirun_line="env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe --bind-to none -np 2"
works() {  # works LAUNCHER: can it run a 2-PE barrier?
  local -a cmd
  read -r -a cmd <<<"$1"
  timeout -k 5 60 "${cmd[@]}" "$build/perf/barrier" -r 1 -i 10 >/dev/null 2>&1
}
if [ -z "$launcher" ]; then
  oshrun_line="$build/tools/oshrun/oshrun -n 2"
  [ "$internode" = yes ] && oshrun_line="$build/tools/oshrun/oshrun --nodes 2 -n 2 $netns_line"
  if [ -x "$build/tools/oshrun/oshrun" ] && works "$oshrun_line"; then
    launcher=$oshrun_line
  else
    [ -x "$build/tools/oshrun/oshrun" ] && say "oshrun could not run a 2-PE job; using mpirun"
    launcher=$mpirun_line
  fi
elif ! works "$launcher"; then
  say "the launcher '$launcher' could not run a 2-PE job"
  exit 1
fi
read -r -a launch <<<"$launcher"

# ---------------------------------------------------------------- quiet machine
# Runnable tasks other than the sampling one, from /proc/loadavg ("running/total").
busy_tasks() { awk '{ split($4, a, "/"); print a[1] - 1 }' /proc/loadavg; }
wait_quiet() {
  [ -n "$max_load" ] || return 0
  local deadline=$((SECONDS + 120)) quiet i n
  while [ "$SECONDS" -lt "$deadline" ]; do
    quiet=yes
    for i in 1 2 3 4 5 6 7 8 9 10; do
      n=$(busy_tasks)
      [ "$n" -le "$max_load" ] || { quiet=no; break; }
      sleep 0.1
    done
    [ "$quiet" = yes ] && return 0
    sleep 1
  done
  say "the machine stayed busy for 2 minutes; running anyway"
  echo "$(date +%T) $1 started on a busy machine: $(cat /proc/loadavg)" >>"$out/env.txt"
}

# ---------------------------------------------------------------- run
[ -n "$out" ] || out="$here/results/$(date +%Y-%m-%d_%H%M%S)"
mkdir -p "$out"
out=$(cd "$out" && pwd)

snapshot() {
  echo "load average: $(cat /proc/loadavg)"
  echo "busiest processes:"
  ps -eo pcpu=,pid=,comm= --sort=-pcpu | head -8
}
if [ "$internode" = yes ] && [ -z "${TANDEM_OFI_PROVIDER:-}" ]; then
  # The raw reference talks through the provider Tandem chooses, not libfabric's first
  # choice (udp;ofi_rxd on machines where Tandem refuses it).
  chosen=$("$build/tools/tandem_info" 2>/dev/null | awk '$2 == "chosen" { print $1; exit }')
  [ -z "$chosen" ] || export TANDEM_OFI_PROVIDER="$chosen"
fi
{
  echo "date: $(date -Is)"
  echo "host: $(uname -n) $(uname -r) $(uname -m)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) online"
  echo "tandem: $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$top" diff --quiet 2>/dev/null || echo ' (with local changes)')"
  echo "launcher: $launcher"
  if [ "$internode" = yes ]; then
    echo "set: inter-node, 2 virtual nodes, provider ${TANDEM_OFI_PROVIDER:-(libfabric first choice)}"
    [ -z "$shape" ] || echo "network: 2 namespaces joined by veth links, shaping: $shape"
  else
    echo "set: intra-node"
  fi
  echo "benchmark options: ${extra[*]:-(defaults)}"
  echo "rounds: $rounds"
  echo "--- before"
  snapshot
} >"$out/env.txt"

failed=0
for round in $(seq "$rounds"); do
  mkdir -p "$out/round$round"
  for p in $order; do
    wait_quiet "$p"
    say "round $round/$rounds: $p"
    csv="$out/round$round/$p.csv"
    err="$out/round$round/$p.err"
    rc=0
    case " $references " in
      *" $p "*) timeout -k 10 "$limit" "$build/perf/$p" "${extra[@]}" >"$csv" 2>"$err" || rc=$? ;;
      *) timeout -k 10 "$limit" "${launch[@]}" "$build/perf/$p" "${extra[@]}" >"$csv" 2>"$err" || rc=$? ;;
    esac
    if [ "$rc" -ne 0 ]; then
      say "$p failed (exit $rc), see $err"
      failed=$((failed + 1))
    fi
  done
done
{
  echo "--- after"
  snapshot
} >>"$out/env.txt"

"$here/report.sh" "$out"
cat "$out/report.md"
echo ""
echo "results: $out"
[ "$failed" -eq 0 ] || { say "$failed program(s) failed"; exit 1; }
