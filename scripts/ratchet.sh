#!/usr/bin/env bash
# ratchet.sh -- conformance ratchet on gcc's torture suite.
#
# usage: scripts/ratchet.sh [--update]
#
# Runs ../shared/tools/run-corpus.sh torture with neverc built here (cargo build --release,
# so in $CARGO_TARGET_DIR/release when that is set, else target/release) and
# compares the passing tests with tests/torture-baseline.txt (one test name a line).
# Fails when a test listed there no longer passes. With --update, rewrites the baseline
# to what passes now (do that in the change that makes more tests pass).
# Skipped, with a message, when ../shared/tools is not beside the repository.
set -u
cd "$(dirname "$0")/.."
RUNNER_SCRIPT=../shared/tools/run-corpus.sh
BASELINE=tests/torture-baseline.txt
if [ ! -x "$RUNNER_SCRIPT" ] && [ ! -f "$RUNNER_SCRIPT" ]; then
  echo "ratchet: $RUNNER_SCRIPT not found; skipped"
  exit 0
fi
cargo build --release -q -p neverc || exit 1
NEVERC=${CARGO_TARGET_DIR:-target}/release/neverc
[ -x "$NEVERC" ] || { echo "ratchet: no $NEVERC after the build"; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
VERBOSE=1 bash "$RUNNER_SCRIPT" torture "$NEVERC" >"$out" 2>&1
summary=$(tail -n 1 "$out")
grep '^PASS ' "$out" | sed 's/^PASS //' | LC_ALL=C sort >"$out.pass"
if [ "${1:-}" = "--update" ]; then
  cp "$out.pass" "$BASELINE"
  echo "ratchet: baseline updated: $(wc -l <"$BASELINE") passing"
  rm -f "$out.pass"
  exit 0
fi
touch "$BASELINE"
lost=$(LC_ALL=C comm -23 <(grep -v '^#' "$BASELINE" | LC_ALL=C sort) "$out.pass")
gained=$(LC_ALL=C comm -13 <(grep -v '^#' "$BASELINE" | LC_ALL=C sort) "$out.pass" | wc -l)
rm -f "$out.pass"
echo "ratchet: gcc torture suite with neverc ($summary); baseline $(grep -vc '^#' "$BASELINE" || true) passing, $gained newly passing"
if [ -n "$lost" ]; then
  echo "ratchet: these tests passed before and fail now:"
  echo "$lost" | sed 's/^/  /'
  exit 1
fi
exit 0
