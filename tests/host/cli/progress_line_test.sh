#!/bin/sh
# progress_line_test.sh MPIDBG SCALE_GEN — the progress line of long reads: on stderr when
# it is a terminal (a pseudo-terminal from script(1)), never otherwise, and
# MPIDBG_PROGRESS=0/1 overriding either way.
set -eu
mpidbg=$1
gen=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/snaps"
"$gen" ring 64 "$dir/snaps"
fail() { echo "FAIL: $*"; exit 1; }

# On a terminal: the line appears and is erased at the end.
script -qec "'$mpidbg' job --snapshots '$dir/snaps' > '$dir/out.tty'" /dev/null > "$dir/tty" 2>&1
grep -q 'reading snapshots 0/64' "$dir/tty" || fail "no progress line on a terminal: $(od -c "$dir/tty" | head -5)"
tail -c 4 "$dir/tty" | od -c | grep -q '\\r 033   \[   K' || fail "the line is not erased at the end"

# Not a terminal: stderr stays empty, stdout is the same verdict.
"$mpidbg" job --snapshots "$dir/snaps" > "$dir/out.plain" 2> "$dir/err"
[ ! -s "$dir/err" ] || fail "stderr without a terminal: $(cat "$dir/err")"
cmp -s "$dir/out.tty" "$dir/out.plain" || fail "stdout differs with a terminal on stderr"

# MPIDBG_PROGRESS overrides the terminal test both ways.
MPIDBG_PROGRESS=0 script -qec "'$mpidbg' job --snapshots '$dir/snaps' > /dev/null" /dev/null > "$dir/tty0" 2>&1
! grep -q 'reading snapshots' "$dir/tty0" || fail "MPIDBG_PROGRESS=0 still draws the line"
MPIDBG_PROGRESS=1 "$mpidbg" job --snapshots "$dir/snaps" > /dev/null 2> "$dir/err1"
grep -q 'reading snapshots 0/64' "$dir/err1" || fail "MPIDBG_PROGRESS=1 draws no line"
echo "progress line: shown on a terminal, quiet otherwise"
