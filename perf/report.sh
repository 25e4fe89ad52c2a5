#!/usr/bin/env bash
# Turns the CSV files of one perf/run.sh results folder into
#   all.csv     every line of every run: program,round,size,iterations,metric,value
#   best.csv    per metric and size, the best value over the rounds: size,metric,value
#   report.md   Tandem's figures against their references, with the project's targets
#   *.png       latency, bandwidth and non-blocking breakdown against message size
#               (gnuplot; plain-text plots *.txt when gnuplot has no PNG terminal)
# Usage: perf/report.sh RESULTS_DIR
set -euo pipefail

dir=${1:?usage: perf/report.sh RESULTS_DIR}
[ -d "$dir" ] || { echo "report: no folder $dir" >&2; exit 1; }
cd "$dir"

# ---------------------------------------------------------------- all.csv, best.csv
{
  echo "program,round,size,iterations,metric,value"
  for f in round*/*.csv; do
    [ -e "$f" ] || continue
    round=${f%%/*}
    round=${round#round}
    prog=$(basename "$f" .csv)
    awk -v prog="$prog" -v round="$round" -F, '!/^#/ && NF == 4 { print prog "," round "," $0 }' "$f"
  done
} >all.csv

# Best over rounds: highest for bandwidths (_MBps) and percentages (_pct), lowest otherwise.
awk -F, 'NR > 1 {
    key = $5 "," $3
    base = $5; sub(/_median$/, "", base)
    higher = (base ~ /_MBps$/ || base ~ /_pct$/)
    if (!(key in v) || (higher && $6 + 0 > v[key] + 0) || (!higher && $6 + 0 < v[key] + 0)) v[key] = $6
  }
  END { print "size,metric,value"; for (k in v) { split(k, p, ","); print p[2] "," p[1] "," v[k] } }' all.csv |
  (read -r header; echo "$header"; sort -t, -k2,2 -k1,1n) >best.csv

rounds=$(awk -F, 'NR > 1 { r[$2] = 1 } END { n = 0; for (k in r) ++n; print n }' all.csv)
# The inter-node set (run.sh -I) is recognised by its network references.
internode=0
grep -qE ',(tcp|ofi|ofi_dc)_half_rtt_us,' all.csv && internode=1

# ---------------------------------------------------------------- report.md
# The comparison tables pair each Tandem figure with its reference round by round (the two
# ran minutes apart at most), then take the median over the rounds; the per-size tables use
# best.csv.
awk -F, -v rounds="$rounds" -v internode="$internode" '
  FNR == 1 { file++; next }
  file == 1 { v[$2 "@" $1] = $3; next }                        # best.csv: size,metric,value
  { rv[$5 "@" $3 "@" $2] = $6; seen[$2] = 1 }                  # all.csv: per round
  function has(m, s) { return (m "@" s) in v }
  function get(m, s) { return v[m "@" s] + 0 }
  function us(x) { return sprintf("%.3f us", x) }
  function mbps(x) { return sprintf("%.0f MB/s", x) }
  function fmt(m, x) { return m ~ /_MBps/ ? mbps(x) : m ~ /_pct/ ? sprintf("%.0f %%", x) : us(x) }
  function num(m, x) { return m ~ /_MBps/ || m ~ /_pct/ ? sprintf("%.0f", x) : sprintf("%.3f", x) }
  function unit(m) { return m ~ /_MBps/ ? "MB/s" : m ~ /_pct/ ? "%" : "us" }
  function sizename(s) {
    if (s >= 1048576) return (s / 1048576) " MiB"
    if (s >= 1024) return (s / 1024) " KiB"
    return s " B"
  }
  function median(a, n,    i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  # Per-round values of metric m at size s into a[1..n], in round order; returns n.
  function per_round(m, s, a,    k, n) {
    n = 0
    for (k = 1; k <= rounds; k++) if ((m "@" s "@" k) in rv) a[++n] = rv[m "@" s "@" k] + 0
    return n
  }
  # Median over the rounds of metric m at size s.
  function rmed(m, s,    a, n) { n = per_round(m, s, a); return n ? median(a, n) : 0 }
  # "median (lowest-highest)" of a metric over the rounds.
  function summary(m, s,    a, b, n, i, lo, hi) {
    n = per_round(m, s, a)
    if (n == 0) return "(missing " m ")"
    lo = hi = a[1]
    for (i = 1; i <= n; i++) { b[i] = a[i]; if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
    if (n == 1) return fmt(m, a[1])
    return sprintf("%s (%s-%s) %s", num(m, median(b, n)), num(m, lo), num(m, hi), unit(m))
  }
  function verdict(x, op, limit) { return ((op == ">=" && x >= limit) || (op == "<=" && x <= limit) || (op == "<" && x < limit)) ? "PASS" : "FAIL" }
  # One row: Tandem metric t against reference metric r at size s; the ratio t/r is taken in
  # each round and its median checked with op (">=", "<=" or "" for none) against limit.
  function row(label, t, r, s, op, limit,    k, n, ratios, sorted, list, med) {
    n = 0; list = ""
    for (k = 1; k <= rounds; k++)
      if ((t "@" s "@" k) in rv && (r "@" s "@" k) in rv && rv[r "@" s "@" k] + 0 != 0) {
        ratios[++n] = rv[t "@" s "@" k] / rv[r "@" s "@" k]
        sorted[n] = ratios[n]
        list = list (n > 1 ? " " : "") sprintf("%.2f", ratios[n])
      }
    if (n == 0) {
      printf "| %s | %s | %s | | | %s | |\n", label, summary(t, s), r == "" ? "" : summary(r, s), op == "" ? "" : op " " limit "x"
      return
    }
    med = median(sorted, n)
    printf "| %s | %s | %s: %s | %.2fx | %s | %s | %s |\n", label, summary(t, s), r, summary(r, s), med, list,
           op == "" ? "" : op " " limit "x", op == "" ? "" : verdict(med, op, limit)
  }
  # An absolute bound: the median over rounds of metric t below limit microseconds.
  function absolute(label, t, s, limit, ref,    a, n, med) {
    n = per_round(t, s, a)
    if (n == 0) { printf "| %s | (missing %s) | | | | | |\n", label, t; return }
    med = median(a, n)
    printf "| %s | %s | %s | | | < %s us | %s |\n", label, summary(t, s), ref == "" ? "" : ref ": " summary(ref, s), limit, verdict(med, "<", limit)
  }
  # rv[best] = the better of rv[a] and rv[b] (the higher with `higher`, else the lower), or
  # whichever of them there is.
  function keep_better(best, a, b, higher) {
    if ((a in rv) && (b in rv)) rv[best] = (higher ? rv[a] + 0 > rv[b] + 0 : rv[a] + 0 < rv[b] + 0) ? rv[a] : rv[b]
    else if (a in rv) rv[best] = rv[a]
    else if (b in rv) rv[best] = rv[b]
  }
  # The better raw libfabric model in each round (ordered or delivery-complete), per size:
  # ofi_best_half_rtt_us and ofi_best_get_us (lower), ofi_best_bw_MBps (higher).
  function best_of_ofi(    k, s, at) {
    for (k = 1; k <= rounds; k++)
      for (s = 8; s <= 4 * 1048576; s *= 2) {
        at = "@" s "@" k
        keep_better("ofi_best_half_rtt_us" at, "ofi_half_rtt_us" at, "ofi_dc_half_rtt_us" at, 0)
        keep_better("ofi_best_get_us" at, "ofi_get_us" at, "ofi_dc_get_us" at, 0)
        keep_better("ofi_best_bw_MBps" at, "ofi_bw_MBps" at, "ofi_dc_bw_MBps" at, 1)
      }
  }
  # A per-size table: the medians over the rounds of the space-separated `metrics`, then the
  # ratio of metric t to metric r; a size appears when any of the metrics has it.
  # A section title, then the header row of a table (columns separated by "|") and its rule.
  function heading(title, header,    n, c, i, line) {
    print ""
    print "## " title
    print ""
    print "| " header " |"
    n = split(header, c, "|")
    line = "|"
    for (i = 1; i <= n; i++) line = line "---|"
    print line
  }
  function size_table(title, header, metrics, numfmt, t, r,    m, n, i, s, any, line) {
    heading(title, header)
    n = split(metrics, m, " ")
    for (s = 8; s <= 4 * 1048576; s *= 2) {
      any = 0
      for (i = 1; i <= n; i++) if (has(m[i], s)) any = 1
      if (!any) continue
      line = "| " sizename(s)
      for (i = 1; i <= n; i++) line = line " | " sprintf(numfmt, rmed(m[i], s))
      printf "%s | %.2fx |\n", line, rmed(r, s) ? rmed(t, s) / rmed(r, s) : 0
    }
  }
  function internode_report(    M) {
    M = 1048576
    best_of_ofi()
    print "# Tandem inter-node performance (2 PEs on 2 virtual nodes, through libfabric)"
    print ""
    printf "%d round(s). In each round every figure is the best of its repetitions; the tables\n", rounds
    print "show the median over the rounds (lowest-highest in brackets). Ratios are Tandem /"
    print "reference, taken round by round and listed per round; a target is judged on the median."
    print "Raw libfabric (ref_ofi_pingpong) is measured in two completion models, ordered writes"
    print "(ofi) and delivery-complete writes (ofi_dc); ofi_best is the better of the two in each round."
    print ""
    print "## Targets"
    print ""
    print "| Check | Tandem | Reference | Ratio | Per round | Target | Result |"
    print "|---|---|---|---|---|---|---|"
    row("Ping-pong 8 B, half round trip, vs raw TCP", "pingpong_half_rtt_us", "tcp_half_rtt_us", 8, "<=", 2.0)
    row("Ping-pong 8 B, half round trip, vs raw libfabric", "pingpong_half_rtt_us", "ofi_best_half_rtt_us", 8, "<=", 1.10)
    row("Put bandwidth 1 MiB (put_nbi stream + quiet) vs raw libfabric", "put_bw_MBps", "ofi_best_bw_MBps", M, ">=", 0.90)
    heading("Other figures", "Figure | Tandem | Reference | Ratio | Per round | Target | Result")
    row("Ping-pong 8 B with shmem_p", "pingpong_p_half_rtt_us", "ofi_best_half_rtt_us", 8, "", "")
    row("Ping-pong 8 B with put, fence, shmem_p", "pingpong_fence_half_rtt_us", "ofi_best_half_rtt_us", 8, "", "")
    row("Ping-pong 8 B with put_signal", "pingpong_signal_half_rtt_us", "ofi_best_half_rtt_us", 8, "", "")
    row("Ping-pong 64 KiB with put_signal", "pingpong_signal_half_rtt_us", "ofi_best_half_rtt_us", 65536, "", "")
    row("Ping-pong 1 MiB with put_signal", "pingpong_signal_half_rtt_us", "ofi_best_half_rtt_us", M, "", "")
    row("get 8 B (a round trip) vs raw libfabric half round trip", "get_latency_us", "ofi_best_half_rtt_us", 8, "", "")
    row("get 8 B vs raw libfabric get", "get_latency_us", "ofi_best_get_us", 8, "", "")
    row("get 1 MiB vs raw libfabric get", "get_latency_us", "ofi_best_get_us", M, "", "")
    row("fetch_add 8 B (a round trip) vs raw libfabric half round trip", "fetch_add_latency_us", "ofi_best_half_rtt_us", 8, "", "")
    row("First get 8 B of the program vs a later one", "get_first_us", "get_latency_us", 8, "", "")
    row("First fetch_add of the program vs a later one", "fetch_add_first_us", "fetch_add_latency_us", 8, "", "")
    row("Put bandwidth 4 MiB vs raw libfabric", "put_bw_MBps", "ofi_best_bw_MBps", 4 * M, "", "")
    row("Put bandwidth 64 KiB vs raw libfabric", "put_bw_MBps", "ofi_best_bw_MBps", 65536, "", "")
    row("Put bandwidth 1 MiB vs raw TCP", "put_bw_MBps", "tcp_bw_MBps", M, "", "")
    row("Blocking put bandwidth 1 MiB vs raw libfabric", "put_blocking_bw_MBps", "ofi_best_bw_MBps", M, "", "")
    size_table("Latency by size (us, median over the rounds)",
               "Size | put_signal ping-pong (half RTT) | get | raw ofi (half RTT) | raw ofi_dc | raw TCP | put_signal / ofi_best",
               "pingpong_signal_half_rtt_us get_latency_us ofi_half_rtt_us ofi_dc_half_rtt_us tcp_half_rtt_us", "%.2f",
               "pingpong_signal_half_rtt_us", "ofi_best_half_rtt_us")
    size_table("Bandwidth by size (MB/s, median over the rounds)",
               "Size | put_nbi stream | blocking put stream | raw ofi | raw ofi_dc | raw TCP | put_nbi / ofi_best",
               "put_bw_MBps put_blocking_bw_MBps ofi_bw_MBps ofi_dc_bw_MBps tcp_bw_MBps", "%.0f",
               "put_bw_MBps", "ofi_best_bw_MBps")
  }
  END {
    if (internode) { internode_report(); exit }
    M = 1048576
    print "# Tandem intra-node performance"
    print ""
    printf "%d round(s). In each round every figure is the best of its repetitions; the tables\n", rounds
    print "show the median over the rounds (lowest-highest in brackets). Ratios are Tandem /"
    print "reference, taken round by round (both ran in the same round, minutes apart at most),"
    print "listed per round; a target is judged on the median ratio."
    print ""
    print "## Targets"
    print ""
    print "| Check | Tandem | Reference | Ratio | Per round | Target | Result |"
    print "|---|---|---|---|---|---|---|"
    row("Put bandwidth, 1 MiB (put_nbi stream + quiet)", "put_bw_MBps", "memcpy_bw_MBps", M, ">=", 0.90)
    row("Ping-pong 8 B, half round trip", "pingpong_half_rtt_us", "raw_pingpong_half_rtt_us", 8, "<=", 1.3)
    absolute("put + quiet, 8 B", "put_latency_us", 8, 1, "memcpy_latency_us")
    row("fetch_add 8 B (target PE idle)", "fetch_add_latency_us", "raw_pingpong_half_rtt_us", 8, "<=", 2.0)
    row("fetch_add 8 B, ping-pong (line moves each time)", "fetch_add_pingpong_half_rtt_us", "raw_pingpong_half_rtt_us", 8, "<=", 2.0)
    heading("Against the same pattern without Tandem", "Figure | Tandem | Reference | Ratio | Per round | Target | Result")
    row("Put bandwidth, 1 MiB, vs memcpy into shared memory", "put_bw_MBps", "memcpy_shared_bw_MBps", M, "", "")
    row("Put bandwidth, 4 MiB", "put_bw_MBps", "memcpy_bw_MBps", 4 * M, "", "")
    row("Blocking put bandwidth, 1 MiB", "put_blocking_bw_MBps", "memcpy_bw_MBps", M, "", "")
    row("Put bandwidth, 8 KiB", "put_bw_MBps", "memcpy_bw_MBps", 8192, "", "")
    row("Put bandwidth, 64 B", "put_bw_MBps", "memcpy_bw_MBps", 64, "", "")
    row("put + quiet, 8 B, vs memcpy + fence", "put_latency_us", "memcpy_latency_us", 8, "", "")
    row("put + quiet, 1 MiB, vs memcpy + fence", "put_latency_us", "memcpy_latency_us", M, "", "")
    row("get, 8 B, vs memcpy + fence", "get_latency_us", "memcpy_latency_us", 8, "", "")
    row("quiet with nothing outstanding", "quiet_empty_us", "", 0, "", "")
    row("First pass over a fresh peer heap (page faults)", "put_first_touch_MBps", "memcpy_first_touch_MBps", 134217728, "", "")
    row("Ping-pong 8 B with shmem_p", "pingpong_p_half_rtt_us", "raw_pingpong_half_rtt_us", 8, "", "")
    row("fetch_add ping-pong 8 B", "fetch_add_pingpong_half_rtt_us", "raw_fetch_add_pingpong_half_rtt_us", 8, "", "")
    row("fetch_add 8 B, target PE idle", "fetch_add_latency_us", "raw_fetch_add_us", 8, "", "")
    row("fetch_add 8 B, target PE watching", "fetch_add_watched_us", "raw_fetch_add_watched_us", 8, "", "")
    row("fetch_add 8 B, both PEs adding", "fetch_add_contended_us", "raw_fetch_add_contended_us", 8, "", "")
    row("Barrier, 2 PEs", "barrier_latency_us", "raw_barrier_us", 0, "", "")
    print ""
    print "## Non-blocking put breakdown (Full / Post / Quiet / Overlap; us, median over the rounds)"
    print ""
    print "Full: put_nbi + quiet. Post: put_nbi alone. Quiet: Full - Post. Compute: the busy-wait"
    print "placed between post and quiet (about 2x Full). Overlap: post + compute + quiet minus the"
    print "compute alone, i.e. the transfer time the compute did not hide. Hidden: 1 - Overlap / Full."
    print "Quiet and Hidden are derived from the medians of the other columns."
    print ""
    print "| Size | Full | Post | Quiet | Compute | Overlap | Hidden |"
    print "|---|---|---|---|---|---|---|"
    for (s = 8; s <= 4 * M; s *= 2)
      if (has("nbi_full_us", s)) {
        full = rmed("nbi_full_us", s); post = rmed("nbi_post_us", s); over = rmed("nbi_overlap_us", s)
        printf "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f %% |\n", sizename(s), full, post, full - post, rmed("nbi_compute_us", s), over, (full > 0 ? 100 * (1 - over / full) : 0)
      }
    print ""
    print "## Latency by size (us, best over the rounds)"
    print ""
    print "| Size | put + quiet | get | memcpy + fence | put / memcpy |"
    print "|---|---|---|---|---|"
    for (s = 8; s <= 4 * M; s *= 2)
      if (has("put_latency_us", s) || has("memcpy_latency_us", s))
        printf "| %s | %.3f | %.3f | %.3f | %.2fx |\n", sizename(s), get("put_latency_us", s), get("get_latency_us", s), get("memcpy_latency_us", s), get("memcpy_latency_us", s) ? get("put_latency_us", s) / get("memcpy_latency_us", s) : 0
    print ""
    print "## Bandwidth by size (MB/s, best over the rounds)"
    print ""
    print "| Size | put_nbi stream | blocking put stream | memcpy | memcpy to shared | put / memcpy |"
    print "|---|---|---|---|---|---|"
    for (s = 8; s <= 4 * M; s *= 2)
      if (has("put_bw_MBps", s) || has("memcpy_bw_MBps", s))
        printf "| %s | %.0f | %.0f | %.0f | %.0f | %.2f |\n", sizename(s), get("put_bw_MBps", s), get("put_blocking_bw_MBps", s), get("memcpy_bw_MBps", s), get("memcpy_shared_bw_MBps", s), get("memcpy_bw_MBps", s) ? get("put_bw_MBps", s) / get("memcpy_bw_MBps", s) : 0
  }' best.csv all.csv >report.md

# ---------------------------------------------------------------- plots
mkdir -p plot
for m in put_latency_us get_latency_us memcpy_latency_us nbi_full_us nbi_post_us nbi_quiet_us nbi_overlap_us \
         put_bw_MBps put_blocking_bw_MBps memcpy_bw_MBps memcpy_shared_bw_MBps \
         pingpong_signal_half_rtt_us ofi_half_rtt_us ofi_dc_half_rtt_us tcp_half_rtt_us ofi_bw_MBps ofi_dc_bw_MBps tcp_bw_MBps; do
  awk -F, -v m="$m" 'NR > 1 && $2 == m && $1 > 0 && $3 > 0 { print $1, $3 }' best.csv | sort -n >"plot/$m.dat"
done

if ! command -v gnuplot >/dev/null 2>&1; then
  echo "" >>report.md
  echo "(no plots: gnuplot is not installed)" >>report.md
  exit 0
fi
terminals=$(gnuplot -e "set terminal" 2>&1 || true)
if grep -qw pngcairo <<<"$terminals"; then
  term="pngcairo size 1000,650 noenhanced"; ext=png
elif grep -qw png <<<"$terminals"; then
  term="png size 1000,650 noenhanced"; ext=png
else
  term="dumb size 100,32"; ext=txt
fi

plot() {  # plot NAME TITLE YLABEL KEY_POSITION "metric:label ..."
  local name=$1 title=$2 ylabel=$3 key=$4 series=$5 cmd="" sep="plot " m label
  for s in $series; do
    m=${s%%:*}; label=${s#*:}
    [ -s "plot/$m.dat" ] || continue
    cmd="$cmd$sep'plot/$m.dat' using 1:2 with linespoints title '${label//_/ }'"
    sep=", "
  done
  [ -n "$cmd" ] || return 0
  gnuplot <<EOF
set terminal $term
set output '$name.$ext'
set title '$title'
set logscale x 2
set logscale y 10
set xtics ('8 B' 8, '64 B' 64, '512 B' 512, '4 KiB' 4096, '32 KiB' 32768, '256 KiB' 262144, '2 MiB' 2097152)
set format y '%g'
set xlabel 'message size'
set ylabel '$ylabel'
set key $key box opaque
set grid
$cmd
EOF
}

if [ "$internode" = 1 ]; then
  plot latency "Inter-node latency: half round trip of a ping-pong, and get (best)" "microseconds" "top left" \
    "pingpong_signal_half_rtt_us:put_signal_ping-pong get_latency_us:get_(a_round_trip) ofi_half_rtt_us:raw_libfabric_(ordered) ofi_dc_half_rtt_us:raw_libfabric_(delivery_complete) tcp_half_rtt_us:raw_TCP"
  plot bandwidth "Inter-node put bandwidth against raw libfabric and raw TCP (best)" "MB/s" "bottom right" \
    "put_bw_MBps:put_nbi_stream put_blocking_bw_MBps:blocking_put_stream ofi_bw_MBps:raw_libfabric_(ordered) ofi_dc_bw_MBps:raw_libfabric_(delivery_complete) tcp_bw_MBps:raw_TCP"
else
plot latency "Latency (one timer around the loop; best)" "microseconds" "top left" \
  "put_latency_us:put+quiet_(same_buffers) get_latency_us:get_(same_buffers) memcpy_latency_us:memcpy+fence_(reference,_same_buffers) nbi_full_us:put_nbi+quiet_(walking_128_MiB)"
plot bandwidth "Put bandwidth against single-thread memcpy (best)" "MB/s" "bottom right" \
  "put_bw_MBps:put_nbi_stream put_blocking_bw_MBps:blocking_put_stream memcpy_bw_MBps:memcpy_(reference) memcpy_shared_bw_MBps:memcpy_to_shared_memory_(reference)"
plot nbi "Non-blocking put: Full / Post / Quiet / Overlap (best)" "microseconds" "top left" \
  "nbi_full_us:Full nbi_post_us:Post nbi_quiet_us:Quiet nbi_overlap_us:Overlap"
fi

{
  echo ""
  echo "## Plots"
  echo ""
  for p in latency bandwidth nbi; do
    [ -e "$p.$ext" ] || continue
    if [ "$ext" = png ]; then echo "![$p]($p.png)"; else echo "$p: $p.txt"; fi
  done
} >>report.md
