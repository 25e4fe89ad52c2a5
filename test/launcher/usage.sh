#!/bin/bash
# The command line: help, version, clear errors with status 2, status 127 for a program
# that cannot be executed, and no temporary files left behind.
. "$(dirname "$0")/lib.sh"

"$OSHRUN" --help >"$WORKDIR/out"
expect_eq "--help" 0 $?
expect_grep "--help text" "$WORKDIR/out" '^Usage: oshrun '
"$OSHRUN" -h >/dev/null
expect_eq "-h" 0 $?
"$OSHRUN" --version >"$WORKDIR/out"
expect_eq "--version" 0 $?
expect_grep "--version text" "$WORKDIR/out" '^oshrun \(Tandem\) '

# usage_error WHAT EXPECTED-MESSAGE-REGEX ARGS...
usage_error() {
  local what=$1 regex=$2
  shift 2
  "$OSHRUN" "$@" >/dev/null 2>"$WORKDIR/err"
  expect_eq "status for $what" 2 $?
  expect_grep "message for $what" "$WORKDIR/err" "$regex"
}
usage_error "-n without a value" '^oshrun: -n needs' -n
usage_error "-n 0" '^oshrun: -n needs a positive number' -n 0 true
usage_error "-n abc" '^oshrun: -n needs a positive number' -n abc true
usage_error "-np -3" '^oshrun: -n needs a positive number' -np -3 true
usage_error "no -n" '^oshrun: -n needs a positive number' true
usage_error "no program" '^oshrun: no program' -n 2
usage_error "unknown option" "^oshrun: unknown option '--frobnicate'" --frobnicate -n 1 true
usage_error "--timeout 0" '^oshrun: --timeout needs a positive number' --timeout 0 -n 1 true
usage_error "--timeout x" '^oshrun: --timeout needs a positive number' --timeout x -n 1 true
usage_error "-x =v" '^oshrun: -x needs VAR' -x =v -n 1 true

# Accepted spellings.
"$OSHRUN" -np 2 true && "$OSHRUN" -n2 true && "$OSHRUN" --np=2 true && "$OSHRUN" -n 1 -- true
expect_eq "-np 2, -n2, --np=2, --" 0 $?
"$OSHRUN" -n 1 sh -c 'printf "%s\\n" "$*"' sh -n 5 --tag-output >"$WORKDIR/out"
expect_line "options after the program belong to it" "$WORKDIR/out" "-n 5 --tag-output"

"$OSHRUN" -n 2 /nonexistent/program 2>"$WORKDIR/err"
expect_eq "missing program" 127 $?
expect_line "missing program message" "$WORKDIR/err" \
  "oshrun: cannot execute /nonexistent/program: No such file or directory"
"$OSHRUN" -n 2 no-such-command-anywhere 2>"$WORKDIR/err"
expect_eq "command not on PATH" 127 $?
expect_grep "message for a command not on PATH" "$WORKDIR/err" \
  '^oshrun: cannot execute no-such-command-anywhere: '
printf 'not executable\n' >"$WORKDIR/plain"
chmod 644 "$WORKDIR/plain"
"$OSHRUN" -n 1 "$WORKDIR/plain" 2>"$WORKDIR/err"
expect_eq "file without execute permission" 127 $?
expect_grep "message for a file without execute permission" "$WORKDIR/err" \
  'cannot execute .*plain: Permission denied'

# A script without "#!" runs under /bin/sh, as from a shell.
printf 'echo script ran\n' >"$WORKDIR/script"
chmod 755 "$WORKDIR/script"
"$OSHRUN" -n 1 "$WORKDIR/script" >"$WORKDIR/out"
expect_line "script without #!" "$WORKDIR/out" "script ran"

# The PMIx server's private directory is gone after each job, failed or not.
TMPDIR="$JOBTMP" "$OSHRUN" -n 2 sh -c 'ls -d "$PMIX_SERVER_TMPDIR"' >"$WORKDIR/out"
expect_grep "the PMIx directory is under TMPDIR" "$WORKDIR/out" "^$JOBTMP/oshrun\.[0-9]+\."
TMPDIR="$JOBTMP" "$OSHRUN" -n 2 sh -c 'kill -9 $$' 2>/dev/null
TMPDIR="$JOBTMP" "$OSHRUN" --timeout 0.3 -n 2 sleep 5 2>/dev/null
TMPDIR="$JOBTMP" "$OSHRUN" -n 2 /nonexistent 2>/dev/null
expect_eq "files left in TMPDIR" "" "$(ls -A "$JOBTMP")"

finish
