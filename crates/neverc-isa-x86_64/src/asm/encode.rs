//! Encoding of one `Inst` to bytes: prefixes, REX, opcode, ModRM/SIB/displacement,
//! immediates, symbol fixups and label uses (patched later by the assembler).

use super::inst::*;
use neverc_codegen::reloc::Fixup;

/// A reference to a label in emitted bytes: the field at `offset` (`size` 1 or 4 bytes) gets
/// `label_offset + addend - (base label's offset if base is set, else offset)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelUse {
    pub offset: u32,
    pub size: u8,
    pub label: Label,
    pub addend: i64,
    pub base: Option<Label>,
}

/// Where `encode` writes: bytes, symbol fixups and label uses, offsets relative to the start
/// of `bytes` (the function start when the assembler drives it).
#[derive(Clone, Debug, Default)]
pub struct Sink {
    pub bytes: Vec<u8>,
    pub fixups: Vec<Fixup>,
    pub label_uses: Vec<LabelUse>,
}

/// Encode one instruction. Label jumps are encoded in their near (rel32) form; pseudo-items
/// other than `JumpTableEntry` emit nothing (the assembler handles them).
pub fn encode(inst: &Inst, sink: &mut Sink) -> Result<(), EncodeError> {
    let _ = sink;
    Err(EncodeError::new(inst, "not implemented yet"))
}
