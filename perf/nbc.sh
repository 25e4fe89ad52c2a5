#!/usr/bin/env bash
# Tandem's nonblocking collectives (perf/nbc) against Open MPI's (perf/nbc_mpi), measured
# alike and in alternating runs: each round runs, on one node and then across nodes, Tandem
# then MPI (Tandem on 2 virtual nodes, PEs split between them, against MPI over
# `--mca btl tcp,self`; on one node Tandem's shared memory against MPI's).  The summary
# gives per collective and size the median over the rounds of Full over the blocking
# routine, Post (us) and Overlap (%), each the worst PE's.  See perf/README.md
# ("Nonblocking collectives").
#
# Usage: perf/nbc.sh [-n ROUNDS] [-p PES] [-m MIN] [-M MAX] RESULTS   (defaults 3 2 8 4M)
#        perf/nbc.sh -s RESULTS        (only the summary, from the CSV files there)
#   environment: BUILD (default: build beside perf/), MPIRUN (default: mpirun)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../build}
mpirun=${MPIRUN:-mpirun}
rounds=3 pes=2 min=8 max=4M summary_only=0
while getopts "n:p:m:M:s" opt; do
  case "$opt" in
    n) rounds=$OPTARG ;;
    p) pes=$OPTARG ;;
    m) min=$OPTARG ;;
    M) max=$OPTARG ;;
    s) summary_only=1 ;;
    *) sed -n '10,13p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '10,13p' "$0" >&2; exit 2; }
out=$1
mkdir -p "$out"

if [ "$summary_only" = 0 ]; then
  [ -x "$build/perf/nbc" ] && [ -x "$build/perf/nbc_mpi" ] ||
    { echo "nbc.sh: build perf/nbc and perf/nbc_mpi first (make -C $build perf)" >&2; exit 1; }
  mpi_options=(); [ "$(id -u)" = 0 ] && mpi_options=(--allow-run-as-root)
  [ "$pes" -gt "$(nproc)" ] && mpi_options+=(--oversubscribe)
  options=(-m "$min" -M "$max" -r 3 -x 0.2)
  { date -u; uname -r; nproc; git -C "$here/.." rev-parse --short HEAD 2>/dev/null || true; } >"$out/env.txt"
  for r in $(seq 1 "$rounds"); do
    for placement in node nodes; do
      if [ "$placement" = node ]; then tandem=(-n "$pes"); mpi=(-np "$pes"); else
        tandem=(-n "$pes" --nodes 2); mpi=(-np "$pes" --mca btl tcp,self); fi
      echo "nbc.sh: round $r/$rounds, $placement" >&2
      timeout 900 "$build/tools/oshrun/oshrun" "${tandem[@]}" "$build/perf/nbc" "${options[@]}" \
        >"$out/tandem-$placement-$r.csv" 2>"$out/tandem-$placement-$r.err" ||
        echo "nbc.sh: Tandem's run failed, see $out/tandem-$placement-$r.err" >&2
      timeout 900 "$mpirun" "${mpi_options[@]}" "${mpi[@]}" "$build/perf/nbc_mpi" "${options[@]}" \
        >"$out/mpi-$placement-$r.csv" 2>"$out/mpi-$placement-$r.err" ||
        echo "nbc.sh: MPI's run failed, see $out/mpi-$placement-$r.err" >&2
    done
  done
fi

# The summary: per placement, collective and size, the medians over the rounds.
for placement in node nodes; do
  ls "$out"/tandem-$placement-*.csv >/dev/null 2>&1 || continue
  echo
  [ "$placement" = node ] && echo "## One node: Tandem's shared memory, MPI's" ||
    echo "## Across nodes: Tandem on 2 virtual nodes, MPI over --mca btl tcp,self"
  awk -F, '
    FNR == 1 { lib = FILENAME ~ /\/tandem-/ ? "T" : "M" }
    /^#/ || /median/ { next }
    { split($3, a, "_"); c = a[1] == "sum" ? "sum_reduce" : a[1]; m = substr($3, length(c) + 2)
      k = lib SUBSEP c SUBSEP $1 SUBSEP m; n[k]++; v[k, n[k]] = $4; C[c] = 1; S[$1 + 0] = 1 }
    function median(k,   i, j, x, cnt, w) {
      cnt = n[k]; if (!cnt) return ""
      for (i = 1; i <= cnt; i++) w[i] = v[k, i]
      for (i = 2; i <= cnt; i++) for (j = i; j > 1 && w[j] < w[j - 1]; j--) { x = w[j]; w[j] = w[j - 1]; w[j - 1] = x }
      return cnt % 2 ? w[(cnt + 1) / 2] : (w[cnt / 2] + w[cnt / 2 + 1]) / 2 }
    END {
      ns = 0; for (s in S) sz[++ns] = s + 0
      for (i = 2; i <= ns; i++) for (j = i; j > 1 && sz[j] < sz[j - 1]; j--) { x = sz[j]; sz[j] = sz[j - 1]; sz[j - 1] = x }
      split("broadcast fcollect alltoall sum_reduce", order, " ")
      for (o = 1; o <= 4; o++) { c = order[o]; if (!(c in C)) continue
        printf "\n### %s\n\n| size | Tandem Full/blocking | Tandem Post us | Tandem Overlap %% | MPI Full/blocking | MPI Post us | MPI Overlap %% |\n|---|---|---|---|---|---|---|\n", c
        for (i = 1; i <= ns; i++) { printf "| %d |", sz[i]
          for (l = 1; l <= 2; l++) { lib = l == 1 ? "T" : "M"; b = lib SUBSEP c SUBSEP sz[i]
            f = median(b SUBSEP "full_us"); bl = median(b SUBSEP "blocking_us")
            p = median(b SUBSEP "post_us"); ov = median(b SUBSEP "overlap_pct")
            printf(f != "" && bl > 0 ? " %.2f |" : " |", f / (bl > 0 ? bl : 1))
            printf(p != "" ? " %.1f |" : " |", p); printf(ov != "" ? " %.0f |" : " |", ov) }
          print "" } } }' "$out"/tandem-$placement-*.csv "$out"/mpi-$placement-*.csv
done | tee "$out/summary.md"
