#!/bin/bash
# tandem_info.sh TANDEM_INFO: the provider table of tandem_info on this machine's libfabric
# (Debian's 1.17): tcp;ofi_rxm is chosen, shm is usable only when named, udp;ofi_rxd is
# refused with the reason, and TANDEM_OFI_REQUIRE shows in the rules of every usable row.
set -u
info=$1
failed=0
expect() {  # expect WHAT REGEX OUTPUT
  if ! grep -Eq -- "$2" <<<"$3"; then
    echo "FAIL: $1: no line matches: $2" >&2
    failed=1
  fi
}
out=$("$info") || { echo "FAIL: tandem_info exited with status $?" >&2; exit 1; }
printf '%s\n' "$out" | sed -n '/providers, in the order/,$p'
expect "tcp;ofi_rxm chosen" '^  tcp;ofi_rxm +chosen +writes and reads in order; atomics: software \(the provider.s are messages too\)' "$out"
expect "shm only when named" '^  shm +if named .*used only when named' "$out"
expect "udp;ofi_rxd refused" '^  udp;ofi_rxd +no +udp;ofi_rxd cannot serve: ' "$out"
out=$(TANDEM_OFI_REQUIRE=mr_local,context,no_atomics "$info")
expect "rules required" '^  tcp;ofi_rxm +chosen .*atomics: software; rules: FI_CONTEXT2, FI_MR_LOCAL, no FI_ATOMIC' "$out"
out=$(TANDEM_OFI_REQUIRE=nonsense "$info")
expect "a rule that does not exist" 'TANDEM_OFI_REQUIRE names "nonsense", which is not a rule' "$out"
exit $failed
