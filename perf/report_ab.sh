#!/usr/bin/env bash
# The report of two runs compared (perf/compare.sh, perf/peer.sh): reads DIR/round*-A.csv and
# DIR/round*-B.csv (CSV lines size,iterations,metric,value), and writes DIR/report.md with,
# per size and metric, the median over the rounds of each run's best (not the _median
# lines), the ratio B / A, and with gnuplot a plot per metric (DIR/METRIC.png).
#
# Usage: perf/report_ab.sh DIR A B TITLE [LEGEND-PREFIX]
set -euo pipefail
out=$1 a=$2 b=$3 title=$4 prefix=${5:-}

awk -F, -v a="$a" -v b="$b" -v title="$title" -f "$(dirname "$0")/rounds.awk" -f <(cat <<'AWK'
  END {
    printf "# %s\n\n", title
    print "Median over the rounds of each run's best.\n"
    printf "| size | metric | A: %s | B: %s | B / A |\n|---|---|---|---|---|\n", a, b
    for (i = 1; i <= nr; i++) {
      split(rows[i], f, SUBSEP)
      x = median(a SUBSEP rows[i]); y = median(b SUBSEP rows[i])
      ratio = (x > 0 && y >= 0) ? sprintf("%.3f", y / x) : "-"
      printf "| %s | %s | %.4g | %.4g | %s |\n", f[1], f[2], x, y, ratio
      print f[2], f[1], x, y > "/dev/stderr"
    }
  }
AWK
) "$out"/round*-"$a".csv "$out"/round*-"$b".csv 2>"$out/medians.dat" >"$out/report.md"

# A plot per metric: both runs against size (gnuplot, when it has a PNG terminal).
if command -v gnuplot >/dev/null 2>&1 && gnuplot -e "set terminal" 2>&1 | grep -qw png; then
  echo "" >>"$out/report.md"
  # (Metrics measured at size 0 only, such as a barrier, have no size axis, and those that
  # are 0 at every size have nothing on a log scale: table only.)
  for metric in $(awk '$2 > 0 && ($3 > 0 || $4 > 0) { print $1 }' "$out/medians.dat" | sort -u); do
    awk -v m="$metric" '$1 == m { print $2, $3, $4 }' "$out/medians.dat" | sort -n >"$out/$metric.dat"
    gnuplot <<GNUPLOT
set terminal png size 900,560 noenhanced
set output '$out/$metric.png'
set title "$title\n$metric (median of the rounds)"
set logscale xy
set format y '%g'
set xlabel 'size'
set key top left box opaque
set grid
plot '$out/$metric.dat' using 1:2 with linespoints title '$prefix$a', '' using 1:3 with linespoints title '$prefix$b'
GNUPLOT
    rm -f "$out/$metric.dat"
    echo "![$metric]($metric.png)" >>"$out/report.md"
  done
fi
