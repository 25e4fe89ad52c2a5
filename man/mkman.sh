#!/bin/sh
# Writes the section 3 pages of the OpenSHMEM routines, and a link page for every other
# name they cover, into OUTDIR/man3, and the list of those files into OUTDIR/pages.list.
# The synopses come from the headers themselves (see man/mkman.awk), so the pages follow
# the type tables of <tandem/typetable.h>.
#
#   mkman.sh OUTDIR VERSION SRCDIR "CPP" "CXXCPP" AWK TEMPLATE...
#
# TEMPLATEs are paths below SRCDIR (man/man3/src/shmem_put.3.in).  Only sh, awk and the C
# and C++ preprocessors are needed, which every machine that builds the library has.
set -e
out=$1 version=$2 srcdir=$3 cpp=$4 cxxcpp=$5 awk=$6
shift 6
tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp/man3"
trap 'rm -rf "$tmp"' EXIT
synopsis=$srcdir/man/man3/src/synopsis.h
# CPP and CXXCPP are commands with options ("gcc -E"): split on purpose.
# shellcheck disable=SC2086
$cpp -I"$srcdir/include" "$synopsis" > "$tmp/c.i"
# shellcheck disable=SC2086
$cxxcpp -I"$srcdir/include" "$synopsis" > "$tmp/cxx.i"
templates=
for t in "$@"; do templates="$templates $srcdir/$t"; done
# shellcheck disable=SC2086
$awk -v out="$tmp/man3" -v version="$version" -f "$srcdir/man/mkman.awk" "$tmp/c.i" "$tmp/cxx.i" $templates
(cd "$tmp/man3" && ls) > "$tmp/pages.list"
rm -f "$tmp/c.i" "$tmp/cxx.i"
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
