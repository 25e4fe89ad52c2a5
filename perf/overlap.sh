#!/usr/bin/env bash
# Runs perf/overlap with the scheduler off (TANDEM_DEFER_THRESHOLD=off) and on (8K, the
# default), alternately (perf/compare.sh), and reports whether intra-node copies hide behind
# inter-node transfers.  See perf/README.md.
#
# Usage: perf/overlap.sh [options] [-- options for perf/overlap]
#   -e VAR=A,B two other settings to compare (default TANDEM_DEFER_THRESHOLD=off,8K), e.g.
#              TANDEM_PROXY_COPIES=off,on
#   -b BUILD, -o DIR, -n ROUNDS (default 3), -p PES (default 4: 1 intra and 2 inter
#              targets; 8: 3 and 3), -S SHAPE (default "10gbit"; "loopback"), -R (report
#              only, on the results folder -o DIR): as compare.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
setting="TANDEM_DEFER_THRESHOLD=off,8K"
args=()
out=""
while getopts "e:b:o:n:p:S:Rh" opt; do
  case "$opt" in
    e) setting=$OPTARG ;;
    o) out=$OPTARG ;;
    b | n | p | S) args+=("-$opt" "$OPTARG") ;;
    R) args+=(-R) ;;
    h) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
out=${out:-"$here/results/overlap-$(date +%Y%m%d-%H%M)"}
args+=(-o "$out")
"$here/compare.sh" -e "$setting" "${args[@]}" overlap "$@" >/dev/null
values=${setting#*=}
a=${values%%,*}
b=${values#*,}

# The report, from compare.sh's medians (per metric and size, the median over the rounds of
# each setting): Mix against max(Intra, Inter) (1.0: the copies hid entirely) and against
# Intra + Inter (1.0: nothing overlapped), and Mix+work against Mix.
awk -v sa="$a" -v sb="$b" -v var="${setting%%=*}" '
  $1 ~ /^overlap_.*_us$/ { m = $1; sub(/^overlap_/, "", m); sub(/_us$/, "", m)
    t[sa, $2, m] = $3; t[sb, $2, m] = $4; if (!($2 in seen)) { seen[$2] = 1; list[++ns] = $2 + 0 } }
  END {
    print "# Overlap of intra-node copies with inter-node transfers (perf/overlap.sh)\n"
    printf "Epoch times in us, median over the rounds of each round'"'"'s best; settings: %s=%s and %s=%s.\n", var, sa, var, sb
    print "mix/max = Mix / max(Intra, Inter) (1.0: the copies hid behind the network); mix/sum = Mix / (Intra + Inter)"
    print "(1.0: nothing overlapped); work/mix = Mix+work / Mix (work lasts half of Inter).\n"
    print "| Size | setting | Intra | Inter | Inter+work | Mix | Mix+work | mix/max | mix/sum | work/mix |"
    print "|---|---|---|---|---|---|---|---|---|---|"
    for (i = 2; i <= ns; i++) { x = list[i]; for (j = i - 1; j >= 1 && list[j] > x; j--) list[j + 1] = list[j]; list[j + 1] = x }
    for (i = 1; i <= ns; i++)
      for (si = 1; si <= 2; si++) {
        st = si == 1 ? sa : sb; s = list[i]
        a = t[st, s, "intra"]; b = t[st, s, "inter"]; c = t[st, s, "inter_work"]; d = t[st, s, "mix"]; e = t[st, s, "mix_work"]
        if (a <= 0 || b <= 0 || d <= 0) continue
        printf "| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f |\n", s, st, a, b, c, d, e,
               d / (a > b ? a : b), d / (a + b), e / d
      }
  }' "$out/medians.dat" >"$out/overlap.md"

# The paper's figure, once per setting: the five series against the size.
if command -v gnuplot >/dev/null 2>&1 && gnuplot -e "set terminal" 2>&1 | grep -qw png; then
  for column in 3 4; do
    st=$([ $column = 3 ] && echo "$a" || echo "$b")
    for m in intra inter inter_work mix mix_work; do
      awk -v m="overlap_${m}_us" -v c=$column '$1 == m { print $2, $c }' "$out/medians.dat" | sort -n >"$out/$m.dat"
    done
    gnuplot <<GNUPLOT
set terminal png size 900,560 noenhanced
set output '$out/series-$st.png'
set title 'overlap, ${setting%%=*}=$st: epoch time of each series (median of the rounds)'
set logscale xy
set format y '%g'
set xlabel 'bytes per target'
set ylabel 'microseconds'
set key top left box opaque
set grid
plot '$out/intra.dat' with linespoints title 'Intra', '$out/inter.dat' with linespoints title 'Inter', \
     '$out/inter_work.dat' with linespoints title 'Inter+work', '$out/mix.dat' with linespoints title 'Mix', \
     '$out/mix_work.dat' with linespoints title 'Mix+work'
GNUPLOT
    rm -f "$out"/{intra,inter,inter_work,mix,mix_work}.dat
    echo "![series, $st](series-$st.png)" >>"$out/overlap.md"
  done
fi
cat "$out/overlap.md"
echo "results: $out" >&2
