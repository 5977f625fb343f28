#!/usr/bin/env bash
# pgo-profile.sh -- regenerates pgo/neverc.profdata, the execution profile that release
# builds of neverc are optimised with (.cargo/config.toml passes -Cprofile-use to rustc).
#
# usage:  scripts/pgo-profile.sh
#
# 1. builds an instrumented neverc (-Cprofile-generate, its own target directory);
# 2. runs it over the project's own C programs: every file of tests/exec and benches/c/run
#    compiled with -O0 -c, -O1 -c and -O0 -S for x86-64, the first 100 of tests/exec also
#    preprocessed (-E), checked (-fsyntax-only) and compiled for AArch64 at -O0 and -O1;
#    the compile-time benchmark's generated input is deliberately not among them;
# 3. merges the counts into pgo/neverc.profdata with the toolchain's llvm-profdata
#    (`rustup component add llvm-tools` provides it).
# Run it after changes that move the compiler's hot paths: a function whose code changed
# since the profile was taken is simply optimised without it (rustc does not warn), so a
# stale profile costs speed, never correctness. Commit the new file.
# Environment: PGO_TARGET_DIR (default target/pgo-generate) for the instrumented build.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
die() { echo "pgo-profile: $*" >&2; exit 2; }

PROFDATA=
for d in "$(rustc --print sysroot)"/lib/rustlib/*/bin; do
  [ -x "$d/llvm-profdata" ] && PROFDATA=$d/llvm-profdata
done
[ -n "$PROFDATA" ] || die "llvm-profdata not found: run 'rustup component add llvm-tools'"

W=$(mktemp -d "${TMPDIR:-/tmp}/pgo-profile.XXXXXX")
trap 'rm -rf "$W"' EXIT
TD=${PGO_TARGET_DIR:-$ROOT/target/pgo-generate}

echo "pgo-profile: building the instrumented compiler in $TD"
# RUSTFLAGS replaces the config's -Cprofile-use for this build.
CARGO_TARGET_DIR=$TD RUSTFLAGS="-Cprofile-generate=$W/raw" \
  cargo build --release -q -p neverc
CC=$TD/release/neverc

echo "pgo-profile: training on tests/exec and benches/c/run"
mapfile -t files < <(find tests/exec benches/c/run -name '*.c' | sort)
n=0
for f in "${files[@]}"; do
  # Programs that are meant to be refused still exercise the front end.
  "$CC" -O0 -c "$f" -o "$W/a.o" 2>/dev/null || true
  "$CC" -O1 -c "$f" -o "$W/a.o" 2>/dev/null || true
  "$CC" -O0 -S "$f" -o "$W/a.s" 2>/dev/null || true
  if [ $n -lt 100 ]; then
    "$CC" -E "$f" -o "$W/a.i" 2>/dev/null || true
    "$CC" -fsyntax-only "$f" 2>/dev/null || true
    "$CC" --target=aarch64-linux-gnu -O0 -c "$f" -o "$W/a.o" 2>/dev/null || true
    "$CC" --target=aarch64-linux-gnu -O1 -c "$f" -o "$W/a.o" 2>/dev/null || true
  fi
  n=$((n + 1))
done

mkdir -p pgo
"$PROFDATA" merge -o pgo/neverc.profdata "$W"/raw/*.profraw
echo "pgo-profile: wrote pgo/neverc.profdata ($(wc -c <pgo/neverc.profdata) bytes) from ${#files[@]} programs"
