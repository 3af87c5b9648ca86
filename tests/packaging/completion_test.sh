#!/bin/bash
# completion_test.sh COMPLETION_FILE MPIDBG — the generated bash completion, sourced in
# bash and asked as bash asks it (COMP_WORDS, COMP_CWORD): commands, each command's
# options as its --help names them, choice values, files, and the launcher after run's --.
set -u
source "$1" || { echo "FAIL: cannot source $1"; exit 1; }
mpidbg=$2
failures=0
complete_words() {  # complete_words WORD... : COMPREPLY for the last word
  COMP_WORDS=("$@")
  COMP_CWORD=$(($# - 1))
  COMPREPLY=()
  _mpidbg
  printf '%s\n' "${COMPREPLY[@]}"
}
expect() {  # expect "WORDS" WANTED...: each WANTED among the completions of WORDS
  local words=$1; shift
  local got
  got=$(complete_words $words "${CUR-}")
  for w in "$@"; do
    if ! grep -qx -- "$w" <<< "$got"; then
      echo "FAIL: '$words ${CUR-}' does not offer '$w' (got: $(echo $got))"
      failures=$((failures + 1))
    fi
  done
}
expect_none() {  # expect_none "WORDS" UNWANTED
  local got
  got=$(complete_words $1 "${CUR-}")
  if grep -qx -- "$2" <<< "$got"; then
    echo "FAIL: '$1 ${CUR-}' offers '$2'"; failures=$((failures + 1))
  fi
}

[[ $(complete -p mpidbg) == *"-F _mpidbg"* ]] || { echo "FAIL: mpidbg has no completion function"; exit 1; }

# Every command of `mpidbg --help`, and every option of its own --help usage.
commands=$("$mpidbg" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF {print $1}')
CUR="" expect "mpidbg" $commands --help --version
CUR=jo expect "mpidbg" job
for c in $commands; do
  # The usage: its first line and the indented lines opening with ( or [ after it.
  options=$("$mpidbg" "$c" --help | awk 'NR == 1 || (go && /^ +[([]/) {print; go = 1; next} {go = 0}' |
            grep -o -- '--[a-z][a-z-]*' | sort -u)
  CUR=- expect "mpidbg $c" $options --help
done
CUR=--sl expect "mpidbg job" --slurm
CUR=--sl expect_none "mpidbg snapshot" --slurm

# Values: a choice list, files after a file option, pids after --pid.
CUR="" expect "mpidbg matrix --view" p2p coll put get acc mpi_t
CUR=m expect "mpidbg collect --content" monitor
CUR="" expect "mpidbg run --flavour" mpich openmpi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
touch "$tmp/core.4711"
CUR="$tmp/core." expect "mpidbg job --cores" "$tmp/core.4711"
CUR="$$" expect "mpidbg snapshot --pid" "$$"
# After run's --, the launcher's command, not mpidbg's options.
CUR=bas expect "mpidbg run --" bash
CUR=--fl expect_none "mpidbg run -- mpiexec" --flavour

echo "bash completion: $failures failures"
[ "$failures" -eq 0 ]
