#!/bin/bash
# expect_output.sh REGEX -- COMMAND...
#
# Runs COMMAND (a job) and passes only if it exits with status 0 and its standard output or
# error matches the extended regular expression REGEX.  For behaviour that shows only in
# what the library prints (TANDEM_STATS, SHMEM_INFO).
set -u
if [ $# -lt 3 ] || [ "$2" != "--" ]; then
  echo "usage: $0 REGEX -- COMMAND..." >&2
  exit 2
fi
regex=$1
shift 2
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
if [ $status -ne 0 ]; then
  echo "$0: the job exited with status $status" >&2
  exit 1
fi
if ! grep -Eq -- "$regex" <<<"$output"; then
  echo "$0: the output does not match: $regex" >&2
  exit 1
fi
