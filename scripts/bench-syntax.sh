#!/usr/bin/env bash
# bench-syntax.sh -- front-end benchmark: `neverc -fsyntax-only` against `gcc -fsyntax-only`
# on the same large input, measured in one run (issue 3's goal: at least 5x faster than gcc).
#
# usage:  scripts/bench-syntax.sh [--runs N] [--lines N] [--keep]
#   --runs N    samples per compiler, the best one counts (default 7)
#   --lines N   size of the generated part of the input (default 40000, as bench-codegen.sh)
#   --keep      keep the work directory (the generated input) and say where
#
# Environment: NEVERC=path uses that neverc; otherwise `cargo build --release -p neverc` is
# run first (CARGO_TARGET_DIR honoured). GCC=cmd picks the reference (default gcc).
#
# The inputs, each measured:
#   headers  `#define _GNU_SOURCE`, then 30 common C and POSIX headers (stdio.h, stdlib.h,
#            string.h, math.h, pthread.h, sys/socket.h, ...): mostly preprocessing and
#            declarations, as at the top of every real C file;
#   large    the same headers followed by benches/c/gen_large.py's generated program
#            (~37k lines of functions, structs and expressions): the main figure.
# Each sample is one `CMD -fsyntax-only input.c` (hyperfine when installed, else the shell
# clock), the two compilers alternating sample by sample so that machine noise hits both
# alike. Output: a table with both best times and the speed-up gcc/neverc (above 1.00:
# neverc is faster; the goal is 5.00), then one `SUMMARY <metric> <value>` line per metric.
# Exit status 1 when either compiler rejects an input, 2 on setup errors.
set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
RUNS=7
LINES=40000
KEEP=0

usage() {
  local st=${1:-2}
  if [ "$st" = 0 ]; then exec 3>&1; else exec 3>&2; fi
  sed -n '2,/^set -u/{/^#/s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&3
  exit "$st"
}
die() { echo "bench-syntax: $*" >&2; exit 2; }
num() { case $2 in ''|*[!0-9]*) die "$1 takes a number" ;; esac; [ "$2" -ge 1 ] || die "$1 must be at least 1"; }

while [ $# -gt 0 ]; do
  case $1 in
    --runs) [ $# -ge 2 ] || usage; num --runs "$2"; RUNS=$2; shift 2 ;;
    --lines) [ $# -ge 2 ] || usage; num --lines "$2"; LINES=$2; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "bench-syntax: unknown argument: $1" >&2; usage ;;
  esac
done

command -v python3 >/dev/null 2>&1 || die "python3 not found"
GCC=${GCC:-gcc}
command -v "$GCC" >/dev/null 2>&1 || die "$GCC not found"
HAVE_HF=0
command -v hyperfine >/dev/null 2>&1 && HAVE_HF=1

if [ -n "${NEVERC:-}" ]; then
  case $NEVERC in /*) ;; */*) NEVERC=$PWD/$NEVERC ;; *) NEVERC=$(command -v "$NEVERC" || echo "$NEVERC") ;; esac
  [ -x "$NEVERC" ] || die "NEVERC=$NEVERC is not executable"
else
  echo "building neverc (cargo build --release -p neverc) ..."
  (cd "$ROOT" && cargo build --release -p neverc) >&2 || die "cargo build failed"
  TD=${CARGO_TARGET_DIR:-target}
  case $TD in /*) ;; *) TD=$ROOT/$TD ;; esac
  NEVERC=$TD/release/neverc
  [ -x "$NEVERC" ] || die "no $NEVERC after the build"
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/bench-syntax.XXXXXX") || die "mktemp failed"
if [ $KEEP = 1 ]; then echo "work directory: $W"; else trap 'rm -rf "$W"' EXIT; fi

{
  echo "#define _GNU_SOURCE 1"
  for h in assert ctype errno fcntl float inttypes limits locale math pthread setjmp signal \
    stdarg stdbool stddef stdint stdio stdlib string sys/stat sys/types sys/wait time unistd \
    wchar dirent sys/socket netinet/in sys/mman sys/time; do
    echo "#include <$h.h>"
  done
} >"$W/headers.c"
python3 "$ROOT/benches/c/gen_large.py" --lines "$LINES" -o "$W/gen.c" || die "gen_large.py failed"
cat "$W/headers.c" "$W/gen.c" >"$W/large.c"

if [ -n "${EPOCHREALTIME:-}" ]; then now() { echo "${EPOCHREALTIME/,/.}"; }
else now() { date +%s.%N; }
fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }

echo "neverc: $NEVERC"
echo "gcc:    $($GCC --version | head -n1)"
echo "timing: $([ $HAVE_HF = 1 ] && echo hyperfine || echo shell clock), best of $RUNS"
echo
STATUS=0
SUMMARY=()
printf '%-8s %8s %10s %12s %12s %14s\n' input lines bytes "neverc (s)" "gcc (s)" "gcc/neverc"
for input in headers large; do
  f=$W/$input.c
  ok=1
  for c in "$NEVERC" "$GCC"; do
    if ! $c -fsyntax-only "$f" >/dev/null 2>"$W/err"; then
      echo "FAIL: $c -fsyntax-only rejects the $input input:"; head -n5 "$W/err" | sed 's/^/  /'
      ok=0; STATUS=1
    fi
  done
  [ $ok = 1 ] || continue
  if [ $HAVE_HF = 1 ]; then
    hyperfine -N --style none --warmup 1 --runs "$RUNS" --export-json "$W/h.json" \
      "$NEVERC -fsyntax-only $f" "$GCC -fsyntax-only $f" >/dev/null 2>"$W/hf.err" ||
      die "hyperfine failed: $(head -n1 "$W/hf.err")"
    read -r tn tg < <(python3 -c 'import json,sys; print(*("%.4f" % min(r["times"]) for r in json.load(open(sys.argv[1]))["results"]))' "$W/h.json")
  else
    tn= tg=
    for ((r = 0; r < RUNS; r++)); do
      for k in n g; do
        if [ $k = n ]; then c=$NEVERC; else c=$GCC; fi
        t0=$(now); $c -fsyntax-only "$f" >/dev/null 2>&1; t1=$(now)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
        if [ $k = n ]; then
          if [ -z "$tn" ] || awk -v a="$t" -v b="$tn" 'BEGIN { exit !(a < b) }'; then tn=$t; fi
        else
          if [ -z "$tg" ] || awk -v a="$t" -v b="$tg" 'BEGIN { exit !(a < b) }'; then tg=$t; fi
        fi
      done
    done
  fi
  sp=$(ratio "$tg" "$tn")
  printf '%-8s %8s %10s %12s %12s %14s\n' "$input" "$(wc -l <"$f")" "$(wc -c <"$f")" "$tn" "$tg" "$sp"
  SUMMARY+=("SUMMARY syntax.time_s.$input.neverc $tn" "SUMMARY syntax.time_s.$input.gcc $tg"
    "SUMMARY syntax.speedup.$input.gcc/neverc $sp")
done
echo "(gcc/neverc above 1.00: neverc is faster; issue 3's goal is 5.00 on the large input)"
echo
printf '%s\n' "${SUMMARY[@]}"
echo "SUMMARY status $([ $STATUS = 0 ] && echo ok || echo FAIL)"
exit $STATUS
