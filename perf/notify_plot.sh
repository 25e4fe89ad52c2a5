#!/usr/bin/env bash
# Plots perf/notify's four ping-pong methods against each other, one plot per setting, from
# a results folder of perf/compare.sh (its medians.dat): methods-A.png and methods-B.png.
#   usage: perf/notify_plot.sh RESULTS_DIR
set -euo pipefail
out=${1:?"usage: perf/notify_plot.sh RESULTS_DIR (a compare.sh folder of perf/notify)"}
[ -f "$out/medians.dat" ] || { echo "notify_plot.sh: no $out/medians.dat" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "notify_plot.sh: gnuplot is not installed" >&2; exit 1; }
settings=$(sed -n 's/^# notify with \(.*\) (A) and \(.*\) (B)$/\1|\2/p' "$out/report.md")
for column in 3 4; do
  name=$([ $column = 3 ] && echo "${settings%%|*}" || echo "${settings#*|}")
  tag=$([ $column = 3 ] && echo A || echo B)
  for m in notify signal fence_flag quiet_amo; do
    awk -v m="notify_${m}_half_rtt_us" -v c=$column '$1 == m { print $2, $c }' "$out/medians.dat" | sort -n >"$out/.$m.dat"
  done
  gnuplot <<GNUPLOT
set terminal png size 900,560 noenhanced
set output '$out/methods-$tag.png'
set title 'notify: half round trip by method, $name (median of the rounds)'
set logscale xy
set format y '%g'
set xlabel 'size (bytes)'
set ylabel 'microseconds'
set key top left box opaque
set grid
plot '$out/.notify.dat' using 1:2 with linespoints title 'put_notify', \
     '$out/.signal.dat' using 1:2 with linespoints title 'put_signal', \
     '$out/.fence_flag.dat' using 1:2 with linespoints title 'put + fence + flag', \
     '$out/.quiet_amo.dat' using 1:2 with linespoints title 'put + quiet + atomic flag'
GNUPLOT
  rm -f "$out"/.{notify,signal,fence_flag,quiet_amo}.dat
  echo "$out/methods-$tag.png"
done
