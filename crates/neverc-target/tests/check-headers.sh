#!/bin/sh
# check-headers.sh -- compile tests/check-headers.c with neverc's freestanding headers
# (crates/neverc-target/include) under each reference compiler that is installed:
#   freestanding:  -nostdinc -isystem include -ffreestanding
#   hosted:        -nostdinc -isystem include -isystem <empty dir> (a C library without
#                  these headers, so nothing to include_next)
#   with libc:     -nostdinc -isystem include -isystem <the target's C library headers>
#   reference:     the compiler's own <stddef.h>, for the max_align_t facts only
# all with -std=c17 (c11 for avr-gcc 5) -pedantic -Werror, and checks that <varargs.h>
# refuses. A missing compiler is reported and skipped; any failure exits 1.
set -u
cd "$(dirname "$0")/.."
INC=include
SRC=tests/check-headers.c
fail=0
ran=0
EMPTY=$(mktemp -d)
trap 'rmdir "$EMPTY"' EXIT

check() { # description, command...
  desc=$1; shift
  if out=$("$@" 2>&1); then
    echo "ok: $desc"
  else
    echo "FAIL: $desc"; echo "  $*"; echo "$out" | sed 's/^/  /'; fail=1
  fi
}

# name | compiler and target flags | -std | C library include dirs (may be empty)
while IFS='|' read -r name cc std libc; do
  [ -n "$name" ] || continue
  set -- $cc
  if ! command -v "$1" >/dev/null 2>&1; then echo "skipped: $name ($1 not installed)"; continue; fi
  ran=$((ran + 1))
  common="-fsyntax-only -std=$std -pedantic -Werror -Wall -Wextra"
  check "$name freestanding" $cc $common -nostdinc -isystem $INC -ffreestanding $SRC
  check "$name hosted, no libc" $cc $common -nostdinc -isystem $INC -isystem "$EMPTY" $SRC
  libargs=""
  for d in $libc; do [ -d "$d" ] && libargs="$libargs -isystem $d"; done
  if [ -n "$libargs" ]; then
    check "$name with libc" $cc $common -nostdinc -isystem $INC $libargs -DNEVERC_WITH_LIBC $SRC
  elif [ -n "$libc" ]; then
    echo "skipped: $name with libc ($libc not found)"
  fi
  check "$name reference max_align_t" $cc $common -ffreestanding -DNEVERC_REF_ONLY $SRC
  if echo '#include <varargs.h>' | $cc -fsyntax-only -nostdinc -isystem $INC -x c - 2>&1 | grep -q 'use <stdarg.h>'; then
    echo "ok: $name varargs.h refuses"
  else
    echo "FAIL: $name varargs.h did not refuse"; fail=1
  fi
done <<'ROWS'
x86_64-linux-gnu|gcc|c17|/usr/include/x86_64-linux-gnu /usr/include
aarch64-linux-gnu|aarch64-linux-gnu-gcc|c17|/usr/aarch64-linux-gnu/include
riscv64-linux-gnu|riscv64-linux-gnu-gcc|c17|/usr/riscv64-linux-gnu/include
arm-linux-gnueabihf|arm-linux-gnueabihf-gcc|c17|/usr/arm-linux-gnueabihf/include
mipsel-linux-gnu|mipsel-linux-gnu-gcc|c17|/usr/mipsel-linux-gnu/include
thumbv7m-none-eabi|arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb|c17|/usr/lib/arm-none-eabi/include
thumbv6m-none-eabi|arm-none-eabi-gcc -mcpu=cortex-m0 -mthumb|c17|/usr/lib/arm-none-eabi/include
avr|avr-gcc -mmcu=atmega328p|c11|/usr/lib/avr/include
riscv32-unknown-elf|riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32|c17|/usr/lib/picolibc/riscv64-unknown-elf/include
x86_64-pc-windows-msvc|clang --target=x86_64-pc-windows-msvc|c17|
aarch64-apple-darwin|clang --target=arm64-apple-macos11|c17|
ROWS

if [ "$ran" = 0 ]; then echo "no compiler found"; exit 1; fi
exit $fail
