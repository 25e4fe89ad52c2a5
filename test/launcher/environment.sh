#!/bin/bash
# The PEs' environment: -x VAR=value sets, -x VAR passes oshrun's value, repeated -x
# accumulate; TANDEM_LAUNCHER=oshrun is set; the only OMPI_* variables oshrun adds are the
# three that make Open MPI take its ranks from oshrun (man oshrun), and the user's own
# values of them win.
. "$(dirname "$0")/lib.sh"

show='for v in FOO BAR EMPTY TANDEM_LAUNCHER; do eval "echo $PMIX_RANK $v=\${$v-unset}"; done
echo "$PMIX_RANK ompi=$(env | grep "^OMPI_" | sort | tr "\n" " ")"'

# oshrun runs without the caller's own OMPI_* variables (CI exports some), so that any
# OMPI_* variable a PE sees is one oshrun made up.
no_ompi=$(env | sed -n 's/^\(OMPI_[A-Za-z0-9_]*\)=.*/-u \1/p')
env $no_ompi -u FOO -u EMPTY BAR=from-oshrun TMPDIR="$JOBTMP" \
  "$OSHRUN" -n 2 -x FOO=hello -x BAR -x EMPTY= sh -c "$show" >"$WORKDIR/out"
expect_eq "run" 0 $?
for r in 0 1; do
  expect_line "-x FOO=hello on PE $r" "$WORKDIR/out" "$r FOO=hello"
  expect_line "-x BAR on PE $r" "$WORKDIR/out" "$r BAR=from-oshrun"
  expect_line "-x EMPTY= on PE $r" "$WORKDIR/out" "$r EMPTY="
  expect_line "TANDEM_LAUNCHER on PE $r" "$WORKDIR/out" "$r TANDEM_LAUNCHER=oshrun"
  expect_grep "Open MPI's settings on PE $r" "$WORKDIR/out" \
    "^$r ompi=OMPI_MCA_ess=pmi OMPI_MCA_orte_tmpdir_base=$JOBTMP/oshrun\.[0-9]+\.[A-Za-z0-9]+ OMPI_MCA_schizo=\^orte \$"
done
# A setting of the user's, inherited or through -x, is left as it is.
env $no_ompi OMPI_MCA_schizo=slurm "$OSHRUN" -n 1 -x OMPI_MCA_ess=env sh -c "$show" >"$WORKDIR/out"
expect_grep "the user's Open MPI settings" "$WORKDIR/out" \
  "^0 ompi=OMPI_MCA_ess=env OMPI_MCA_orte_tmpdir_base=[^ ]+ OMPI_MCA_schizo=slurm \$"

# -x VAR=value overrides the inherited value; the last -x wins.
FOO=outer "$OSHRUN" -n 1 -x FOO=first -x FOO=second sh -c 'echo "FOO=$FOO"' >"$WORKDIR/out"
expect_line "last -x wins" "$WORKDIR/out" "FOO=second"

# Values keep spaces and '=' signs.
"$OSHRUN" -n 1 -x "FOO=a b=c" sh -c 'echo "FOO=$FOO"' >"$WORKDIR/out"
expect_line "value with space and =" "$WORKDIR/out" "FOO=a b=c"

finish
