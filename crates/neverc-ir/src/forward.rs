//! Store-to-load forwarding through stack slots whose address does not escape (-O1).
//!
//! irgen keeps structs, unions and arrays in stack slots, and passes small structs in
//! registers by storing the pieces into a slot and loading them back at other widths (an
//! `i64` of two `int` members). For a slot whose address is only ever used to load, store,
//! copy or zero it at constant offsets (no call, no other pointer can reach it), this pass
//! follows what each byte holds along straight-line code (a block and the blocks with that
//! block as their only predecessor), replaces loads whose bytes are all known by the stored
//! values (truncated, shifted and combined as needed), and then deletes the stores, copies
//! and zeroings of slots nobody reads any more. A load of bytes copied into the slot from
//! other memory reads that memory instead while nothing may have written it since, and a
//! copy out of the slot of bytes that are whole known values becomes stores of them.

// Blocks, values and slots index parallel vectors: index loops read best.
#![allow(clippy::needless_range_loop)]

use crate::*;
use std::collections::HashMap;

/// What one byte of a tracked slot holds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Byte {
    Unknown,
    Zero,
    /// Byte `k` (little-endian) of an integer or float value.
    Of(Value, u8),
    /// The byte at this address plus offset in other memory, as long as nothing may have
    /// written other memory since it was copied from there.
    At(Value, i64),
}

/// The byte map of tracked slot `s`, made all unknown if there is none yet.
fn known_bytes<'a>(
    state: &'a mut HashMap<Slot, Vec<Byte>>,
    s: Slot,
    tracked: &[bool],
    sizes: &[usize],
) -> Option<&'a mut Vec<Byte>> {
    tracked[s.index()].then(|| {
        state
            .entry(s)
            .or_insert_with(|| vec![Byte::Unknown; sizes[s.index()]])
    })
}

/// Forgets what was copied from other memory (something may have written it).
fn forget_other_memory(state: &mut HashMap<Slot, Vec<Byte>>) {
    for bytes in state.values_mut() {
        for b in bytes.iter_mut() {
            if matches!(b, Byte::At(..)) {
                *b = Byte::Unknown;
            }
        }
    }
}

/// Slots larger than this are not tracked (byte maps stay small).
const MAX_SLOT: u64 = 64;

fn new_inst(f: &mut Function, op: Op, ty: Option<Type>) -> (Inst, Option<Value>) {
    let inst = Inst(f.insts.len() as u32);
    let result = ty.map(|ty| {
        f.values.push(ValueData {
            ty,
            def: ValueDef::Result(inst, 0),
        });
        Value(f.values.len() as u32 - 1)
    });
    f.insts.push(InstData { op, result });
    (inst, result)
}

/// The slot and byte offset an address value points to, through `bitcast`s and additions
/// of constants.
pub(crate) fn slot_ref(f: &Function, v: Value, depth: u32) -> Option<(Slot, i64)> {
    if depth > 8 {
        return None;
    }
    let ValueDef::Result(i, _) = f.values[v.index()].def else {
        return None;
    };
    match &f.inst(i).op {
        Op::SlotAddr(s) => Some((*s, 0)),
        Op::Conv {
            op: ConvOp::Bitcast,
            arg,
            ..
        } => slot_ref(f, *arg, depth + 1),
        Op::Binary {
            op: BinaryOp::Add,
            a,
            b,
        } => {
            let c = match f.values[b.index()].def {
                ValueDef::Result(ci, _) => match f.inst(ci).op {
                    Op::Iconst { ty, imm } if ty != Type::I128 => {
                        let n = ty.bytes() * 8;
                        Some(((imm.get() << (128 - n)) >> (128 - n)) as i64)
                    }
                    _ => None,
                },
                _ => None,
            }?;
            let (s, o) = slot_ref(f, *a, depth + 1)?;
            Some((s, o.checked_add(c)?))
        }
        _ => None,
    }
}

pub fn forward_slots(f: &mut Function) -> bool {
    if f.calls_setjmp || f.slots.is_empty() {
        return false;
    }
    let nv = f.values.len();
    let mut addr: Vec<Option<(Slot, i64)>> = vec![None; nv];
    for bd in &f.blocks {
        for &i in &bd.insts {
            if let Some(r) = f.inst(i).result {
                if f.value_type(r) == Type::Ptr || f.value_type(r) == Type::I64 {
                    addr[r.index()] = slot_ref(f, r, 0);
                }
            }
        }
    }
    // Tracked: small, and every use of an address of it is a plain access in bounds.
    let mut tracked: Vec<bool> = f.slots.iter().map(|s| s.size <= MAX_SLOT).collect();
    let in_bounds = |s: Slot, o: i64, n: u64| o >= 0 && (o as u64) + n <= f.slots[s.index()].size;
    for bd in &f.blocks {
        for &i in &bd.insts {
            let op = &f.inst(i).op;
            let mut bad = |v: Value| {
                if let Some((s, _)) = addr[v.index()] {
                    tracked[s.index()] = false;
                }
            };
            match op {
                Op::Load {
                    ty,
                    addr: a,
                    offset,
                    flags,
                } => {
                    if let Some((s, o)) = addr[a.index()] {
                        if flags.volatile || !in_bounds(s, o + *offset as i64, ty.bytes() as u64) {
                            tracked[s.index()] = false;
                        }
                    }
                }
                Op::Store {
                    value,
                    addr: a,
                    offset,
                    flags,
                } => {
                    bad(*value);
                    if let Some((s, o)) = addr[a.index()] {
                        let n = f.value_type(*value).bytes() as u64;
                        if flags.volatile || !in_bounds(s, o + *offset as i64, n) {
                            tracked[s.index()] = false;
                        }
                    }
                }
                Op::Copy { dst, src, size, .. } => {
                    for v in [dst, src] {
                        if let Some((s, o)) = addr[v.index()] {
                            if !in_bounds(s, o, *size) {
                                tracked[s.index()] = false;
                            }
                        }
                    }
                }
                Op::Zero { dst, size, .. } => {
                    if let Some((s, o)) = addr[dst.index()] {
                        if !in_bounds(s, o, *size) {
                            tracked[s.index()] = false;
                        }
                    }
                }
                // Address arithmetic whose result is itself tracked as an address.
                Op::Conv {
                    op: ConvOp::Bitcast,
                    ..
                } if f.inst(i).result.is_some_and(|r| addr[r.index()].is_some()) => {}
                Op::Binary {
                    op: BinaryOp::Add, ..
                } if f.inst(i).result.is_some_and(|r| addr[r.index()].is_some()) => {}
                other => other.for_each_operand(bad),
            }
        }
    }
    if !tracked.iter().any(|&t| t) {
        return false;
    }
    let idom = crate::verify::dominators(f);
    let nb = f.blocks.len();
    let mut npreds = vec![0u32; nb];
    for b in 0..nb {
        if idom[b].is_none() {
            continue;
        }
        if let Some(t) = f.terminator(Block(b as u32)) {
            for s in t.successors() {
                npreds[s.index()] += 1;
            }
        }
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for (b, d) in idom.iter().enumerate().skip(1) {
        if let Some(p) = *d {
            if p != b {
                children[p].push(b);
            }
        }
    }
    // What is known per tracked slot; a slot not in the map is all unknown.
    let sizes: Vec<usize> = f.slots.iter().map(|s| s.size as usize).collect();
    let mut changed = false;
    // Loads replaced: result -> value.
    let mut subst: Vec<Option<Value>> = vec![None; nv];
    let mut stack: Vec<(usize, HashMap<Slot, Vec<Byte>>)> = vec![(0, HashMap::new())];
    while let Some((b, mut state)) = stack.pop() {
        let insts = f.blocks[b].insts.clone();
        let mut out = Vec::with_capacity(insts.len());
        for i in insts {
            let op = f.inst(i).op.clone();
            match op {
                Op::Store {
                    value,
                    addr: a,
                    offset,
                    ..
                } => {
                    let value = subst.get(value.index()).copied().flatten().unwrap_or(value);
                    if !addr[a.index()].is_some_and(|(s, _)| tracked[s.index()]) {
                        forget_other_memory(&mut state);
                    }
                    if let Some((s, o)) = addr[a.index()] {
                        if let Some(bytes) = known_bytes(&mut state, s, &tracked, &sizes) {
                            let t = f.value_type(value);
                            let o = (o + offset as i64) as usize;
                            let n = t.bytes() as usize;
                            for k in 0..n {
                                bytes[o + k] = if matches!(
                                    t,
                                    Type::F80 | Type::I128 | Type::F128 | Type::V128
                                ) {
                                    Byte::Unknown
                                } else {
                                    Byte::Of(value, k as u8)
                                };
                            }
                        }
                    }
                    out.push(i);
                }
                Op::Zero { dst, size, .. } => {
                    if !addr[dst.index()].is_some_and(|(s, _)| tracked[s.index()]) {
                        forget_other_memory(&mut state);
                    }
                    if let Some((s, o)) = addr[dst.index()] {
                        if let Some(bytes) = known_bytes(&mut state, s, &tracked, &sizes) {
                            for x in &mut bytes[o as usize..o as usize + size as usize] {
                                *x = Byte::Zero;
                            }
                        }
                    }
                    out.push(i);
                }
                Op::Copy { dst, src, size, .. } => {
                    // From a tracked slot: what is known of it (maybe nothing).
                    let from: Option<Vec<Byte>> = addr[src.index()]
                        .filter(|(ss, _)| tracked[ss.index()])
                        .map(|(ss, so)| {
                            let r = so as usize..so as usize + size as usize;
                            match state.get(&ss) {
                                Some(v) => v[r].to_vec(),
                                None => vec![Byte::Unknown; r.len()],
                            }
                        });
                    let dst_tracked = addr[dst.index()].is_some_and(|(s, _)| tracked[s.index()]);
                    if !dst_tracked {
                        // Out to other memory: whole known values become stores.
                        match from.as_deref().and_then(|v| stores_of(f, v, dst, &mut out)) {
                            Some(()) => {
                                f.insts[i.index()] = InstData {
                                    op: Op::Unreachable,
                                    result: None,
                                };
                                changed = true;
                            }
                            None => out.push(i),
                        }
                        forget_other_memory(&mut state);
                        continue;
                    }
                    let (ds, o) = addr[dst.index()].unwrap();
                    let bytes = known_bytes(&mut state, ds, &tracked, &sizes).unwrap();
                    let o = o as usize;
                    match from {
                        Some(v) => bytes[o..o + size as usize].copy_from_slice(&v),
                        None => {
                            for (k, x) in bytes[o..o + size as usize].iter_mut().enumerate() {
                                *x = Byte::At(src, k as i64)
                            }
                        }
                    }
                    out.push(i);
                }
                Op::Load {
                    ty,
                    addr: a,
                    offset,
                    ..
                } => {
                    let known = addr[a.index()].and_then(|(s, o)| {
                        let o = (o + offset as i64) as usize;
                        state
                            .get(&s)
                            .map(|v| v[o..o + ty.bytes() as usize].to_vec())
                    });
                    let r = f.inst(i).result.unwrap();
                    match known.and_then(|bytes| compose(f, ty, &bytes, &mut out)) {
                        Some(v) => {
                            subst[r.index()] = Some(v);
                            // Out of every block: inert, like every removed instruction.
                            f.insts[i.index()] = InstData {
                                op: Op::Unreachable,
                                result: None,
                            };
                            changed = true;
                        }
                        None => out.push(i),
                    }
                }
                other => {
                    if !other.is_pure() {
                        forget_other_memory(&mut state);
                    }
                    out.push(i)
                }
            }
        }
        // Operands read the forwarded values.
        for &i in &out {
            f.insts[i.index()].op.for_each_operand_mut(|v| {
                while let Some(w) = subst.get(v.index()).copied().flatten() {
                    *v = w;
                }
            });
        }
        f.blocks[b].insts = out;
        for &c in &children[b] {
            let st = if npreds[c] == 1 {
                state.clone()
            } else {
                HashMap::new()
            };
            stack.push((c, st));
        }
    }
    for d in &mut f.insts {
        d.op.for_each_operand_mut(|v| {
            while let Some(w) = subst.get(v.index()).copied().flatten() {
                *v = w;
            }
        });
    }
    changed |= remove_dead_stores(f, &addr, &tracked);
    changed
}

/// The value of `ty` made of `bytes`, computed by instructions appended to `out`; None when
/// some byte is unknown or the pieces cannot be combined.
fn compose(f: &mut Function, ty: Type, bytes: &[Byte], out: &mut Vec<Inst>) -> Option<Value> {
    let n = bytes.len();
    if bytes.contains(&Byte::Unknown)
        || matches!(ty, Type::F80 | Type::I128 | Type::F128 | Type::V128)
    {
        return None;
    }
    // All from one place of other memory: load it from there.
    if let Byte::At(base, off) = bytes[0] {
        if (0..n).all(|k| bytes[k] == Byte::At(base, off + k as i64)) {
            let offset = i32::try_from(off).ok()?;
            let (i, r) = new_inst(
                f,
                Op::Load {
                    ty,
                    addr: base,
                    offset,
                    flags: MemFlags::aligned(1),
                },
                Some(ty),
            );
            out.push(i);
            return r;
        }
        return None;
    }
    if bytes.iter().any(|b| matches!(b, Byte::At(..))) {
        return None;
    }
    // The whole of one value.
    if let Byte::Of(v, 0) = bytes[0] {
        let vt = f.value_type(v);
        if vt.bytes() as usize == n && (0..n).all(|k| bytes[k] == Byte::Of(v, k as u8)) {
            if vt == ty {
                return Some(v);
            }
            let (i, r) = new_inst(
                f,
                Op::Conv {
                    op: ConvOp::Bitcast,
                    arg: v,
                    to: ty,
                },
                Some(ty),
            );
            out.push(i);
            return r;
        }
    }
    if bytes.iter().all(|b| *b == Byte::Zero) {
        let op = if ty.is_int() {
            Op::Iconst {
                ty,
                imm: Imm::new(0),
            }
        } else {
            Op::Fconst {
                ty,
                bits: Bits::new(0),
            }
        };
        let (i, r) = new_inst(f, op, Some(ty));
        out.push(i);
        return r;
    }
    if !ty.is_int() || n > 8 {
        return None;
    }
    // Integer pieces: runs of consecutive bytes of one integer value, or zeros.
    let mut acc: Option<Value> = None;
    let mut k = 0;
    while k < n {
        let Byte::Of(v, first) = bytes[k] else {
            k += 1;
            continue;
        };
        let vt = f.value_type(v);
        if !vt.is_int() || vt == Type::I128 {
            return None;
        }
        let mut len = 1;
        while k + len < n && bytes[k + len] == Byte::Of(v, first + len as u8) {
            len += 1;
        }
        // piece = (v >> 8*first) truncated to len bytes, moved to byte k.
        let mut p = v;
        if vt != Type::I64 && vt != Type::Ptr {
            let (i, r) = new_inst(
                f,
                Op::Conv {
                    op: ConvOp::Zext,
                    arg: p,
                    to: Type::I64,
                },
                Some(Type::I64),
            );
            out.push(i);
            p = r.unwrap();
        } else if vt == Type::Ptr {
            let (i, r) = new_inst(
                f,
                Op::Conv {
                    op: ConvOp::Bitcast,
                    arg: p,
                    to: Type::I64,
                },
                Some(Type::I64),
            );
            out.push(i);
            p = r.unwrap();
        }
        let bin = |f: &mut Function, out: &mut Vec<Inst>, op: BinaryOp, a: Value, c: i128| {
            let (ci, cv) = new_inst(
                f,
                Op::Iconst {
                    ty: Type::I64,
                    imm: c.into(),
                },
                Some(Type::I64),
            );
            out.push(ci);
            let (i, r) = new_inst(
                f,
                Op::Binary {
                    op,
                    a,
                    b: cv.unwrap(),
                },
                Some(Type::I64),
            );
            out.push(i);
            r.unwrap()
        };
        if first > 0 {
            p = bin(f, out, BinaryOp::LShr, p, 8 * first as i128);
        }
        // Bytes of the value above the piece are masked off (a zero extension has none).
        if first as usize + len < vt.bytes() as usize {
            p = bin(f, out, BinaryOp::And, p, (1i128 << (8 * len)) - 1);
        }
        if k > 0 {
            p = bin(f, out, BinaryOp::Shl, p, 8 * k as i128);
        }
        acc = Some(match acc {
            None => p,
            Some(a) => {
                let (i, r) = new_inst(
                    f,
                    Op::Binary {
                        op: BinaryOp::Or,
                        a,
                        b: p,
                    },
                    Some(Type::I64),
                );
                out.push(i);
                r.unwrap()
            }
        });
        k += len;
    }
    let v = acc?;
    if ty == Type::I64 {
        return Some(v);
    }
    let op = if ty == Type::Ptr {
        ConvOp::Bitcast
    } else {
        ConvOp::Trunc
    };
    let (i, r) = new_inst(f, Op::Conv { op, arg: v, to: ty }, Some(ty));
    out.push(i);
    r
}

/// Stores of the whole values `bytes` consists of, at `dst` plus their offsets (None, and
/// nothing appended, unless every byte belongs to a whole value).
fn stores_of(f: &mut Function, bytes: &[Byte], dst: Value, out: &mut Vec<Inst>) -> Option<()> {
    let mut pieces = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        let Byte::Of(v, 0) = bytes[k] else {
            return None;
        };
        let n = f.value_type(v).bytes() as usize;
        if k + n > bytes.len() || (0..n).any(|j| bytes[k + j] != Byte::Of(v, j as u8)) {
            return None;
        }
        pieces.push((v, k));
        k += n;
    }
    for (v, k) in pieces {
        let (i, _) = new_inst(
            f,
            Op::Store {
                value: v,
                addr: dst,
                offset: k as i32,
                flags: MemFlags::aligned(1),
            },
            None,
        );
        out.push(i);
    }
    Some(())
}

/// Deletes the stores, zeroings and copies into tracked slots that no load or copy reads.
fn remove_dead_stores(f: &mut Function, addr: &[Option<(Slot, i64)>], tracked: &[bool]) -> bool {
    let slot_of = |v: Value| addr.get(v.index()).copied().flatten().map(|(s, _)| s);
    let mut read = vec![false; f.slots.len()];
    // Copies from a slot count as reads only when their destination is read; iterate.
    loop {
        let mut grew = false;
        for bd in &f.blocks {
            for &i in &bd.insts {
                let s = match &f.inst(i).op {
                    Op::Load { addr: a, .. } => slot_of(*a),
                    Op::Copy { dst, src, .. } => match slot_of(*dst) {
                        Some(d) if tracked[d.index()] && !read[d.index()] => None,
                        _ => slot_of(*src),
                    },
                    _ => None,
                };
                if let Some(s) = s {
                    if !read[s.index()] {
                        read[s.index()] = true;
                        grew = true;
                    }
                }
            }
        }
        if !grew {
            break;
        }
    }
    let dead = |v: Value| slot_of(v).is_some_and(|s| tracked[s.index()] && !read[s.index()]);
    let mut changed = false;
    for b in 0..f.blocks.len() {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut kept = Vec::with_capacity(insts.len());
        for i in insts {
            let gone = match &f.inst(i).op {
                Op::Store { addr: a, .. } => dead(*a),
                Op::Zero { dst, .. } | Op::Copy { dst, .. } => dead(*dst),
                _ => false,
            };
            if gone {
                f.insts[i.index()] = InstData {
                    op: Op::Unreachable,
                    result: None,
                };
                changed = true;
            } else {
                kept.push(i);
            }
        }
        f.blocks[b].insts = kept;
    }
    changed
}
