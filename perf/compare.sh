#!/usr/bin/env bash
# Runs one benchmark on 2 virtual nodes with two settings of an environment variable,
# alternately, for some rounds, and reports per size and metric the median over the rounds
# of each setting's best, the ratio B / A, and a plot per metric.  perf/overlap.sh uses it.
# See perf/README.md.
#
# Usage: perf/compare.sh -e VAR=A,B [options] PROGRAM [-- options for PROGRAM]
#   -e VAR=A,B the variable and its two settings, e.g. TANDEM_AGGREGATE=off,on; a setting of
#              "-" leaves VAR unset (e.g. TANDEM_OFI_REQUIRE=-,mr_local; LD_LIBRARY_PATH=-,DIR
#              runs B on the libtandem.so.0 in DIR, another build's)
#   -b BUILD   build folder (default: build at the top of the tree)
#   -o DIR     results folder (default: perf/results/PROGRAM-<date>-<time>)
#   -n ROUNDS  rounds, each running both settings (default 3)
#   -p PES     PEs, half on each of the 2 virtual nodes (default 4)
#   -S SHAPE   "RATE [DELAY]" for tc on every node's link (default "10gbit"), each virtual
#              node in a network namespace of its own (test/netns/netns.sh, needs root);
#              "loopback" runs without namespaces, over the host's loopback
#   -R         report only: rebuild report.md and the plots of the results folder -o DIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# A setting as it names the files of its runs: a path (LD_LIBRARY_PATH=-,/tmp/old) without
# its slashes.
label() { printf '%s' "${1//\//_}"; }
top=$(cd "$here/.." && pwd)
build="$top/build"
out=""
rounds=3
pes=4
shape="10gbit"
setting=""
report_only=0
while getopts "e:b:o:n:p:S:Rh" opt; do
  case "$opt" in
    e) setting=$OPTARG ;;
    b) build=$(cd "$OPTARG" && pwd) ;;
    o) out=$OPTARG ;;
    n) rounds=$OPTARG ;;
    p) pes=$OPTARG ;;
    S) shape=$OPTARG ;;
    R) report_only=1 ;;
    h) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
program=${1:?"compare.sh: name the program (perf/PROGRAM); -h for help"}
shift
[ "${1:-}" != "--" ] || shift
var=${setting%%=*}
values=${setting#*=}
a=${values%%,*}
b=${values#*,}
[ -n "$var" ] && [ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$values" ] ||
  { echo "compare.sh: -e VAR=A,B is required (two settings)" >&2; exit 2; }
out=${out:-"$here/results/$program-$(date +%Y%m%d-%H%M)"}
mkdir -p "$out"

if [ "$report_only" = 0 ]; then
  [ -x "$build/perf/$program" ] || { echo "compare.sh: build perf/$program first (make -C $build perf)" >&2; exit 1; }
  launch=("$build/tools/oshrun/oshrun" --nodes 2 -n "$pes")
  if [ "$shape" != loopback ]; then
    [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null || { echo "compare.sh: -S needs root and iproute2" >&2; exit 1; }
    netns_sh="$top/test/netns/netns.sh"
    export TANDEM_TEST_NETNS_TAG=$(($$ % 200 + 20)) TANDEM_TEST_NETNS_PES_PER_NODE=$((pes / 2))
    read -r -a shape_args <<<"$shape"
    trap 'bash "$netns_sh" down' EXIT
    bash "$netns_sh" up 2 "${shape_args[@]}"
    launch+=(-x TANDEM_TEST_NETNS_TAG -x TANDEM_TEST_NETNS_PES_PER_NODE bash "$netns_sh" pe)
  fi
  {
    echo "date: $(date -Is)"
    echo "program: $program $*"
    echo "settings: $var=$a (A) and $var=$b (B), alternately, $rounds rounds"
    echo "pes: $pes on 2 virtual nodes; network: $shape; provider: ${TANDEM_OFI_PROVIDER:-default}"
    env | grep -E '^(TANDEM|SHMEM|PERF)_' | sort || true
    uname -a
  } >"$out/env.txt"
  for ((r = 1; r <= rounds; r++)); do
    for value in "$a" "$b"; do
      echo "compare.sh: round $r/$rounds, $var=$value" >&2
      if [ "$value" = - ]; then set_var=(-u "$var"); else set_var=("$var=$value"); fi
      env "${set_var[@]}" timeout 900 "${launch[@]}" "$build/perf/$program" "$@" \
        >"$out/round$r-$(label "$value").csv" 2>"$out/round$r-$(label "$value").err"
    done
  done
fi

# The report: per size and metric the median over the rounds of each setting, B / A, plots.
bash "$here/report_ab.sh" "$out" "$(label "$a")" "$(label "$b")" "$program with $var=$a (A) and $var=$b (B)" "$var="
cat "$out/report.md"
echo "results: $out" >&2
