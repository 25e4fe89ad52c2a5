#!/bin/bash
# defaults.sh TANDEM_INFO PROGRESS_THREAD: what configure chose for the site
# (--enable-progress-thread) is the default tandem_info reports.
set -u
"$1" | grep -qx "  TANDEM_PROGRESS_THREAD=$2 (default)" && exit 0
echo "FAIL: tandem_info does not give $2 as the default of TANDEM_PROGRESS_THREAD:" >&2
"$1" | grep "TANDEM_PROGRESS_THREAD=" >&2
exit 1
