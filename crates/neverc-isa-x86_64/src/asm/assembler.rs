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
use super::fast;
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

    /// A map with room for the labels `ends` counted (no regrowth while it is filled).
    fn sized(ends: LabelEnds) -> Self {
        LabelMap {
            low: vec![None; ends.low as usize],
            high: vec![None; ends.high as usize],
            other: HashMap::new(),
        }
    }

    #[inline]
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

/// How far the two dense label ranges of a function reach (one past the largest label
/// number in each), to size its label maps once.
#[derive(Clone, Copy, Default)]
struct LabelEnds {
    low: u32,
    high: u32,
}

impl LabelEnds {
    fn add(&mut self, l: Label) {
        type M = LabelMap<u32>;
        if l.0 < M::DENSE {
            self.low = self.low.max(l.0 + 1);
        } else if l.0 >= M::HIGH && l.0 - M::HIGH < M::DENSE {
            self.high = self.high.max(l.0 - M::HIGH + 1);
        }
    }
}

/// Where each label landed.
#[derive(Clone, Debug, Default)]
pub struct LabelOffsets(LabelMap<u32>);

impl LabelOffsets {
    /// The offset of `l`, if it was placed.
    #[inline]
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

/// An item of variable size (or none) between the fixed encodings: a label, an alignment or
/// a relaxable label jump. Fixed instructions are encoded straight into one sink, in order;
/// a variable item records where it falls among those bytes.
#[derive(Clone, Copy)]
struct Var {
    /// The sink offset it sits at (the fixed bytes before it).
    at: u32,
    /// Its final address (set once relaxation is done).
    addr: u32,
    /// The item it is, for error messages.
    item: u32,
    kind: VarKind,
}

#[derive(Clone, Copy)]
enum VarKind {
    Label(Label),
    Align(u32),
    /// A jump to a label: EB/70+cc rel8 when short, E9 rel32 or 0F 80+cc rel32 when near.
    Jump {
        cond: Option<Cond>,
        target: Label,
        is_near: bool,
    },
}

/// The short and near lengths of a label jump.
fn jump_lens(cond: Option<Cond>) -> (i64, i64) {
    (2, if cond.is_some() { 6 } else { 5 })
}

impl Var {
    fn len_at(&self, off: u32) -> u32 {
        match self.kind {
            VarKind::Label(_) => 0,
            VarKind::Align(n) => align_pad(off, n),
            VarKind::Jump { cond, is_near, .. } => {
                let (s, n) = jump_lens(cond);
                (if is_near { n } else { s }) as u32
            }
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
    /// The label jump at this index of the variable items.
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
/// makes a jump longer than strictly needed. `fixed_len` is the size of all fixed bytes.
fn relax(
    items: &[Inst],
    vars: &mut [Var],
    fixed_len: u32,
    ends: LabelEnds,
) -> Result<(), EncodeError> {
    let mut frags: Vec<Frag> = Vec::with_capacity(vars.len() + 1);
    // Per label: (frag, offset in it).
    let mut label_at: LabelMap<(usize, i64)> = LabelMap::sized(ends);
    // Where the current frag's fixed bytes start in the sink.
    let mut frag_start = 0i64;
    let new_frag = |fixed: i64, tail: Tail| Frag {
        fixed,
        tail,
        address: 0,
        marker: false,
        region: 0,
    };
    for (k, v) in vars.iter().enumerate() {
        let at = v.at as i64;
        match v.kind {
            VarKind::Label(l) => {
                if label_at.insert(l, (frags.len(), at - frag_start)) {
                    return Err(EncodeError::new(
                        &items[v.item as usize],
                        "label defined twice",
                    ));
                }
            }
            VarKind::Jump { .. } => {
                frags.push(new_frag(at - frag_start, Tail::Jump(k)));
                frag_start = at;
            }
            VarKind::Align(n) => {
                // `.p2align 0` opens no new region in gas (checked against as 2.40).
                if n > 1 {
                    frags.push(new_frag(at - frag_start, Tail::Align(n)));
                    frag_start = at;
                }
            }
        }
    }
    frags.push(new_frag(fixed_len as i64 - frag_start, Tail::End));
    if frags.len() == 1 {
        return Ok(());
    }
    let mut targets = vec![(0usize, 0i64); vars.len()];
    for (k, v) in vars.iter().enumerate() {
        if let VarKind::Jump { target, .. } = v.kind {
            targets[k] = *label_at.get(target).ok_or_else(|| {
                EncodeError::new(&items[v.item as usize], "jump to an undefined label")
            })?;
        }
    }
    let jump_len = |v: &Var| -> (i64, i64, bool) {
        match v.kind {
            VarKind::Jump { cond, is_near, .. } => {
                let (s, n) = jump_lens(cond);
                (s, n, is_near)
            }
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
            Tail::Jump(k) => address += jump_len(&vars[k]).0,
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
                    let (short_len, near_len, is_near) = jump_len(&vars[k]);
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
                            if let VarKind::Jump { is_near, .. } = &mut vars[k].kind {
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
#[inline(never)]
pub fn assemble(items: &[Inst]) -> Result<Assembled, EncodeError> {
    // Every fixed encoding goes to this one sink, in order; fixup and label-use offsets are
    // sink offsets until emission. The bytes so far are `sink.bytes[..pos]`; the fast path
    // writes straight into the window after them, which is kept at least 32 bytes long
    // (x86 instructions average under 5 bytes).
    let mut sink = Sink {
        bytes: vec![0; items.len() * 5 + 64],
        fixups: Vec::new(),
        label_uses: Vec::new(),
    };
    let mut pos = 0usize;
    let mut vars: Vec<Var> = Vec::with_capacity(items.len() / 2);
    let mut ends = LabelEnds::default();
    // (first label use, item) for every item with label uses, for error messages.
    let mut use_items: Vec<(u32, u32)> = Vec::new();
    // The item's index is needed only off the fast path: it is computed there from the
    // item's address rather than counted for every item.
    let index_of = |inst: &Inst| {
        (inst as *const Inst as usize - items.as_ptr() as usize) / std::mem::size_of::<Inst>()
    };
    for inst in items {
        // (A loop, and the window taken as `[pos..][..32]`: the compiler then knows the
        // window fits and checks only `pos` against the length.)
        while sink.bytes.len() - pos < 32 {
            sink.bytes.resize(sink.bytes.len() * 2, 0);
        }
        let window: &mut fast::Window = (&mut sink.bytes[pos..][..32])
            .try_into()
            .expect("a 32-byte window");
        let n = fast::fast(inst, window, &mut sink.fixups, pos as u32);
        if n != 0 {
            pos += n;
            continue;
        }
        let kind = match *inst {
            Inst::Label(l) => {
                ends.add(l);
                VarKind::Label(l)
            }
            Inst::Align(n) => {
                if !n.is_power_of_two() {
                    return Err(EncodeError::new(inst, "alignment must be a power of two"));
                }
                VarKind::Align(n)
            }
            Inst::Jmp { target } => VarKind::Jump {
                cond: None,
                target,
                is_near: false,
            },
            Inst::Jcc { cond, target } => VarKind::Jump {
                cond: Some(cond),
                target,
                is_near: false,
            },
            _ => {
                // The general path appends to the sink: the window goes while it runs.
                sink.bytes.truncate(pos);
                let u0 = sink.label_uses.len();
                encode_jump(inst, &mut sink, false)?;
                if sink.label_uses.len() > u0 {
                    use_items.push((u0 as u32, index_of(inst) as u32));
                }
                pos = sink.bytes.len();
                sink.bytes.resize(pos + 64, 0);
                continue;
            }
        };
        vars.push(Var {
            at: pos as u32,
            addr: 0,
            item: index_of(inst) as u32,
            kind,
        });
    }
    sink.bytes.truncate(pos);
    let fixed_len = pos as u32;

    relax(items, &mut vars, fixed_len, ends)?;

    // Final layout: every variable item's address, every label's offset.
    let mut labels = LabelOffsets(LabelMap::sized(ends));
    let mut growth = 0u32;
    for v in vars.iter_mut() {
        v.addr = v.at + growth;
        if let VarKind::Label(l) = v.kind {
            labels.insert(l, v.addr);
        }
        growth += v.len_at(v.addr);
    }

    // Emit: the fixed bytes between variable items, each item's bytes, fixups and label
    // uses moved by the growth before them.
    let use_item = |u: usize| {
        let i = use_items.partition_point(|&(first, _)| first as usize <= u);
        &items[use_items[i - 1].1 as usize]
    };
    let label_offset = |l: Label, u: usize| {
        labels
            .get(&l)
            .copied()
            .ok_or_else(|| EncodeError::new(use_item(u), "reference to an undefined label"))
    };
    let mut out = Assembled {
        bytes: Vec::with_capacity((fixed_len + growth) as usize),
        fixups: Vec::with_capacity(sink.fixups.len()),
        label_offsets: LabelOffsets::default(),
    };
    let (mut fi, mut ui, mut prev) = (0usize, 0usize, 0u32);
    // Final offset minus sink offset of the fixed bytes being copied.
    let mut delta = 0u32;
    // Labels have no bytes and move nothing: the runs between them are copied as one.
    let emitted = vars.iter().filter(|v| !matches!(v.kind, VarKind::Label(_)));
    for v in emitted.map(Some).chain(std::iter::once(None)) {
        let at = v.map_or(fixed_len, |v| v.at);
        out.bytes
            .extend_from_slice(&sink.bytes[prev as usize..at as usize]);
        prev = at;
        while let Some(f) = sink.fixups.get(fi).filter(|f| f.offset < at) {
            out.fixups.push(Fixup {
                offset: f.offset + delta,
                ..*f
            });
            fi += 1;
        }
        while let Some(u) = sink.label_uses.get(ui).filter(|u| u.offset < at) {
            let at = u.offset + delta;
            let t = label_offset(u.label, ui)?;
            let from = match u.base {
                Some(b) => label_offset(b, ui)?,
                None => at,
            };
            let v = t as i64 + u.addend - from as i64;
            let range = if u.size == 1 {
                -128..=127
            } else {
                i32::MIN as i64..=i32::MAX as i64
            };
            if !range.contains(&v) {
                return Err(EncodeError::new(use_item(ui), "label out of range"));
            }
            let b = v.to_le_bytes();
            let at = at as usize;
            out.bytes[at..at + u.size as usize].copy_from_slice(&b[..u.size as usize]);
            ui += 1;
        }
        let Some(v) = v else { break };
        let item = &items[v.item as usize];
        match v.kind {
            VarKind::Label(_) => {}
            VarKind::Align(n) => nop_fill(&mut out.bytes, align_pad(v.addr, n) as usize),
            VarKind::Jump {
                cond,
                target,
                is_near,
            } => {
                let t = *labels
                    .get(&target)
                    .ok_or_else(|| EncodeError::new(item, "reference to an undefined label"))?;
                let len = v.len_at(v.addr);
                let disp = t as i64 - (v.addr + len) as i64;
                if is_near {
                    match cond {
                        None => out.bytes.push(0xE9),
                        Some(c) => out.bytes.extend_from_slice(&[0x0F, 0x80 | c.code()]),
                    }
                    if i32::try_from(disp).is_err() {
                        return Err(EncodeError::new(item, "label out of range"));
                    }
                    out.bytes.extend_from_slice(&(disp as i32).to_le_bytes());
                } else {
                    out.bytes.push(match cond {
                        None => 0xEB,
                        Some(c) => 0x70 | c.code(),
                    });
                    if !(-128..=127).contains(&disp) {
                        return Err(EncodeError::new(item, "label out of range"));
                    }
                    out.bytes.push(disp as i8 as u8);
                }
            }
        }
        delta = v.addr + v.len_at(v.addr) - v.at;
    }
    debug_assert_eq!(out.bytes.len(), (fixed_len + growth) as usize);
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
