#!/usr/bin/env bash
# Installs what Tandem needs (Debian packages), builds it in ./build, installs it into PREFIX
# (default: ./_install) and runs examples/hello.c on 4 PEs with the installed tools.
#   usage: ./quickstart.sh [PREFIX]
set -euo pipefail
cd "$(dirname "$0")"
prefix=$(realpath -m "${1:-_install}")

packages="build-essential autoconf automake libtool pkg-config libpmix-dev libpmix-bin
  libfabric-dev libfabric-bin libhwloc-dev hwloc cmake libgtest-dev openmpi-bin gnuplot-nox groff-base"
missing=$(for p in $packages; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"; done)
if [ -n "$missing" ]; then
  echo "== installing: $(echo $missing)"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
fi

echo "== building into build/, installing into $prefix"
./autogen.sh >/dev/null
mkdir -p build
(cd build && ../configure --quiet --prefix="$prefix" --enable-werror ${TANDEM_CONFIGURE_FLAGS:-} &&
  make -j"$(nproc)" >/dev/null && make install >/dev/null)

echo "== examples/hello.c on 4 PEs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$prefix/bin/oshcc" -O2 -o "$work/hello" examples/hello.c
"$prefix/bin/oshrun" -n 4 "$work/hello"
echo "== done: add $prefix/bin to PATH; run the tests with: make -C build check"
