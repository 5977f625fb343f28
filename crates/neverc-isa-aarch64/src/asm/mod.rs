//! The AArch64 instruction set: instructions over physical registers (`inst`), their encoding
//! to one 32-bit word plus at most one relocation or label reference (`encode`), their GNU
//! assembler text (`print`), the function assembler that places labels and resolves branches
//! (`assemble`), and every encodable form for the referee test (`forms`).
//!
//! Invariant: for every instruction, `encode` gives the word and relocation that llvm-mc and
//! GNU as give for the text `print` returns. An operand the encoder cannot represent (an
//! immediate out of range, `sp` where only `xzr` exists, a logical immediate that is not a
//! bitmask) is an error, never a different instruction.

pub mod encode;
pub mod forms;
pub mod inst;
pub mod parse;
pub mod print;

pub use encode::{assemble, encode, Assembled, Encoded, LabelKind};
pub use inst::*;
pub use print::print;
