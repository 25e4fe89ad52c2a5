#!/bin/bash
# The compiler wrappers as build systems use them: --showme:compile and --showme:link give
# flags that build a program with the plain compiler, and that program runs; --showme
# prints the whole command without running it; oshc++ runs the C++ compiler.
. "$(dirname "$0")/lib.sh"

OSHCC=${OSHCC:-${TANDEM_BUILD:?}/tools/oshcc}
HELLO=${TANDEM_SRC:?}/examples/hello.c
compile=$("$OSHCC" --showme:compile)
expect_eq "--showme:compile status" 0 $?
link=$("$OSHCC" --showme:link)
expect_eq "--showme:link status" 0 $?
case "$link" in *-ltandem*) ;; *) fail "--showme:link gives no -ltandem: $link" ;; esac
case "$compile" in *-ltandem*) fail "--showme:compile gives link flags: $compile" ;; esac
# shellcheck disable=SC2086  # the flags are words
cc $compile -c "$HELLO" -o "$WORKDIR/hello.o"
expect_eq "compile with --showme:compile" 0 $?
# shellcheck disable=SC2086
cc "$WORKDIR/hello.o" $link -o "$WORKDIR/hello"
expect_eq "link with --showme:link" 0 $?
"$OSHRUN" -n 2 "$WORKDIR/hello" >"$WORKDIR/out" 2>&1
expect_eq "the program built with the flags runs" 0 $?
expect_grep "its output" "$WORKDIR/out" '^Hello from PE 1 of 2'
"$OSHCC" --showme -o "$WORKDIR/never" "$HELLO" >"$WORKDIR/cmd"
expect_eq "--showme status" 0 $?
expect_grep "--showme prints the command" "$WORKDIR/cmd" '-ltandem'
[ -e "$WORKDIR/never" ] && fail "--showme ran the compiler"

# oshc++ is the same script under another name: it runs the C++ compiler.
OSHCXX=${OSHCXX:-$(dirname "$OSHCC")/oshc++}
TANDEM_CXX=false "$OSHCXX" -o "$WORKDIR/never" "$HELLO" 2>/dev/null
expect_eq "oshc++ runs TANDEM_CXX" 1 $?
cat >"$WORKDIR/hello.cc" <<'EOF'
#include <shmem.h>
#include <iostream>
int main() {
  shmem_init();
  static long x;
  shmem_p(&x, 1L + shmem_my_pe(), (shmem_my_pe() + 1) % shmem_n_pes());  // a C++ overload
  shmem_barrier_all();
  std::cout << "PE " << shmem_my_pe() << " got " << x << std::endl;
  shmem_finalize();
}
EOF
TANDEM_CC=false "$OSHCXX" -o "$WORKDIR/hello_cxx" "$WORKDIR/hello.cc"
expect_eq "oshc++ builds a C++ program" 0 $?
"$OSHRUN" -n 2 "$WORKDIR/hello_cxx" >"$WORKDIR/out" 2>&1
expect_line "the C++ program's output" "$WORKDIR/out" 'PE 0 got 2'

finish
