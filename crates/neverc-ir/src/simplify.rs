//! Scalar simplification at -O1, after mem2reg: constant folding, algebraic identities,
//! common-subexpression elimination of pure operations along the dominator tree, folding
//! of branches on constants, removal of redundant and dead block parameters, dead-code
//! elimination and removal of stack slots nobody addresses any more.
//!
//! Loads are never merged (there is no alias analysis), volatile and atomic operations are
//! not pure and stay, and a function that calls `setjmp` is left alone (a value kept in a
//! register across the second return would be stale).

// Blocks, values and slots index parallel vectors: index loops read best.
#![allow(clippy::needless_range_loop)]

use crate::*;
use std::collections::HashMap;

/// Simplifies every function of the module.
pub fn simplify_module(m: &mut Module) {
    mark_blocks_in_data(m);
    for f in &mut m.functions {
        simplify(f);
    }
}

/// Sets [`Function::blocks_in_data`] of the functions whose block addresses data holds.
pub fn mark_blocks_in_data(m: &mut Module) {
    let named: std::collections::HashSet<Sym> = m
        .data
        .iter()
        .flat_map(|d| d.block_relocs.iter().map(|r| r.1))
        .collect();
    for f in &mut m.functions {
        f.blocks_in_data = named.contains(&f.sym);
    }
}

/// Simplifies one function to a fixed point (a few rounds at most).
pub fn simplify(f: &mut Function) {
    // Blocks whose address is taken are reached in ways the branches do not show.
    let labels_as_values = f
        .insts
        .iter()
        .any(|d| matches!(d.op, Op::BlockAddr(_) | Op::IndirectJump { .. }));
    if f.calls_setjmp || labels_as_values || f.blocks_in_data {
        return;
    }
    for _ in 0..6 {
        let mut changed = gut_unreachable(f);
        changed |= crate::forward::forward_slots(f);
        changed |= fold_and_cse(f);
        // Edges out of blocks the folding cut off must not count as incoming values.
        changed |= gut_unreachable(f);
        changed |= remove_block_params(f);
        changed |= remove_dead_params(f);
        changed |= merge_blocks(f);
        changed |= dce(f);
        if !changed {
            break;
        }
    }
    licm(f);
    remove_unused_slots(f);
}

/// Bits of an integer type (`Ptr` as 64).
fn bits(t: Type) -> u32 {
    t.bytes() * 8
}

/// `x` wrapped to `t`'s width, zero-extended.
fn wrap(t: Type, x: i128) -> i128 {
    let n = bits(t);
    if n >= 128 {
        x
    } else {
        x & ((1i128 << n) - 1)
    }
}

/// `x` of type `t`, sign-extended from its width.
fn signed(t: Type, x: i128) -> i128 {
    let n = bits(t);
    if n >= 128 {
        x
    } else {
        let s = 128 - n;
        (x << s) >> s
    }
}

/// The constant an integer binary operation gives, if it is defined.
fn fold_binary(op: BinaryOp, t: Type, a: i128, b: i128) -> Option<i128> {
    let (ua, ub) = (wrap(t, a), wrap(t, b));
    let (sa, sb) = (signed(t, a), signed(t, b));
    let n = bits(t) as i128;
    let r = match op {
        BinaryOp::Add => ua.wrapping_add(ub),
        BinaryOp::Sub => ua.wrapping_sub(ub),
        BinaryOp::Mul => ua.wrapping_mul(ub),
        BinaryOp::And => ua & ub,
        BinaryOp::Or => ua | ub,
        BinaryOp::Xor => ua ^ ub,
        BinaryOp::UDiv | BinaryOp::URem if ub == 0 => return None,
        BinaryOp::UDiv => ua / ub,
        BinaryOp::URem => ua % ub,
        BinaryOp::SDiv | BinaryOp::SRem
            if sb == 0 || (sb == -1 && sa == signed(t, 1 << (n - 1))) =>
        {
            return None
        }
        BinaryOp::SDiv => sa / sb,
        BinaryOp::SRem => sa % sb,
        // Shift amounts are their own (possibly other) type: the caller passes them
        // zero-extended; out-of-range shifts are left to the machine.
        BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr if b < 0 || b >= n => return None,
        BinaryOp::Shl => ua << b,
        BinaryOp::LShr => ua >> b,
        BinaryOp::AShr => sa >> b,
        _ => return None,
    };
    Some(wrap(t, r))
}

fn fold_icmp(cc: IntCC, t: Type, a: i128, b: i128) -> bool {
    let (ua, ub) = (wrap(t, a), wrap(t, b));
    let (sa, sb) = (signed(t, a), signed(t, b));
    match cc {
        IntCC::Eq => ua == ub,
        IntCC::Ne => ua != ub,
        IntCC::Slt => sa < sb,
        IntCC::Sle => sa <= sb,
        IntCC::Sgt => sa > sb,
        IntCC::Sge => sa >= sb,
        IntCC::Ult => ua < ub,
        IntCC::Ule => ua <= ub,
        IntCC::Ugt => ua > ub,
        IntCC::Uge => ua >= ub,
    }
}

/// What an instruction simplifies to.
enum Simpl {
    /// Nothing known.
    Keep,
    /// The result is this other value.
    Same(Value),
    /// The result is this constant (of the result's type).
    Const(i128),
    /// A rewritten operation with the same result.
    Op(Op),
}

fn resolve(subst: &[Option<Value>], mut v: Value) -> Value {
    while let Some(w) = subst.get(v.index()).copied().flatten() {
        v = w;
    }
    v
}

/// The integer constant `v` is, if any (not for 128-bit values).
fn iconst_of(f: &Function, v: Value) -> Option<i128> {
    match f.values[v.index()].def {
        ValueDef::Result(i, _) => match &f.inst(i).op {
            Op::Iconst { ty, imm } if *ty != Type::I128 => Some(wrap(*ty, imm.get())),
            _ => None,
        },
        _ => None,
    }
}

fn def_op(f: &Function, v: Value) -> Option<&Op> {
    match f.values[v.index()].def {
        ValueDef::Result(i, _) => Some(&f.inst(i).op),
        _ => None,
    }
}

/// An existing value of exactly `width` bits that equals bits `shift..shift + width` of
/// `v`, found through extensions, shifts by constants and `or`s with values known to be
/// zero there.
fn extract_bits(f: &Function, v: Value, shift: u32, width: u32, depth: u32) -> Option<Value> {
    let t = f.value_type(v);
    if !t.is_int() || t == Type::I128 || depth > 6 || shift + width > bits(t) {
        return None;
    }
    if shift == 0 && width == bits(t) {
        return Some(v);
    }
    match def_op(f, v)? {
        Op::Conv {
            op: ConvOp::Zext | ConvOp::Sext,
            arg,
            ..
        } if shift + width <= bits(f.value_type(*arg)) => {
            extract_bits(f, *arg, shift, width, depth + 1)
        }
        Op::Binary {
            op: BinaryOp::Or,
            a,
            b,
        } => {
            if known_zero(f, *b, shift, width) {
                extract_bits(f, *a, shift, width, depth + 1)
            } else if known_zero(f, *a, shift, width) {
                extract_bits(f, *b, shift, width, depth + 1)
            } else {
                None
            }
        }
        Op::Binary {
            op: BinaryOp::Shl,
            a,
            b,
        } => {
            let k = iconst_of(f, *b)?;
            (k >= 0 && k < bits(t) as i128 && shift as i128 >= k)
                .then(|| extract_bits(f, *a, shift - k as u32, width, depth + 1))
                .flatten()
        }
        Op::Binary {
            op: BinaryOp::LShr,
            a,
            b,
        } => {
            let k = iconst_of(f, *b)?;
            (k >= 0 && (shift + width) as i128 + k <= bits(t) as i128)
                .then(|| extract_bits(f, *a, shift + k as u32, width, depth + 1))
                .flatten()
        }
        _ => None,
    }
}

/// Whether bits `shift..shift + width` of `v` are known to be zero.
fn known_zero(f: &Function, v: Value, shift: u32, width: u32) -> bool {
    let t = f.value_type(v);
    if !t.is_int() || t == Type::I128 {
        return false;
    }
    if let Some(c) = iconst_of(f, v) {
        let mask = if width >= 128 {
            -1
        } else {
            (1i128 << width) - 1
        };
        return (wrap(t, c) >> shift) & mask == 0;
    }
    match def_op(f, v) {
        Some(Op::Conv {
            op: ConvOp::Zext,
            arg,
            ..
        }) => shift >= bits(f.value_type(*arg)),
        Some(Op::Binary {
            op: BinaryOp::Shl,
            b,
            ..
        }) => iconst_of(f, *b).is_some_and(|k| k >= 0 && (shift + width) as i128 <= k),
        Some(Op::Binary {
            op: BinaryOp::LShr,
            b,
            ..
        }) => iconst_of(f, *b)
            .is_some_and(|k| k >= 0 && k < bits(t) as i128 && shift as i128 >= bits(t) as i128 - k),
        _ => false,
    }
}

fn simplify_op(f: &Function, op: &Op, rty: Option<Type>) -> Simpl {
    match *op {
        Op::Binary { op: bop, a, b } => {
            let t = f.value_type(a);
            if !t.is_int() || t == Type::I128 {
                return Simpl::Keep;
            }
            let (ca, cb) = (iconst_of(f, a), iconst_of(f, b));
            if let (Some(x), Some(y)) = (ca, cb) {
                return match fold_binary(bop, t, x, y) {
                    Some(r) => Simpl::Const(r),
                    None => Simpl::Keep,
                };
            }
            let commutative = matches!(
                bop,
                BinaryOp::Add | BinaryOp::Mul | BinaryOp::And | BinaryOp::Or | BinaryOp::Xor
            );
            // Constants to the right, where the back end folds them into immediates.
            if commutative && ca.is_some() {
                return Simpl::Op(Op::Binary {
                    op: bop,
                    a: b,
                    b: a,
                });
            }
            let ones = wrap(t, -1);
            match (bop, cb) {
                (
                    BinaryOp::Add
                    | BinaryOp::Sub
                    | BinaryOp::Or
                    | BinaryOp::Xor
                    | BinaryOp::Shl
                    | BinaryOp::LShr
                    | BinaryOp::AShr,
                    Some(0),
                ) => Simpl::Same(a),
                (BinaryOp::Mul | BinaryOp::SDiv | BinaryOp::UDiv, Some(1)) => Simpl::Same(a),
                (BinaryOp::And, Some(c)) if c == ones => Simpl::Same(a),
                (BinaryOp::Mul | BinaryOp::And, Some(0)) => Simpl::Const(0),
                (BinaryOp::URem, Some(1)) => Simpl::Const(0),
                (BinaryOp::Sub | BinaryOp::Xor, _) if a == b => Simpl::Const(0),
                (BinaryOp::And | BinaryOp::Or, _) if a == b => Simpl::Same(a),
                _ => Simpl::Keep,
            }
        }
        Op::Unary { op: uop, arg } => {
            let t = f.value_type(arg);
            match (uop, iconst_of(f, arg)) {
                (UnaryOp::Neg, Some(x)) => Simpl::Const(wrap(t, x.wrapping_neg())),
                (UnaryOp::Not, Some(x)) => Simpl::Const(wrap(t, !x)),
                _ => Simpl::Keep,
            }
        }
        Op::Icmp { cc, a, b } => {
            let t = f.value_type(a);
            if t == Type::I128 {
                return Simpl::Keep;
            }
            match (iconst_of(f, a), iconst_of(f, b)) {
                (Some(x), Some(y)) => Simpl::Const(fold_icmp(cc, t, x, y) as i128),
                _ => Simpl::Keep,
            }
        }
        Op::Conv { op: cop, arg, to } => {
            let from = f.value_type(arg);
            if from == Type::I128 || to == Type::I128 {
                return Simpl::Keep;
            }
            if let Some(x) = iconst_of(f, arg) {
                return match cop {
                    ConvOp::Zext | ConvOp::Trunc => Simpl::Const(wrap(to, x)),
                    ConvOp::Sext => Simpl::Const(wrap(to, signed(from, x))),
                    ConvOp::Bitcast if to.is_int() => Simpl::Const(wrap(to, x)),
                    _ => Simpl::Keep,
                };
            }
            if cop == ConvOp::Bitcast && from == to {
                return Simpl::Same(arg);
            }
            // Truncating a value assembled from pieces (or taken apart by shifts) to
            // one of its pieces.
            if cop == ConvOp::Trunc && to.is_int() {
                if let Some(v) = extract_bits(f, arg, 0, bits(to), 0) {
                    if f.value_type(v) == to {
                        return Simpl::Same(v);
                    }
                }
            }
            match (cop, def_op(f, arg)) {
                // Bitcasting back: the original value.
                (
                    ConvOp::Bitcast,
                    Some(Op::Conv {
                        op: ConvOp::Bitcast,
                        arg: inner,
                        ..
                    }),
                ) if f.value_type(*inner) == to => Simpl::Same(*inner),
                // Truncating an extension back to the original width.
                (
                    ConvOp::Trunc,
                    Some(Op::Conv {
                        op: ConvOp::Zext | ConvOp::Sext,
                        arg: inner,
                        ..
                    }),
                ) if f.value_type(*inner) == to => Simpl::Same(*inner),
                // Masking off bits the truncation drops anyway.
                (
                    ConvOp::Trunc,
                    Some(Op::Binary {
                        op: BinaryOp::And,
                        a: inner,
                        b: mask,
                    }),
                ) if iconst_of(f, *mask).is_some_and(|c| wrap(to, c) == wrap(to, -1)) => {
                    Simpl::Op(Op::Conv {
                        op: ConvOp::Trunc,
                        arg: *inner,
                        to,
                    })
                }
                // An extension of an extension of the same kind: one extension.
                (
                    ConvOp::Zext | ConvOp::Sext,
                    Some(Op::Conv {
                        op: inner_op,
                        arg: inner,
                        ..
                    }),
                ) if *inner_op == cop => Simpl::Op(Op::Conv {
                    op: cop,
                    arg: *inner,
                    to,
                }),
                _ => Simpl::Keep,
            }
        }
        Op::Select { cond, a, b } => {
            if a == b {
                return Simpl::Same(a);
            }
            match iconst_of(f, cond) {
                Some(c) if c != 0 => Simpl::Same(a),
                Some(_) => Simpl::Same(b),
                None => Simpl::Keep,
            }
        }
        _ => {
            let _ = rty;
            Simpl::Keep
        }
    }
}

/// Immediate dominator tree children, from [`crate::dominators`].
fn dom_children(idom: &[Option<usize>]) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); idom.len()];
    for (b, d) in idom.iter().enumerate().skip(1) {
        if let Some(p) = *d {
            if p != b {
                children[p].push(b);
            }
        }
    }
    children
}

/// An available expression: the operation and its result type.
type CseKey = (Op, Type);

/// Folding, identities, CSE of pure non-load operations and constant branches, in one
/// walk over the dominator tree.
fn fold_and_cse(f: &mut Function) -> bool {
    let idom = crate::verify::dominators(f);
    let children = dom_children(&idom);
    let mut subst: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut changed = false;
    // Available expressions: (operation, result type) -> value; scoped by the walk.
    let mut avail: HashMap<CseKey, Value> = HashMap::new();
    let mut stack: Vec<(usize, bool, Vec<CseKey>)> = vec![(0, false, Vec::new())];
    while let Some((b, entered, added)) = stack.pop() {
        if entered {
            for k in added {
                avail.remove(&k);
            }
            continue;
        }
        let mut added_here = Vec::new();
        let insts = f.blocks[b].insts.clone();
        for i in insts {
            let mut op = std::mem::replace(&mut f.insts[i.index()].op, Op::Unreachable);
            op.for_each_operand_mut(|v| {
                let w = resolve(&subst, *v);
                if w != *v {
                    *v = w;
                    changed = true;
                }
            });
            let result = f.insts[i.index()].result;
            let rty = result.map(|r| f.value_type(r));
            // Rewrite until nothing more applies (a rewritten op may fold further).
            let mut replaced = None;
            for _ in 0..4 {
                match simplify_op(f, &op, rty) {
                    Simpl::Keep => break,
                    Simpl::Same(v) => {
                        replaced = Some(v);
                        break;
                    }
                    Simpl::Const(c) => {
                        op = Op::Iconst {
                            ty: rty.unwrap(),
                            imm: c.into(),
                        };
                        changed = true;
                        break;
                    }
                    Simpl::Op(o) => {
                        op = o;
                        changed = true;
                    }
                }
            }
            if let (Some(v), Some(r)) = (replaced, result) {
                subst[r.index()] = Some(v);
                changed = true;
            } else if let (Some(r), Some(t)) = (result, rty) {
                let cse = op.is_pure()
                    && !matches!(op, Op::Load { .. } | Op::Icmp { .. } | Op::Fcmp { .. });
                if cse {
                    let key = (op.clone(), t);
                    if let Some(&prev) = avail.get(&key) {
                        subst[r.index()] = Some(prev);
                        changed = true;
                    } else {
                        avail.insert(key.clone(), r);
                        added_here.push(key);
                    }
                }
            }
            // Branches on constants.
            let folded = match &op {
                Op::Branch { cond, then, els } => match iconst_of(f, *cond) {
                    Some(c) => Some(if c != 0 { then.clone() } else { els.clone() }),
                    None if then == els => Some(then.clone()),
                    None => None,
                },
                Op::Switch {
                    value,
                    cases,
                    default,
                } => iconst_of(f, *value).map(|c| {
                    let t = f.value_type(*value);
                    let target = cases
                        .iter()
                        .find(|(k, _)| wrap(t, *k) == c)
                        .map_or(*default, |(_, blk)| *blk);
                    BlockCall::to(target)
                }),
                _ => None,
            };
            if let Some(bc) = folded {
                op = Op::Jump(bc);
                changed = true;
            }
            f.insts[i.index()].op = op;
        }
        stack.push((b, true, added_here));
        for &c in children[b].iter().rev() {
            stack.push((c, false, Vec::new()));
        }
    }
    // Substitute everywhere (uses in blocks visited before their replacement was known
    // are only possible through block arguments of back edges, handled here too).
    for d in &mut f.insts {
        d.op.for_each_operand_mut(|v| *v = resolve(&subst, *v));
    }
    changed
}

/// Blocks not reachable from the entry lose their code (a lone `unreachable`), so that
/// nothing they pass or read keeps values alive.
fn gut_unreachable(f: &mut Function) -> bool {
    let idom = crate::verify::dominators(f);
    let mut changed = false;
    for b in 0..f.blocks.len() {
        if idom[b].is_some() {
            continue;
        }
        let insts = &f.blocks[b].insts;
        if insts.len() == 1 && matches!(f.inst(insts[0]).op, Op::Unreachable) {
            continue;
        }
        let keep = insts[insts.len().saturating_sub(1)..].to_vec();
        for &i in &f.blocks[b].insts.clone() {
            f.insts[i.index()] = InstData {
                op: Op::Unreachable,
                result: None,
            };
        }
        f.blocks[b].insts = keep;
        changed = true;
    }
    changed
}

/// Uses of every value, over all blocks.
fn use_counts(f: &Function) -> Vec<u32> {
    let mut uses = vec![0u32; f.values.len()];
    for bd in &f.blocks {
        for &i in &bd.insts {
            f.inst(i).op.for_each_operand(|v| uses[v.index()] += 1);
        }
    }
    uses
}

/// Removes block parameters that receive one value on every edge (besides themselves),
/// substituting that value, and parameters nobody reads.
fn remove_block_params(f: &mut Function) -> bool {
    let nb = f.blocks.len();
    // Incoming edges: (block, instruction) of every Jump/Branch into each block.
    let mut incoming: Vec<Vec<Inst>> = vec![Vec::new(); nb];
    for bd in &f.blocks {
        if let Some(&last) = bd.insts.last() {
            match &f.inst(last).op {
                Op::Jump(bc) => incoming[bc.block.index()].push(last),
                Op::Branch { then, els, .. } => {
                    incoming[then.block.index()].push(last);
                    if els.block != then.block {
                        incoming[els.block.index()].push(last);
                    }
                }
                _ => {}
            }
        }
    }
    let mut subst: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut changed = false;
    let uses = use_counts(f);
    for b in 1..nb {
        let params = f.blocks[b].params.clone();
        if params.is_empty() {
            continue;
        }
        let blk = Block(b as u32);
        let mut remove = vec![false; params.len()];
        for (k, &p) in params.iter().enumerate() {
            // Uses of p other than as an argument back into its own position.
            let mut self_uses = 0u32;
            let mut only: Option<Value> = None;
            let mut many = false;
            for &i in &incoming[b] {
                let mut visit = |bc: &BlockCall| {
                    if bc.block != blk {
                        return;
                    }
                    let a = bc.args[k];
                    if a == p {
                        self_uses += 1;
                    } else if only.is_none_or(|o| o == a) {
                        only = Some(a);
                    } else {
                        many = true;
                    }
                };
                match &f.inst(i).op {
                    Op::Jump(bc) => visit(bc),
                    Op::Branch { then, els, .. } => {
                        visit(then);
                        visit(els)
                    }
                    _ => {}
                }
            }
            if uses[p.index()] == self_uses {
                remove[k] = true;
            } else if let (Some(v), false) = (only, many) {
                subst[p.index()] = Some(v);
                remove[k] = true;
            }
        }
        if !remove.iter().any(|&r| r) {
            continue;
        }
        changed = true;
        drop_params(f, &incoming[b], blk, &params, &remove);
    }
    if changed {
        // A substituted value may itself be a removed parameter: resolve chains.
        for d in &mut f.insts {
            d.op.for_each_operand_mut(|v| *v = resolve(&subst, *v));
        }
    }
    changed
}

/// Removes the block parameters whose values nothing needs: live are the operands of
/// instructions with effects and of terminators (but branch arguments), the operands of
/// pure instructions whose results are live and the arguments passed to live parameters;
/// the rest (cycles of parameters through loops, left by `mem2reg` for temporaries dead
/// between iterations, and what only they use) goes, the pure instructions to `dce`.
/// Removes the parameters of `blk` marked in `remove` (`params` are its parameters) and
/// the matching arguments of the jumps and branches in `incoming` (its predecessors).
fn drop_params(f: &mut Function, incoming: &[Inst], blk: Block, params: &[Value], remove: &[bool]) {
    for &i in incoming {
        let strip = |bc: &mut BlockCall| {
            if bc.block == blk {
                let mut k = 0;
                bc.args.retain(|_| {
                    k += 1;
                    !remove[k - 1]
                });
            }
        };
        match &mut f.insts[i.index()].op {
            Op::Jump(bc) => strip(bc),
            Op::Branch { then, els, .. } => {
                strip(then);
                strip(els)
            }
            _ => {}
        }
    }
    let kept: Vec<Value> = params
        .iter()
        .zip(remove)
        .filter(|(_, r)| !**r)
        .map(|(p, _)| *p)
        .collect();
    for (idx, &p) in kept.iter().enumerate() {
        f.values[p.index()].def = ValueDef::Param(blk, idx as u32);
    }
    f.blocks[blk.index()].params = kept;
}

fn remove_dead_params(f: &mut Function) -> bool {
    let nb = f.blocks.len();
    let mut incoming: Vec<Vec<Inst>> = vec![Vec::new(); nb];
    let mut live = vec![false; f.values.len()];
    let mut work: Vec<Value> = Vec::new();
    for bd in &f.blocks {
        for &i in &bd.insts {
            let op = &f.inst(i).op;
            match op {
                Op::Jump(bc) => incoming[bc.block.index()].push(i),
                Op::Branch { cond, then, els } => {
                    work.push(*cond);
                    incoming[then.block.index()].push(i);
                    if els.block != then.block {
                        incoming[els.block.index()].push(i);
                    }
                }
                // A pure instruction's operands live only when its result does.
                _ if op.is_pure() && f.inst(i).result.is_some() => {}
                _ => op.for_each_operand(|v| work.push(v)),
            }
        }
    }
    while let Some(v) = work.pop() {
        if std::mem::replace(&mut live[v.index()], true) {
            continue;
        }
        if let ValueDef::Result(i, _) = f.values[v.index()].def {
            let op = &f.inst(i).op;
            if op.is_pure() {
                op.for_each_operand(|x| work.push(x));
            }
        }
        if let ValueDef::Param(b, k) = f.values[v.index()].def {
            for &i in &incoming[b.index()] {
                let mut visit = |bc: &BlockCall| {
                    if bc.block == b {
                        work.push(bc.args[k as usize]);
                    }
                };
                match &f.inst(i).op {
                    Op::Jump(bc) => visit(bc),
                    Op::Branch { then, els, .. } => {
                        visit(then);
                        visit(els)
                    }
                    _ => {}
                }
            }
        }
    }
    let mut changed = false;
    for b in 1..nb {
        let params = f.blocks[b].params.clone();
        let remove: Vec<bool> = params.iter().map(|p| !live[p.index()]).collect();
        if !remove.iter().any(|&r| r) {
            continue;
        }
        changed = true;
        let blk = Block(b as u32);
        drop_params(f, &incoming[b], blk, &params, &remove);
    }
    changed
}

/// Appends each block entered only by a jump from one other block to that block (what
/// inlining leaves around the copied body), so that straight-line code is one block.
/// The emptied block is left unreachable.
fn merge_blocks(f: &mut Function) -> bool {
    let nb = f.blocks.len();
    let mut npreds = vec![0u32; nb];
    for bd in &f.blocks {
        if let Some(&last) = bd.insts.last() {
            for s in f.inst(last).op.successors() {
                npreds[s.index()] += 1;
            }
        }
    }
    let mut subst: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut changed = false;
    for p in 0..nb {
        while let Some(&last) = f.blocks[p].insts.last() {
            let Op::Jump(bc) = &f.inst(last).op else {
                break;
            };
            let b = bc.block.index();
            if b == p || b == 0 || npreds[b] != 1 {
                break;
            }
            for (&param, &arg) in f.blocks[b].params.iter().zip(&bc.args) {
                subst[param.index()] = Some(arg);
            }
            f.blocks[p].insts.pop();
            f.insts[last.index()] = InstData {
                op: Op::Unreachable,
                result: None,
            };
            let moved = std::mem::take(&mut f.blocks[b].insts);
            f.blocks[b].params.clear();
            f.blocks[p].insts.extend(moved);
            // The emptied block: nothing enters it any more.
            f.blocks[b].insts.push(Inst(f.insts.len() as u32));
            f.insts.push(InstData {
                op: Op::Unreachable,
                result: None,
            });
            npreds[b] = 0;
            changed = true;
        }
    }
    if changed {
        for d in &mut f.insts {
            d.op.for_each_operand_mut(|v| *v = resolve(&subst, *v));
        }
    }
    changed
}

/// Removes pure instructions whose results nobody uses.
fn dce(f: &mut Function) -> bool {
    let mut uses = use_counts(f);
    let mut dead = vec![false; f.insts.len()];
    let mut work: Vec<Inst> = f.blocks.iter().flat_map(|b| b.insts.clone()).collect();
    let mut changed = false;
    while let Some(i) = work.pop() {
        let d = f.inst(i);
        let Some(r) = d.result else { continue };
        if dead[i.index()] || uses[r.index()] != 0 || !d.op.is_pure() {
            continue;
        }
        dead[i.index()] = true;
        changed = true;
        d.op.for_each_operand(|v| {
            uses[v.index()] -= 1;
            if uses[v.index()] == 0 {
                if let ValueDef::Result(di, _) = f.values[v.index()].def {
                    work.push(di);
                }
            }
        });
    }
    if changed {
        for bd in &mut f.blocks {
            bd.insts.retain(|i| !dead[i.index()]);
        }
        for (i, d) in dead.iter().enumerate() {
            if *d {
                f.insts[i] = InstData {
                    op: Op::Unreachable,
                    result: None,
                };
            }
        }
    }
    changed
}

/// Drops the stack slots no `slot_addr` names any more, renumbering the others.
fn remove_unused_slots(f: &mut Function) {
    let mut used = vec![false; f.slots.len()];
    for bd in &f.blocks {
        for &i in &bd.insts {
            if let Op::SlotAddr(s) = f.inst(i).op {
                used[s.index()] = true;
            }
        }
    }
    if used.iter().all(|&u| u) {
        return;
    }
    let mut renum = vec![None; f.slots.len()];
    let mut slots = Vec::new();
    for (s, d) in f.slots.iter().enumerate() {
        if used[s] {
            renum[s] = Some(Slot(slots.len() as u32));
            slots.push(*d);
        }
    }
    f.slots = slots;
    for d in &mut f.insts {
        if let Op::SlotAddr(s) = &mut d.op {
            // Instructions outside every block (removed ones) are inert already.
            *s = renum[s.index()].unwrap_or(Slot(0));
        }
    }
}

/// Whether `op` may run where the program would not have run it: pure, and not a division
/// by something other than a constant that cannot trap.
fn speculatable(f: &Function, op: &Op) -> bool {
    match op {
        Op::Binary {
            op: BinaryOp::SDiv | BinaryOp::SRem,
            a,
            b,
        } => iconst_of(f, *b).is_some_and(|c| c != 0 && signed(f.value_type(*a), c) != -1),
        Op::Binary {
            op: BinaryOp::UDiv | BinaryOp::URem,
            b,
            ..
        } => iconst_of(f, *b).is_some_and(|c| c != 0),
        Op::Load { .. } => false,
        _ => op.is_pure(),
    }
}

/// Loop-invariant code motion: pure, non-trapping computations inside a natural loop whose
/// operands come from outside it move to the loop's preheader (the one block outside the
/// loop that jumps to its header). Constants and addresses move too, so that what uses them
/// can (the back end rematerialises them at each use anyway); loads stay (no alias
/// analysis).
pub fn licm(f: &mut Function) {
    if f.calls_setjmp {
        return;
    }
    let idom = crate::verify::dominators(f);
    let nb = f.blocks.len();
    let dominates = |a: usize, mut b: usize| loop {
        if a == b {
            return true;
        }
        match idom[b] {
            Some(p) if p != b => b = p,
            _ => return false,
        }
    };
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for b in 0..nb {
        if idom[b].is_none() {
            continue;
        }
        if let Some(t) = f.terminator(Block(b as u32)) {
            for s in t.successors() {
                if !preds[s.index()].contains(&b) {
                    preds[s.index()].push(b);
                }
            }
        }
    }
    // Natural loops: header -> body blocks.
    let mut loops: Vec<(usize, Vec<bool>, usize)> = Vec::new();
    for h in 1..nb {
        if idom[h].is_none() {
            continue;
        }
        let latches: Vec<usize> = preds[h]
            .iter()
            .copied()
            .filter(|&p| dominates(h, p))
            .collect();
        if latches.is_empty() {
            continue;
        }
        let mut body = vec![false; nb];
        body[h] = true;
        let mut work = latches.clone();
        let mut size = 1;
        while let Some(b) = work.pop() {
            if body[b] {
                continue;
            }
            body[b] = true;
            size += 1;
            work.extend(preds[b].iter().copied());
        }
        loops.push((h, body, size));
    }
    // Inner loops first: what they hoist may then leave the outer loop too.
    loops.sort_by_key(|l| l.2);
    let mut def_block: Vec<usize> = vec![usize::MAX; f.values.len()];
    for (b, bd) in f.blocks.iter().enumerate() {
        for &p in &bd.params {
            def_block[p.index()] = b;
        }
        for &i in &bd.insts {
            for r in f.inst_results(i) {
                def_block[r.index()] = b;
            }
        }
    }
    for (h, body, _) in loops {
        let outside: Vec<usize> = preds[h].iter().copied().filter(|&p| !body[p]).collect();
        let [pre] = outside[..] else { continue };
        if !matches!(f.terminator(Block(pre as u32)), Some(Op::Jump(_))) {
            continue;
        }
        // Body blocks in dominator-tree preorder, so that a definition is seen before its
        // uses.
        let mut blocks: Vec<usize> = (0..nb).filter(|&b| body[b]).collect();
        blocks.sort_by_key(|&b| {
            let mut d = 0;
            let mut x = b;
            while let Some(p) = idom[x].filter(|&p| p != x) {
                d += 1;
                x = p;
            }
            (d, b)
        });
        let mut hoisted = Vec::new();
        for &b in &blocks {
            let insts = f.blocks[b].insts.clone();
            let mut kept = Vec::with_capacity(insts.len());
            for i in insts {
                let d = f.inst(i);
                let movable = d.result.is_some() && speculatable(f, &d.op) && {
                    let mut inv = true;
                    d.op.for_each_operand(|v| {
                        let db = def_block[v.index()];
                        if db == usize::MAX || body[db] {
                            inv = false;
                        }
                    });
                    inv
                };
                if movable {
                    def_block[d.result.unwrap().index()] = pre;
                    hoisted.push(i);
                } else {
                    kept.push(i);
                }
            }
            f.blocks[b].insts = kept;
        }
        if !hoisted.is_empty() {
            let pb = &mut f.blocks[pre].insts;
            let term = pb.pop().unwrap();
            pb.extend(hoisted);
            pb.push(term);
        }
    }
}
