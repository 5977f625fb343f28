#!/bin/sh
# setup.sh -- install everything neverc's tests use, on Debian 12 (bookworm) or later.
# Idempotent and non-interactive: does nothing when every package is already installed.
# Needs root or sudo. Usage: sh scripts/setup.sh
set -eu

# Reference and cross compilers, emulators and the tools the tests call.
PACKAGES="
  gcc make python3
  tcc clang lld
  qemu-user qemu-system-arm qemu-system-misc
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross
  gcc-riscv64-linux-gnu libc6-dev-riscv64-cross
  gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
  gcc-mipsel-linux-gnu libc6-dev-mipsel-cross
  gcc-arm-none-eabi libnewlib-arm-none-eabi
  gcc-avr binutils-avr avr-libc simavr
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
  csmith libcsmith-dev creduce gcc-12-source
"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  echo "setup: all packages already installed"
else
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -y
  # shellcheck disable=SC2086
  $SUDO apt-get install -y --no-install-recommends $missing
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found: install Rust 1.95 or later (https://rustup.rs)" >&2
  exit 1
fi
echo "setup: done"
