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
    pub label_offsets: LabelOffsets,
}

/// A map keyed by label: direct vectors for the two ranges the back end numbers labels in
/// (block labels from 0, instruction-internal labels from 2^30), a hash map for anything
/// else. Much cheaper than hashing every label lookup.
#[derive(Clone, Debug)]
struct LabelMap<T> {
    low: Vec<Option<T>>,
    high: Vec<Option<T>>,
    other: HashMap<Label, T>,
}

impl<T> Default for LabelMap<T> {
    fn default() -> Self {
        LabelMap {
            low: Vec::new(),
            high: Vec::new(),
            other: HashMap::new(),
        }
    }
}

impl<T: Copy> LabelMap<T> {
    /// Where the second dense range starts (the lowering's `INTERNAL_LABEL`).
    const HIGH: u32 = 0x4000_0000;
    /// How far each dense range reaches.
    const DENSE: u32 = 1 << 16;

    fn get(&self, l: Label) -> Option<&T> {
        if l.0 < Self::DENSE {
            self.low.get(l.0 as usize)?.as_ref()
        } else if l.0 >= Self::HIGH && l.0 - Self::HIGH < Self::DENSE {
            self.high.get((l.0 - Self::HIGH) as usize)?.as_ref()
        } else {
            self.other.get(&l)
        }
    }

    /// Sets `l` to `v`; true when it had a value already.
    fn insert(&mut self, l: Label, v: T) -> bool {
        let (vec, i) = if l.0 < Self::DENSE {
            (&mut self.low, l.0 as usize)
        } else if l.0 >= Self::HIGH && l.0 - Self::HIGH < Self::DENSE {
            (&mut self.high, (l.0 - Self::HIGH) as usize)
        } else {
            return self.other.insert(l, v).is_some();
        };
        if i >= vec.len() {
            vec.resize(i + 1, None);
        }
        vec[i].replace(v).is_some()
    }

    fn iter(&self) -> impl Iterator<Item = (Label, T)> + '_ {
        let low = self.low.iter().enumerate();
        let high = self.high.iter().enumerate();
        low.filter_map(|(i, v)| v.map(|v| (Label(i as u32), v)))
            .chain(high.filter_map(|(i, v)| v.map(|v| (Label(Self::HIGH + i as u32), v))))
            .chain(self.other.iter().map(|(&l, &v)| (l, v)))
    }
}

/// Where each label landed.
#[derive(Clone, Debug, Default)]
pub struct LabelOffsets(LabelMap<u32>);

impl LabelOffsets {
    /// The offset of `l`, if it was placed.
    pub fn get(&self, l: &Label) -> Option<&u32> {
        self.0.get(*l)
    }

    fn insert(&mut self, l: Label, off: u32) -> bool {
        self.0.insert(l, off)
    }

    /// Every placed label and its offset.
    pub fn iter(&self) -> impl Iterator<Item = (Label, u32)> + '_ {
        self.0.iter()
    }
}

impl std::ops::Index<&Label> for LabelOffsets {
    type Output = u32;
    fn index(&self, l: &Label) -> &u32 {
        self.get(l).expect("a label that was not placed")
    }
}

impl FromIterator<(Label, u32)> for LabelOffsets {
    fn from_iter<I: IntoIterator<Item = (Label, u32)>>(it: I) -> Self {
        let mut m = LabelOffsets::default();
        for (l, o) in it {
            m.insert(l, o);
        }
        m
    }
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

/// Where one encoding lies in the assembler's shared [`Sink`]: its bytes, fixups and label
/// uses are index ranges there (one sink for the whole function instead of one per
/// instruction; fixup and label-use offsets stay sink-absolute until emission).
#[derive(Clone, Copy)]
struct Span {
    bytes: (u32, u32),
    fixups: (u32, u32),
    uses: (u32, u32),
}

impl Span {
    fn len(&self) -> u32 {
        self.bytes.1 - self.bytes.0
    }
}

/// Encodes `inst` at the end of `sink` (short label-jump form when `short`).
fn encode_span(inst: &Inst, sink: &mut Sink, short: bool) -> Result<Span, EncodeError> {
    let (b0, f0, u0) = (
        sink.bytes.len() as u32,
        sink.fixups.len() as u32,
        sink.label_uses.len() as u32,
    );
    encode_jump(inst, sink, short)?;
    Ok(Span {
        bytes: (b0, sink.bytes.len() as u32),
        fixups: (f0, sink.fixups.len() as u32),
        uses: (u0, sink.label_uses.len() as u32),
    })
}

/// One item after pre-encoding.
enum Piece {
    /// Fixed bytes with their fixups and label uses.
    Fixed(Span),
    /// A label jump: its short and near encodings, and whether it is currently near.
    Jump {
        short: Span,
        near: Span,
        target: Label,
        is_near: bool,
    },
    Align(u32),
    Label(Label),
}

impl Piece {
    fn len_at(&self, off: u32) -> u32 {
        match self {
            Piece::Fixed(s) => s.len(),
            Piece::Jump {
                short,
                near,
                is_near,
                ..
            } => {
                if *is_near {
                    near.len()
                } else {
                    short.len()
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
    // Per label: (frag, offset in it).
    let mut label_at: LabelMap<(usize, i64)> = LabelMap::default();
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
            Piece::Fixed(s) => fixed += s.len() as i64,
            Piece::Label(l) => {
                if label_at.insert(*l, (frags.len(), fixed)) {
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
                .get(*target)
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
            } => (short.len() as i64, near.len() as i64, *is_near),
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
    // Every encoding goes to this one sink (x86 instructions average under 5 bytes).
    let mut sink = Sink {
        bytes: Vec::with_capacity(items.len() * 6),
        fixups: Vec::new(),
        label_uses: Vec::new(),
    };
    for inst in items {
        pieces.push(match *inst {
            Inst::Label(l) => Piece::Label(l),
            Inst::Align(n) => {
                if !n.is_power_of_two() {
                    return Err(EncodeError::new(inst, "alignment must be a power of two"));
                }
                Piece::Align(n)
            }
            Inst::Jmp { target } | Inst::Jcc { target, .. } => Piece::Jump {
                short: encode_span(inst, &mut sink, true)?,
                near: encode_span(inst, &mut sink, false)?,
                target,
                is_near: false,
            },
            _ => Piece::Fixed(encode_span(inst, &mut sink, false)?),
        });
    }

    relax(items, &mut pieces)?;

    // Final layout.
    let mut offsets = vec![0u32; pieces.len() + 1];
    let mut labels = LabelOffsets::default();
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
        fixups: Vec::with_capacity(sink.fixups.len()),
        label_offsets: LabelOffsets::default(),
    };
    for (k, p) in pieces.iter().enumerate() {
        let base = offsets[k];
        debug_assert_eq!(base as usize, out.bytes.len());
        let span = match p {
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
        // Sink offsets are relative to the sink; `start` is this encoding's place there.
        let start = span.bytes.0;
        out.bytes
            .extend_from_slice(&sink.bytes[start as usize..span.bytes.1 as usize]);
        for f in &sink.fixups[span.fixups.0 as usize..span.fixups.1 as usize] {
            out.fixups.push(Fixup {
                offset: f.offset - start + base,
                ..*f
            });
        }
        for u in &sink.label_uses[span.uses.0 as usize..span.uses.1 as usize] {
            let at = base + (u.offset - start);
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
                .filter(|&(l, _)| l.0 >= base && l.0 < base + count)
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
