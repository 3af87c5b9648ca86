#!/bin/sh
# install_tree_test.sh BUILD_DIR SOURCE_DIR — `cmake --install` into a temporary prefix,
# the tree then moved elsewhere (it must not care), and a tool built against it twice:
# with find_package(mpidbg) and with pkg-config. Both compile against mpidbg/*.h and load
# the installed plugin from the path the package gives; the installed command finds its
# own plugin and gdb loader.
set -eu
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/first" > "$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
mv "$tmp/first" "$tmp/moved"
prefix=$tmp/moved
# Nothing installed outside the prefix (gdb's auto-load scripts included).
outside=$(grep -E '^-- (Installing|Up-to-date): ' "$tmp/install.log" | grep -v ": $tmp/first/" || true)
[ -z "$outside" ] || fail "installed outside the prefix: $outside"

# The command finds the plugin and the gdb loader of its own tree.
"$prefix/bin/mpidbg" --version > "$tmp/version"
grep -q "^mpidbg [0-9]" "$tmp/version" || fail "mpidbg --version: $(cat "$tmp/version")"
case "$(sed -n 's/^plugin: //p' "$tmp/version")" in
  "$(realpath "$prefix")"/*) ;;
  *) fail "the installed mpidbg does not load its own plugin: $(cat "$tmp/version")";;
esac
case "$("$prefix/bin/mpidbg" gdb-script)" in
  "$prefix"/*/mpidbg-gdb.py) ;;
  *) fail "gdb-script: $("$prefix/bin/mpidbg" gdb-script)";;
esac

# find_package(mpidbg), with every runtime built as a component.
flavours=$(ls "$prefix"/lib*/libmpidbg_rt_*.so 2>/dev/null | sed 's/.*libmpidbg_rt_\(.*\)\.so/runtime_\1/' | tr '\n' ';')
cmake -S "$src/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  "-DMPIDBG_CONSUMER_COMPONENTS=$flavours" > "$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "find_package(mpidbg)"; }
cmake --build "$tmp/consumer" > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "building against mpidbg::headers"; }
cat "$tmp/consumer/paths.txt"
target_plugin=$(sed -n 's/^plugin_target=//p' "$tmp/consumer/paths.txt")
variable_plugin=$(sed -n 's/^plugin_variable=//p' "$tmp/consumer/paths.txt")
[ "$(realpath "$target_plugin")" = "$(realpath "$variable_plugin")" ] || fail "mpidbg::plugin and mpidbg_PLUGIN differ"
case "$(realpath "$target_plugin")" in "$(realpath "$prefix")"/*) ;; *) fail "plugin outside the tree: $target_plugin";; esac
"$tmp/consumer/consumer" "$target_plugin" || fail "the consumer cannot load $target_plugin"
# The describer gdb uses lies beside the plugin, exporting its C interface.
describe=$(sed -n 's/^describe=//p' "$tmp/consumer/paths.txt")
[ "$(dirname "$(realpath "$describe")")" = "$(dirname "$(realpath "$target_plugin")")" ] ||
  fail "mpidbg::describe ($describe) is not beside the plugin"
nm -D --defined-only "$describe" | grep -q " T mpidbg_describe_handle$" ||
  fail "$describe does not export mpidbg_describe_handle"
if cmake -S "$src/consumer" -B "$tmp/consumer-bad" -DCMAKE_PREFIX_PATH="$prefix" \
     -DMPIDBG_CONSUMER_COMPONENTS=runtime_nosuchmpi > /dev/null 2>&1; then
  fail "find_package accepted a runtime that was not built"
fi

# pkg-config.
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$(ls "$prefix"/lib*/pkgconfig/mpidbg.pc)")
[ "$(pkg-config --modversion mpidbg)" = "$(sed -n 's/^mpidbg //p' "$tmp/version")" ] || fail "pkg-config version"
pc_plugin=$(pkg-config --variable=plugin mpidbg)
cc $(pkg-config --cflags mpidbg) -o "$tmp/pc-consumer" "$src/consumer/consumer.c" -ldl || fail "compiling with pkg-config --cflags"
"$tmp/pc-consumer" "$pc_plugin" || fail "the pkg-config consumer cannot load $pc_plugin"
for f in $(pkg-config --variable=flavours mpidbg); do
  lib=$(pkg-config --variable=runtime_$f mpidbg)
  [ -f "$lib" ] || fail "runtime_$f: $lib is missing"
done
[ -f "$(pkg-config --variable=gdb_script mpidbg)" ] || fail "gdb_script is missing"
echo "install tree: find_package and pkg-config consumers built and loaded the plugin"
