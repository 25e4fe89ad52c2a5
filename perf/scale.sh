#!/usr/bin/env bash
# What a PE costs as the job grows: runs perf/scale at each job size N on one node and on
# virtual nodes of P PEs each (oshrun --nodes N/P), and writes a table and a plot per measure
# against N: resident and proportional memory, private anonymous memory, open file
# descriptors, mapped segments, threads, the time from the launch to the end of the first
# barrier and to the job's exit.  On a machine with fewer cores than PEs the times say
# little; the memory and the counts do.
#
#   usage: perf/scale.sh [-b BUILD] [-o DIR] [-n "16 64 128 256"] [-p "all 16 4"] [-t SECONDS]
#                        [-l LAUNCHER -c OSHCC]
#   -n    the job sizes (default 16 64 128 256)
#   -p    the placements: all (every PE on one node) or P (N/P virtual nodes of P PEs);
#         default "all 16 4"; a placement that gives fewer than 2 nodes is left out
#   -t    time limit per job (default 300 s)
#   -l/-c another OpenSHMEM: its launcher (given -n N) and the compiler that builds
#         perf/scale.c for it; one node only
# Results in DIR (default perf/results/scale_<date>_<time>): scale.csv
# (placement,npes,nodes,metric,value), report.md (with, for the largest size of each
# placement, where the largest PE's resident memory is, mapping by mapping), and
# scale_<measure>.png where gnuplot is installed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../build
out=
sizes="16 64 128 256"
placements="all 16 4"
limit=300
launcher=
oshcc=
while getopts "b:o:n:p:t:l:c:h" opt; do
  case $opt in
    b) build=$OPTARG ;;
    o) out=$OPTARG ;;
    n) sizes=$OPTARG ;;
    p) placements=$OPTARG ;;
    t) limit=$OPTARG ;;
    l) launcher=$OPTARG ;;
    c) oshcc=$OPTARG ;;
    *) sed -n '2,21s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
  esac
done
out=${out:-$here/results/scale_$(date +%Y%m%d_%H%M%S)}
mkdir -p "$out"

if [ -n "$launcher" ]; then
  [ -n "$oshcc" ] || { echo "scale.sh: -l needs -c OSHCC" >&2; exit 2; }
  program=$out/scale
  $oshcc -O2 -I"$here" -o "$program" "$here/scale.c" || exit 1
  placements=all
else
  oshrun=$build/tools/oshrun/oshrun
  program=$build/perf/scale
  for f in "$oshrun" "$program"; do
    [ -x "$f" ] || { echo "scale.sh: $f is not built (make -C $build perf)" >&2; exit 1; }
  done
  launcher=$oshrun
fi

csv=$out/scale.csv
echo "placement,npes,nodes,metric,value" >"$csv"
for n in $sizes; do
  for p in $placements; do
    if [ "$p" = all ]; then
      nodes=1
      opts=()
    else
      [ $((n % p)) -eq 0 ] && [ $((n / p)) -ge 2 ] || continue
      nodes=$((n / p))
      opts=(--nodes "$nodes")
    fi
    echo "# $n PEs, placement $p ($nodes node(s))" >&2
    start=$EPOCHREALTIME
    PERF_LAUNCH_TIME=$start timeout -k 5 "$limit" $launcher "${opts[@]}" -n "$n" "$program" \
      >"$out/run_${p}_$n.csv" 2>"$out/run_${p}_$n.err"
    status=$?
    took=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
    if [ $status -ne 0 ]; then
      echo "scale.sh: $n PEs, placement $p: status $status (see $out/run_${p}_$n.err)" >&2
      continue
    fi
    grep -v '^#' "$out/run_${p}_$n.csv" | awk -F, -v p="$p" -v k="$nodes" '{ print p "," $1 "," k "," $3 "," $4 }' >>"$csv"
    echo "$p,$n,$nodes,scale_exit_s,$took" >>"$csv"
  done
done

# The report: per placement, a row per N; then what each added PE costs a PE between the
# sizes measured (the part that grows with N).
columns="scale_rss_kB_max scale_pss_kB_mean scale_anon_kB_max scale_fds_max scale_maps_max scale_threads_max scale_start_s_max scale_exit_s"
{
  echo "# perf/scale.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -n)"
  echo
  echo "Per PE: the largest over the PEs (max) or the mean; memory in kB, times in seconds from the launch."
  for p in $placements; do
    grep -q "^$p," "$csv" || continue
    echo
    [ "$p" = all ] && echo "## one node" || echo "## $p PEs per node"
    echo
    awk -F, -v p="$p" -v cols="$columns" '
      BEGIN { m = split(cols, c, " ") }
      $1 == p { v[$2 "," $4] = $5; nodes[$2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[++k] = $2 } }
      END {
        printf "| PEs | nodes |"; for (i = 1; i <= m; i++) printf " %s |", c[i]; print ""
        printf "|---|---|"; for (i = 1; i <= m; i++) printf "---|"; print ""
        for (j = 1; j <= k; j++) {
          n = order[j]; printf "| %s | %s |", n, nodes[n]
          for (i = 1; i <= m; i++) printf " %s |", ((n "," c[i]) in v) ? v[n "," c[i]] : "-"
          print ""
        }
        for (j = 2; j <= k; j++) {
          a = order[j - 1]; b = order[j]
          printf "\nfrom %s to %s PEs, per added PE: Pss %+.2f kB, private anonymous %+.2f kB, fds %+.3f, maps %+.3f\n", a, b,
            (v[b ",scale_pss_kB_mean"] - v[a ",scale_pss_kB_mean"]) / (b - a),
            (v[b ",scale_anon_kB_max"] - v[a ",scale_anon_kB_max"]) / (b - a),
            (v[b ",scale_fds_max"] - v[a ",scale_fds_max"]) / (b - a),
            (v[b ",scale_maps_max"] - v[a ",scale_maps_max"]) / (b - a)
        }
      }' "$csv"
  done
  # Where the largest PE's memory is (perf/scale.c writes it) in the last size run of each
  # placement: the profile behind its figure.
  for p in $placements; do
    run=
    for n in $sizes; do [ -s "$out/run_${p}_$n.csv" ] && run=$out/run_${p}_$n.csv; done
    [ -n "$run" ] && grep -q "resident memory by mapping" "$run" || continue
    echo
    echo "### $(basename "$run" .csv): $(grep 'resident memory by mapping' "$run" | sed 's/^# //')"
    echo
    echo "| kB resident | of it anonymous | mapping |"
    echo "|---|---|---|"
    grep '^# [0-9]' "$run" | head -16 | sed 's/^# //' | awk -F, '{ printf "| %s | %s | %s |\n", $1, $2, $3 }'
  done
} >"$out/report.md"
cat "$out/report.md"

if command -v gnuplot >/dev/null; then
  for m in $columns; do
    plot=
    for p in $placements; do
      awk -F, -v p="$p" -v m="$m" '$1 == p && $4 == m { print $2, $5 }' "$csv" | sort -n >"$out/.$p.dat"
      [ -s "$out/.$p.dat" ] || continue
      title=$([ "$p" = all ] && echo "one node" || echo "$p PEs per node")
      plot="${plot:+$plot, }'$out/.$p.dat' using 1:2 with linespoints title '$title'"
    done
    [ -n "$plot" ] || continue
    gnuplot <<GNUPLOT
set terminal png size 800,500 noenhanced
set output '$out/$m.png'
set title 'perf/scale: $m against the number of PEs'
set logscale x 2
set xlabel 'PEs'
set key top left box opaque
set grid
plot $plot
GNUPLOT
    rm -f "$out"/.*.dat
  done
  echo "plots: $out/*.png" >&2
fi
