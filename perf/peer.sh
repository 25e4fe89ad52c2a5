#!/usr/bin/env bash
# Runs one OpenSHMEM benchmark of perf/ built against Tandem and against a second
# OpenSHMEM implementation (the peer), alternately for some rounds, on one node (with -I, a
# node per PE) with each PE count given, and reports per PE count, size and metric the
# median over the rounds of each implementation's best, the ratio peer / Tandem and a plot
# per metric, then a summary of every metric at its largest size.  See perf/README.md ("Against another OpenSHMEM").
#
# Usage: perf/peer.sh [options] [PROGRAM] [-- options for PROGRAM]
#   PROGRAM     a benchmark in perf/ that uses the standard API only (default: collectives,
#               which then gets -A -M 4M: the active-set routines, which every
#               OpenSHMEM has, 8 B to 4 MiB); or skampi, followed by -- DIR [FILE.inc...]:
#               SKaMPI from the coti/SKaMPI checkout DIR, built for both
#               (test/public/skampi_build.sh), runs the measurement files FILE.inc of its
#               ski/ folder (default shmem_p2p.inc shmem_atomic.inc; see perf/README.md
#               for the files that stop Open MPI's OSHMEM)
#               after the lines of its ski/shmem.ski but the includes (its settings);
#               metrics in ns, by count
#   -c OSHCC    the peer's compiler wrapper (default /usr/bin/oshcc: Open MPI's OSHMEM)
#   -l LAUNCH   the peer's launcher, before -n; shell words, quotes allowed (default: the
#               oshrun beside OSHCC; for Open MPI's with "--oversubscribe --bind-to none
#               --mca osc ^rdma", for Sandia OpenSHMEM's under "setarch x86_64 -R" with
#               "--oversubscribe --bind-to none")
#   -N NAME     the peer's name in the report (default: its SHMEM_VENDOR_STRING and version)
#   -b BUILD    Tandem's build folder (default: build at the top of the tree)
#   -o DIR      results folder (default: perf/results/peer-PROGRAM-<date>-<time>)
#   -n ROUNDS   rounds, each running both (default 3); 0: only build both sides' programs
#               into the results folder, for a later -k run on a machine that cannot build
#   -k          with -o DIR: run the programs an earlier run (-n 0) built in DIR (NAME.peer,
#               or skampi-tandem and skampi-peer) instead of building them; the peer's
#               compiler is not needed then (give -l and -N)
#   -p "PES"    PE counts, all on this node (default "2 4")
#   -I          across nodes: Tandem puts every PE on a virtual node of its own (oshrun
#               --nodes), a peer that is Open MPI's talks TCP between its PEs for its
#               one-sided calls and its collectives (-x UCX_TLS=tcp,self --mca btl tcp,self
#               --mca pml ob1), and both run with PERF_SOLO_POLL=1 (perf_shmem.h)
#   -P PER_NODE with -I: Tandem puts PER_NODE PEs on each virtual node instead of one
#               (--nodes NP / PER_NODE, rounded up), so that its collectives go by node;
#               the peer's PEs still all talk TCP
#   -t SECONDS  each run's time limit (default 900); a run that hangs gives its rows so far
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build="$top/build"
peer_cc=/usr/bin/oshcc
peer_launch=""
peer_name=""
out=""
rounds=3
pe_counts="2 4"
internode=no
per_node=1
limit=900
keep=no
while getopts "c:l:N:b:o:n:p:P:t:Ikh" opt; do
  case "$opt" in
    c) peer_cc=$OPTARG ;;
    l) peer_launch=$OPTARG ;;
    N) peer_name=$OPTARG ;;
    b) build=$(cd "$OPTARG" && pwd) ;;
    o) out=$OPTARG ;;
    n) rounds=$OPTARG ;;
    p) pe_counts=$OPTARG ;;
    I) internode=yes ;;
    k) keep=yes ;;
    P) per_node=$OPTARG ;;
    t) limit=$OPTARG ;;
    h) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
program=collectives
case ${1:-} in -* | "") ;; *) program=$1; shift ;; esac  # getopts took a "--" before PROGRAM's options
[ "${1:-}" != "--" ] || shift
args=("$@")
[ "$program" != collectives ] || args=(-A -M 4M "${args[@]}")  # options given later win

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ $keep = yes ] || [ -x "$peer_cc" ] || { echo "peer.sh: no peer compiler $peer_cc (-c)" >&2; exit 1; }
[ $keep = no ] || [ -n "$out" ] || { echo "peer.sh: -k needs the folder of the earlier run (-o)" >&2; exit 1; }
peer_dir=$(dirname "$peer_cc")
tandem_launch=("$build/tools/oshrun/oshrun")
if [ "$program" = skampi ]; then
  # SKaMPI: a checkout of coti/SKaMPI, then the measurement files of its ski/ folder to run.
  skampi_src=${args[0]:-}
  [ -d "$skampi_src/ski" ] || { echo "peer.sh: skampi needs a SKaMPI checkout: peer.sh skampi -- DIR [FILE.inc...]" >&2; exit 1; }
  skampi_incs=("${args[@]:1}")
  [ ${#skampi_incs[@]} -gt 0 ] || skampi_incs=(shmem_p2p.inc shmem_atomic.inc)
  args=()
else
  [ -x "$build/perf/$program" ] || { echo "peer.sh: build perf/$program first (make -C $build perf)" >&2; exit 1; }
fi
out=${out:-"$here/results/peer-$program-$(date +%Y%m%d-%H%M)"}
mkdir -p "$out"
# Which implementation the peer is: its header's vendor string and version, printed by a
# program that does not start OpenSHMEM.
if [ $keep = no ]; then
  printf '#include <stdio.h>\n#include <shmem.h>\nint main(void) { printf("%%s (OpenSHMEM %%d.%%d)\\n", SHMEM_VENDOR_STRING, SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION); return 0; }\n' >"$out/vendor.c"
  "$peer_cc" -o "$out/vendor" "$out/vendor.c" 2>/dev/null || { echo "peer.sh: $peer_cc cannot build a program" >&2; exit 1; }
fi
vendor=$("$out/vendor" 2>/dev/null || true)
if [ -z "$peer_launch" ]; then
  peer_launch="$peer_dir/oshrun"
  case $vendor in
    *[Oo]pen*MPI* | *open-mpi*)
      # Open MPI's oshrun: 2 cores need --oversubscribe; its finalize crashes with the rdma
      # one-sided component; the benchmarks pin themselves.
      peer_launch="$peer_launch --oversubscribe --bind-to none --mca osc ^rdma"
      [ "$internode" = no ] || peer_launch="$peer_launch -x UCX_TLS=tcp,self --mca btl tcp,self --mca pml ob1 -x PERF_SOLO_POLL" ;;
    *Sandia*)
      # Sandia OpenSHMEM's oshrun runs mpirun; a build with CMA needs the address space
      # laid out alike in every process (no randomisation).
      peer_launch="setarch $(uname -m) -R $peer_launch --oversubscribe --bind-to none" ;;
  esac
fi
eval "peer_launch_words=($peer_launch)"
if [ -z "$peer_name" ]; then
  case $vendor in
    *[Oo]pen*MPI* | *open-mpi*)
      version=$("$peer_dir/oshrun" --version 2>&1 | head -1)
      peer_name="Open MPI ${version##* } OSHMEM" ;;
    "") peer_name=peer ;;
    *) peer_name=$vendor ;;
  esac
fi
if [ "$program" = skampi ]; then
  # A copy of the checkout built for each (test/public/skampi_build.sh), and one measurement
  # file: SKaMPI's own ski/shmem.ski without its includes, then the chosen files of ski/.
  for side in tandem peer; do
    cc=$peer_cc
    [ $side = peer ] || cc=$build/tools/oshcc
    if [ $keep = yes ]; then
      [ -x "$out/skampi-$side/skampi" ] || { echo "peer.sh: -k: no $out/skampi-$side/skampi" >&2; exit 1; }
      continue
    fi
    rm -rf "$out/skampi-$side" && cp -a "$skampi_src" "$out/skampi-$side"
    "$top/test/public/skampi_build.sh" "$out/skampi-$side" "$cc" || exit 1
  done
  for inc in "${skampi_incs[@]}"; do cp "$skampi_src/ski/$inc" "$out/" || exit 1; done
  {
    grep -v '@include' "$skampi_src/ski/shmem.ski"
    for inc in "${skampi_incs[@]}"; do echo "@include \"$inc\""; done
  } >"$out/measure.ski"
fi
# SIDE's (tandem or peer) build of the program.
program_of() {
  if [ "$program" = skampi ]; then echo "$out/skampi-$1/skampi"
  elif [ "$1" = tandem ]; then echo "$build/perf/$program"
  else echo "$peer_bin"; fi
}
# Runs SIDE's build of the program on NP PEs (launcher words after SIDE NP) and prints its CSV
# lines: a SKaMPI run's results (in ns: measurement_ns, by count) made into them.
run_program() {
  local side=$1 np=$2
  shift 2
  if [ "$program" = skampi ]; then
    (cd "$out" && "$@" -n "$np" "$(program_of "$side")" -i measure.ski) |
      awk '/^# begin result "/ { m = $0; sub(/^# begin result "/, "", m); sub(/".*/, "", m); gsub(/[^A-Za-z0-9_]/, "_", m); next }
           /^# end result/ { m = ""; next }
           m != "" && $1 == "count=" && $4 ~ /^[0-9.]+$/ { printf "%s,%s,%s_ns,%s\n", $2, $6, m, $4; next }
           m != "" && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9.]+$/ { printf "0,%s,%s_ns,%s\n", $4, m, $2 }'
    return "${PIPESTATUS[0]}"
  fi
  "$@" -n "$np" "$(program_of "$side")" "${args[@]}"
}
peer_bin="$out/$program.peer"
# A launcher that its time limit ended may leave SIDE's PEs running (Open MPI's mpirun, which
# Sandia OpenSHMEM's oshrun runs, did): they would spin beside every later run.  They get 5
# seconds to end by themselves, then are killed.
end_leftovers() {
  local bin i
  bin=$(program_of "$1")
  for ((i = 0; i < 10; i++)); do
    pgrep -f -- "$bin" >/dev/null || return 0
    sleep 0.5
  done
  pkill -KILL -f -- "$bin" 2>/dev/null && echo "peer.sh: killed PEs of $bin that outlived their launcher" >&2
  return 0
}
if [ $keep = yes ]; then
  [ "$program" = skampi ] || [ -x "$peer_bin" ] || { echo "peer.sh: -k: no $peer_bin" >&2; exit 1; }
elif [ "$program" != skampi ]; then
  "$peer_cc" -O2 -I"$here" -o "$peer_bin" "$here/$program.c" -lm ||
    { echo "peer.sh: $peer_cc could not build perf/$program.c" >&2; exit 1; }
fi
if [ "$rounds" = 0 ]; then echo "peer.sh: built in $out; run there with -k -o $out" >&2; exit 0; fi

{
  echo "date: $(date -Is)"
  echo "program: $program ${args[*]}"
  echo "tandem: $("$build/tools/oshrun/oshrun" --version 2>&1 | head -1), $(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)"
  echo "peer ($peer_name): $peer_cc; $peer_launch"
  echo "pe counts: $pe_counts ($([ "$internode" = yes ] && echo "$per_node a node" || echo "one node")), $rounds rounds, alternately"
  echo "load before: $(cat /proc/loadavg)"
  uname -a
} >"$out/env.txt"

summary="$out/report.md"
{
  echo "# perf/$program: Tandem (A) against $peer_name (B)"
  echo
  echo "Every metric at its largest size; B / A above 1: Tandem is faster (times), slower (rates)."
  echo
  echo "| PEs | size | metric | Tandem | $peer_name | B / A |"
  echo "|---|---|---|---|---|---|"
} >"$summary.head"
: >"$summary.body"
[ "$internode" = no ] || export PERF_SOLO_POLL=1
placement="on one node"
[ "$internode" = no ] || placement="on a node each"
[ "$internode" = no ] || [ "$per_node" = 1 ] || placement="on nodes of $per_node (Tandem)"
for np in $pe_counts; do
  nodes=()
  [ "$internode" = no ] || nodes=(--nodes $(((np + per_node - 1) / per_node)))
  dir="$out/np$np"
  mkdir -p "$dir"
  for ((r = 1; r <= rounds; r++)); do
    echo "peer.sh: $np PEs, round $r/$rounds" >&2
    run_program tandem "$np" timeout "$limit" "${tandem_launch[@]}" "${nodes[@]}" \
      >"$dir/round$r-tandem.csv" 2>"$dir/round$r-tandem.err" || echo "peer.sh: Tandem's run failed ($dir/round$r-tandem.err)" >&2
    end_leftovers tandem
    run_program peer "$np" timeout "$limit" "${peer_launch_words[@]}" \
      >"$dir/round$r-peer.csv" 2>"$dir/round$r-peer.err" || echo "peer.sh: the peer's run failed ($dir/round$r-peer.err)" >&2
    end_leftovers peer
  done
  bash "$here/report_ab.sh" "$dir" tandem peer "$program, $np PEs $placement: Tandem (A) and $peer_name (B)"
  # The largest size of each metric, for the summary.
  awk -v np="$np" '{ if (!($1 in big) || $2 + 0 >= big[$1] + 0) { big[$1] = $2; line[$1] = $0 } }
    END { for (m in line) { split(line[m], f, " "); r = f[3] > 0 && f[4] >= 0 ? sprintf("%.3f", f[4] / f[3]) : "-"
          b = f[4] >= 0 ? sprintf("%.4g", f[4]) : "-"  # -1: the peer lacks the routine
          printf "| %s | %s | %s | %.4g | %s | %s |\n", np, f[2], f[1], f[3], b, r } }' \
    "$dir/medians.dat" | sort >>"$summary.body"
done
{
  cat "$summary.head" "$summary.body"
  echo
  for np in $pe_counts; do echo "- [$np PEs](np$np/report.md)"; done
} >"$summary"
rm -f "$summary.head" "$summary.body"
echo "load after: $(cat /proc/loadavg)" >>"$out/env.txt"
cat "$summary"
echo "results: $out" >&2
