#!/usr/bin/env bash
# bench-pp.sh -- preprocessing benchmark: `CC -E` against `gcc -E` on the same large input,
# measured in one run.
#
# usage:  scripts/bench-pp.sh [--cc CMD] [--ref CMD] [--repeat N] [--runs R] [--same-macros] [--keep]
#   --cc CMD        compiler under test (default target/debug/neverc); split like a shell
#                   command line, so quote words with spaces
#   --ref CMD       reference (default gcc)
#   --repeat N      preprocess the input N times per measured sample (default auto: about
#                   1.5 s of the reference)
#   --runs R        samples per compiler; the best one counts (default 5; fewer, and a lower
#                   repeat count, when a slow CC would take the measurement past ~30 s)
#   --same-macros   run both with pp-compare.py's normalisation (CC's predefined macros and
#                   include list for both) instead of each compiler's own defaults
#   --keep          keep the generated input and print its path
#
# The input: `#define _GNU_SOURCE`, then every standard C header (C89 to C17) and a broad set
# of POSIX and glibc headers -- the ones both compilers accept, alone and together (checked
# here, so the list adapts to the machine; headers only CC rejects are named in a note) -- followed by a generated body of a few thousand lines that
# expands the headers' macros (<tgmath.h> generics, FD_SET, htons, assert, isdigit, INT64_C,
# offsetof, va_arg, ...). Include guards make headers cheap the second time, so repetition is
# by preprocessing the file N times per sample rather than by including headers again.
#
# Each sample is `for i in 1..N: CMD -E -o /dev/null input.c`, timed with hyperfine when it is
# installed and with `date +%s.%N` otherwise; CC and the reference alternate sample by sample
# so that machine noise hits both alike. Output: the input's size, both best times, and the
# ratio as `<cc>/<ref> = X.XX` (below 1.00: CC is faster). Exit status 1 when CC fails on the
# input, 2 on setup errors.
set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CC_STR=target/debug/neverc
REF_STR=gcc
REPEAT=auto
RUNS=5
SAME=0
KEEP=0

usage() { # [status]: the header comment; on stdout for -h, on stderr for mistakes
  local st=${1:-2}
  if [ "$st" = 0 ]; then exec 3>&1; else exec 3>&2; fi
  sed -n '2,/^set -u/{/^#/s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&3
  exit "$st"
}
die() { echo "bench-pp: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case $1 in
    --cc) [ $# -ge 2 ] || usage; CC_STR=$2; shift 2 ;;
    --cc=*) CC_STR=${1#--cc=}; shift ;;
    --ref) [ $# -ge 2 ] || usage; REF_STR=$2; shift 2 ;;
    --ref=*) REF_STR=${1#--ref=}; shift ;;
    --repeat) [ $# -ge 2 ] || usage; REPEAT=$2; shift 2 ;;
    --runs) [ $# -ge 2 ] || usage; RUNS=$2; shift 2 ;;
    --same-macros) SAME=1; shift ;;
    --keep) KEEP=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "bench-pp: unknown argument: $1" >&2; usage ;;
  esac
done
case $RUNS in ''|*[!0-9]*) die "--runs takes a number" ;; esac
case $REPEAT in auto) ;; ''|*[!0-9]*) die "--repeat takes a number or auto" ;; *) [ "$REPEAT" -ge 1 ] || die "--repeat must be at least 1" ;; esac
[ "$RUNS" -ge 1 ] || die "--runs must be at least 1"

split_cmd() { # NAME STRING
  local -n arr=$1
  eval "arr=($2)" 2>/dev/null || die "cannot split command: $2"
  [ ${#arr[@]} -gt 0 ] || die "empty command"
  case ${arr[0]} in /*) ;; */*) arr[0]="$PWD/${arr[0]}" ;; esac
  if [[ ${arr[0]} == */* ]]; then
    [ -f "${arr[0]}" ] && [ -x "${arr[0]}" ] || die "${arr[0]}: not found or not executable (build it first?)"
  else
    command -v "${arr[0]}" >/dev/null 2>&1 || die "${arr[0]}: not found in PATH"
  fi
}
declare -a CC REF
split_cmd CC "$CC_STR"
split_cmd REF "$REF_STR"
CC_NAME=$(basename "${CC[0]}")
REF_NAME=$(basename "${REF[0]}")
[ "$CC_NAME" != "$REF_NAME" ] || { CC_NAME="CC($CC_NAME)"; REF_NAME="ref($REF_NAME)"; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-pp.XXXXXX") || die "mktemp failed"
if [ $KEEP = 1 ]; then echo "bench-pp: keeping $TMP" >&2; else trap 'rm -rf "$TMP"' EXIT; fi
unset CPATH C_INCLUDE_PATH DEPENDENCIES_OUTPUT SUNPRO_DEPENDENCIES
export LC_ALL=C

declare -a CC_FLAGS=() REF_FLAGS=()
if [ $SAME = 1 ]; then
  python3 "$HERE/pp-compare.py" --cc "$CC_STR" --ref "$REF_STR" --emit-setup "$TMP/setup" >&2 ||
    die "cannot get CC's predefined macros and include list (see above)"
  declare -a NORM=(-undef -nostdinc)
  while IFS= read -r d; do NORM+=(-isystem "$d"); done <"$TMP/setup/isystem"
  CC_FLAGS=("${NORM[@]}" -imacros "$TMP/setup/macros-cc.h")
  REF_FLAGS=("${NORM[@]}" -imacros "$TMP/setup/macros-ref.h")
fi

# ---- the input -------------------------------------------------------------------------------
STD_C='assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h
math.h setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h
stdlib.h stdnoreturn.h string.h tgmath.h threads.h time.h uchar.h wchar.h wctype.h'
POSIX='aio.h arpa/inet.h cpio.h dirent.h dlfcn.h fcntl.h fmtmsg.h fnmatch.h ftw.h glob.h grp.h
iconv.h langinfo.h libgen.h monetary.h mqueue.h net/if.h netdb.h netinet/in.h netinet/tcp.h
nl_types.h poll.h pthread.h pwd.h regex.h sched.h search.h semaphore.h spawn.h strings.h
sys/ipc.h sys/mman.h sys/msg.h sys/resource.h sys/select.h sys/sem.h sys/shm.h sys/socket.h
sys/stat.h sys/statvfs.h sys/time.h sys/times.h sys/types.h sys/uio.h sys/un.h sys/utsname.h
sys/wait.h syslog.h tar.h termios.h ulimit.h unistd.h utime.h utmpx.h wordexp.h'
GLIBC='alloca.h argp.h argz.h byteswap.h elf.h endian.h envz.h err.h error.h execinfo.h
features.h getopt.h gnu/libc-version.h ifaddrs.h link.h malloc.h mcheck.h memory.h mntent.h
netinet/ip.h netinet/udp.h netinet/if_ether.h net/ethernet.h net/route.h obstack.h paths.h
printf.h pty.h resolv.h sgtty.h shadow.h stdio_ext.h sys/auxv.h sys/epoll.h sys/eventfd.h
sys/file.h sys/fsuid.h sys/inotify.h sys/ioctl.h sys/klog.h sys/mount.h sys/param.h
sys/personality.h sys/prctl.h sys/ptrace.h sys/quota.h sys/random.h sys/reboot.h sys/sendfile.h
sys/signalfd.h sys/swap.h sys/syscall.h sys/sysinfo.h sys/sysmacros.h sys/timerfd.h sys/timex.h
sys/ttydefaults.h sys/user.h sys/vfs.h sys/xattr.h sysexits.h ucontext.h utmp.h values.h
linux/types.h linux/limits.h linux/errno.h linux/ioctl.h linux/fs.h linux/sched.h
linux/if_ether.h linux/in.h linux/socket.h linux/stat.h linux/time.h'

accepts() { # file -> 0 when both compilers preprocess it (exit status 0 within 20 s)
  timeout -k 2 20 "${REF[@]}" "${REF_FLAGS[@]}" -E -o /dev/null "$1" >/dev/null 2>&1 || return 1
  timeout -k 2 20 "${CC[@]}" "${CC_FLAGS[@]}" -E -o /dev/null "$1" >/dev/null 2>"$1.cc-err" || return 2
}
# Keep the headers the reference accepts alone (checked in parallel), then all of them together;
# should that fail, grow the list one header at a time, leaving out any that clashes with the
# ones before it.
i=0
for h in $STD_C $POSIX $GLIBC; do
  i=$((i + 1))
  printf '#define _GNU_SOURCE 1\n#include <%s>\n' "$h" >"$TMP/one-$i.c"
  ( accepts "$TMP/one-$i.c"; case $? in 0) echo "$i $h" >"$TMP/ok-$i" ;; 2) echo "$h" >"$TMP/ccbad-$i" ;; esac ) &
  [ $((i % 8)) = 0 ] && wait
done
wait
kept=() ccbad=()
for ((j = 1; j <= i; j++)); do
  [ -f "$TMP/ok-$j" ] && { read -r _ h <"$TMP/ok-$j"; kept+=("$h"); }
  [ -f "$TMP/ccbad-$j" ] && { read -r h <"$TMP/ccbad-$j"; ccbad+=("$h"); }
done
if [ ${#ccbad[@]} -gt 0 ]; then
  echo "note: left out, the reference accepts them but $CC_NAME does not: ${ccbad[*]}"
  for ((j = 1; j <= i; j++)); do
    [ -f "$TMP/ccbad-$j" ] && echo "  <$(cat "$TMP/ccbad-$j")>: $(grep -m1 -E 'error' "$TMP/one-$j.c.cc-err" | cut -c1-160)"
  done
fi
{ printf '#define _GNU_SOURCE 1\n'; printf '#include <%s>\n' "${kept[@]}"; } >"$TMP/acc.c"
if ! accepts "$TMP/acc.c"; then
  all=("${kept[@]}"); kept=()
  printf '#define _GNU_SOURCE 1\n' >"$TMP/acc.c"
  for h in "${all[@]}"; do
    cp "$TMP/acc.c" "$TMP/try.c"
    printf '#include <%s>\n' "$h" >>"$TMP/try.c"
    if accepts "$TMP/try.c"; then mv "$TMP/try.c" "$TMP/acc.c"; kept+=("$h"); fi
  done
fi
[ ${#kept[@]} -gt 0 ] || die "no header is accepted by both compilers (are they working C compilers?)"

IN="$TMP/bench input.c"
{
  cat "$TMP/acc.c"
  echo '#define BENCH_CAT_(a, b) a##b'
  echo '#define BENCH_CAT(a, b) BENCH_CAT_(a, b)'
  echo '#define BENCH_STR_(x) #x'
  echo '#define BENCH_STR(x) BENCH_STR_(x)'
  echo '#define BENCH_ARGS(...) __VA_ARGS__'
  echo 'struct bench_s { int a; char b[8]; double c; };'
  echo 'void bench_use(int, ...);'
  for i in $(seq 1 400); do
    cat <<EOF
static double BENCH_CAT(bench_f, $i)(double d, float f, long double l, int n, fd_set *s, va_list ap)
{
  double x = sqrt(d) + cos(f) + pow(l, 2) + fabs(d * $i) + fmax(f, d);
  n = htons((unsigned short)n) + ntohl(n) + isdigit(n) + toupper(n) + isspace(n);
  FD_SET(n & 7, s); if (FD_ISSET(n & 7, s)) FD_CLR(n & 7, s);
  assert(n >= 0 && BENCH_STR(bench line $i)[0] == 'b');
  x += (double)(INT64_C($i) + UINT32_MAX + SIZE_MAX / 2 + offsetof(struct bench_s, c) + va_arg(ap, int));
  bench_use(BENCH_ARGS(n, EXIT_FAILURE, EOF, BUFSIZ, CHAR_BIT, INT_MAX, LLONG_MIN, ERANGE, SIGINT, O_RDONLY), __LINE__);
  return x + MIN(n, $i) + MAX(n, $i) + htobe32(n) + le64toh(n) + bswap_32(n) + creal(I * x);
}
EOF
  done
} >"$IN"

run_ref() { "${REF[@]}" "${REF_FLAGS[@]}" -E -o /dev/null "$IN"; }
run_cc() { "${CC[@]}" "${CC_FLAGS[@]}" -E -o /dev/null "$IN"; }
now() { date +%s.%N; }
t0=$(now)
if ! run_ref 2>"$TMP/ref.err"; then
  # A body macro the reference lacks (e.g. MIN/MAX without sys/param.h): report and stop.
  die "the reference fails on the generated input: $(grep -m1 -E 'error' "$TMP/ref.err")"
fi
t1=$(now)
if ! run_cc 2>"$TMP/cc.err"; then
  echo "bench-pp: $CC_STR fails on the input: $(grep -m1 -v -E '^(In file included from|[[:space:]]+from )' "$TMP/cc.err" | cut -c1-200)" >&2
  echo "bench-pp: (the input: ${#kept[@]} headers; rerun with --keep to inspect it)" >&2
  exit 1
fi
t2=$(now)
# --repeat auto: about 1.5 s of the reference per sample; then fewer samples if the whole
# measurement (both compilers, all samples) would pass about 30 s.
read -r REPEAT RUNS < <(awk -v r="$REPEAT" -v n="$RUNS" -v g="$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" \
  -v c="$(awk -v a="$t1" -v b="$t2" 'BEGIN{print b-a}')" 'BEGIN {
  if (r == "auto") { r = int(1.5 / (g > 0.001 ? g : 0.001) + 0.5); if (r < 1) r = 1; if (r > 50) r = 50 }
  while (n > 1 && n * r * (c + g) > 30) n--
  while (r > 1 && n * r * (c + g) > 30) r--
  print r, n }')
lines=$("${REF[@]}" "${REF_FLAGS[@]}" -E "$IN" 2>/dev/null | wc -l)
echo "input: ${#kept[@]} headers + 400 generated functions; $(wc -l <"$IN") lines, $lines lines after gcc -E; each of $RUNS samples preprocesses it $REPEAT times"

# ---- timing ----------------------------------------------------------------------------------
# loop.sh WHO: the measured command; the runs go through it so hyperfine and the fallback
# measure the same thing.
{
  echo '#!/usr/bin/env bash'
  printf 'set -e\nIN=%q\n' "$IN"
  printf 'CC=(%s)\nREF=(%s)\n' "$(printf '%q ' "${CC[@]}" "${CC_FLAGS[@]}")" "$(printf '%q ' "${REF[@]}" "${REF_FLAGS[@]}")"
  printf 'for ((i = 0; i < %d; i++)); do\n' "$REPEAT"
  echo '  if [ "$1" = cc ]; then "${CC[@]}" -E -o /dev/null "$IN"; else "${REF[@]}" -E -o /dev/null "$IN"; fi'
  echo 'done'
} >"$TMP/loop.sh"
chmod +x "$TMP/loop.sh"

best_cc="" best_ref=""
min() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b + 0 < a + 0) print b; else print a }'; }
if command -v hyperfine >/dev/null 2>&1; then
  hyperfine -N --style none --warmup 1 --runs "$RUNS" --export-json "$TMP/h.json" \
    "$TMP/loop.sh cc" "$TMP/loop.sh ref" >/dev/null 2>"$TMP/hyperfine.err" ||
    die "hyperfine failed: $(head -n1 "$TMP/hyperfine.err")"
  read -r best_cc best_ref < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(min(r[0]["times"]), min(r[1]["times"]))' "$TMP/h.json") || die "cannot read hyperfine's results"
  how="hyperfine, best of $RUNS"
else
  # (no separate warm-up: the checks above just ran both; the best sample counts)
  for ((r = 0; r < RUNS; r++)); do
    for who in cc ref; do
      t0=$(date +%s.%N)
      "$TMP/loop.sh" $who >/dev/null 2>&1 || die "$who failed during timing"
      t1=$(date +%s.%N)
      t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
      if [ $who = cc ]; then best_cc=$(min "$best_cc" "$t"); else best_ref=$(min "$best_ref" "$t"); fi
    done
  done
  how="date loop, best of $RUNS"
fi
awk -v c="$best_cc" -v g="$best_ref" -v n="$REPEAT" -v cn="$CC_NAME" -v gn="$REF_NAME" -v how="$how" 'BEGIN {
  printf "%s -E: %.3f s (%.1f ms per run)\n", cn, c, 1000 * c / n
  printf "%s -E: %.3f s (%.1f ms per run)\n", gn, g, 1000 * g / n
  printf "(%s)\n", how
  printf "%s/%s = %.2f\n", cn, gn, c / g
}'
