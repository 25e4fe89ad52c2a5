# Shared by perf/report_ab.sh, perf/strategies.sh and perf/nbc.sh (awk -F, -f perf/rounds.awk -f REPORT):
# reads DIR/roundN-SETTING.csv files (CSV lines size,iterations,metric,value) and keeps, per
# setting, size and metric, each round's best (not the _median lines); rows[1..nr] are the
# (size, metric) pairs in the order first seen, median(SETTING SUBSEP row) the median of
# a setting's rounds (-1 when it has none), and middle(x, c) the median of any x[1..c].
FNR == 1 { s = FILENAME; sub(/.*\/round[0-9]+-/, "", s); sub(/\.csv$/, "", s) }
/^#/ || $3 ~ /_median$/ || NF < 4 { next }
{ k = s SUBSEP $1 SUBSEP $3; v[k, ++n[k]] = $4; if (!(($1, $3) in seen)) { seen[$1, $3] = 1; rows[++nr] = $1 SUBSEP $3 } }
function median(k,   i, c, x) {
  c = n[k]; if (c == 0) return -1
  for (i = 1; i <= c; i++) x[i] = v[k, i]
  return middle(x, c)
}
# The median of x[1..c] (c > 0), which it sorts.
function middle(x, c,   i, j, t) {
  for (i = 2; i <= c; i++) { t = x[i]; for (j = i - 1; j >= 1 && x[j] > t; j--) x[j + 1] = x[j]; x[j + 1] = t }
  return c % 2 ? x[(c + 1) / 2] : (x[c / 2] + x[c / 2 + 1]) / 2
}
