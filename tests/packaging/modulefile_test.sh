#!/bin/bash
# modulefile_test.sh BUILD_DIR — the installed modulefile, loaded for real with
# Environment Modules (Debian's environment-modules, scripts/setup installs it): PATH
# finds the installed mpidbg, MANPATH its man pages, and the variables name the gdb
# loader, the auto-load directory and each runtime to preload under mpiexec. The tree
# is installed to a prefix other than the configured one, so the file must find it.
# Without Environment Modules, the file is read by tclsh with the commands stubbed.
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
prefix=$(realpath "$tmp/prefix")
modules=$prefix/share/mpidbg/modulefiles
version=$(ls "$modules/mpidbg")
[ -n "$version" ] || fail "no modulefile under $modules/mpidbg"

check_environment() {
  [ "$(command -v mpidbg)" = "$prefix/bin/mpidbg" ] || fail "PATH: mpidbg is $(command -v mpidbg)"
  case ":$MANPATH:" in *":$prefix/share/man:"*) ;; *) fail "MANPATH=$MANPATH";; esac
  [ "$MPIDBG_ROOT" = "$prefix" ] || fail "MPIDBG_ROOT=$MPIDBG_ROOT"
  [ -f "$MPIDBG_GDB_SCRIPT" ] || fail "MPIDBG_GDB_SCRIPT=$MPIDBG_GDB_SCRIPT"
  [ "$MPIDBG_GDB_SCRIPT" = "$(mpidbg gdb-script)" ] || fail "gdb-script says $(mpidbg gdb-script)"
  [ -d "$MPIDBG_GDB_AUTOLOAD_DIR" ] || fail "MPIDBG_GDB_AUTOLOAD_DIR=$MPIDBG_GDB_AUTOLOAD_DIR"
  [ -d "$MPIDBG_RUNTIME_DIR" ] || fail "MPIDBG_RUNTIME_DIR=$MPIDBG_RUNTIME_DIR"
  for lib in "$MPIDBG_RUNTIME_DIR"/libmpidbg_rt_*.so; do
    flavour=$(basename "$lib" .so); flavour=${flavour#libmpidbg_rt_}
    var=MPIDBG_RUNTIME_$(echo "$flavour" | tr a-z A-Z)
    [ "${!var-}" = "$lib" ] || fail "$var=${!var-} (expected $lib)"
  done
  case ":$PKG_CONFIG_PATH:" in *":$prefix/lib"*"/pkgconfig:"*) ;; *) fail "PKG_CONFIG_PATH=$PKG_CONFIG_PATH";; esac
}

if [ -f /usr/share/modules/init/bash ]; then
  unset MODULEPATH LOADEDMODULES _LMFILES_
  export MANPATH=/usr/share/man
  source /usr/share/modules/init/bash
  module use "$modules"
  module load "mpidbg/$version" || fail "module load"
  check_environment
  man -w mpidbg-job > "$tmp/manpath" 2>&1 || fail "man -w mpidbg-job: $(cat "$tmp/manpath")"
  grep -q "^$prefix/share/man/man1/mpidbg-job.1" "$tmp/manpath" || fail "man finds $(cat "$tmp/manpath")"
  module help mpidbg > "$tmp/help" 2>&1
  grep -q 'LD_PRELOAD' "$tmp/help" && grep -q 'mpidbg run' "$tmp/help" || fail "module help: $(cat "$tmp/help")"
  module whatis mpidbg 2>&1 | grep -q 'MPI debugging' || fail "module whatis"
  module unload mpidbg
  [ "$(command -v mpidbg || true)" != "$prefix/bin/mpidbg" ] || fail "module unload left PATH"
  echo "modulefile: loaded and unloaded with Environment Modules"
elif command -v tclsh > /dev/null; then
  # The commands of a modulefile, stubbed to print shell assignments.
  cat > "$tmp/stub.tcl" <<'TCL'
set ModulesCurrentModulefile [lindex $argv 0]
proc module-whatis {args} {}
proc prepend-path {var value} { puts "export $var=\"$value:\${$var:-}\"" }
proc setenv {var value} { puts "export $var=\"$value\"" }
source $ModulesCurrentModulefile
TCL
  tclsh "$tmp/stub.tcl" "$modules/mpidbg/$version" > "$tmp/env.sh" || fail "tclsh cannot read the modulefile"
  source "$tmp/env.sh"
  check_environment
  echo "modulefile: read by tclsh (Environment Modules is not installed)"
else
  echo "neither Environment Modules nor tclsh"
  exit 77
fi
