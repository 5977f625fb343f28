//! The verifier: structural rules (terminators, branch arguments, plan arity), operand
//! types, and SSA dominance. Runs in debug builds and in every test.

use crate::*;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError(pub String);

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn sret_count(p: &CallPlan) -> usize {
    p.returns
        .iter()
        .filter(|l| l.flags.contains(neverc_abi::Flags::SRET))
        .count()
}

/// Checks `f`; the first broken rule is returned with the block and instruction named.
pub fn verify(f: &Function) -> Result<(), VerifyError> {
    let err = |b: usize, i: Option<Inst>, msg: String| {
        Err(VerifyError(match i {
            Some(i) => format!("block{b}, inst{}: {msg}", i.0),
            None => format!("block{b}: {msg}"),
        }))
    };
    let nv = f.values.len();
    let entry_params = f.plan.arguments.len() + sret_count(&f.plan);
    if f.blocks.is_empty() {
        return err(0, None, "no entry block".into());
    }
    if f.blocks[0].params.len() != entry_params {
        return err(
            0,
            None,
            format!(
                "entry has {} parameters, the plan {entry_params}",
                f.blocks[0].params.len()
            ),
        );
    }
    let results_expected = f.plan.returns.len() - sret_count(&f.plan);
    // Where each value is defined: (block, position in block; params at -1).
    let mut def_at: Vec<Option<(usize, i64)>> = vec![None; nv];
    for (bi, b) in f.blocks.iter().enumerate() {
        for &p in &b.params {
            if p.index() >= nv {
                return err(bi, None, format!("parameter v{} does not exist", p.0));
            }
            if def_at[p.index()].is_some() {
                return err(bi, None, format!("v{} defined twice", p.0));
            }
            def_at[p.index()] = Some((bi, -1));
        }
        for (pos, &i) in b.insts.iter().enumerate() {
            for r in f.inst_results(i) {
                if def_at[r.index()].is_some() {
                    return err(bi, Some(i), format!("v{} defined twice", r.0));
                }
                def_at[r.index()] = Some((bi, pos as i64));
            }
        }
    }
    let ty = |x: Value| f.values.get(x.index()).map(|d| d.ty);
    for (bi, b) in f.blocks.iter().enumerate() {
        let Some(&last) = b.insts.last() else {
            return err(bi, None, "empty block".into());
        };
        for &i in &b.insts {
            let op = &f.inst(i).op;
            if op.is_terminator() != (i == last) {
                return err(
                    bi,
                    Some(i),
                    if i == last {
                        "block does not end in a terminator".into()
                    } else {
                        "terminator in the middle of a block".into()
                    },
                );
            }
            let mut bad = None;
            op.for_each_operand(|x| {
                if x.index() >= nv || def_at[x.index()].is_none() {
                    bad = Some(x);
                }
            });
            if let Some(x) = bad {
                return err(bi, Some(i), format!("operand v{} is never defined", x.0));
            }
            let same = |a: Value, c: Value| ty(a) == ty(c);
            let msg = match op {
                Op::Binary { a, b: c, op } => {
                    let shift = matches!(op, BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr);
                    let float = matches!(
                        op,
                        BinaryOp::FAdd | BinaryOp::FSub | BinaryOp::FMul | BinaryOp::FDiv
                    );
                    if !shift && !same(*a, *c) {
                        Some("binary operands differ in type")
                    } else if float != ty(*a).unwrap().is_float() {
                        Some("binary operator does not fit its operand type")
                    } else {
                        None
                    }
                }
                Op::Icmp { a, b: c, .. } if !same(*a, *c) || !ty(*a).unwrap().is_int() => {
                    Some("icmp operands must be integers of one type")
                }
                Op::Fcmp { a, b: c, .. } if !same(*a, *c) || !ty(*a).unwrap().is_float() => {
                    Some("fcmp operands must be floats of one type")
                }
                Op::Select { a, b: c, cond } if !same(*a, *c) || !ty(*cond).unwrap().is_int() => {
                    Some("select arms differ in type")
                }
                Op::Load { addr, .. } | Op::Store { addr, .. } if ty(*addr) != Some(Type::Ptr) => {
                    Some("memory address is not a pointer")
                }
                Op::Conv { op, arg, to } => {
                    let from = ty(*arg).unwrap();
                    let ok = match op {
                        ConvOp::Sext | ConvOp::Zext => {
                            from.is_int() && to.is_int() && from.bytes() < to.bytes()
                        }
                        ConvOp::Trunc => from.is_int() && to.is_int() && from.bytes() > to.bytes(),
                        ConvOp::FExt => {
                            from.is_float() && to.is_float() && from.bytes() < to.bytes()
                        }
                        ConvOp::FTrunc => {
                            from.is_float() && to.is_float() && from.bytes() > to.bytes()
                        }
                        ConvOp::SToF | ConvOp::UToF => from.is_int() && to.is_float(),
                        ConvOp::FToS | ConvOp::FToU => from.is_float() && to.is_int(),
                        ConvOp::Bitcast => from.bytes() == to.bytes(),
                    };
                    (!ok).then_some("conversion does not fit its types")
                }
                Op::Call(c) => match f.plans.get(c.plan.index()) {
                    None => Some("call names a plan that does not exist"),
                    Some(p) => {
                        if c.args.len() != p.arguments.len() + sret_count(p) {
                            Some("call arguments do not match its plan")
                        } else if c.results.len() != p.returns.len() - sret_count(p) {
                            Some("call results do not match its plan")
                        } else {
                            None
                        }
                    }
                },
                Op::Return(vs) if vs.len() != results_expected => {
                    Some("return values do not match the function's plan")
                }
                _ => None,
            };
            if let Some(m) = msg {
                return err(bi, Some(i), m.into());
            }
            // A v128 is only carried: loaded, stored, passed, returned, a block argument.
            if !matches!(
                op,
                Op::Load { .. }
                    | Op::Store { .. }
                    | Op::Call { .. }
                    | Op::Return(_)
                    | Op::Jump(_)
                    | Op::Branch { .. }
            ) {
                let mut wide = f.inst_results(i).iter().any(|&r| ty(r) == Some(Type::V128));
                op.for_each_operand(|x| wide |= ty(x) == Some(Type::V128));
                if wide {
                    return err(bi, Some(i), "a v128 value used other than carried".into());
                }
            }
            let calls: Vec<&BlockCall> = match op {
                Op::Jump(c) => vec![c],
                Op::Branch { then, els, .. } => vec![then, els],
                _ => vec![],
            };
            for c in calls {
                let Some(t) = f.blocks.get(c.block.index()) else {
                    return err(bi, Some(i), format!("branch to missing block{}", c.block.0));
                };
                if t.params.len() != c.args.len() {
                    return err(
                        bi,
                        Some(i),
                        format!("block{} takes {} arguments", c.block.0, t.params.len()),
                    );
                }
                for (a, p) in c.args.iter().zip(&t.params) {
                    if ty(*a) != ty(*p) {
                        return err(bi, Some(i), format!("argument v{} has the wrong type", a.0));
                    }
                }
            }
            for s in op.successors() {
                if s.index() >= f.blocks.len() {
                    return err(bi, Some(i), format!("branch to missing block{}", s.0));
                }
                if s == Block(0) {
                    return err(bi, Some(i), "branch to the entry block".into());
                }
                if !matches!(op, Op::Jump(_) | Op::Branch { .. })
                    && !f.blocks[s.index()].params.is_empty()
                {
                    return err(bi, Some(i), format!("block{} needs arguments", s.0));
                }
            }
        }
    }
    // Dominance: every use is dominated by its definition.
    let idom = dominators(f);
    let dominates = |a: usize, mut b: usize| loop {
        if a == b {
            return true;
        }
        match idom[b] {
            Some(p) if p != b => b = p,
            _ => return false,
        }
    };
    for (bi, b) in f.blocks.iter().enumerate() {
        if idom[bi].is_none() {
            continue; // unreachable
        }
        for (pos, &i) in b.insts.iter().enumerate() {
            let mut bad = None;
            f.inst(i).op.for_each_operand(|x| {
                let (db, dp) = def_at[x.index()].unwrap();
                let ok = if db == bi {
                    dp < pos as i64
                } else {
                    dominates(db, bi)
                };
                if !ok {
                    bad = Some(x);
                }
            });
            if let Some(x) = bad {
                return err(
                    bi,
                    Some(i),
                    format!("v{} is used where its definition does not dominate", x.0),
                );
            }
        }
    }
    Ok(())
}

/// Immediate dominators (None: unreachable; the entry is its own), by the iterative
/// algorithm of Cooper, Harvey and Kennedy over reverse postorder.
pub fn dominators(f: &Function) -> Vec<Option<usize>> {
    let n = f.blocks.len();
    let succs: Vec<Vec<usize>> = (0..n)
        .map(|b| {
            f.terminator(Block(b as u32))
                .map(|t| t.successors().iter().map(|s| s.index()).collect())
                .unwrap_or_default()
        })
        .collect();
    // Postorder by an explicit stack.
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some((b, k)) = stack.pop() {
        if k < succs[b].len() {
            stack.push((b, k + 1));
            let s = succs[b][k];
            if s < n && !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(b);
        }
    }
    let mut rpo_num = vec![usize::MAX; n];
    for (i, &b) in order.iter().rev().enumerate() {
        rpo_num[b] = i;
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, ss) in succs.iter().enumerate() {
        if seen[b] {
            for &s in ss {
                if s < n {
                    preds[s].push(b);
                }
            }
        }
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    idom[0] = Some(0);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().rev().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &preds[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut a) => {
                        let mut c = p;
                        while a != c {
                            while rpo_num[a] > rpo_num[c] {
                                a = idom[a].unwrap();
                            }
                            while rpo_num[c] > rpo_num[a] {
                                c = idom[c].unwrap();
                            }
                        }
                        a
                    }
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}
