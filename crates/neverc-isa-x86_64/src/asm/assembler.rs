//! The function assembler: lays out a list of `Inst` (with labels, alignment and jump-table
//! entries), relaxes label jumps as GNU as does, and resolves label references.
//!
//! Relaxation follows gas: every jump to a label starts in its short form (EB / 7x rel8) and
//! a jump whose displacement does not fit grows to its near form (E9 / 0F 8x rel32), until
//! nothing changes. Jumps never shrink, so the layout converges; the result is the same
//! layout gas reaches for the printed text, which keeps `-S` output and direct object output
//! byte-identical. Alignment pads with gas's nop patterns.

use super::encode::*;
use super::inst::*;
use neverc_codegen::reloc::Fixup;
use std::collections::HashMap;

/// The bytes of one assembled function, its symbol fixups (offsets from the function start)
/// and where each label landed.
#[derive(Clone, Debug, Default)]
pub struct Assembled {
    pub bytes: Vec<u8>,
    pub fixups: Vec<Fixup>,
    pub label_offsets: HashMap<Label, u32>,
}

/// gas's nop fill for x86-64 (binutils 2.40): 11-byte nops, then one nop of the remainder.
pub fn nop_fill(out: &mut Vec<u8>, mut n: usize) {
    const NOPS: [&[u8]; 12] = [
        &[],
        &[0x90],
        &[0x66, 0x90],
        &[0x0F, 0x1F, 0x00],
        &[0x0F, 0x1F, 0x40, 0x00],
        &[0x0F, 0x1F, 0x44, 0x00, 0x00],
        &[0x66, 0x0F, 0x1F, 0x44, 0x00, 0x00],
        &[0x0F, 0x1F, 0x80, 0x00, 0x00, 0x00, 0x00],
        &[0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
        &[0x66, 0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
        &[0x66, 0x2E, 0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
        &[
            0x66, 0x66, 0x2E, 0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00,
        ],
    ];
    while n > 11 {
        out.extend_from_slice(NOPS[11]);
        n -= 11;
    }
    out.extend_from_slice(NOPS[n]);
}

/// One item after pre-encoding.
enum Piece {
    /// Fixed bytes with their fixups and label uses (offsets relative to the piece).
    Fixed(Sink),
    /// A label jump: its short and near encodings, and whether it is currently near.
    Jump {
        short: Sink,
        near: Sink,
        target: Label,
        is_near: bool,
    },
    Align(u32),
    Label(Label),
}

impl Piece {
    fn len_at(&self, off: u32) -> u32 {
        match self {
            Piece::Fixed(s) => s.bytes.len() as u32,
            Piece::Jump {
                short,
                near,
                is_near,
                ..
            } => {
                if *is_near {
                    near.bytes.len() as u32
                } else {
                    short.bytes.len() as u32
                }
            }
            Piece::Align(n) => align_pad(off, *n),
            Piece::Label(_) => 0,
        }
    }
}

fn align_pad(off: u32, n: u32) -> u32 {
    if n <= 1 {
        0
    } else {
        (n - off % n) % n
    }
}

/// Assemble a function body: the bytes, symbol fixups and label offsets.
pub fn assemble(items: &[Inst]) -> Result<Assembled, EncodeError> {
    let mut pieces = Vec::with_capacity(items.len());
    for inst in items {
        pieces.push(match *inst {
            Inst::Label(l) => Piece::Label(l),
            Inst::Align(n) => {
                if !n.is_power_of_two() {
                    return Err(EncodeError::new(inst, "alignment must be a power of two"));
                }
                Piece::Align(n)
            }
            Inst::Jmp { target } | Inst::Jcc { target, .. } => {
                let mut short = Sink::default();
                encode_jump(inst, &mut short, true)?;
                let mut near = Sink::default();
                encode_jump(inst, &mut near, false)?;
                Piece::Jump {
                    short,
                    near,
                    target,
                    is_near: false,
                }
            }
            _ => {
                let mut s = Sink::default();
                encode(inst, &mut s)?;
                Piece::Fixed(s)
            }
        });
    }

    // Relax to a fixed point.
    let mut offsets = vec![0u32; pieces.len() + 1];
    let mut labels: HashMap<Label, u32> = HashMap::new();
    loop {
        labels.clear();
        let mut off = 0u32;
        for (k, p) in pieces.iter().enumerate() {
            offsets[k] = off;
            if let Piece::Label(l) = p {
                if labels.insert(*l, off).is_some() {
                    return Err(EncodeError::new(&items[k], "label defined twice"));
                }
            }
            off += p.len_at(off);
        }
        offsets[pieces.len()] = off;
        let mut changed = false;
        for (k, p) in pieces.iter_mut().enumerate() {
            if let Piece::Jump {
                short,
                target,
                is_near: is_near @ false,
                ..
            } = p
            {
                let t = *labels
                    .get(target)
                    .ok_or_else(|| EncodeError::new(&items[k], "jump to an undefined label"))?;
                let end = offsets[k] as i64 + short.bytes.len() as i64;
                let d = t as i64 - end;
                if !(-128..=127).contains(&d) {
                    *is_near = true;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }

    // Emit.
    let mut out = Assembled {
        bytes: Vec::with_capacity(offsets[pieces.len()] as usize),
        fixups: Vec::new(),
        label_offsets: HashMap::new(),
    };
    for (k, p) in pieces.iter().enumerate() {
        let base = offsets[k];
        debug_assert_eq!(base as usize, out.bytes.len());
        let sink = match p {
            Piece::Fixed(s) => s,
            Piece::Jump {
                short,
                near,
                is_near,
                ..
            } => {
                if *is_near {
                    near
                } else {
                    short
                }
            }
            Piece::Align(n) => {
                nop_fill(&mut out.bytes, align_pad(base, *n) as usize);
                continue;
            }
            Piece::Label(_) => continue,
        };
        out.bytes.extend_from_slice(&sink.bytes);
        for f in &sink.fixups {
            out.fixups.push(Fixup {
                offset: f.offset + base,
                ..*f
            });
        }
        for u in &sink.label_uses {
            let at = base + u.offset;
            let t = *labels
                .get(&u.label)
                .ok_or_else(|| EncodeError::new(&items[k], "reference to an undefined label"))?;
            let from = match u.base {
                Some(b) => *labels.get(&b).ok_or_else(|| {
                    EncodeError::new(&items[k], "reference to an undefined label")
                })?,
                None => at,
            };
            let v = t as i64 + u.addend - from as i64;
            let range = if u.size == 1 {
                -128..=127
            } else {
                i32::MIN as i64..=i32::MAX as i64
            };
            if !range.contains(&v) {
                return Err(EncodeError::new(&items[k], "label out of range"));
            }
            let b = v.to_le_bytes();
            let at = at as usize;
            out.bytes[at..at + u.size as usize].copy_from_slice(&b[..u.size as usize]);
        }
    }
    out.label_offsets = labels;
    Ok(out)
}
