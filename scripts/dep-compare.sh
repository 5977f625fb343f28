#!/usr/bin/env bash
# dep-compare.sh -- compare the dependency output (-M, -MM, -MD, -MMD, -MF, -MT, -MQ, -MP,
# -MG) of a compiler under test with gcc's, byte for byte.
#
# usage:  scripts/dep-compare.sh [--cc CMD] [--ref CMD] [--target TRIPLE] [--raw] [--only-E] [-v]
#   --cc CMD       compiler under test (default target/debug/neverc). CMD is split like a
#                  shell command line, so quote words with spaces: --cc "'/opt/my cc/cc' -O0"
#   --ref CMD      reference (default gcc)
#   --target T     give CC --target=T
#   --raw          each compiler with its own predefined macros and include directories
#                  (system headers then differ wherever the compilers' own headers live)
#   --only-E       skip the cases that compile (-c -MD, -c -MMD): for a compiler that only
#                  preprocesses so far
#   -v             print every case, and a diff for each difference
#
# The inputs are scripts/testdata/deps/: main.c includes quote and angle headers found through
# its own directory, -Iinc, -I"inc dir" and -isystem sysinc, names make must escape ("sp ace.h",
# "dollar$.h", "hash#.h"), one file under several spellings (a.h, ./a.h, sub/../a.h), guarded
# and #pragma once headers, a computed include, __has_include, and a path long enough to wrap;
# mg.c includes missing headers (for -MG); "odd name$#.c" needs escaping as a target; second.c
# is a second input. Each case runs in a fresh copy of that directory (its path has a space),
# with those -I/-isystem options and relative file names, first with REF then with CC.
#
# Default mode (like pp-compare.py's): both compilers get -undef -nostdinc, the compiler under
# test's predefined macros through `-imacros FILE` (the same path for both, so it is named
# identically in -M output) and CC's own #include <...> search list as -isystem options, so
# system headers resolve to the same files. scripts/pp-compare.py --emit-setup computes them.
#
# Compared per case: success or failure (exit status 0 or not), the dependency text on
# standard output for -M/-MM cases, and every file the run created (name and contents) except
# object files; .i files are listed, not compared. Exact text: a difference in line wrapping
# alone is still a difference (reported as "line wrapping only").
#
# Output: `DIFF case: ...` per differing case (a crash or timeout of CC is a difference with
# the first line of its stderr), then as the last line `dep-compare: N agree, M differ`.
# Exit status: 0 when nothing differs, 1 otherwise, 2 on usage or setup errors.
# Environment: TIMEOUT seconds per compiler run (default 30).
set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA=$HERE/testdata/deps
CC_STR=target/debug/neverc
REF_STR=gcc
TARGET=
RAW=0
ONLY_E=0
VERBOSE=0
TIMEOUT=${TIMEOUT:-30}

usage() { # [status]: the header comment; on stdout for -h, on stderr for mistakes
  local st=${1:-2}
  if [ "$st" = 0 ]; then exec 3>&1; else exec 3>&2; fi
  sed -n '2,/^set -u/{/^#/s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&3
  exit "$st"
}
die() { echo "dep-compare: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case $1 in
    --cc) [ $# -ge 2 ] || usage; CC_STR=$2; shift 2 ;;
    --cc=*) CC_STR=${1#--cc=}; shift ;;
    --ref) [ $# -ge 2 ] || usage; REF_STR=$2; shift 2 ;;
    --ref=*) REF_STR=${1#--ref=}; shift ;;
    --target) [ $# -ge 2 ] || usage; TARGET=$2; shift 2 ;;
    --target=*) TARGET=${1#--target=}; shift ;;
    --raw) RAW=1; shift ;;
    --only-E) ONLY_E=1; shift ;;
    -v|--verbose) VERBOSE=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "dep-compare: unknown argument: $1" >&2; usage ;;
  esac
done

[ -d "$DATA" ] || die "missing test inputs: $DATA"
command -v timeout >/dev/null 2>&1 || die "timeout (coreutils) not found"

# Split a command string like the shell would; make a relative program path absolute (the
# runs happen in a scratch directory).
split_cmd() { # NAME STRING
  local -n arr=$1
  eval "arr=($2)" 2>/dev/null || die "cannot split command: $2"
  [ ${#arr[@]} -gt 0 ] || die "empty command"
  case ${arr[0]} in
    /*) ;;
    */*) arr[0]="$PWD/${arr[0]}" ;;
  esac
  if [[ ${arr[0]} == */* ]]; then
    [ -f "${arr[0]}" ] && [ -x "${arr[0]}" ] || die "${arr[0]}: not found or not executable (build it first?)"
  else
    command -v "${arr[0]}" >/dev/null 2>&1 || die "${arr[0]}: not found in PATH"
  fi
}
declare -a CC REF
split_cmd CC "$CC_STR"
split_cmd REF "$REF_STR"
[ -n "$TARGET" ] && CC+=("--target=$TARGET")

TMP=$(mktemp -d "${TMPDIR:-/tmp}/dep-compare.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$TMP"' EXIT
WORK="$TMP/dep work"

# Clean environment: nothing that adds include directories or dependency output behind our back.
unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH OBJC_INCLUDE_PATH DEPENDENCIES_OUTPUT SUNPRO_DEPENDENCIES GCC_EXEC_PREFIX
export LC_ALL=C

declare -a NORM=()
if [ $RAW = 0 ]; then
  command -v python3 >/dev/null 2>&1 || die "python3 not found (needed for the default mode; or use --raw)"
  python3 "$HERE/pp-compare.py" --cc "$CC_STR" --ref "$REF_STR" ${TARGET:+--target "$TARGET"} \
    --emit-setup "$TMP/setup" >&2 || die "cannot get CC's predefined macros and include list (see above)"
  NORM=(-undef -nostdinc)
  while IFS= read -r d; do NORM+=(-isystem "$d"); done <"$TMP/setup/isystem"
  NORM+=(-imacros "$TMP/predef.h")
fi
COMMON=(-Iinc "-Iinc dir" -isystem sysinc)

# ---- cases: name, what holds the dependencies (stdout | files), arguments -----------------
declare -a NAMES KINDS ARGS
def() { local q; NAMES+=("$1"); KINDS+=("$2"); shift 2; printf -v q '%q ' "$@"; ARGS+=("$q"); }
def M              stdout -M main.c
def MM             stdout -MM main.c
def M-o            files  -M main.c -o deps.out
def M-MF           files  -M -MF x.d main.c
def M-MF-o         files  -M -MF x.d main.c -o deps.out
def MM-MF-stdout   stdout -MM -MF - second.c
def MD-MF          files  -c -MD -MF x.d main.c -o out.o
def MD             files  -c -MD main.c
def MD-o           files  -c -MD main.c -o obj/out.o
def MMD            files  -c -MMD main.c
def MMD-o          files  -c -MMD main.c -o out.o
def M-MT           stdout -M -MT foo main.c
def M-MQ           stdout -M -MQ '$(foo)' main.c
def MM-MT-MQ-many  stdout -MM -MT 'a b' -MQ 'x#y$z w' -MT c main.c
def MM-MQ-MT-order stdout -MM -MT t1 -MQ q1 -MQ q2 -MQ 'q$3' -MT t2 second.c
def MD-MF-MT-MP    files  -c -MD -MF x.d -MT t -MP main.c -o out.o
def MM-MP          stdout -MM -MP main.c
def MM-MG          stdout -MM -MG mg.c
def M-MG           stdout -M -MG mg.c
def MM-MG-MP       stdout -MM -MG -MP mg.c
def MM-missing     stdout -MM mg.c
def E-MD           files  -E -MD main.c
def E-MD-o         files  -E -MD main.c -o out.i
def E-MMD-MF-MT    files  -E -MMD -MF obj/x.d -MT t main.c -o out.i
def E-MD-MQ-MP     files  -E -MD -MQ '$(o)' -MP second.c -o out.i
def odd-MM         stdout -MM 'odd name$#.c'
def odd-MD         files  -c -MD 'odd name$#.c'
def odd-E-MMD-o    files  -E -MMD 'odd name$#.c' -o 'out put.i'
def two-MM         stdout -MM main.c second.c
def two-MD         files  -c -MD main.c second.c
def include-MM     stdout -MM -include a.h -include 'sp ace.h' second.c

# ---- running -------------------------------------------------------------------------------
# run_one WHO KIND ARG... -> $TMP/WHO.res (what is compared), $TMP/WHO.err, $TMP/WHO.rc
run_one() {
  local who=$1 kind=$2; shift 2
  local -a cmd
  if [ "$who" = cc ]; then cmd=("${CC[@]}"); else cmd=("${REF[@]}"); fi
  rm -rf "$WORK" && mkdir -p "$WORK" && cp -R "$DATA/." "$WORK/" && mkdir -p "$WORK/obj" || die "cannot copy $DATA"
  [ $RAW = 1 ] || cp "$TMP/setup/macros-$who.h" "$TMP/predef.h"
  (cd "$WORK" && find . -type f | LC_ALL=C sort) >"$TMP/before"
  (cd "$WORK" && exec timeout -k 5 "$TIMEOUT" "${cmd[@]}" "${NORM[@]}" "${COMMON[@]}" "$@" </dev/null) \
    >"$TMP/$who.out" 2>"$TMP/$who.err"
  local rc=$?
  echo "$rc" >"$TMP/$who.rc"
  {
    if [ "$rc" = 0 ]; then echo "== status: success"; else echo "== status: failure"; fi
    if [ "$kind" = stdout ]; then echo "== standard output"; cat "$TMP/$who.out"; fi
    (cd "$WORK" && find . -type f | LC_ALL=C sort) >"$TMP/after"
    LC_ALL=C comm -13 "$TMP/before" "$TMP/after" | while IFS= read -r f; do
      case $f in
        *.o) ;;
        *.i) echo "== created ${f#./} (preprocessed output, not compared)" ;;
        *) echo "== created ${f#./}"; cat "$WORK/$f" ;;
      esac
    done
  } >"$TMP/$who.res"
}

first_err_line() { # file: first line of stderr that is not an include chain
  local l
  l=$(grep -v -E '^(In file included from|[[:space:]]+from )' "$1" | grep -m1 -v '^[[:space:]]*$')
  [ -n "$l" ] || l=$(head -n1 "$1")
  printf '%s' "${l:-(no message)}" | cut -c1-200
}

show_line() { # file n: the line quoted, or <end>
  if [ "$(wc -l <"$1")" -ge "$2" ]; then printf "'%s'" "$(sed -n "$2p" "$1" | cut -c1-120)"; else printf '<end>'; fi
}

unwrap() { sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$1" | tr -s ' \t' '  '; }

agree=0 differ=0 skipped=0
for i in "${!NAMES[@]}"; do
  name=${NAMES[$i]} kind=${KINDS[$i]}
  eval "args=(${ARGS[$i]})"
  if [ $ONLY_E = 1 ]; then
    case " ${ARGS[$i]} " in *" -c "*) skipped=$((skipped + 1)); [ $VERBOSE = 1 ] && echo "SKIP $name (compiles)"; continue ;; esac
  fi
  shown=$(printf '%q ' "${args[@]}")
  run_one ref "$kind" "${args[@]}"
  run_one cc "$kind" "${args[@]}"
  ref_rc=$(cat "$TMP/ref.rc") cc_rc=$(cat "$TMP/cc.rc")
  if cmp -s "$TMP/ref.res" "$TMP/cc.res"; then
    agree=$((agree + 1))
    [ $VERBOSE = 1 ] && echo "AGREE $name: $shown"
    continue
  fi
  differ=$((differ + 1))
  if [ "$cc_rc" = 124 ] || [ "$cc_rc" = 137 ]; then
    why="timeout"
  elif [ "$cc_rc" -gt 128 ]; then
    why="CC crashed (signal $((cc_rc - 128))): $(first_err_line "$TMP/cc.err")"
  elif [ "$cc_rc" != 0 ] && [ "$ref_rc" = 0 ]; then
    why="CC failed (exit $cc_rc): $(first_err_line "$TMP/cc.err")"
  elif [ "$cc_rc" = 0 ] && [ "$ref_rc" != 0 ]; then
    why="CC succeeded where the reference failed: $(first_err_line "$TMP/ref.err")"
  else
    # First differing line (cmp counts lines from 1; at EOF it names the shorter file).
    n=$(cmp "$TMP/ref.res" "$TMP/cc.res" 2>&1 | sed -n 's/.*line \([0-9]*\).*/\1/p')
    case $(cmp "$TMP/ref.res" "$TMP/cc.res" 2>&1) in *EOF*) n=$((n + 1)) ;; esac
    why="result line $n: ref: $(show_line "$TMP/ref.res" "$n") | CC: $(show_line "$TMP/cc.res" "$n")"
    if [ "$(unwrap "$TMP/ref.res")" = "$(unwrap "$TMP/cc.res")" ]; then
      why="line wrapping only; $why"
    fi
  fi
  echo "DIFF $name ($shown): $why"
  if [ $VERBOSE = 1 ]; then
    diff -u --label "ref: ${REF_STR}" --label "CC: ${CC_STR}" "$TMP/ref.res" "$TMP/cc.res" | sed 's/^/    /'
  fi
done
[ $skipped -gt 0 ] && echo "note: $skipped cases that compile were skipped (--only-E)"
echo "dep-compare: $agree agree, $differ differ"
[ $differ = 0 ]
