#!/bin/bash
# run.sh SUITE DIR: builds a public OpenSHMEM test suite, extracted in DIR, against an
# installed Tandem and runs its programs with 1, 2 and 4 PEs (or the counts a program needs)
# in three placements:
#   node    all PEs on one node             oshrun -n N
#   vnodes  every PE its own virtual node   oshrun -n N --nodes N   (N > 1)
#   2x2     2 nodes of 2 PEs                oshrun -n 4 --nodes 2   (N = 4)
# A run passes when the job ends within the time limit with the expected status, its output
# shows none of the suite's failure markers, and afterwards no PE process is alive and no
# /dev/shm/tandem-<pid>-* file of a PE is left.  Prints a table (program x placement), a
# count per placement, and exits 1 if anything failed.
#
# SUITE is one of: tests-uh, tests-mellanox, spec-examples, prk, isx, osu, openshmem-examples,
# skampi, shmem4py (see the suite_* functions of suites.sh for where each comes from and
# what is run).
#
# Environment: TANDEM_PREFIX (use $TANDEM_PREFIX/bin/oshcc and oshrun; default: the first on
# PATH), TIMEOUT (seconds per run, default per suite), ONLY (a regular expression: run only
# the programs whose name matches), PLACEMENTS (default "node vnodes 2x2"), SKIP_BUILD=1.
# Logs: DIR/tandem-logs/<program>.<N>.<placement>.log.
set -u

usage() {
  sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2
  exit 2
}
[ $# -eq 2 ] || usage
suite=$1
dir=$(cd "$2" 2>/dev/null && pwd) || { echo "run.sh: no directory $2" >&2; exit 2; }

die() { echo "run.sh: $*" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)  # the patches beside this script

# --- the Tandem under test ----------------------------------------------------------------
if [ -n "${TANDEM_PREFIX:-}" ]; then
  bindir=$TANDEM_PREFIX/bin
else
  bindir=$(dirname "$(command -v oshcc || echo /nonexistent/oshcc)")
fi
oshcc=$bindir/oshcc
oshrun=$bindir/oshrun
[ -x "$oshcc" ] && [ -x "$oshrun" ] || die "no oshcc/oshrun in $bindir (set TANDEM_PREFIX)"
# Open MPI installs an oshcc and an oshrun too; make sure these are Tandem's.
"$oshcc" --showme 2>/dev/null | grep -q -- '-ltandem' ||
  die "$oshcc is not Tandem's oshcc (its --showme does not link -ltandem)"
"$oshrun" --version 2>/dev/null | grep -q 'Tandem' || die "$oshrun is not Tandem's oshrun"
export PATH=$bindir:$PATH  # the suites' makefiles call plain `oshcc`
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# --- the program list -----------------------------------------------------------------------
# prog [-s STATUS] [-t SECONDS] NAME "PE-COUNTS" COMMAND...   (COMMAND runs in $prog_dir)
unbuilt=()  # programs that did not compile
names=() counts=() statuses=() limits=() cwds=() commands=()
prog_dir=$dir
fail_pattern=''  # a suite's own failure markers in the output (extended regex)
default_timeout=60
prog() {
  local status=0 limit=''
  while [ $# -gt 0 ]; do
    case $1 in
      -s) status=$2; shift 2 ;;
      -t) limit=$2; shift 2 ;;
      *) break ;;
    esac
  done
  names+=("$1"); counts+=("$2"); statuses+=("$status"); limits+=("$limit")
  cwds+=("$prog_dir"); shift 2
  commands+=("$(printf '%q ' "$@")")
}

build_log=$dir/tandem-build.log
# Runs a build step, keeping its output in tandem-build.log.
build() {
  echo "+ $*" >>"$build_log"
  "$@" >>"$build_log" 2>&1
}

# Records the programs of SRC-DIR/*.c that a makefile did not turn into *.EXT.
check_built() {
  local f
  for f in "$1"/*.c; do
    [ -e "${f%.c}.$2" ] || unbuilt+=("$(basename "$f" .c)")
  done
}

# --- per-suite knowledge: the suite_NAME functions -------------------------------------
# shellcheck source=test/public/suites.sh
. "$here/suites.sh"

declare -F "suite_$suite" >/dev/null || die "unknown suite '$suite'"
: >"$build_log"
"suite_$suite"
[ ${#names[@]} -gt 0 ] || [ ${#unbuilt[@]} -gt 0 ] || die "nothing built for $suite; see $build_log"

# --- running --------------------------------------------------------------------------------
logs=$dir/tandem-logs
mkdir -p "$logs"
# Each PE starts through this wrapper, which records its pid and then becomes the program.
wrapper=$logs/record-pid.sh
printf '#!/bin/sh\necho $$ >>"$TANDEM_TEST_PUBLIC_PIDS"\nexec "$@"\n' >"$wrapper"
chmod +x "$wrapper"

placements=${PLACEMENTS:-node vnodes 2x2}
declare -A result   # [index.N.placement] = pass | FAIL(reason)
declare -A npass nfail

# The oshrun options of a placement for N PEs, or nothing when it does not apply.
placement_options() {
  case $1 in
    node) echo "-n $2" ;;
    vnodes) [ "$2" -gt 1 ] && echo "-n $2 --nodes $2" ;;
    2x2) [ "$2" -eq 4 ] && echo "-n 4 --nodes 2" ;;
  esac
}

# Checks a finished job's PEs (pids in $1): kills any that lives, removes their files in
# /dev/shm; prints what it found.
leftovers() {
  local pid found=''
  [ -s "$1" ] || return 0
  sleep 0.5
  while read -r pid; do
    if [ -e "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; then
      found+=" process-$pid"
      kill -9 "$pid" 2>/dev/null
    fi
  done <"$1"
  while read -r pid; do
    for f in /dev/shm/tandem-"$pid"-*; do
      [ -e "$f" ] || continue
      found+=" $(basename "$f")"
      rm -f "$f"
    done
  done <"$1"
  echo "$found"
}

for i in "${!names[@]}"; do
  name=${names[$i]}
  [[ -z "${ONLY:-}" || $name =~ $ONLY ]] || continue
  for n in ${counts[$i]}; do
    for p in $placements; do
      opts=$(placement_options "$p" "$n") || continue
      [ -n "$opts" ] || continue
      log=$logs/$name.$n.$p.log
      pids=$logs/$name.$n.$p.pids
      : >"$pids"
      limit=${limits[$i]:-${TIMEOUT:-$default_timeout}}
      cmd="cd ${cwds[$i]} && $oshrun $opts ${commands[$i]}"
      echo "\$ $cmd" >"$log"
      start=$SECONDS
      (cd "${cwds[$i]}" && TANDEM_TEST_PUBLIC_PIDS=$pids \
        eval timeout -k 10 "$limit" "$oshrun" $opts "$wrapper" "${commands[$i]}") >>"$log" 2>&1 </dev/null
      status=$?
      elapsed=$((SECONDS - start))
      left=$(leftovers "$pids")
      echo "# status $status, ${elapsed}s${left:+, left over:$left}" >>"$log"
      if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        r="FAIL(timeout ${limit}s)"
      elif [ "$status" -ne "${statuses[$i]}" ]; then
        r="FAIL(status $status)"
      elif [ -n "$fail_pattern" ] && grep -Eq "$fail_pattern" "$log"; then
        r="FAIL(output)"
      else
        r=pass
      fi
      [ -n "$left" ] && r="FAIL(left over:$left)"
      result[$i.$n.$p]=$r
      if [ "$r" = pass ]; then npass[$p]=$((${npass[$p]:-0} + 1)); else nfail[$p]=$((${nfail[$p]:-0} + 1)); fi
      printf '  %-40s %-2s %-7s %s (%ss)\n' "$name" "$n" "$p" "$r" "$elapsed" >&2
    done
  done
done

# --- report ---------------------------------------------------------------------------------
echo
echo "Suite $suite in $dir (Tandem: $bindir)"
printf '%-40s %3s' program N
for p in $placements; do printf ' %-14s' "$p"; done
echo
any_failed=0
for i in "${!names[@]}"; do
  [[ -z "${ONLY:-}" || ${names[$i]} =~ $ONLY ]] || continue
  for n in ${counts[$i]}; do
    printf '%-40s %3s' "${names[$i]}" "$n"
    for p in $placements; do
      r=${result[$i.$n.$p]:--}
      case $r in FAIL*) any_failed=1 ;; esac
      printf ' %-14s' "${r:0:14}"
    done
    echo
  done
done
echo
if [ ${#unbuilt[@]} -gt 0 ]; then
  echo "did not build (${#unbuilt[@]}, see $build_log): ${unbuilt[*]}"
  any_failed=1
fi
for p in $placements; do
  printf 'placement %-7s passed %3d  failed %3d\n' "$p" "${npass[$p]:-0}" "${nfail[$p]:-0}"
done
echo "Logs: $logs"
exit $any_failed
