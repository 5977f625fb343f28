#!/usr/bin/env bash
# bench-codegen.sh -- code-generation benchmarks of the x86-64 back end: how fast neverc
# compiles, how fast and how big the code it makes is, next to gcc and tcc, in one run.
#
# usage:  scripts/bench-codegen.sh [--quick] [--runs N] [--only compile|run] [--keep]
#   --quick         a fast run: a ~10k-line compile input, the run-time programs at a
#                   fifth of their work, one sample per measurement (instead of 5 and 3)
#   --runs N        samples per measurement (default: 5 for compile time, 3 for run time)
#   --only WHAT     only the compile-time or only the run-time part
#   --keep          keep the work directory (generated input, objects, binaries) and say where
#
# Environment: NEVERC=path uses that neverc; otherwise `cargo build --release -p neverc`
# is run first (CARGO_TARGET_DIR honoured). GCC=cmd and TCC=cmd pick the references
# (default gcc, tcc); a missing tcc is noted and its column skipped. No network is needed.
#
# 1. Compile time: benches/c/gen_large.py writes a ~37k-line C file of varied functions;
#    it is compiled with `neverc -O0 -c`, `tcc -c`, `gcc -O0 -c` and `neverc -O1 -c`, best
#    wall time of N samples (hyperfine when installed, else a loop timed with the shell
#    clock, the compilers alternating sample by sample), the ratios neverc/tcc and
#    neverc/gcc, and peak memory (`/usr/bin/time -v`, maximum resident set size).
# 2. Run time: the programs in benches/c/run/*.c are built with gcc -O0, gcc -O2, neverc
#    -O0 and neverc -O1, run (best of N), and their printed checksums compared with gcc -O2's
#    (any difference, or a program neverc cannot compile or run, makes the run FAIL, exit 1).
#    Ratios neverc-O1/gcc-O2 and neverc-O0/gcc-O0 per program and their geometric means;
#    code size is the .text of each program's object (`size -A`), same ratios.
# Output: readable tables on stdout, then one `SUMMARY <metric> <value>` line per metric.
set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BENCH=$ROOT/benches/c
QUICK=0
RUNS=
ONLY=all
KEEP=0

usage() {
  local st=${1:-2}
  if [ "$st" = 0 ]; then exec 3>&1; else exec 3>&2; fi
  sed -n '2,/^set -u/{/^#/s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&3
  exit "$st"
}
die() { echo "bench-codegen: $*" >&2; exit 2; }
note() { echo "note: $*"; }

while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1; shift ;;
    --runs) [ $# -ge 2 ] || usage; RUNS=$2; shift 2 ;;
    --runs=*) RUNS=${1#--runs=}; shift ;;
    --only) [ $# -ge 2 ] || usage; ONLY=$2; shift 2 ;;
    --only=*) ONLY=${1#--only=}; shift ;;
    --keep) KEEP=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "bench-codegen: unknown argument: $1" >&2; usage ;;
  esac
done
case $ONLY in all|compile|run) ;; *) die "--only takes compile or run" ;; esac
if [ -n "$RUNS" ]; then
  case $RUNS in ''|*[!0-9]*) die "--runs takes a number" ;; esac
  [ "$RUNS" -ge 1 ] || die "--runs must be at least 1"
  CRUNS=$RUNS; RRUNS=$RUNS
elif [ $QUICK = 1 ]; then CRUNS=1; RRUNS=1
else CRUNS=5; RRUNS=3
fi
if [ $QUICK = 1 ]; then LINES=10000; SCALE=20; else LINES=40000; SCALE=100; fi

for t in python3 awk size; do command -v $t >/dev/null 2>&1 || die "$t not found"; done
GCC=${GCC:-gcc}
command -v "$GCC" >/dev/null 2>&1 || die "$GCC not found"
TCC=${TCC:-tcc}
HAVE_TCC=1
command -v "$TCC" >/dev/null 2>&1 || { HAVE_TCC=0; note "$TCC not found: the tcc column is skipped"; }
HAVE_TIMEV=1
[ -x /usr/bin/time ] || { HAVE_TIMEV=0; note "/usr/bin/time not found: no peak memory figures"; }
HAVE_HF=0
command -v hyperfine >/dev/null 2>&1 && HAVE_HF=1

# ---- neverc ------------------------------------------------------------------------------
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

W=$(mktemp -d "${TMPDIR:-/tmp}/bench-codegen.XXXXXX") || die "mktemp failed"
if [ $KEEP = 1 ]; then echo "work directory: $W"; else trap 'rm -rf "$W"' EXIT; fi

if [ -n "${EPOCHREALTIME:-}" ]; then now() { echo "${EPOCHREALTIME/,/.}"; }
else now() { date +%s.%N; }
fi

# best_of R CMD...: run CMD R times (output discarded), print the best wall time in seconds;
# status 1 (and no time) when any run fails.
best_of() {
  local r=$1 best= t0 t1 i; shift
  for ((i = 0; i < r; i++)); do
    t0=$(now); "$@" >/dev/null 2>&1 || return 1; t1=$(now)
    best=$(awk -v a="$t0" -v b="$t1" -v m="$best" 'BEGIN { d = b - a; if (m == "" || d < m) m = d; printf "%.4f", m }')
  done
  echo "$best"
}
# maxrss CMD...: peak resident set size in KiB (largest process of the tree), or "-"
maxrss() {
  [ $HAVE_TIMEV = 1 ] || { echo -; return; }
  /usr/bin/time -v "$@" >/dev/null 2>"$W/time.err" || { echo -; return; }
  awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$W/time.err"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }
geomean() { # values on stdin, "-" skipped
  awk '$1 != "-" && $1 > 0 { s += log($1); n++ } END { if (n) printf "%.2f", exp(s / n); else print "-" }'
}

SUMMARY=()
sum() { SUMMARY+=("SUMMARY $1 $2"); }
STATUS=0

echo "neverc: $NEVERC"
echo "gcc:    $($GCC --version | head -n1)"
[ $HAVE_TCC = 1 ] && echo "tcc:    $($TCC -v 2>&1 | head -n1)"
echo "timing: $([ $HAVE_HF = 1 ] && echo hyperfine || echo shell clock), best of $CRUNS (compile) / $RRUNS (run)$([ $QUICK = 1 ] && echo ', quick mode')"
echo

# ---- 1. compile time -----------------------------------------------------------------------
if [ $ONLY != run ]; then
  SRC=$W/large.c
  python3 "$BENCH/gen_large.py" --lines "$LINES" -o "$SRC" || die "gen_large.py failed"
  NL=$(wc -l <"$SRC")
  NAMES=("neverc -O0" "tcc" "gcc -O0" "neverc -O1")
  KEYS=(neverc_O0 tcc gcc_O0 neverc_O1)
  CMDS=("$NEVERC -O0 -c -o $W/c0.o $SRC" "$TCC -c -o $W/c1.o $SRC" "$GCC -O0 -c -o $W/c2.o $SRC" "$NEVERC -O1 -c -o $W/c3.o $SRC")
  declare -A CT=() RSS=()
  active=()
  for i in 0 1 2 3; do
    if [ $i = 1 ] && [ $HAVE_TCC = 0 ]; then continue; fi
    if ! ${CMDS[$i]} >/dev/null 2>"$W/cerr$i"; then
      echo "FAIL: ${NAMES[$i]} cannot compile the generated input:"; head -n5 "$W/cerr$i" | sed 's/^/  /'
      [ $i = 0 ] || [ $i = 3 ] && STATUS=1
      continue
    fi
    active+=("$i")
  done
  if [ $HAVE_HF = 1 ] && [ ${#active[@]} -gt 0 ]; then
    hfargs=()
    for i in "${active[@]}"; do hfargs+=("${CMDS[$i]}"); done
    hyperfine -N --style none --warmup 1 --runs "$CRUNS" --export-json "$W/h.json" "${hfargs[@]}" >/dev/null 2>"$W/hf.err" ||
      die "hyperfine failed: $(head -n1 "$W/hf.err")"
    mapfile -t best < <(python3 -c 'import json,sys; [print("%.4f" % min(r["times"])) for r in json.load(open(sys.argv[1]))["results"]]' "$W/h.json")
    k=0; for i in "${active[@]}"; do CT[$i]=${best[$k]}; k=$((k + 1)); done
  else
    # alternate the compilers sample by sample so machine noise hits them alike
    for ((r = 0; r < CRUNS; r++)); do
      for i in "${active[@]}"; do
        t=$(best_of 1 ${CMDS[$i]}) || die "${NAMES[$i]} failed while timed"
        if [ -z "${CT[$i]:-}" ] || awk -v a="$t" -v b="${CT[$i]}" 'BEGIN { exit !(a < b) }'; then CT[$i]=$t; fi
      done
    done
  fi
  for i in "${active[@]}"; do RSS[$i]=$(maxrss ${CMDS[$i]}); done

  echo "== compile time: generated input, $NL lines ($(wc -c <"$SRC") bytes), -c to an object =="
  printf '%-12s %10s %12s %10s %10s\n' compiler "time (s)" "max RSS MiB" "÷ tcc" "÷ gcc -O0"
  for i in 0 1 2 3; do
    if [ $i = 1 ] && [ $HAVE_TCC = 0 ]; then continue; fi
    t=${CT[$i]:-}; m=${RSS[$i]:-}
    mm=$( [ -n "$m" ] && [ "$m" != - ] && awk -v k="$m" 'BEGIN { printf "%.1f", k / 1024 }' || echo -)
    rt=-; [ $HAVE_TCC = 1 ] && rt=$(ratio "$t" "${CT[1]:-}")
    rg=$(ratio "$t" "${CT[2]:-}")
    printf '%-12s %10s %12s %10s %10s\n' "${NAMES[$i]}" "${t:-FAIL}" "$mm" "$rt" "$rg"
    sum "compile.time_s.${KEYS[$i]}" "${t:-FAIL}"
    sum "compile.maxrss_kib.${KEYS[$i]}" "${m:--}"
  done
  for i in 0 3; do
    [ $HAVE_TCC = 1 ] && sum "compile.ratio.${KEYS[$i]}/tcc" "$(ratio "${CT[$i]:-}" "${CT[1]:-}")"
    sum "compile.ratio.${KEYS[$i]}/gcc_O0" "$(ratio "${CT[$i]:-}" "${CT[2]:-}")"
    [ $HAVE_TCC = 1 ] && sum "compile.rss_ratio.${KEYS[$i]}/tcc" "$(ratio "${RSS[$i]:-}" "${RSS[1]:-}")"
    sum "compile.rss_ratio.${KEYS[$i]}/gcc_O0" "$(ratio "${RSS[$i]:-}" "${RSS[2]:-}")"
  done
  echo "(ratios below 1.00: neverc is faster; gcc runs cc1 then as, neverc and tcc write the object themselves)"
  echo
fi

# ---- 2. run time and code size -------------------------------------------------------------
if [ $ONLY != compile ]; then
  CFG=(gcc_O0 gcc_O2 neverc_O0 neverc_O1)
  cc_of() { # CFG -> compiler command words
    case $1 in
      gcc_O0) echo "$GCC -O0" ;; gcc_O2) echo "$GCC -O2" ;;
      neverc_O0) echo "$NEVERC -O0" ;; neverc_O1) echo "$NEVERC -O1" ;;
    esac
  }
  PROGS=()
  for f in "$BENCH"/run/*.c; do PROGS+=("$(basename "$f" .c)"); done
  [ ${#PROGS[@]} -gt 0 ] || die "no programs in $BENCH/run"
  declare -A RT=() SZ=() OUT=() BAD=()
  for p in "${PROGS[@]}"; do
    for c in "${CFG[@]}"; do
      cc=$(cc_of $c)
      if ! $cc -c -o "$W/$p.$c.o" "$BENCH/run/$p.c" 2>"$W/$p.$c.err" ||
         ! $cc -o "$W/$p.$c" "$W/$p.$c.o" -lm 2>>"$W/$p.$c.err"; then
        BAD[$p.$c]="does not compile: $(grep -m1 -i error "$W/$p.$c.err" || head -n1 "$W/$p.$c.err")"
        continue
      fi
      SZ[$p.$c]=$(size -A "$W/$p.$c.o" | awk '$1 ~ /^\.text/ { s += $2 } END { print s + 0 }')
      if ! OUT[$p.$c]=$(timeout 120 "$W/$p.$c" $SCALE 2>&1); then
        BAD[$p.$c]="crashes or exits non-zero"; continue
      fi
    done
    ref=${OUT[$p.gcc_O2]:-}
    for c in "${CFG[@]}"; do
      [ -n "${BAD[$p.$c]:-}" ] && continue
      if [ "${OUT[$p.$c]}" != "$ref" ]; then
        BAD[$p.$c]="checksum differs: '${OUT[$p.$c]}' vs gcc -O2 '$ref'"
      fi
    done
  done
  # timing: configurations alternate within each round
  for ((r = 0; r < RRUNS; r++)); do
    for p in "${PROGS[@]}"; do
      for c in "${CFG[@]}"; do
        [ -n "${BAD[$p.$c]:-}" ] && continue
        t=$(best_of 1 "$W/$p.$c" $SCALE) || { BAD[$p.$c]="fails while timed"; continue; }
        if [ -z "${RT[$p.$c]:-}" ] || awk -v a="$t" -v b="${RT[$p.$c]}" 'BEGIN { exit !(a < b) }'; then RT[$p.$c]=$t; fi
      done
    done
  done

  echo "== run time (s), best of $RRUNS; work scale $SCALE% =="
  printf '%-10s %8s %8s %9s %9s   %13s %13s\n' program gcc-O0 gcc-O2 neverc-O0 neverc-O1 "nc-O1/gcc-O2" "nc-O0/gcc-O0"
  : >"$W/r1"; : >"$W/r0"; : >"$W/s1"; : >"$W/s0"
  for p in "${PROGS[@]}"; do
    cell() { if [ -n "${BAD[$p.$1]:-}" ]; then echo FAIL; else echo "${RT[$p.$1]:--}"; fi; }
    a=$(cell gcc_O0); b=$(cell gcc_O2); n0=$(cell neverc_O0); n1=$(cell neverc_O1)
    r1=$(ratio "$n1" "$b"); r0=$(ratio "$n0" "$a")
    [ "$n1" = FAIL ] && r1=-; [ "$n0" = FAIL ] && r0=-
    echo "$r1" >>"$W/r1"; echo "$r0" >>"$W/r0"
    printf '%-10s %8s %8s %9s %9s   %13s %13s\n' "$p" "$a" "$b" "$n0" "$n1" "$r1" "$r0"
    for c in "${CFG[@]}"; do sum "run.time_s.$p.$c" "$(cell $c)"; done
    sum "run.ratio.$p.neverc_O1/gcc_O2" "$r1"
    sum "run.ratio.$p.neverc_O0/gcc_O0" "$r0"
  done
  g1=$(geomean <"$W/r1"); g0=$(geomean <"$W/r0")
  printf '%-10s %8s %8s %9s %9s   %13s %13s\n' geomean "" "" "" "" "$g1" "$g0"
  sum "run.geomean.neverc_O1/gcc_O2" "$g1"
  sum "run.geomean.neverc_O0/gcc_O0" "$g0"
  echo "(ratios above 1.00: neverc's code is slower)"
  echo

  echo "== code size: .text bytes of each program's object =="
  printf '%-10s %8s %8s %9s %9s   %13s %13s\n' program gcc-O0 gcc-O2 neverc-O0 neverc-O1 "nc-O1/gcc-O2" "nc-O0/gcc-O0"
  for p in "${PROGS[@]}"; do
    a=${SZ[$p.gcc_O0]:--}; b=${SZ[$p.gcc_O2]:--}; n0=${SZ[$p.neverc_O0]:--}; n1=${SZ[$p.neverc_O1]:--}
    s1=$(ratio "$n1" "$b"); s0=$(ratio "$n0" "$a")
    echo "$s1" >>"$W/s1"; echo "$s0" >>"$W/s0"
    printf '%-10s %8s %8s %9s %9s   %13s %13s\n' "$p" "$a" "$b" "$n0" "$n1" "$s1" "$s0"
    for c in "${CFG[@]}"; do sum "size.text_bytes.$p.$c" "${SZ[$p.$c]:--}"; done
  done
  g1=$(geomean <"$W/s1"); g0=$(geomean <"$W/s0")
  printf '%-10s %8s %8s %9s %9s   %13s %13s\n' geomean "" "" "" "" "$g1" "$g0"
  sum "size.geomean.neverc_O1/gcc_O2" "$g1"
  sum "size.geomean.neverc_O0/gcc_O0" "$g0"
  echo

  nbad=0
  for p in "${PROGS[@]}"; do
    for c in "${CFG[@]}"; do
      if [ -n "${BAD[$p.$c]:-}" ]; then
        echo "FAIL: $p with ${c/_/ -}: ${BAD[$p.$c]}"; nbad=$((nbad + 1))
      fi
    done
  done
  [ $nbad -gt 0 ] && STATUS=1
  sum run.failures "$nbad"
  echo
fi

printf '%s\n' "${SUMMARY[@]}"
echo "SUMMARY status $([ $STATUS = 0 ] && echo ok || echo FAIL)"
exit $STATUS
