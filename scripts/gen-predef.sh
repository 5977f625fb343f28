#!/bin/sh
# gen-predef.sh -- regenerate crates/neverc-target/predef/<triple>.h from the reference compiler.
#
# usage: scripts/gen-predef.sh [TRIPLE...]   (default: every row below)
#
# Each file is `<cc> <flags> -dM -E -nostdinc -x c /dev/null` for that target (so nothing from
# stdc-predef.h), sorted, minus the macros neverc decides for itself. The reference compiler is
# gcc for every row except x86_64-pc-windows-msvc and aarch64-apple-darwin, which use clang.
# Removed:
#   - compiler identity: __GNUC__*, __VERSION__, __GXX_ABI_VERSION (see
#     docs/predefined-macros.md); clang's __clang__*, __clang_version__, __llvm__,
#     __APPLE_CC__, _MSC_VER/_MSC_FULL_VER/_MSC_BUILD, and __CLANG_ATOMIC_*_LOCK_FREE (clang's
#     own spelling of __GCC_ATOMIC_*_LOCK_FREE, which stays)
#   - language and option dependent ones (__STDC*, __OPTIMIZE*, __NO_INLINE__, __pic__/__PIC__/
#     __pie__/__PIE__/__DYNAMIC__, __SSP*__, _MSC_EXTENSIONS, __GNUC_STDC_INLINE__/
#     __GNUC_GNU_INLINE__, __STRICT_ANSI__, the non-reserved `linux`/`unix`/`mips`/`MIPSEL`/
#     `R3000`/`LANGUAGE_C`/`AVR`/... spellings that only GNU modes get): the driver adds them
#   - charset names (__GNUC_EXECUTION_CHARSET_NAME, __clang_literal_encoding__,
#     _MSVC_EXECUTION_CHARACTER_SET, ...)
#   - features the reference compiler has and neverc does not claim: named address spaces
#     (__SEG_FS/__SEG_GS, __seg_fs/__seg_gs, AVR __FLASH*/__MEMX), __GCC_ASM_FLAG_OUTPUTS__,
#     __ATOMIC_HLE_*, __BITINT_MAXWIDTH__, fixed-point types (*ACCUM*, *FRACT*, *_FBIT__,
#     *_IBIT__), AVR __int24 (__INT24_*, __UINT24_*) and __BUILTIN_AVR_*, blocks (__BLOCKS__,
#     __block), Objective-C and nullability (__OBJC_BOOL_IS_BOOL, __CONSTANT_CFSTRINGS__, __weak,
#     __strong, __unsafe_unretained, __nonnull, __nullable, __null_unspecified), OpenCL scopes,
#     gcc 5's __has_include/__has_include_next macros (neverc's preprocessor provides them),
#     decimal floating point (__DEC*, __DEC_EVAL_METHOD__) and __GCC_HAVE_DWARF2_CFI_ASM (neverc
#     does not assemble inline `.cfi_*` directives)
# Macros that follow -march/-mcpu/-mfpu/-mmcu/-mcmodel or the deployment target are kept with
# the values of the row's flags below: those flags are the row's defaults.
# The files are checked in, so building neverc needs no cross toolchain. The same commands are
# in crates/neverc-target/src/lib.rs (Target::reference_cc); a test keeps the two equal.
set -eu
cd "$(dirname "$0")/.."
OUT=crates/neverc-target/predef

# triple                  reference compiler and flags
# arm-linux-gnueabi: Debian's armhf gcc with -mfloat-abi=soft (base AAPCS, no FPU, __SOFTFP__),
# not arm-none-eabi-gcc, whose newlib types differ from glibc's (int32_t is long there).
ROWS='
x86_64-linux-gnu          x86_64-linux-gnu-gcc
aarch64-linux-gnu         aarch64-linux-gnu-gcc
riscv64-linux-gnu         riscv64-linux-gnu-gcc -march=rv64gc -mabi=lp64d
riscv32-unknown-elf       riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32
arm-linux-gnueabihf       arm-linux-gnueabihf-gcc -march=armv7-a+fp -mfloat-abi=hard -mthumb
arm-linux-gnueabi         arm-linux-gnueabihf-gcc -march=armv7-a -mfloat-abi=soft -mthumb
thumbv6m-none-eabi        arm-none-eabi-gcc -mcpu=cortex-m0 -mthumb -mfloat-abi=soft
thumbv7m-none-eabi        arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -mfloat-abi=soft
thumbv7em-none-eabi       arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=soft
thumbv7em-none-eabihf     arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
thumbv8m.base-none-eabi   arm-none-eabi-gcc -mcpu=cortex-m23 -mthumb -mfloat-abi=soft
thumbv8m.main-none-eabi   arm-none-eabi-gcc -mcpu=cortex-m33 -mthumb -mfloat-abi=soft
mipsel-linux-gnu          mipsel-linux-gnu-gcc -mabi=32
avr                       avr-gcc -mmcu=atmega328p
x86_64-pc-windows-msvc    clang --target=x86_64-pc-windows-msvc
aarch64-apple-darwin      clang --target=arm64-apple-macos11
'

gen() {
  triple=$1; shift
  if ! command -v "$1" >/dev/null 2>&1; then echo "gen-predef: $1 not installed, $triple kept" >&2; return 0; fi
  "$@" -dM -E -nostdinc -x c /dev/null | LC_ALL=C sort | grep -v -E \
    -e '^#define (__GNUC__|__GNUC_MINOR__|__GNUC_PATCHLEVEL__|__VERSION__|__GXX_ABI_VERSION) ' \
    -e '^#define (__clang__|__clang_major__|__clang_minor__|__clang_patchlevel__|__clang_version__|__llvm__|__APPLE_CC__) ' \
    -e '^#define (_MSC_VER|_MSC_FULL_VER|_MSC_BUILD|_MSC_EXTENSIONS) ' -e '^#define __CLANG_ATOMIC_' \
    -e '^#define __GNUC_(STDC|GNU)_INLINE__ ' -e '^#define __(GNUC_)?(WIDE_)?EXECUTION_CHARSET_NAME ' \
    -e '^#define (__clang_literal_encoding__|__clang_wide_literal_encoding__|_MSVC_EXECUTION_CHARACTER_SET) ' \
    -e '^#define __STDC' -e '^#define __STRICT_ANSI__ ' \
    -e '^#define (__OPTIMIZE__|__OPTIMIZE_SIZE__|__NO_INLINE__) ' \
    -e '^#define (__pic__|__PIC__|__pie__|__PIE__|__DYNAMIC__|__SSP__|__SSP_STRONG__|__SSP_ALL__|__SSP_EXPLICIT__) ' \
    -e '^#define (linux|unix|i386|mips|arm|avr|AVR|MIPSEL|MIPSEB|R3000|LANGUAGE_C) ' \
    -e '^#define (__SEG_FS|__SEG_GS|__seg_fs|__seg_gs|__GCC_ASM_FLAG_OUTPUTS__|__ATOMIC_HLE_ACQUIRE|__ATOMIC_HLE_RELEASE|__BITINT_MAXWIDTH__) ' \
    -e '^#define (__FLASH[0-9]*|__MEMX) ' -e '^#define __BUILTIN_AVR_' -e '^#define __U?INT24_' \
    -e '^#define __[A-Z]*(ACCUM|FRACT)_' -e '^#define __U?[QHSDT][QA]_[FI]BIT__ ' \
    -e '^#define (__BLOCKS__|__block|__OBJC_BOOL_IS_BOOL|__CONSTANT_CFSTRINGS__|__weak|__strong|__unsafe_unretained) ' \
    -e '^#define (__nonnull|__nullable|__null_unspecified) ' -e '^#define __OPENCL_MEMORY_SCOPE_' \
    -e '^#define __has_include(_next)?\(' -e '^#define __DEC' -e '^#define __GCC_HAVE_DWARF2_CFI_ASM ' \
    >"$OUT/$triple.h.tmp"
  mv "$OUT/$triple.h.tmp" "$OUT/$triple.h"
  echo "gen-predef: $triple: $(wc -l <"$OUT/$triple.h") macros from $*" >&2
}

want=" $* "
echo "$ROWS" | while read -r triple cc flags; do
  case "$triple" in ''|'#'*) continue ;; esac
  if [ "$want" != "  " ]; then case "$want" in *" $triple "*) ;; *) continue ;; esac; fi
  # shellcheck disable=SC2086
  gen "$triple" "$cc" $flags
done
