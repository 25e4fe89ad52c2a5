#!/usr/bin/env bash
# Tandem's nonblocking collectives (perf/nbc) against Open MPI's (perf/nbc_mpi), measured
# alike and in alternating runs: each round runs, on one node and then across nodes, Tandem
# then MPI (Tandem on 2 virtual nodes, PEs split between them, against MPI over
# `--mca btl tcp,self`; on one node Tandem's shared memory against MPI's).  Across nodes
# with 2 PEs the round also runs perf/ref_tcp_nbc, two processes that move the bytes over
# TCP themselves and are measured the same way: the most that a transport driven by the
# CPUs can do over this machine's TCP.  The summary gives per collective and size the
# median over the rounds of Full over the blocking routine (each round's own ratio), Post
# (us), Overlap (%), Late (us: a PE's wait for a peer that computes 1 ms between its post
# and its wait) and Late asleep (the same with the peer asleep instead), each the worst
# PE's.  See perf/README.md ("Nonblocking collectives").
#
# Usage: perf/nbc.sh [-n ROUNDS] [-p PES] [-N NODES] [-m MIN] [-M MAX] RESULTS
#        (defaults 3 2 2 8 4M; NODES: the virtual nodes of the across-nodes placement)
#        perf/nbc.sh -s RESULTS        (only the summary, from the CSV files there)
#   environment: BUILD (default: build beside perf/), MPIRUN (default: mpirun)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../build}
mpirun=${MPIRUN:-mpirun}
rounds=3 pes=2 nodes=2 min=8 max=4M summary_only=0
while getopts "n:p:N:m:M:s" opt; do
  case "$opt" in
    n) rounds=$OPTARG ;;
    p) pes=$OPTARG ;;
    N) nodes=$OPTARG ;;
    m) min=$OPTARG ;;
    M) max=$OPTARG ;;
    s) summary_only=1 ;;
    *) sed -n '13,16p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '13,16p' "$0" >&2; exit 2; }
out=$1
mkdir -p "$out"

if [ "$summary_only" = 0 ]; then
  [ -x "$build/perf/nbc" ] && [ -x "$build/perf/nbc_mpi" ] ||
    { echo "nbc.sh: build perf/nbc and perf/nbc_mpi first (make -C $build perf)" >&2; exit 1; }
  mpi_options=(); [ "$(id -u)" = 0 ] && mpi_options=(--allow-run-as-root)
  [ "$pes" -gt "$(nproc)" ] && mpi_options+=(--oversubscribe)
  options=(-m "$min" -M "$max" -r 3 -x 0.2)
  { date -u; uname -r; nproc; git -C "$here/.." rev-parse --short HEAD 2>/dev/null || true
    echo "virtual nodes: $nodes"; } >"$out/env.txt"
  for r in $(seq 1 "$rounds"); do
    for placement in node nodes; do
      if [ "$placement" = node ]; then tandem=(-n "$pes"); mpi=(-np "$pes"); else
        tandem=(-n "$pes" --nodes "$nodes"); mpi=(-np "$pes" --mca btl tcp,self); fi
      echo "nbc.sh: round $r/$rounds, $placement" >&2
      timeout 900 "$build/tools/oshrun/oshrun" "${tandem[@]}" "$build/perf/nbc" "${options[@]}" \
        >"$out/round$r-tandem-$placement.csv" 2>"$out/round$r-tandem-$placement.err" ||
        echo "nbc.sh: Tandem's run failed, see $out/round$r-tandem-$placement.err" >&2
      timeout 900 "$mpirun" "${mpi_options[@]}" "${mpi[@]}" "$build/perf/nbc_mpi" "${options[@]}" \
        >"$out/round$r-mpi-$placement.csv" 2>"$out/round$r-mpi-$placement.err" ||
        echo "nbc.sh: MPI's run failed, see $out/round$r-mpi-$placement.err" >&2
      if [ "$placement" = nodes ] && [ "$pes" = 2 ]; then
        timeout 900 "$build/perf/ref_tcp_nbc" "${options[@]}" \
          >"$out/round$r-tcp-$placement.csv" 2>"$out/round$r-tcp-$placement.err" ||
          echo "nbc.sh: the TCP reference failed, see $out/round$r-tcp-$placement.err" >&2
      fi
    done
  done
fi

# The summary: per placement, collective and size, the medians over the rounds (rounds.awk
# reads the roundN-SETTING.csv files; the sizes come in the order the benchmarks print them).
for placement in node nodes; do
  ls "$out"/round*-tandem-$placement.csv >/dev/null 2>&1 || continue
  echo
  [ "$placement" = node ] && echo "## One node: Tandem's shared memory, MPI's" ||
    echo "## Across nodes: Tandem on $(sed -n 's/^virtual nodes: //p' "$out/env.txt" 2>/dev/null | grep . || echo 2) virtual nodes, MPI over --mca btl tcp,self"
  tcp=(); ls "$out"/round*-tcp-$placement.csv >/dev/null 2>&1 && tcp=("$out"/round*-tcp-$placement.csv)
  awk -F, -v libs="tandem-$placement mpi-$placement tcp-$placement" -f "$here/rounds.awk" -f <(cat <<'AWK'
    # One library's five cells for collective c at size z: Full / blocking (the median of
    # each round's own ratio: a round's noise moves both of its figures), Post, Overlap, Late,
    # Late with the late PE asleep.
    function has(k) { return n[k] > 0 }
    function ratio(f, b,   i, c, x) {
      c = 0; for (i = 1; i <= n[f] && i <= n[b]; i++) if (v[b, i] > 0) x[++c] = v[f, i] / v[b, i]
      return c == 0 ? -1 : middle(x, c) }
    function cells(lib, c, z,   f, b, p, o, l, a) {
      f = lib SUBSEP z SUBSEP c "_full_us"; b = lib SUBSEP z SUBSEP c "_blocking_us"
      p = lib SUBSEP z SUBSEP c "_post_us"; o = lib SUBSEP z SUBSEP c "_overlap_pct"
      l = lib SUBSEP z SUBSEP c "_late_us"; a = lib SUBSEP z SUBSEP c "_late_asleep_us"
      if (has(f) && has(b) && ratio(f, b) > 0) printf " %.2f |", ratio(f, b); else printf " |"
      if (has(p)) printf " %.1f |", median(p); else printf " |"
      if (has(o)) printf " %.0f |", median(o); else printf " |"
      if (has(l)) printf " %.0f |", median(l); else printf " |"
      if (has(a)) printf " %.0f |", median(a); else printf " |" }
    END {
      split(libs, lib, " ")
      for (i = 1; i <= nr; i++) { split(rows[i], r, SUBSEP); if (!(r[1] in listed)) { listed[r[1]] = 1; sz[++ns] = r[1] } }
      split("broadcast fcollect alltoall sum_reduce", order, " ")
      tcp = has(lib[3] SUBSEP sz[1] SUBSEP "broadcast_full_us") || has(lib[3] SUBSEP sz[1] SUBSEP "fcollect_full_us")
      for (o = 1; o <= 4; o++) { c = order[o]; if (!has(lib[1] SUBSEP sz[1] SUBSEP c "_full_us")) continue
        printf "\n### %s\n\n| size |", c
        split("Tandem MPI TCP", who, " ")
        for (w = 1; w <= (tcp ? 3 : 2); w++)
          printf " %s Full/blocking | %s Post us | %s Overlap %% | %s Late us | %s Late asleep us |", who[w], who[w], who[w], who[w], who[w]
        printf "\n|---|"; for (w = 1; w <= (tcp ? 3 : 2); w++) printf "---|---|---|---|---|"; print ""
        for (i = 1; i <= ns; i++) { printf "| %s |", sz[i]; cells(lib[1], c, sz[i]); cells(lib[2], c, sz[i]); if (tcp) cells(lib[3], c, sz[i]); print "" } } }
AWK
) "$out"/round*-tandem-$placement.csv "$out"/round*-mpi-$placement.csv "${tcp[@]}"
done | tee "$out/summary.md"
