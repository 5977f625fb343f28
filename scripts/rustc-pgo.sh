#!/bin/sh
# rustc-pgo.sh -- cargo's rustc wrapper (.cargo/config.toml): optimised builds (opt-level 3,
# the release profile) are compiled with neverc's execution profile, pgo/neverc.profdata
# (scripts/pgo-profile.sh makes it). Everything else passes through unchanged, and so does
# everything with NEVERC_PGO=off (to measure what the profile gains: build both ways, each in
# its own CARGO_TARGET_DIR, since cargo does not rebuild when only this changes).
# The path is made absolute here: cargo runs rustc from a different directory for
# dependencies than for the workspace's crates.
root=$(cd "$(dirname "$0")/.." && pwd)
case "${NEVERC_PGO:-on} $* " in
  off\ *|*profile-generate*) ;;
  *" opt-level=3 "*)
    if [ -f "$root/pgo/neverc.profdata" ]; then
      # A function changed since the profile was taken is optimised without it; LLVM's
      # note about each such function is only noise.
      exec "$@" "-Cprofile-use=$root/pgo/neverc.profdata" -Cllvm-args=-no-pgo-warn-mismatch
    fi
    ;;
esac
exec "$@"
