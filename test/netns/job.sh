# Shared by the scripts that do something to a running job (sourced, not run): take its
# link down, reset its connections.  The job runs in the background with its output in a
# file; its PEs print "ready" once they are where the script acts on them.

# needs_root NAME TOOL: exits 77 (CTest's skip) unless this is root and TOOL is installed.
needs_root() {
  if [ "$(id -u)" -ne 0 ] || ! command -v "$2" >/dev/null; then
    echo "$1: needs root and $2; skipped"
    exit 77
  fi
}

# job_start COMMAND...: runs the job in the background; its pid in $job, its standard output
# in the file $job_out (its standard error stays the script's).
job_start() {
  job_out=$(mktemp "${TMPDIR:-/tmp}/tandem-job.XXXXXX") || exit 2
  "$@" >"$job_out" &
  job=$!
}

# job_ready N: waits until N lines of the job's output start with "ready", or the job ends,
# or 30 s passed.
job_ready() {
  for _ in $(seq 300); do
    [ "$(grep -c '^ready' "$job_out")" -ge "$1" ] && return 0
    kill -0 "$job" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# job_end: waits for the job, prints its standard output and exits with its status.
job_end() {
  wait "$job"
  local status=$?
  cat "$job_out"
  rm -f "$job_out"
  exit $status
}

# netns_up NODES: NODES nodes in network namespaces of their own (netns.sh) for this script,
# removed when it exits.  The tag comes from the script's pid; a tag whose names another
# run holds is passed over, and where making them fails all the same (a device of a
# namespace that the kernel has not finished removing), what was made goes and the next tag
# is tried.
netns_up() {
  local try
  for try in 0 1 2 3 4; do
    export TANDEM_TEST_NETNS_TAG=$((($$ + try * 37) % 200 + 20))
    ip netns list | grep -q "^tandem-$TANDEM_TEST_NETNS_TAG-" && continue
    trap 'bash "$here/netns.sh" down' EXIT
    bash "$here/netns.sh" up "$1" && return 0
    echo "netns_up: the namespaces of tag $TANDEM_TEST_NETNS_TAG could not be made; trying another tag" >&2
    bash "$here/netns.sh" down
    trap - EXIT
  done
  exit 1
}

# netns_job_start PES_PER_NODE PES OSHRUN PROGRAM ARGS...: job_start of PROGRAM on PES PEs,
# PES_PER_NODE a node, each node in its namespace (netns_up, in the script that ran this one).
netns_job_start() {
  local per_node=$1 pes=$2 oshrun=$3
  shift 3
  job_start env TANDEM_TEST_NETNS_PES_PER_NODE="$per_node" "$oshrun" --nodes $((pes / per_node)) -n "$pes" \
    -x TANDEM_TEST_NETNS_TAG -x TANDEM_TEST_NETNS_PES_PER_NODE bash "$here/netns.sh" pe "$@"
}
