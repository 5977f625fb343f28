#!/usr/bin/env bash
# bench-size-aarch64.sh -- code size of neverc's AArch64 back end next to aarch64-linux-gnu-gcc.
#
# usage:  scripts/bench-size-aarch64.sh [--set run|exec|all] [--worst N] [--keep]
#   --set WHAT   which programs: benches/c/run/*.c ("run", a table per program), the
#                execution corpus tests/exec/*/*.c ("exec", geomeans and the worst
#                programs), or both (default)
#   --worst N    how many of the exec corpus's programs with the largest nc-O1/gcc-Os
#                ratio to list (default 10)
#   --keep       keep the objects and the per-program figures (sizes.tsv) and say where
#
# Environment: NEVERC=path uses that neverc; otherwise `cargo build --release -p neverc` is
# run first (CARGO_TARGET_DIR honoured). GCC=cmd picks the reference (default
# aarch64-linux-gnu-gcc); SIZE=cmd the size tool (default aarch64-linux-gnu-size).
# JOBS=n compilations at a time (default 2).
#
# Each program is compiled to an object (`-c`, no linking, nothing run) by
# `neverc --target=aarch64-linux-gnu -O0` and `-O1` and by `gcc -O2` and `gcc -Os`, and
# its size is the sum of the object's `.text*` sections (`size -A`). gcc keeps jump
# tables in .rodata, neverc in .text after the function, so `.text` counts neverc's
# tables and not gcc's: the comparison is slightly in gcc's favour there.
# A program that one of the four compilations refuses (neverc's refusals by name, gcc
# on x86 inline asm) is left out of that set and counted. Ratios above 1.00 mean
# neverc's code is bigger; geomeans are over the programs all four compiled.
# Output: readable tables, then one `SUMMARY <metric> <value>` line per figure.
set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SET=all
WORST=10
KEEP=0

usage() {
  local st=${1:-2}
  if [ "$st" = 0 ]; then exec 3>&1; else exec 3>&2; fi
  sed -n '2,/^set -u/{/^#/s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&3
  exit "$st"
}
die() { echo "bench-size-aarch64: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case $1 in
    --set) [ $# -ge 2 ] || usage; SET=$2; shift 2 ;;
    --set=*) SET=${1#--set=}; shift ;;
    --worst) [ $# -ge 2 ] || usage; WORST=$2; shift 2 ;;
    --worst=*) WORST=${1#--worst=}; shift ;;
    --keep) KEEP=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "bench-size-aarch64: unknown argument: $1" >&2; usage ;;
  esac
done
case $SET in all|run|exec) ;; *) die "--set takes run, exec or all" ;; esac
case $WORST in ''|*[!0-9]*) die "--worst takes a number" ;; esac

GCC=${GCC:-aarch64-linux-gnu-gcc}
SIZE=${SIZE:-aarch64-linux-gnu-size}
JOBS=${JOBS:-2}
for t in python3 xargs "$GCC" "$SIZE"; do
  command -v "$t" >/dev/null 2>&1 || die "$t not found (see ../shared/tools/CROSS.md)"
done

if [ -n "${NEVERC:-}" ]; then
  [ -x "$NEVERC" ] || die "NEVERC=$NEVERC is not executable"
else
  (cd "$ROOT" && cargo build --release -q -p neverc) || die "cargo build failed"
  NEVERC=${CARGO_TARGET_DIR:-$ROOT/target}/release/neverc
fi
NEVERC=$(cd "$(dirname "$NEVERC")" && pwd)/$(basename "$NEVERC")

W=$(mktemp -d "${TMPDIR:-/tmp}/bench-size-aarch64.XXXXXX")
if [ $KEEP = 0 ]; then trap 'rm -rf "$W"' EXIT; fi

# One line per compilation: SET NAME CONFIG SOURCE.
{
  if [ "$SET" != exec ]; then
    for f in "$ROOT"/benches/c/run/*.c; do
      n=$(basename "$f" .c)
      for c in nc-O0 nc-O1 gcc-O2 gcc-Os; do echo "run $n $c $f"; done
    done
  fi
  if [ "$SET" != run ]; then
    for f in "$ROOT"/tests/exec/*/*.c; do
      n=${f#"$ROOT"/tests/exec/}; n=${n%.c}
      for c in nc-O0 nc-O1 gcc-O2 gcc-Os; do echo "exec $n $c $f"; done
    done
  fi
} > "$W/jobs"

# Compiles one job and prints `SET NAME CONFIG BYTES` (BYTES "-" when it failed).
cat > "$W/one.sh" <<'EOF'
#!/usr/bin/env bash
set -u
s=$1 n=$2 c=$3 f=$4
o="$W/$s/${n//\//__}.$c.o"
mkdir -p "$W/$s"
case $c in
  nc-O0) cmd=("$NEVERC" --target=aarch64-linux-gnu -O0 -w) ;;
  nc-O1) cmd=("$NEVERC" --target=aarch64-linux-gnu -O1 -w) ;;
  gcc-O2) cmd=("$GCC" -O2 -w) ;;
  gcc-Os) cmd=("$GCC" -Os -w) ;;
esac
if "${cmd[@]}" -c -o "$o" "$f" >/dev/null 2>&1; then
  b=$("$SIZE" -A "$o" | awk '$1 ~ /^\.text/ { s += $2 } END { print s + 0 }')
else
  b=-
fi
echo "$s $n $c $b"
EOF
chmod +x "$W/one.sh"
export W NEVERC GCC SIZE
xargs -P "$JOBS" -L 1 "$W/one.sh" < "$W/jobs" > "$W/sizes.tsv"

python3 - "$W/sizes.tsv" "$WORST" <<'EOF'
import math, sys
from collections import defaultdict

rows = defaultdict(dict)
for line in open(sys.argv[1]):
    s, n, c, b = line.split()
    rows[(s, n)][c] = None if b == "-" else int(b)
worst = int(sys.argv[2])
RATIOS = [("nc-O1", "gcc-O2"), ("nc-O1", "gcc-Os"), ("nc-O0", "gcc-O2"), ("nc-O0", "gcc-Os")]
CFG = ["nc-O0", "nc-O1", "gcc-O2", "gcc-Os"]

def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")

summary = []
for s in ("run", "exec"):
    names = sorted(n for (t, n) in rows if t == s)
    if not names:
        continue
    ok, failed = [], defaultdict(list)
    for n in names:
        r = rows[(s, n)]
        bad = [c for c in CFG if r.get(c) is None or r.get(c) == 0]
        if bad:
            for c in bad:
                failed[c].append(n)
        else:
            ok.append(n)
    title = "benches/c/run" if s == "run" else "tests/exec"
    print(f"== {title}: .text bytes of each object, neverc/gcc ratios ==")
    if s == "run":
        hdr = f"{'program':<12}" + "".join(f"{c:>8}" for c in CFG)
        hdr += "".join(f"{a[3:] + '/' + b:>13}" for a, b in RATIOS)
        print(hdr)
        for n in ok:
            r = rows[(s, n)]
            line = f"{n:<12}" + "".join(f"{r[c]:>8}" for c in CFG)
            line += "".join(f"{r[a] / r[b]:>13.2f}" for a, b in RATIOS)
            print(line)
    totals = {c: sum(rows[(s, n)][c] for n in ok) for c in CFG}
    gms = {(a, b): geomean([rows[(s, n)][a] / rows[(s, n)][b] for n in ok]) for a, b in RATIOS}
    label = "geomean" if s == "run" else f"geomean ({len(ok)} programs)"
    print(f"{label:<12}" + " " * 32 + "".join(f"{gms[k]:>13.2f}" for k in RATIOS))
    print(f"{'total':<12}" + "".join(f"{totals[c]:>8}" for c in CFG)
          + "".join(f"{totals[a] / totals[b]:>13.2f}" for a, b in RATIOS))
    for c in CFG:
        if failed[c]:
            print(f"  not compiled by {c} ({len(failed[c])}): {' '.join(failed[c][:12])}"
                  + (" ..." if len(failed[c]) > 12 else ""))
    if s == "exec" and worst > 0:
        by = sorted(ok, key=lambda n: -rows[(s, n)]["nc-O1"] / rows[(s, n)]["gcc-Os"])
        print(f"  largest nc-O1/gcc-Os: " + ", ".join(
            f"{n} {rows[(s, n)]['nc-O1'] / rows[(s, n)]['gcc-Os']:.2f}" for n in by[:worst]))
    print()
    for a, b in RATIOS:
        summary.append(f"SUMMARY size.{s}.geomean.{a}/{b} {gms[(a, b)]:.3f}")
    summary.append(f"SUMMARY size.{s}.programs {len(ok)}")
print("\n".join(summary))
EOF
if [ $KEEP = 1 ]; then echo "kept: $W (sizes.tsv, objects)"; fi
