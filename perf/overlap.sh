#!/usr/bin/env bash
# Runs perf/overlap with the scheduler off (TANDEM_DEFER_THRESHOLD=off) and on (the
# default), alternately, and reports whether intra-node copies hide behind inter-node
# transfers.  See perf/README.md.
#
# Usage: perf/overlap.sh [options] [-- options for perf/overlap]
#   -b BUILD   build folder (default: build at the top of the tree)
#   -o DIR     results folder (default: perf/results/overlap-<date>_<time>)
#   -n ROUNDS  rounds, each running both settings (default 3)
#   -p PES     PEs, half on each of 2 virtual nodes (default 4: 1 intra and 2 inter targets)
#   -S SHAPE   "RATE [DELAY]" for tc on every node's link (default "10gbit"), each virtual
#              node in a network namespace of its own (test/netns/netns.sh, needs root);
#              "loopback" runs without namespaces, over the host's loopback
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build="$top/build"
out=""
rounds=3
pes=4
shape="10gbit"
while getopts "b:o:n:p:S:h" opt; do
  case "$opt" in
    b) build=$(cd "$OPTARG" && pwd) ;;
    o) out=$OPTARG ;;
    n) rounds=$OPTARG ;;
    p) pes=$OPTARG ;;
    S) shape=$OPTARG ;;
    h) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ -x "$build/perf/overlap" ] || { echo "overlap.sh: build perf/overlap first (make -C $build perf)" >&2; exit 1; }
out=${out:-"$here/results/overlap-$(date +%Y%m%d-%H%M)"}
mkdir -p "$out"

launch=("$build/tools/oshrun/oshrun" --nodes 2 -n "$pes")
if [ "$shape" != loopback ]; then
  [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null || { echo "overlap.sh: -S needs root and iproute2" >&2; exit 1; }
  netns_sh="$top/test/netns/netns.sh"
  export TANDEM_NETNS_TAG=$(($$ % 200 + 20)) TANDEM_NETNS_PES_PER_NODE=$((pes / 2))
  export FI_TCP_IFACE=tdm0 FI_SOCKETS_IFACE=tdm0
  read -r -a shape_args <<<"$shape"
  trap 'bash "$netns_sh" down' EXIT
  bash "$netns_sh" up 2 "${shape_args[@]}"
  launch+=(-x TANDEM_NETNS_TAG -x TANDEM_NETNS_PES_PER_NODE bash "$netns_sh" pe)
fi
{
  echo "date: $(date -Is)"
  echo "pes: $pes on 2 virtual nodes; network: $shape; provider: ${TANDEM_OFI_PROVIDER:-default}"
  echo "options: $*"
  uname -a
} >"$out/env.txt"

for ((r = 1; r <= rounds; r++)); do
  for setting in off on; do
    echo "overlap.sh: round $r/$rounds, scheduler $setting" >&2
    threshold=off
    [ "$setting" = on ] && threshold=${TANDEM_DEFER_THRESHOLD_ON:-8K}
    TANDEM_DEFER_THRESHOLD=$threshold timeout 900 "${launch[@]}" "$build/perf/overlap" "$@" \
      >"$out/round$r-$setting.csv" 2>"$out/round$r-$setting.err"
  done
done

# The report: per size and setting, the median over the rounds of each series; then Mix
# against max(Intra, Inter) (1.0: the copies hid entirely) and against Intra + Inter (1.0:
# nothing overlapped), and Mix+work against Mix.
awk -F, '
  FNR == 1 { setting = FILENAME; sub(/.*-/, "", setting); sub(/\.csv$/, "", setting) }
  /^#/ || $3 !~ /_us$/ { next }
  { m = $3; sub(/^overlap_/, "", m); sub(/_us$/, "", m)
    k = setting SUBSEP $1 SUBSEP m; v[k, ++n[k]] = $4; sizes[$1] = 1 }
  function median(k,   i, j, t, c, a) {
    c = n[k]; if (c == 0) return -1
    for (i = 1; i <= c; i++) a[i] = v[k, i]
    for (i = 2; i <= c; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
  }
  END {
    print "# Overlap of intra-node copies with inter-node transfers (perf/overlap.sh)\n"
    print "Epoch times in us, median over the rounds of each round'"'"'s best; off: TANDEM_DEFER_THRESHOLD=off, on: the default."
    print "mix/max = Mix / max(Intra, Inter) (1.0: the copies hid behind the network); mix/sum = Mix / (Intra + Inter)"
    print "(1.0: nothing overlapped); work/mix = Mix+work / Mix (work lasts half of Inter).\n"
    print "| Size | setting | Intra | Inter | Inter+work | Mix | Mix+work | mix/max | mix/sum | work/mix |"
    print "|---|---|---|---|---|---|---|---|---|---|"
    ns = 0; for (s in sizes) list[++ns] = s + 0
    for (i = 2; i <= ns; i++) { t = list[i]; for (j = i - 1; j >= 1 && list[j] > t; j--) list[j + 1] = list[j]; list[j + 1] = t }
    for (i = 1; i <= ns; i++)
      for (si = 1; si <= 2; si++) {
        st = si == 1 ? "off" : "on"; s = list[i]
        a = median(st SUBSEP s SUBSEP "intra"); b = median(st SUBSEP s SUBSEP "inter")
        c = median(st SUBSEP s SUBSEP "inter_work"); d = median(st SUBSEP s SUBSEP "mix")
        e = median(st SUBSEP s SUBSEP "mix_work")
        if (a < 0) continue
        printf "| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f |\n", s, st, a, b, c, d, e,
               d / (a > b ? a : b), d / (a + b), e / d
      }
  }' "$out"/round*-off.csv "$out"/round*-on.csv >"$out/report.md"
cat "$out/report.md"
echo "results: $out" >&2
