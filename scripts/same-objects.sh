#!/usr/bin/env bash
# same-objects.sh -- checks that two neverc binaries generate byte-identical output: every
# C file given (default: tests/exec/**/*.c, benches/c/run/*.c and a generated large file) is
# compiled by both with each set of flags (default: "-O0 -c", "-O1 -c", "-O0 -S", "-O1 -S"),
# and the outputs compared with cmp. For changes that must not touch generated code (compile
# speed work, refactorings).
#
# usage:  scripts/same-objects.sh OLD-NEVERC NEW-NEVERC [FILE.c | DIR]...
#   DIR means every *.c under it (e.g. the torture corpus:
#   ~/.cache/neverc-corpus/gcc-12/execute).
# Environment: FLAGS="-O0 -c;-O1 -c" replaces the flag sets (';'-separated).
# A file the old binary refuses must be refused by the new one too (and the other way round).
# Output: one line per difference, then `N files x M flag sets: D differences`; exit status
# 0 only when there is none.
set -u
[ $# -ge 2 ] || { sed -n '2,/^set -u/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 2; }
OLD=$1 NEW=$2
shift 2
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/same-objects.XXXXXX")
trap 'rm -rf "$W"' EXIT

files=()
if [ $# -eq 0 ]; then
  while IFS= read -r f; do files+=("$f"); done < <(find "$ROOT/tests/exec" "$ROOT/benches/c/run" -name '*.c' | sort)
  python3 "$ROOT/benches/c/gen_large.py" --lines 10000 -o "$W/large.c" && files+=("$W/large.c")
else
  for a in "$@"; do
    if [ -d "$a" ]; then
      while IFS= read -r f; do files+=("$f"); done < <(find "$a" -name '*.c' | sort)
    else files+=("$a"); fi
  done
fi
IFS=';' read -r -a sets <<<"${FLAGS:--O0 -c;-O1 -c;-O0 -S;-O1 -S}"

diffs=0
for f in "${files[@]}"; do
  for s in "${sets[@]}"; do
    # shellcheck disable=SC2086
    "$OLD" -w $s -o "$W/old" "$f" >/dev/null 2>&1; a=$?
    # shellcheck disable=SC2086
    "$NEW" -w $s -o "$W/new" "$f" >/dev/null 2>&1; b=$?
    if [ $a != 0 ] || [ $b != 0 ]; then
      [ $a = 0 ] && [ $b != 0 ] && { echo "DIFF $f ($s): the new binary fails"; diffs=$((diffs + 1)); }
      [ $a != 0 ] && [ $b = 0 ] && { echo "DIFF $f ($s): the old binary fails, the new one compiles"; diffs=$((diffs + 1)); }
    elif ! cmp -s "$W/old" "$W/new"; then
      echo "DIFF $f ($s): outputs differ"; diffs=$((diffs + 1))
    fi
    rm -f "$W/old" "$W/new"
  done
done
echo "${#files[@]} files x ${#sets[@]} flag sets: $diffs differences"
[ $diffs = 0 ]
