#!/bin/sh
# deb_test.sh BUILD_DIR — `cpack -G DEB` from the build, into a temporary directory; the
# control fields read with dpkg-deb -f; the package unpacked (dpkg-deb -x, no dpkg -i on
# this machine) and its mpidbg run from there: --version, finding the plugin of the
# unpacked tree, not the build's; the pieces an installation carries all inside.
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cpack -G DEB -B "$tmp/out" --config "$build/CPackConfig.cmake" > "$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$tmp"/out/*.deb)
[ "$(echo "$deb" | wc -l)" = 1 ] || fail "expected one .deb: $deb"
dpkg-deb -I "$deb" > /dev/null || fail "dpkg-deb cannot read $deb"
version=$("$build/host/mpidbg" --version | sed -n 's/^mpidbg //p')
[ "$(dpkg-deb -f "$deb" Package)" = mpidbg ] || fail "Package: $(dpkg-deb -f "$deb" Package)"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version: $(dpkg-deb -f "$deb" Version), mpidbg says $version"
[ -n "$(dpkg-deb -f "$deb" Maintainer)" ] || fail "no Maintainer"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
case "$depends" in *libdw1*) ;; *) fail "Depends lacks libdw1 (the command's elfutils)";; esac
dpkg-deb -c "$deb" > "$tmp/contents"
grep -q 'libmpidbg_rt_mpich.so$' "$tmp/contents" && { case "$depends" in *libmpich*) ;; *) fail "Depends lacks MPICH for its runtime";; esac; }
grep -q 'libmpidbg_rt_openmpi.so$' "$tmp/contents" && { case "$depends" in *libopenmpi*) ;; *) fail "Depends lacks Open MPI for its runtime";; esac; }

dpkg-deb -x "$deb" "$tmp/root"
root=$(realpath "$tmp/root")
mpidbg=$(find "$root" -path '*/bin/mpidbg' -type f)
[ -x "$mpidbg" ] || fail "no bin/mpidbg in the package"
"$mpidbg" --version > "$tmp/version" || fail "the packaged mpidbg --version fails"
cat "$tmp/version"
grep -qx "mpidbg $version" "$tmp/version" || fail "mpidbg --version: $(cat "$tmp/version")"
case "$(sed -n 's/^plugin: //p' "$tmp/version")" in
  "$root"/*) ;;
  *) fail "the packaged mpidbg does not load the packaged plugin";;
esac
for piece in '/man1/mpidbg.1' '/man1/mpidbg-job.1' '/bash-completion/completions/mpidbg' \
             '/cmake/mpidbg/mpidbgConfig.cmake' '/pkgconfig/mpidbg.pc' \
             '/mpidbg/modulefiles/mpidbg/' '/mpidbg/gdb/mpidbg-gdb.py' '/include/mpidbg/mqs_interface.h'; do
  grep -q -- "$piece" "$tmp/contents" || fail "the package has no $piece"
done
echo "deb: $(basename "$deb") built, unpacked and run"
