#!/usr/bin/env bash
# Runs one benchmark (perf/epochs, perf/bfs) under each window epoch strategy
# (TANDEM_EPOCH_STRATEGY), alternately, for some rounds, and reports per size and metric the
# median over the rounds of each strategy's best, and the default's (adaptive) ratio to the
# better of eager and lazy; with gnuplot, a plot per metric.  See perf/README.md.
#
# Usage: perf/strategies.sh [options] PROGRAM [-- options for PROGRAM]
#   -b BUILD   build folder (default: build at the top of the tree)
#   -o DIR     results folder (default: perf/results/strategies-PROGRAM-<date>-<time>)
#   -n ROUNDS  rounds, each running every strategy (default 5)
#   -p PES     PEs (default 2)
#   -N NODES   virtual nodes (default 2)
#   -s LIST    strategies, comma-separated (default adaptive,eager,lazy,hybrid)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
declare -A opt=([b]="$here/../build" [n]=5 [p]=2 [N]=2 [s]=adaptive,eager,lazy,hybrid [o]="")
while getopts "b:o:n:p:N:s:h" name; do
  [ "$name" != h ] || { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; }
  [ "$name" != "?" ] || exit 2
  opt[$name]=$OPTARG
done
shift $((OPTIND - 1))
build=${opt[b]} rounds=${opt[n]} pes=${opt[p]} nodes=${opt[N]} list=${opt[s]} out=${opt[o]}
program=${1:?"strategies.sh: name the program (perf/PROGRAM); -h for help"}
shift
[ "${1:-}" != "--" ] || shift
IFS=, read -r -a strategies <<<"$list"
out=${out:-"$here/results/strategies-$program-$(date +%Y%m%d-%H%M)"}
mkdir -p "$out"
[ -x "$build/perf/$program" ] || { echo "strategies.sh: build perf/$program first" >&2; exit 1; }
echo "$program $*: $pes PEs on $nodes node(s), $rounds rounds of $list, $(date -Is)" >"$out/env.txt"
# Each round runs the strategies in a random order, so that none always runs in the same
# place or after the same neighbour: in rounds of a fixed order, adaptive and eager, which
# run the same code for puts, differed by 10-15%.
for ((r = 1; r <= rounds; r++)); do
  for s in $(shuf -e "${strategies[@]}"); do
    echo "strategies.sh: round $r/$rounds, $s" >&2
    TANDEM_EPOCH_STRATEGY=$s timeout 900 "$build/tools/oshrun/oshrun" --nodes "$nodes" -n "$pes" \
      "$build/perf/$program" "$@" >"$out/round$r-$s.csv" 2>"$out/round$r-$s.err"
  done
done

# Per size and metric: the median over the rounds of each run's best.
awk -F, -v list="$list" -v out="$out" -f "$here/rounds.awk" -f <(cat <<'AWK'
  END {
    ns = split(list, names, ",")
    printf "| size | metric |"; for (i = 1; i <= ns; i++) printf " %s |", names[i]
    print " adaptive / best of eager, lazy |"
    printf "|---|---|"; for (i = 1; i <= ns + 1; i++) printf "---|"; print ""
    for (r = 1; r <= nr; r++) {
      split(rows[r], f, SUBSEP)
      printf "| %s | %s |", f[1], f[2]
      for (i = 1; i <= ns; i++) { m[names[i]] = median(names[i] SUBSEP rows[r]); printf " %.4g |", m[names[i]] }
      higher = f[2] ~ /(mteps|pct)$/
      e = m["eager"]; l = m["lazy"]; a = m["adaptive"]
      best = higher ? (e > l ? e : l) : (e < l ? e : l)
      ratio = "-"
      if (a > 0 && best > 0 && e >= 0 && l >= 0) ratio = sprintf("%.3f", higher ? best / a : a / best)
      print " " ratio " |"
      for (i = 1; i <= ns; i++) print f[2], names[i], f[1], m[names[i]] > (out "/plot.dat")
    }
  }
AWK
) "$out"/round*.csv >"$out/report.md"

if command -v gnuplot >/dev/null; then
  for metric in $(cut -d' ' -f1 "$out/plot.dat" | sort -u); do
    plots=""
    for s in "${strategies[@]}"; do
      grep "^$metric $s " "$out/plot.dat" | cut -d' ' -f3,4 >"$out/$metric-$s.dat"
      plots="$plots${plots:+, }'$out/$metric-$s.dat' using 1:2 with linespoints title '$s'"
    done
    gnuplot -e "set terminal png size 800,500; set output '$out/$metric.png'; set logscale x 2;
      set xlabel 'size'; set ylabel '$metric'; set title '$program: $metric'; plot $plots" 2>/dev/null || true
  done
fi
cat "$out/report.md"
echo "results: $out" >&2
