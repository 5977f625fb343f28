//! neverc-isa-x86_64: the x86-64 back end. `asm` is its instruction set: the machine
//! instructions over physical registers, their encoder (bytes plus fixups) and their GNU
//! assembler text, and the assembler that lays out a function (labels, branch relaxation).
//! Lowering from the IR, register allocation and the frame live beside it.

pub mod asm;
pub mod backend;
pub mod direct;
pub mod emit;
pub mod lower;
pub mod vcode;
