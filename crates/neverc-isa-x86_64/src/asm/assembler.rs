//! The function assembler: lays out a list of `Inst` (with labels, alignment and jump-table
//! entries), relaxes label jumps as GNU as does, and resolves label references.
//!
//! Relaxation follows gas: every jump to a label starts in its short form (EB / 7x rel8) and
//! a jump whose displacement does not fit grows to its near form (E9 / 0F 8x rel32), pass
//! after pass until nothing changes, with gas's own estimates within a pass (see `relax`).
//! Jumps never shrink, so the layout converges; the result is the layout gas reaches for the
//! printed text, which keeps `-S` output and direct object output byte-identical. Alignment
//! pads with gas's nop patterns.

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

/// gas's code padding for x86-64 (binutils 2.40): 11-byte nops, then one nop of the
/// remainder; from 88 bytes on (more than seven 11-byte nops) gas first emits a jump over
/// the padding (EB rel8 when it reaches, else E9 rel32) and fills the rest with nops.
pub fn nop_fill(out: &mut Vec<u8>, mut n: usize) {
    if n / 11 > 7 {
        if n - 2 <= 127 {
            out.extend_from_slice(&[0xEB, (n - 2) as u8]);
            n -= 2;
        } else {
            out.push(0xE9);
            out.extend_from_slice(&((n - 5) as u32).to_le_bytes());
            n -= 5;
        }
    }
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

/// The variable tail of a gas frag: what ends it.
#[derive(Clone, Copy)]
enum Tail {
    /// The label jump at this piece index.
    Jump(usize),
    Align(u32),
    End,
}

/// A gas frag: fixed bytes, then a variable part (a relaxable jump or an alignment).
struct Frag {
    fixed: i64,
    tail: Tail,
    address: i64,
    /// Flipped when a pass visits the frag (tells forward from backward references).
    marker: bool,
    /// Alignment frags start a new region (gas does not assume later code moves by the
    /// current stretch across an alignment).
    region: u32,
}

/// Decide which label jumps are near, by the same passes GNU as makes over its frags
/// (binutils `relax_segment` / `relax_frag`): addresses are updated as a pass goes, a
/// forward target is assumed to move by the growth so far unless an alignment lies between,
/// and a pass that grows nothing ends it. Matching gas (rather than computing the least
/// fixed point) keeps `-S` output and direct encoding identical even where gas's estimate
/// makes a jump longer than strictly needed.
fn relax(items: &[Inst], pieces: &mut [Piece]) -> Result<(), EncodeError> {
    let mut frags: Vec<Frag> = Vec::new();
    let mut label_at: HashMap<Label, (usize, i64)> = HashMap::new();
    let mut fixed = 0i64;
    let new_frag = |fixed: i64, tail: Tail| Frag {
        fixed,
        tail,
        address: 0,
        marker: false,
        region: 0,
    };
    for (k, p) in pieces.iter().enumerate() {
        match p {
            Piece::Fixed(s) => fixed += s.bytes.len() as i64,
            Piece::Label(l) => {
                if label_at.insert(*l, (frags.len(), fixed)).is_some() {
                    return Err(EncodeError::new(&items[k], "label defined twice"));
                }
            }
            Piece::Jump { .. } => {
                frags.push(new_frag(fixed, Tail::Jump(k)));
                fixed = 0;
            }
            Piece::Align(n) => {
                // `.p2align 0` opens no new region in gas (checked against as 2.40).
                if *n > 1 {
                    frags.push(new_frag(fixed, Tail::Align(*n)));
                    fixed = 0;
                }
            }
        }
    }
    frags.push(new_frag(fixed, Tail::End));
    let mut targets = vec![(0usize, 0i64); pieces.len()];
    for (k, p) in pieces.iter().enumerate() {
        if let Piece::Jump { target, .. } = p {
            targets[k] = *label_at
                .get(target)
                .ok_or_else(|| EncodeError::new(&items[k], "jump to an undefined label"))?;
        }
    }
    let jump_len = |p: &Piece| -> (i64, i64, bool) {
        match p {
            Piece::Jump {
                short,
                near,
                is_near,
                ..
            } => (short.bytes.len() as i64, near.bytes.len() as i64, *is_near),
            _ => unreachable!(),
        }
    };

    // Initial layout: every jump short.
    let (mut address, mut region) = (0i64, 0u32);
    for f in frags.iter_mut() {
        f.region = region;
        f.address = address;
        address += f.fixed;
        match f.tail {
            Tail::Jump(k) => address += jump_len(&pieces[k]).0,
            Tail::Align(n) => {
                address += align_pad(address as u32, n) as i64;
                region += 1;
            }
            Tail::End => {}
        }
    }

    loop {
        let mut stretch = 0i64;
        let mut stretched = false;
        for fi in 0..frags.len() {
            frags[fi].marker = !frags[fi].marker;
            let was = frags[fi].address;
            frags[fi].address += stretch;
            let f = &frags[fi];
            let growth = match f.tail {
                Tail::Align(n) => {
                    let old = align_pad((was + f.fixed) as u32, n) as i64;
                    let new = align_pad((f.address + f.fixed) as u32, n) as i64;
                    new - old
                }
                Tail::Jump(k) => {
                    let (short_len, near_len, is_near) = jump_len(&pieces[k]);
                    if is_near {
                        0
                    } else {
                        let (tf, toff) = targets[k];
                        let t = &frags[tf];
                        let mut target = t.address + toff;
                        // The displacement field follows the one-byte short opcode.
                        let field = f.address + f.fixed + 1;
                        let mut skip = false;
                        if stretch != 0 && t.marker != f.marker {
                            if stretch < 0 || t.region == f.region {
                                target += stretch;
                            } else if target < field {
                                skip = true;
                            }
                        }
                        let disp = target - (f.address + f.fixed + short_len);
                        if skip || (-128..=127).contains(&disp) {
                            0
                        } else {
                            if let Piece::Jump { is_near, .. } = &mut pieces[k] {
                                *is_near = true;
                            }
                            near_len - short_len
                        }
                    }
                }
                Tail::End => 0,
            };
            if growth != 0 {
                stretch += growth;
                stretched = true;
            }
        }
        if !stretched {
            return Ok(());
        }
    }
}

/// Assemble a function body: the bytes, symbol fixups and label offsets.
///
/// Offset 0 is taken to be aligned to every `Align(n)` in the body, so the function must be
/// placed at a multiple of its largest alignment (as the printed text's `.p2align` before
/// the function does). Labels must be defined exactly once; jumps, rip-relative label
/// operands and jump-table entries may refer to labels before or after them.
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

    relax(items, &mut pieces)?;

    // Final layout.
    let mut offsets = vec![0u32; pieces.len() + 1];
    let mut labels: HashMap<Label, u32> = HashMap::new();
    let mut off = 0u32;
    for (k, p) in pieces.iter().enumerate() {
        offsets[k] = off;
        if let Piece::Label(l) = p {
            labels.insert(*l, off);
        }
        off += p.len_at(off);
    }
    offsets[pieces.len()] = off;

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

/// Assemble the functions of one section together, in order, each starting at a multiple of
/// `align` (the printed text puts `.p2align` before each function). GNU as relaxes a whole
/// section at once, and within a pass its estimate for a forward jump across an alignment
/// depends on how much earlier code (earlier functions included) has grown, so the exact gas
/// layout of a function can depend on the functions before it. Use this (rather than
/// `assemble` per function) when the bytes must equal what gas makes of the whole `-S` file.
/// Each function's labels are its own; offsets in each result are function-relative, and
/// the padding between functions belongs to none of them.
pub fn assemble_section(funcs: &[&[Inst]], align: u32) -> Result<Vec<Assembled>, EncodeError> {
    // Renumber labels per function into one space, plus a start and an end label each.
    let mut items = Vec::new();
    let mut spans = Vec::with_capacity(funcs.len());
    let mut next = 0u32;
    for f in funcs {
        let count = f
            .iter()
            .filter_map(|i| match i {
                Inst::Label(l) => Some(l.0),
                _ => None,
            })
            .max()
            .map_or(0, |m| m + 1);
        let base = next;
        let (start, end) = (Label(base + count), Label(base + count + 1));
        next = base + count + 2;
        spans.push((base, count, start, end));
        items.push(Inst::Align(align));
        items.push(Inst::Label(start));
        for i in *f {
            let mut i = *i;
            relabel(&mut i, base);
            items.push(i);
        }
        items.push(Inst::Label(end));
    }
    let all = assemble(&items)?;
    let mut out = Vec::with_capacity(funcs.len());
    for &(base, count, start, end) in &spans {
        let (lo, hi) = (all.label_offsets[&start], all.label_offsets[&end]);
        out.push(Assembled {
            bytes: all.bytes[lo as usize..hi as usize].to_vec(),
            fixups: all
                .fixups
                .iter()
                .filter(|f| f.offset >= lo && f.offset < hi)
                .map(|f| Fixup {
                    offset: f.offset - lo,
                    ..*f
                })
                .collect(),
            label_offsets: all
                .label_offsets
                .iter()
                .filter(|(l, _)| l.0 >= base && l.0 < base + count)
                .map(|(l, o)| (Label(l.0 - base), o - lo))
                .collect(),
        });
    }
    Ok(out)
}

/// Moves a function's labels into the shared numbering (label references included).
fn relabel(i: &mut Inst, base: u32) {
    let r = |l: &mut Label| l.0 += base;
    match i {
        Inst::Label(l) | Inst::Jmp { target: l } | Inst::Jcc { target: l, .. } => r(l),
        Inst::JumpTableEntry { target, base: b } => {
            r(target);
            r(b);
        }
        _ => {
            i.visit_operands(&mut |_| {}, &mut |_| {}, &mut |m| {
                if let Some(l) = &mut m.label {
                    l.0 += base;
                }
            });
        }
    }
}
