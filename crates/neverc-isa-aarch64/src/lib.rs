//! neverc's AArch64 back end. So far: the instruction set (`asm`: instructions over physical
//! registers, their encoding to 32-bit words plus relocations, their GNU assembler text, and
//! the list of every form the referee test checks against llvm-mc).

pub mod asm;
