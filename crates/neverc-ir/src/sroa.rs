//! Scalar replacement of small aggregates (-O1): a stack slot whose address does not
//! escape is split into one slot per piece its accesses use, so that `mem2reg` can turn
//! each piece into SSA values.
//!
//! irgen keeps every struct in a slot, and inlining adds more (a callee's copy of a struct
//! argument, its result buffer); their fields are loaded and stored at constant offsets,
//! and whole structs are copied between slots and to and from other memory. For a slot of
//! at most [`MAX_SLOT`] bytes used only so (see [`slot_ref`]: through `bitcast`s and
//! additions of constants, in bounds, not volatile, no x87, 128-bit, vector or `_Float16`
//! access: the back end moves those only whole, never bit casts them), the
//! bytes are cut at every access boundary (and the cuts carried across copies between two
//! such slots, so both sides are cut alike), each run between cuts becomes pieces of 1, 2,
//! 4 or 8 bytes, and then:
//! - a load or store covering one piece accesses that piece's slot (with a bit cast if
//!   the piece has another type of that size); one covering several pieces combines or
//!   splits the value with shifts;
//! - a copy becomes a load and a store per piece, a zeroing a store of zero per piece.
//!
//! The old slot is then unused (removed by the simplification's slot clean-up).

// Slots and values index parallel vectors: index loops read best.
#![allow(clippy::needless_range_loop)]

use crate::forward::slot_ref;
use crate::*;
use std::collections::BTreeSet;

/// Slots larger than this stay whole.
pub const MAX_SLOT: u64 = 64;

/// One piece of a split slot.
#[derive(Clone, Copy, Debug)]
struct Piece {
    offset: u64,
    size: u64,
    ty: Type,
    slot: Slot,
}

/// Splits the slots it can; true when it split any.
pub fn split_slots(f: &mut Function) -> bool {
    if f.calls_setjmp || f.slots.is_empty() {
        return false;
    }
    let ns = f.slots.len();
    let nv = f.values.len();
    let mut addr: Vec<Option<(Slot, i64)>> = vec![None; nv];
    for bd in &f.blocks {
        for &i in &bd.insts {
            if let Some(r) = f.inst(i).result {
                addr[r.index()] = slot_ref(f, r, 0);
            }
        }
    }
    let mut ok: Vec<bool> = f
        .slots
        .iter()
        .map(|s| s.size > 0 && s.size <= MAX_SLOT)
        .collect();
    let mut cuts: Vec<BTreeSet<u64>> = f.slots.iter().map(|s| [0, s.size].into()).collect();
    // Accesses of each slot: (offset, size, type), for the pieces' types.
    let mut accesses: Vec<Vec<(u64, u64, Type)>> = vec![Vec::new(); ns];
    // Copies between two slots: (dst, dst offset, src, src offset, size).
    let mut slot_copies: Vec<(Slot, u64, Slot, u64, u64)> = Vec::new();
    let in_bounds = |s: Slot, o: i64, n: u64| o >= 0 && (o as u64) + n <= f.slots[s.index()].size;
    for bd in &f.blocks {
        for &i in &bd.insts {
            let op = &f.inst(i).op;
            let bad = |v: Value, ok: &mut Vec<bool>| {
                if let Some((s, _)) = addr[v.index()] {
                    ok[s.index()] = false;
                }
            };
            let mut access = |a: Value, off: i64, ty: Type, volatile: bool, ok: &mut Vec<bool>| {
                if let Some((s, o)) = addr[a.index()] {
                    let o = o + off;
                    let n = u64::from(ty.bytes());
                    if volatile
                        || matches!(
                            ty,
                            Type::F16 | Type::F80 | Type::F128 | Type::V128 | Type::I128
                        )
                        || !in_bounds(s, o, n)
                    {
                        ok[s.index()] = false;
                    } else {
                        cuts[s.index()].insert(o as u64);
                        cuts[s.index()].insert(o as u64 + n);
                        accesses[s.index()].push((o as u64, n, ty));
                    }
                }
            };
            match op {
                Op::Load {
                    ty,
                    addr: a,
                    offset,
                    flags,
                } => access(*a, i64::from(*offset), *ty, flags.volatile, &mut ok),
                Op::Store {
                    value,
                    addr: a,
                    offset,
                    flags,
                } => {
                    bad(*value, &mut ok);
                    let ty = f.value_type(*value);
                    access(*a, i64::from(*offset), ty, flags.volatile, &mut ok);
                }
                Op::Copy { dst, src, size, .. } => {
                    let (d, s) = (addr[dst.index()], addr[src.index()]);
                    for (slot, o) in [d, s].into_iter().flatten() {
                        if !in_bounds(slot, o, *size) {
                            ok[slot.index()] = false;
                        } else {
                            cuts[slot.index()].insert(o as u64);
                            cuts[slot.index()].insert(o as u64 + size);
                        }
                    }
                    if let (Some((ds, dof)), Some((ss, sof))) = (d, s) {
                        if ds == ss {
                            ok[ds.index()] = false;
                        } else if dof >= 0 && sof >= 0 {
                            slot_copies.push((ds, dof as u64, ss, sof as u64, *size));
                        }
                    }
                }
                Op::Zero { dst, size, .. } => {
                    if let Some((slot, o)) = addr[dst.index()] {
                        if !in_bounds(slot, o, *size) {
                            ok[slot.index()] = false;
                        } else {
                            cuts[slot.index()].insert(o as u64);
                            cuts[slot.index()].insert(o as u64 + size);
                        }
                    }
                }
                // Address arithmetic whose result is itself a known address.
                Op::Conv {
                    op: ConvOp::Bitcast,
                    ..
                }
                | Op::Binary {
                    op: BinaryOp::Add, ..
                } if f.inst(i).result.is_some_and(|r| addr[r.index()].is_some()) => {}
                other => other.for_each_operand(|v| bad(v, &mut ok)),
            }
        }
    }
    if !ok.iter().any(|&o| o) {
        return false;
    }
    // Both sides of a copy between split slots are cut alike.
    loop {
        let mut changed = false;
        for &(d, dof, s, sof, n) in &slot_copies {
            if !ok[d.index()] || !ok[s.index()] {
                continue;
            }
            let from_s: Vec<u64> = cuts[s.index()]
                .range(sof..=sof + n)
                .map(|c| c - sof + dof)
                .collect();
            let from_d: Vec<u64> = cuts[d.index()]
                .range(dof..=dof + n)
                .map(|c| c - dof + sof)
                .collect();
            for c in from_s {
                changed |= cuts[d.index()].insert(c);
            }
            for c in from_d {
                changed |= cuts[s.index()].insert(c);
            }
        }
        if !changed {
            break;
        }
    }
    // The pieces: each run between two cuts in chunks of 8, 4, 2 and 1 bytes.
    let mut pieces: Vec<Vec<Piece>> = vec![Vec::new(); ns];
    let mut any = false;
    for s in 0..ns {
        if !ok[s] {
            continue;
        }
        let cs: Vec<u64> = cuts[s].iter().copied().collect();
        let mut ps = Vec::new();
        for w in cs.windows(2) {
            let (mut o, end) = (w[0], w[1]);
            while o < end {
                let n = [8, 4, 2, 1].into_iter().find(|&n| n <= end - o).unwrap();
                // The type of the accesses of exactly this piece, if they agree.
                let mut ty = None;
                let mut agree = true;
                for &(ao, an, at) in &accesses[s] {
                    if ao == o && an == n {
                        match ty {
                            None => ty = Some(at),
                            Some(t) if t == at => {}
                            Some(_) => agree = false,
                        }
                    }
                }
                let ty = match ty {
                    Some(t) if agree => t,
                    _ => Type::int_of_bytes(n as u32).unwrap(),
                };
                ps.push(Piece {
                    offset: o,
                    size: n,
                    ty,
                    slot: Slot(0),
                });
                o += n;
            }
        }
        if ps.len() > 32 {
            ok[s] = false;
            continue;
        }
        for p in &mut ps {
            p.slot = Slot(f.slots.len() as u32);
            f.slots.push(SlotData {
                size: p.size,
                align: p.size as u32,
            });
        }
        pieces[s] = ps;
        any = true;
    }
    if !any {
        return false;
    }
    let mut subst: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut removed: Vec<Inst> = Vec::new();
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].insts);
        let mut out: Vec<Inst> = Vec::with_capacity(old.len());
        for i in old {
            let op = f.inst(i).op.clone();
            let split = |v: Value| {
                addr.get(v.index())
                    .copied()
                    .flatten()
                    .filter(|(s, _)| ok[s.index()])
            };
            let mut e = Emit { f, out: &mut out };
            match op {
                Op::Load {
                    ty,
                    addr: a,
                    offset,
                    ..
                } if split(a).is_some() => {
                    let (s, o) = split(a).unwrap();
                    let o = (o + i64::from(offset)) as u64;
                    let v = e.load(&pieces[s.index()], o, ty);
                    let r = e.f.inst(i).result.unwrap();
                    subst[r.index()] = Some(v);
                    removed.push(i);
                    continue;
                }
                Op::Store {
                    value,
                    addr: a,
                    offset,
                    ..
                } if split(a).is_some() => {
                    let (s, o) = split(a).unwrap();
                    let o = (o + i64::from(offset)) as u64;
                    let value = resolve(&subst, value);
                    e.store(&pieces[s.index()], o, value);
                    removed.push(i);
                    continue;
                }
                Op::Copy {
                    dst,
                    src,
                    size,
                    align,
                } if split(dst).is_some() || split(src).is_some() => {
                    let (dst, src) = (resolve(&subst, dst), resolve(&subst, src));
                    if let Some((ds, dof)) = split(dst) {
                        for p in pieces[ds.index()].clone() {
                            let po = p.offset as i64;
                            if po < dof || po >= dof + size as i64 {
                                continue;
                            }
                            let rel = po - dof;
                            let v = match split(src) {
                                Some((ss, sof)) => {
                                    e.load(&pieces[ss.index()], (sof + rel) as u64, p.ty)
                                }
                                None => e.mem_load(src, rel, p.ty, align),
                            };
                            e.store(&pieces[ds.index()], p.offset, v);
                        }
                    } else {
                        let (ss, sof) = split(src).unwrap();
                        for p in pieces[ss.index()].clone() {
                            let po = p.offset as i64;
                            if po < sof || po >= sof + size as i64 {
                                continue;
                            }
                            let v = e.load(&pieces[ss.index()], p.offset, p.ty);
                            e.mem_store(dst, po - sof, v, align);
                        }
                    }
                    removed.push(i);
                    continue;
                }
                Op::Zero { dst, size, .. } if split(dst).is_some() => {
                    let (ds, dof) = split(dst).unwrap();
                    for p in pieces[ds.index()].clone() {
                        let po = p.offset as i64;
                        if po < dof || po >= dof + size as i64 {
                            continue;
                        }
                        let zero = if p.ty.is_float() {
                            Op::Fconst {
                                ty: p.ty,
                                bits: Bits::new(0),
                            }
                        } else {
                            Op::Iconst {
                                ty: p.ty,
                                imm: Imm::new(0),
                            }
                        };
                        let z = e.value(zero, p.ty);
                        e.store(&pieces[ds.index()], p.offset, z);
                    }
                    removed.push(i);
                    continue;
                }
                _ => {}
            }
            out.push(i);
        }
        f.blocks[b].insts = out;
    }
    // The rewritten accesses are in no block any more: leave their arena entries inert
    // (passes that scan every instruction must not see their operands).
    for i in removed {
        f.insts[i.index()] = InstData {
            op: Op::Unreachable,
            result: None,
        };
    }
    for d in &mut f.insts {
        d.op.for_each_operand_mut(|v| *v = resolve(&subst, *v));
    }
    true
}

fn resolve(subst: &[Option<Value>], mut v: Value) -> Value {
    while let Some(w) = subst.get(v.index()).copied().flatten() {
        v = w;
    }
    v
}

/// Appends new instructions to a block being rewritten.
struct Emit<'a> {
    f: &'a mut Function,
    out: &'a mut Vec<Inst>,
}

impl Emit<'_> {
    fn inst(&mut self, op: Op, ty: Option<Type>) -> Option<Value> {
        let inst = Inst(self.f.insts.len() as u32);
        let result = ty.map(|t| {
            self.f.values.push(ValueData {
                ty: t,
                def: ValueDef::Result(inst, 0),
            });
            Value(self.f.values.len() as u32 - 1)
        });
        self.f.insts.push(InstData { op, result });
        self.out.push(inst);
        result
    }
    fn value(&mut self, op: Op, ty: Type) -> Value {
        self.inst(op, Some(ty)).unwrap()
    }
    fn iconst(&mut self, ty: Type, imm: i128) -> Value {
        self.value(
            Op::Iconst {
                ty,
                imm: imm.into(),
            },
            ty,
        )
    }
    fn conv(&mut self, op: ConvOp, arg: Value, to: Type) -> Value {
        if self.f.value_type(arg) == to {
            return arg;
        }
        self.value(Op::Conv { op, arg, to }, to)
    }
    /// `v` as an integer of its size.
    fn as_int(&mut self, v: Value) -> Value {
        let t = self.f.value_type(v);
        let it = Type::int_of_bytes(t.bytes()).unwrap();
        self.conv(ConvOp::Bitcast, v, it)
    }
    /// An integer of `ty`'s size as `ty`.
    fn int_as(&mut self, v: Value, ty: Type) -> Value {
        self.conv(ConvOp::Bitcast, v, ty)
    }
    fn piece_addr(&mut self, p: &Piece) -> Value {
        self.value(Op::SlotAddr(p.slot), Type::Ptr)
    }
    /// A load of `ty` at byte `o` of a split slot (covering whole pieces).
    fn load(&mut self, pieces: &[Piece], o: u64, ty: Type) -> Value {
        let n = u64::from(ty.bytes());
        let covered: Vec<Piece> = pieces
            .iter()
            .filter(|p| p.offset >= o && p.offset + p.size <= o + n)
            .copied()
            .collect();
        debug_assert_eq!(covered.iter().map(|p| p.size).sum::<u64>(), n);
        let mut acc: Option<Value> = None;
        let it = Type::int_of_bytes(n as u32).unwrap();
        for p in &covered {
            let a = self.piece_addr(p);
            let v = self.value(
                Op::Load {
                    ty: p.ty,
                    addr: a,
                    offset: 0,
                    flags: MemFlags::aligned(p.size as u32),
                },
                p.ty,
            );
            if covered.len() == 1 {
                if p.ty == ty {
                    return v;
                }
                let v = self.as_int(v);
                return self.int_as(v, ty);
            }
            let v = self.as_int(v);
            let v = self.conv(ConvOp::Zext, v, it);
            let shift = (p.offset - o) * 8;
            let v = if shift == 0 {
                v
            } else {
                let k = self.iconst(it, shift as i128);
                self.value(
                    Op::Binary {
                        op: BinaryOp::Shl,
                        a: v,
                        b: k,
                    },
                    it,
                )
            };
            acc = Some(match acc {
                None => v,
                Some(x) => self.value(
                    Op::Binary {
                        op: BinaryOp::Or,
                        a: x,
                        b: v,
                    },
                    it,
                ),
            });
        }
        let v = acc.unwrap();
        self.int_as(v, ty)
    }
    /// A store of `v` at byte `o` of a split slot (covering whole pieces).
    fn store(&mut self, pieces: &[Piece], o: u64, v: Value) {
        let ty = self.f.value_type(v);
        let n = u64::from(ty.bytes());
        let covered: Vec<Piece> = pieces
            .iter()
            .filter(|p| p.offset >= o && p.offset + p.size <= o + n)
            .copied()
            .collect();
        debug_assert_eq!(covered.iter().map(|p| p.size).sum::<u64>(), n);
        let whole = self.as_int(v);
        let it = self.f.value_type(whole);
        for p in &covered {
            let part = if covered.len() == 1 {
                whole
            } else {
                let shift = (p.offset - o) * 8;
                let s = if shift == 0 {
                    whole
                } else {
                    let k = self.iconst(it, shift as i128);
                    self.value(
                        Op::Binary {
                            op: BinaryOp::LShr,
                            a: whole,
                            b: k,
                        },
                        it,
                    )
                };
                let pt = Type::int_of_bytes(p.size as u32).unwrap();
                self.conv(ConvOp::Trunc, s, pt)
            };
            let part = self.int_as(part, p.ty);
            let a = self.piece_addr(p);
            self.inst(
                Op::Store {
                    value: part,
                    addr: a,
                    offset: 0,
                    flags: MemFlags::aligned(p.size as u32),
                },
                None,
            );
        }
    }
    /// Alignment of byte `rel` of memory aligned to `align`.
    fn align_at(align: u32, rel: i64) -> u32 {
        if rel == 0 {
            align.max(1)
        } else {
            align.max(1).min(1 << rel.trailing_zeros().min(31))
        }
    }
    fn mem_load(&mut self, base: Value, rel: i64, ty: Type, align: u32) -> Value {
        self.value(
            Op::Load {
                ty,
                addr: base,
                offset: rel as i32,
                flags: MemFlags::aligned(Self::align_at(align, rel)),
            },
            ty,
        )
    }
    fn mem_store(&mut self, base: Value, rel: i64, v: Value, align: u32) {
        self.inst(
            Op::Store {
                value: v,
                addr: base,
                offset: rel as i32,
                flags: MemFlags::aligned(Self::align_at(align, rel)),
            },
            None,
        );
    }
}
