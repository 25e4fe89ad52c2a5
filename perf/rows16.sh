#!/usr/bin/env bash
# The 16-PE figures of the network path in one go, for a machine with 16 cores: collectives
# against Open MPI's OSHMEM (2 nodes of 8, 4 of 4, 16 of 1, one node of 16), notify_apps,
# barriers, window epochs and bfs under each strategy, busy_target with every core busy,
# fetch_add, get_latency and gap_latency across nodes.  Each run writes RESULTS/<name>.csv
# and .err; the order puts the figures that have no other source first, and a run that would
# end past DEADLINE seconds after the start is skipped.  See perf/README.md ("The 16-PE
# figures in one go").
#
# Usage: perf/rows16.sh RESULTS          (runs everything, then writes RESULTS/summary.md)
#        perf/rows16.sh -s RESULTS       (only the summary, from the CSV files there)
#   environment: BUILD (default: build beside perf/), PEER (a folder of the perf programs
#   built with Open MPI's oshcc as NAME.peer; none: Tandem only), PEER_LAUNCH (the command
#   that starts them; default /usr/bin/oshrun), NP (16), ROUNDS (2), DEADLINE (480)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# ratios A B: "size metric=ratio; " for every figure (best of the repetitions) of CSV file A
# that B has too, the ratio being B's over A's.
ratios() {
  awk -F, '!/^#/ && !/median/ { if (FNR == NR) T[$3, $1] = $4; else if (($3, $1) in T) printf "%s %s=%.2f; ", $1, $3, $4 / T[$3, $1] }' "$1" "$2" 2>/dev/null
}

# The summary: ratios against the peer (its time / Tandem's, above 1 = Tandem faster) per
# placement, size and routine, over the rounds; Tandem's own figures; epochs against the
# better of eager and lazy.
summary() {
  local d=$1
  {
    echo "# 16-PE figures ($(head -3 "$d/env.txt" | tr '\n' ' '))"
    echo
    echo "## Collectives: peer / Tandem (range over rounds; above 1 = Tandem faster)"
    echo; echo "per8: 2 nodes of 8 PEs; per4: 4 nodes of 4; per1: 16 nodes of 1; one: one node of 16."
    for pl in per8 per4 per1 one; do
      ls "$d"/coll-$pl*-peer.csv >/dev/null 2>&1 || continue
      echo; echo "### $pl"; echo
      for t in "$d"/coll-$pl*-tandem.csv; do
        p=${t%-tandem.csv}-peer.csv; [ -s "$p" ] && echo "$t $p"
      done | awk -f <(cat <<'AWK'
        { t = $1; p = $2
          while ((getline l < t) > 0) if (l !~ /^#/ && l !~ /median/) { split(l, a, ","); T[a[3], a[1]] = a[4] }
          while ((getline l < p) > 0) if (l !~ /^#/ && l !~ /median/) { split(l, a, ","); if ((a[3], a[1]) in T) {
            r = a[4] / T[a[3], a[1]]; k = a[3] SUBSEP a[1]
            if (!(k in lo) || r < lo[k]) lo[k] = r; if (!(k in hi) || r > hi[k]) hi[k] = r; m[a[3]] = 1; s[a[1] + 0] = 1 } }
          close(t); close(p); delete T }
        END { n = 0; for (z in s) sz[++n] = z + 0
          for (i = 2; i <= n; i++) for (j = i; j > 1 && sz[j] < sz[j - 1]; j--) { x = sz[j]; sz[j] = sz[j - 1]; sz[j - 1] = x }
          printf "| metric |"; for (i = 1; i <= n; i++) printf " %d |", sz[i]; print ""
          printf "|---|"; for (i = 1; i <= n; i++) printf "---|"; print ""
          for (k in m) { printf "| %s |", k
            for (i = 1; i <= n; i++) { q = k SUBSEP sz[i]
              if (q in lo) printf(lo[q] == hi[q] ? " %.2f |" : " %.2f-%.2f |", lo[q], hi[q]); else printf " |" }
            print "" } }
AWK
)
    done
    echo; echo "## Tandem alone (best of the repetitions)"; echo
    # busy_target's samples (-s 1): the first operation of each kind, then the worst of the rest.
    for f in busy-1 busy-2 busy-3 busy-bound-1 busy-bound-2; do
      [ -s "$d/$f.err" ] || continue
      printf -- "- %s samples (first / worst of the rest, us): %s\n" "$f" "$(awk '/^# samples/ { w = 0
          for (i = 5; i <= NF; i++) if ($i + 0 > w) w = $i + 0
          printf "%s %s/%s; ", $3, $4, w }' "$d/$f.err")"
    done
    for f in apps-n1 apps-n1-np2 apps-n1-np4 apps-n1-np8 notify-n1 apps-n2 barrier-n1 barrier-n2 barrier-n4 putlat-n2 bfs-adaptive bfs-eager bfs-lazy busy-1 busy-2 busy-3 busy-bound-1 busy-bound-2; do
      [ -s "$d/$f.csv" ] || continue
      printf -- "- %s: %s\n" "$f" "$(awk -F, '!/^#/ && !/median/ { printf "%s %s=%.4g; ", $1, $3, $4 }' "$d/$f.csv")"
    done
    for k in fetch_add get_latency gap_latency; do
      [ -s "$d/$k-tandem.csv" ] || continue
      printf -- "- %s, peer / Tandem: %s\n" "$k" "$(ratios "$d/$k-tandem.csv" "$d/$k-peer.csv")"
    done
    [ -s "$d/coll-per1-off.csv" ] && [ -s "$d/coll-per1-r1-tandem.csv" ] &&
      printf -- "- collectives on %s nodes of 1, without the progress thread / the default: %s\n" "${NP:-16}" "$(ratios "$d/coll-per1-r1-tandem.csv" "$d/coll-per1-off.csv")"
    [ -s "$d/gap_latency-off.csv" ] &&
      printf -- "- gap_latency, without the progress thread / the default: %s\n" "$(ratios "$d/gap_latency-tandem.csv" "$d/gap_latency-off.csv")"
    if [ -s "$d/epochs-adaptive.csv" ] && [ -s "$d/epochs-eager.csv" ] && [ -s "$d/epochs-lazy.csv" ]; then
      echo; echo "## Epochs: adaptive / the better of eager and lazy"; echo
      awk -F, '/^#/ || /median/ { next } { v[FILENAME, $3, $1] = $4; k[$3 SUBSEP $1] = 1 }
        END { n = 0; w = 0
          for (x in k) { split(x, a, SUBSEP); A = v[ARGV[1], a[1], a[2]]; E = v[ARGV[2], a[1], a[2]]; L = v[ARGV[3], a[1], a[2]]
            if (A == "" || E == "" || L == "") continue
            hi = a[1] ~ /pct$/; b = hi ? (E > L ? E : L) : (E < L ? E : L); r = hi ? (A > 0 ? b / A : 99) : A / b; n++
            if (r <= 1.10) w++; else printf "- %s %s: %.4g against %.4g (%.2f)\n", a[1], a[2], A, b, r }
          printf "\n%d of %d series within 10%%\n", w, n }' "$d/epochs-adaptive.csv" "$d/epochs-eager.csv" "$d/epochs-lazy.csv"
    fi
  } >"$d/summary.md"
}
if [ "${1:-}" = -s ]; then summary "${2:?"rows16.sh -s: name a results folder"}"; exit; fi
out=${1:?"rows16.sh: name a results folder"}
B=${BUILD:-$here/../build}; O=$B/tools/oshrun/oshrun; P=$B/perf
NP=${NP:-16}; ROUNDS=${ROUNDS:-2}; DEADLINE=${DEADLINE:-480}; PEER=${PEER:-}
launch=${PEER_LAUNCH:-/usr/bin/oshrun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
# t NAME LIMIT COMMAND...: one run, unless it could end past the deadline.
t() {
  local name=$1 lim=$2; shift 2
  [ $(( $(date +%s) - T0 + lim )) -le "$DEADLINE" ] || { el "skip $name"; return 1; }
  el "$name"
  timeout "$lim" "$@" >"$out/$name.csv" 2>"$out/$name.err"
  local rc=$?; echo "rc=$rc" >>"$out/$name.err"; [ $rc = 0 ] || el "  rc=$rc"
  return $rc
}
{ nproc; uname -a; git -C "$here" rev-parse --short HEAD 2>/dev/null; "$launch" --version 2>&1 | head -1; } >"$out/env.txt" 2>&1
# Open MPI's PEs talk TCP to each other across "nodes", as Tandem's do between virtual nodes.
BASE="--oversubscribe --bind-to none --mca osc ^rdma"
TCP="-x UCX_TLS=tcp,self --mca btl tcp,self --mca pml ob1 -x PERF_SOLO_POLL"
peer_ok=""
if [ -n "$PEER" ] && t probe-peer 40 $launch $BASE -n "$NP" "$PEER/collectives.peer" -A -m 8 -M 8 -r 1 -i 5 &&
   grep -q barrier "$out/probe-peer.csv"; then peer_ok=1; fi
el "peer: ${peer_ok:-none}"
export PERF_SOLO_POLL=1

# Notified access and barriers: Tandem only.
t apps-n2 60 "$O" --nodes 2 -n "$NP" "$P/notify_apps" -r 5
t apps-n1 60 "$O" -n "$NP" "$P/notify_apps" -r 5
t apps-n1-np2 30 "$O" -n 2 "$P/notify_apps" -r 5
for n in 4 8; do t apps-n1-np$n 30 "$O" -n $n "$P/notify_apps" -r 5; done
t notify-n1 30 "$O" -n 2 "$P/notify" -m 8 -M 8 -r 5
for n in 1 2 4; do t barrier-n$n 30 "$O" --nodes $n -n "$NP" "$P/barrier" -r 5; done
t putlat-n2 30 "$O" --nodes 2 -n 2 "$P/put_latency" -M 64 -r 3 -x 0.1

# Collectives: active-set routines (every OpenSHMEM has them), Tandem against the peer.
CA="-A -m 8 -M 64K -r 3 -x 0.3"
for r in $(seq "$ROUNDS"); do
  for per in $((NP / 2)) 1; do
    t coll-per$per-r$r-tandem 60 "$O" --nodes $((NP / per)) -n "$NP" "$P/collectives" $CA
    [ -z "$peer_ok" ] || t coll-per$per-r$r-peer 60 $launch $BASE $TCP -n "$NP" "$PEER/collectives.peer" $CA
  done
  t coll-one-r$r-tandem 30 "$O" -n "$NP" "$P/collectives" -A -m 8 -M 4K -r 5
  [ -z "$peer_ok" ] || t coll-one-r$r-peer 30 $launch $BASE -n "$NP" "$PEER/collectives.peer" -A -m 8 -M 4K -r 5
  if [ "$r" = 1 ]; then
    # Epochs under each strategy, in a random order, and bfs.
    for s in $(shuf -e adaptive eager lazy); do
      TANDEM_EPOCH_STRATEGY=$s t epochs-$s 60 "$O" --nodes 2 -n "$NP" "$P/epochs" -N 4096 -r 3 -M 4K
    done
    for s in $(shuf -e adaptive eager lazy); do
      TANDEM_EPOCH_STRATEGY=$s t bfs-$s 40 "$O" --nodes 2 -n "$NP" "$P/bfs" -S 14
    done
    # A computing target while every core is busy (one spinner per other core), defaults.
    spin=(); for ((c = 2; c < $(nproc); c++)); do (while :; do :; done) & spin+=($!); done
    for k in 1 2 3; do PERF_SOLO_POLL=0 t busy-$k 30 "$O" --nodes 2 -n 2 "$P/busy_target" -c 1000 -s 1; done
    # The same with each PE bound to a core before it starts, as mpirun and srun bind.
    for k in 1 2; do
      PERF_SOLO_POLL=0 t busy-bound-$k 30 "$O" --nodes 2 -n 2 sh -c 'exec taskset -c "$PMIX_RANK" "$@"' sh \
        "$P/busy_target" -c 1000 -s 1
    done
    kill "${spin[@]}" 2>/dev/null; wait "${spin[@]}" 2>/dev/null
    # Atomics and gets across nodes, 2 PEs; after a computation also without the progress thread.
    for k in fetch_add get_latency gap_latency; do
      t $k-tandem 40 "$O" --nodes 2 -n 2 "$P/$k" -M 1M -r 3 -x 0.1
      [ -z "$peer_ok" ] || t $k-peer 40 $launch $BASE $TCP -n 2 "$PEER/$k.peer" -M 1M -r 3 -x 0.1
    done
    TANDEM_PROGRESS_THREAD=off t gap_latency-off 40 "$O" --nodes 2 -n 2 "$P/gap_latency" -r 3 -x 0.1
    TANDEM_PROGRESS_THREAD=off t coll-per1-off 60 "$O" --nodes "$NP" -n "$NP" "$P/collectives" $CA
  fi
done
per=$((NP / 4))
t coll-per$per-tandem 60 "$O" --nodes 4 -n "$NP" "$P/collectives" $CA
[ -z "$peer_ok" ] || t coll-per$per-peer 60 $launch $BASE $TCP -n "$NP" "$PEER/collectives.peer" $CA
summary "$out"
el done
