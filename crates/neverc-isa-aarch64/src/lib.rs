//! neverc's AArch64 back end (AAPCS64 on Linux): the instruction set (`asm`: instructions
//! over physical registers, their encoding to 32-bit words plus relocations, their GNU
//! assembler text, and the list of every form the referee test checks against llvm-mc),
//! instruction selection from `neverc-ir` (`lower`), the frame and the allocator's moves
//! (`emit`), and the module driver (`backend`).

pub mod asm;
pub mod backend;
pub mod custom_cc;
pub mod emit;
pub mod lower;
