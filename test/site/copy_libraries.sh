#!/bin/bash
# copy_libraries.sh DEST: a site's own libfabric, PMIx and hwloc, as HPE/Cray systems and
# cluster module trees ship them: Debian's, copied into DEST/opt/ofi, DEST/opt/pmix and
# DEST/opt/hwloc (headers in include/, libraries in lib64/ or lib/, no pkg-config file), for
# configuring Tandem with --with-ofi, --with-pmix and --with-hwloc.  Prints those three
# options.  The copies keep their sonames, so a program that loads Debian's copy instead
# shows it by its path (tandem_info, Libraries).
set -euo pipefail
dest=${1:?usage: copy_libraries.sh DEST}
# copy PACKAGE LIBRARY TARGET LIBDIR-NAME: the headers of the Debian package and its shared
# library libLIBRARY.so: the file itself, its soname link and the link for linking.
copy() {
  local package=$1 library=$2 target=$dest/opt/$3 libdir=$dest/opt/$3/$4 file rel link real soname
  mkdir -p "$target/include" "$libdir"
  link=
  for file in $(dpkg -L "$package"); do
    case $file in
      */include/*)
        [ -f "$file" ] || continue
        rel=${file#*/include/}
        mkdir -p "$target/include/$(dirname "$rel")"
        cp "$file" "$target/include/$rel" ;;
      */lib$library.so) link=$file ;;
    esac
  done
  [ -n "$link" ] || { echo "copy_libraries.sh: $package has no lib$library.so" >&2; exit 1; }
  real=$(readlink -f "$link")
  soname=$(objdump -p "$real" | awk '$1 == "SONAME" { print $2 }')
  cp "$real" "$libdir/"
  ln -sf "$(basename "$real")" "$libdir/$soname"
  ln -sf "$soname" "$libdir/lib$library.so"
}
copy libfabric-dev fabric ofi lib64
copy libhwloc-dev hwloc hwloc lib
copy libpmix-dev pmix pmix lib
# As such trees are laid out: no pkg-config file.
find "$dest/opt" -name '*.pc' -delete
echo "--with-ofi=$dest/opt/ofi --with-pmix=$dest/opt/pmix --with-hwloc=$dest/opt/hwloc"
