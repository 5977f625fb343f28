#!/bin/sh
# gen-predef.sh -- regenerate crates/neverc-target/predef/<triple>.h from the reference gcc.
#
# usage: scripts/gen-predef.sh [TRIPLE...]   (default: every row below)
#
# Each file is `<gcc> -dM -E -nostdinc -x c /dev/null` for that target (so nothing from
# stdc-predef.h), sorted, minus the macros neverc decides for itself:
#   - compiler identity (__GNUC__*, __VERSION__, __GXX_ABI_VERSION): see docs/predefined-macros.md
#   - language and option dependent ones (__STDC*, __OPTIMIZE*, __NO_INLINE__, __pic__/__PIC__/
#     __pie__/__PIE__, __GNUC_STDC_INLINE__/__GNUC_GNU_INLINE__, __STRICT_ANSI__, the non-reserved
#     `linux`/`unix`/... spellings that only GNU modes get): the driver adds them
#   - features gcc has and neverc does not claim (__SEG_FS/__SEG_GS named address spaces,
#     __GCC_ASM_FLAG_OUTPUTS__, __ATOMIC_HLE_*, __BITINT_MAXWIDTH__, charset names)
# The files are checked in, so building neverc needs no cross toolchain.
set -eu
cd "$(dirname "$0")/.."
OUT=crates/neverc-target/predef

# triple                reference compiler and flags
ROWS='
x86_64-linux-gnu        gcc
'

gen() {
  triple=$1; shift
  if ! command -v "$1" >/dev/null 2>&1; then echo "gen-predef: $1 not installed, $triple kept" >&2; return 0; fi
  "$@" -dM -E -nostdinc -x c /dev/null | LC_ALL=C sort | grep -v -E \
    -e '^#define (__GNUC__|__GNUC_MINOR__|__GNUC_PATCHLEVEL__|__VERSION__|__GXX_ABI_VERSION) ' \
    -e '^#define __GNUC_(STDC|GNU)_INLINE__ ' -e '^#define __(GNUC_)?(WIDE_)?EXECUTION_CHARSET_NAME ' \
    -e '^#define __STDC' -e '^#define __STRICT_ANSI__ ' \
    -e '^#define (__OPTIMIZE__|__OPTIMIZE_SIZE__|__NO_INLINE__) ' \
    -e '^#define (__pic__|__PIC__|__pie__|__PIE__) ' \
    -e '^#define (linux|unix|i386|mips|arm|avr|AVR) ' \
    -e '^#define (__SEG_FS|__SEG_GS|__GCC_ASM_FLAG_OUTPUTS__|__ATOMIC_HLE_ACQUIRE|__ATOMIC_HLE_RELEASE|__BITINT_MAXWIDTH__) ' \
    >"$OUT/$triple.h.tmp"
  mv "$OUT/$triple.h.tmp" "$OUT/$triple.h"
  echo "gen-predef: $triple: $(wc -l <"$OUT/$triple.h") macros from $*" >&2
}

want=" $* "
echo "$ROWS" | while read -r triple cc flags; do
  [ -n "$triple" ] || continue
  if [ "$want" != "  " ]; then case "$want" in *" $triple "*) ;; *) continue ;; esac; fi
  # shellcheck disable=SC2086
  gen "$triple" "$cc" $flags
done
