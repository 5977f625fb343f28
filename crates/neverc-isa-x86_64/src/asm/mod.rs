//! The x86-64 instruction set: machine instructions over physical registers (`inst`), their
//! encoding to bytes plus fixups (`encode`), their GNU as AT&T text (`print`), the
//! function-level assembler that places labels, relaxes branches and lays out jump tables
//! (`assembler`), and the list of every encodable form that the llvm-mc / GNU as referee
//! test checks (`forms`).
//!
//! Invariant: for every instruction, `encode` gives the same bytes and relocations that
//! GNU as gives for the text `print` returns, so `-S` output and direct object output agree.
//! For whole functions the same holds for `assemble_section` (all functions of a section
//! together, as gas relaxes them); `assemble` of one function alone matches gas unless
//! earlier functions of the same section grew while gas was relaxing (rare, see there).

pub mod assembler;
pub mod att;
pub mod encode;
mod fast;
pub mod forms;
pub mod inst;
pub mod print;

pub use assembler::{assemble, assemble_section, nop_fill, Assembled, LabelOffsets};
pub use encode::{encode, encode_jump, LabelUse, Sink};
pub use inst::*;
pub use print::print;
