#!/bin/bash
# The PEs' environment: -x VAR=value sets, -x VAR passes oshrun's value, repeated -x
# accumulate; TANDEM_LAUNCHER=oshrun is set; no OMPI_* variable is invented.
. "$(dirname "$0")/lib.sh"

show='for v in FOO BAR EMPTY TANDEM_LAUNCHER; do eval "echo $PMIX_RANK $v=\${$v-unset}"; done
env | grep -c "^OMPI_" | sed "s/^/$PMIX_RANK ompi=/"'

# oshrun runs without the caller's own OMPI_* variables (CI exports some), so that any
# OMPI_* variable a PE sees would be one oshrun made up.
no_ompi=$(env | sed -n 's/^\(OMPI_[A-Za-z0-9_]*\)=.*/-u \1/p')
env $no_ompi -u FOO -u EMPTY BAR=from-oshrun \
  "$OSHRUN" -n 2 -x FOO=hello -x BAR -x EMPTY= sh -c "$show" >"$WORKDIR/out"
expect_eq "run" 0 $?
for r in 0 1; do
  expect_line "-x FOO=hello on PE $r" "$WORKDIR/out" "$r FOO=hello"
  expect_line "-x BAR on PE $r" "$WORKDIR/out" "$r BAR=from-oshrun"
  expect_line "-x EMPTY= on PE $r" "$WORKDIR/out" "$r EMPTY="
  expect_line "TANDEM_LAUNCHER on PE $r" "$WORKDIR/out" "$r TANDEM_LAUNCHER=oshrun"
  expect_line "no OMPI_ variables on PE $r" "$WORKDIR/out" "$r ompi=0"
done

# -x VAR=value overrides the inherited value; the last -x wins.
FOO=outer "$OSHRUN" -n 1 -x FOO=first -x FOO=second sh -c 'echo "FOO=$FOO"' >"$WORKDIR/out"
expect_line "last -x wins" "$WORKDIR/out" "FOO=second"

# Values keep spaces and '=' signs.
"$OSHRUN" -n 1 -x "FOO=a b=c" sh -c 'echo "FOO=$FOO"' >"$WORKDIR/out"
expect_line "value with space and =" "$WORKDIR/out" "FOO=a b=c"

finish
