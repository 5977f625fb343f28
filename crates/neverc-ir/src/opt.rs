//! Optimisation passes over the IR.
//!
//! `mem2reg` promotes stack slots that are only loaded and stored whole to SSA values
//! (block parameters at the iterated dominance frontier of the stores, renamed along the
//! dominator tree), which is what turns irgen's "every local in memory" code into
//! register code at -O1.

use crate::*;

impl Op {
    /// Every value operand, mutably (the order of [`Op::for_each_operand`]).
    pub fn for_each_operand_mut(&mut self, mut f: impl FnMut(&mut Value)) {
        match self {
            Op::Iconst { .. }
            | Op::Fconst { .. }
            | Op::SlotAddr(_)
            | Op::SymAddr { .. }
            | Op::BlockAddr(_)
            | Op::StackSave
            | Op::FrameAddress
            | Op::Fence
            | Op::Unreachable
            | Op::Trap => {}
            Op::Unary { arg, .. } | Op::Conv { arg, .. } => f(arg),
            Op::Binary { a, b, .. } | Op::Icmp { a, b, .. } | Op::Fcmp { a, b, .. } => {
                f(a);
                f(b)
            }
            Op::Select { cond, a, b } => {
                f(cond);
                f(a);
                f(b)
            }
            Op::Load { addr, .. } => f(addr),
            Op::Store { value, addr, .. } => {
                f(value);
                f(addr)
            }
            Op::Call(c) => {
                if let Callee::Indirect(v) = &mut c.callee {
                    f(v)
                }
                c.args.iter_mut().for_each(f)
            }
            Op::Copy { dst, src, .. } => {
                f(dst);
                f(src)
            }
            Op::Zero { dst, .. } => f(dst),
            Op::Alloca { size, .. } => f(size),
            Op::StackRestore(v) | Op::VaStart(v) => f(v),
            Op::AtomicRmw { addr, value, .. } => {
                f(addr);
                f(value)
            }
            Op::AtomicCas {
                addr,
                expected,
                new,
                ..
            } => {
                f(addr);
                f(expected);
                f(new)
            }
            Op::Jump(bc) => bc.args.iter_mut().for_each(f),
            Op::Branch { cond, then, els } => {
                f(cond);
                then.args.iter_mut().for_each(&mut f);
                els.args.iter_mut().for_each(f)
            }
            Op::Switch { value, .. } => f(value),
            Op::IndirectJump { addr, .. } => f(addr),
            Op::Return(vs) => vs.iter_mut().for_each(f),
            Op::NonLocalGoto { fp, sp, target } => {
                f(fp);
                f(sp);
                f(target)
            }
            Op::InlineAsm(a) => {
                for o in &mut a.operands {
                    match &mut o.role {
                        AsmRole::Input(v) | AsmRole::Memory(v) => f(v),
                        AsmRole::Output { .. } => {}
                    }
                }
            }
        }
    }
}

/// Promotes every promotable slot of every function of the module.
pub fn mem2reg_module(m: &mut Module) {
    for f in &mut m.functions {
        mem2reg(f);
    }
}

/// Promotes the slots whose address is used only as the address of whole, non-volatile
/// loads and stores of one type. Functions that call `setjmp` keep their slots (a value
/// in a register would not survive the second return).
pub fn mem2reg(f: &mut Function) {
    if f.calls_setjmp || f.slots.is_empty() {
        return;
    }
    let nslots = f.slots.len();
    // Which slot each slot-address value names.
    let mut addr_of: Vec<Option<Slot>> = vec![None; f.values.len()];
    for d in &f.insts {
        if let (Op::SlotAddr(s), Some(r)) = (&d.op, d.result) {
            addr_of[r.index()] = Some(*s);
        }
    }
    // Promotable: every use of its addresses is a load/store at offset 0 of one type.
    let mut ty: Vec<Option<Type>> = vec![None; nslots];
    let mut ok = vec![true; nslots];
    for b in &f.blocks {
        for &i in &b.insts {
            let op = &f.inst(i).op;
            let mut check = |v: Value, allowed: Option<Type>| {
                if let Some(s) = addr_of[v.index()] {
                    match allowed {
                        Some(t) if ty[s.index()].is_none_or(|x| x == t) => ty[s.index()] = Some(t),
                        _ => ok[s.index()] = false,
                    }
                }
            };
            match op {
                Op::Load {
                    ty: t,
                    addr,
                    offset,
                    flags,
                } => check(*addr, (*offset == 0 && !flags.volatile).then_some(*t)),
                Op::Store {
                    value,
                    addr,
                    offset,
                    flags,
                } => {
                    check(*value, None);
                    let t = f.value_type(*value);
                    check(*addr, (*offset == 0 && !flags.volatile).then_some(t));
                }
                other => other.for_each_operand(|v| check(v, None)),
            }
        }
    }
    for (s, t) in ty.iter().enumerate() {
        match t {
            // x87 and binary128 values stay in memory (the back end keeps them there), and
            // so do 16-byte register pieces (nothing but loads and stores handles them).
            Some(t)
                if ok[s]
                    && !matches!(t, Type::F80 | Type::F128 | Type::V128)
                    && u64::from(t.bytes()) <= f.slots[s].size => {}
            _ => ok[s] = false,
        }
    }
    let promoted: Vec<usize> = (0..nslots).filter(|&s| ok[s]).collect();
    if promoted.is_empty() {
        return;
    }
    let idom = crate::verify::dominators(f);
    let nb = f.blocks.len();
    let succs: Vec<Vec<usize>> = (0..nb)
        .map(|b| {
            f.terminator(Block(b as u32))
                .map(|t| t.successors().iter().map(|s| s.index()).collect())
                .unwrap_or_default()
        })
        .collect();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); nb];
    let mut needs_plain_edges = vec![false; nb];
    for (b, ss) in succs.iter().enumerate() {
        if idom[b].is_none() {
            continue;
        }
        let term = f.terminator(Block(b as u32)).unwrap();
        let plain = matches!(term, Op::Jump(_) | Op::Branch { .. });
        for &s in ss {
            preds[s].push(b);
            if !plain {
                needs_plain_edges[s] = true;
            }
        }
    }
    // Dominance frontiers.
    let mut df: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for b in 0..nb {
        if idom[b].is_none() || preds[b].len() < 2 {
            continue;
        }
        for &p in &preds[b] {
            let mut r = p;
            while Some(r) != idom[b] && idom[r].is_some() {
                if !df[r].contains(&b) {
                    df[r].push(b);
                }
                if idom[r] == Some(r) {
                    break;
                }
                r = idom[r].unwrap();
            }
        }
    }
    // Where each slot needs a block parameter: the iterated frontier of its stores.
    let mut phis: Vec<Vec<usize>> = vec![Vec::new(); nb]; // block -> slots
    let mut keep = ok.clone();
    for &s in &promoted {
        let mut work: Vec<usize> = Vec::new();
        for (b, bd) in f.blocks.iter().enumerate() {
            if idom[b].is_none() {
                continue;
            }
            if bd.insts.iter().any(|&i| {
                matches!(&f.inst(i).op, Op::Store { addr, .. } if addr_of[addr.index()] == Some(Slot(s as u32)))
            }) {
                work.push(b);
            }
        }
        let mut has = vec![false; nb];
        while let Some(b) = work.pop() {
            for &d in &df[b] {
                if !has[d] {
                    has[d] = true;
                    work.push(d);
                }
            }
        }
        // A parameter on a block entered by a switch or an indirect jump cannot be
        // passed: leave that slot in memory.
        if (0..nb).any(|b| has[b] && needs_plain_edges[b]) || has[0] {
            keep[s] = false;
            continue;
        }
        for (b, h) in has.iter().enumerate() {
            if *h {
                phis[b].push(s);
            }
        }
    }
    let promoted: Vec<usize> = promoted.into_iter().filter(|&s| keep[s]).collect();
    if promoted.is_empty() {
        return;
    }
    let is_promoted = |s: Slot| keep[s.index()];
    // Block parameters for the phis.
    let mut phi_param: Vec<Vec<(usize, Value)>> = vec![Vec::new(); nb];
    for (b, slots) in phis.iter().enumerate() {
        for &s in slots {
            let t = ty[s].unwrap();
            let idx = f.blocks[b].params.len() as u32;
            f.values.push(ValueData {
                ty: t,
                def: ValueDef::Param(Block(b as u32), idx),
            });
            let v = Value(f.values.len() as u32 - 1);
            f.blocks[b].params.push(v);
            phi_param[b].push((s, v));
        }
    }
    // Undefined reads get zero, made at the top of the entry block.
    let mut undef: Vec<Option<Value>> = vec![None; nslots];
    let mut entry_consts = Vec::new();
    for &s in &promoted {
        let t = ty[s].unwrap();
        let op = if t.is_int() {
            Op::Iconst {
                ty: t,
                imm: Imm::new(0),
            }
        } else {
            Op::Fconst {
                ty: t,
                bits: Bits::new(0),
            }
        };
        let inst = Inst(f.insts.len() as u32);
        f.values.push(ValueData {
            ty: t,
            def: ValueDef::Result(inst, 0),
        });
        let v = Value(f.values.len() as u32 - 1);
        f.insts.push(InstData {
            op,
            result: Some(v),
        });
        entry_consts.push(inst);
        undef[s] = Some(v);
    }
    for (k, i) in entry_consts.into_iter().enumerate() {
        f.blocks[0].insts.insert(k, i);
    }
    // Rename along the dominator tree.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for (b, d) in idom.iter().enumerate().skip(1) {
        if let Some(p) = *d {
            if p != b {
                children[p].push(b);
            }
        }
    }
    let mut subst: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut cur: Vec<Vec<Value>> = vec![Vec::new(); nslots];
    let mut dead: Vec<bool> = vec![false; f.insts.len()];
    // Explicit stack: (block, entered?) with the counts pushed per slot to pop on exit.
    let mut stack: Vec<(usize, bool, Vec<usize>)> = vec![(0, false, Vec::new())];
    while let Some((b, entered, pushed)) = stack.pop() {
        if entered {
            for s in pushed {
                cur[s].pop();
            }
            continue;
        }
        let mut pushed_here = Vec::new();
        for &(s, v) in &phi_param[b] {
            cur[s].push(v);
            pushed_here.push(s);
        }
        let insts = f.blocks[b].insts.clone();
        for i in insts {
            // Operands first get earlier substitutions.
            let mut op = std::mem::replace(&mut f.insts[i.index()].op, Op::Unreachable);
            op.for_each_operand_mut(|v| {
                while let Some(w) = subst[v.index()] {
                    *v = w;
                }
            });
            match &op {
                Op::Load { addr, .. } => {
                    if let Some(s) = addr_of
                        .get(addr.index())
                        .copied()
                        .flatten()
                        .filter(|s| is_promoted(*s))
                    {
                        let val = cur[s.index()].last().copied().or(undef[s.index()]).unwrap();
                        let r = f.insts[i.index()].result.unwrap();
                        subst[r.index()] = Some(val);
                        dead[i.index()] = true;
                    }
                }
                Op::Store { value, addr, .. } => {
                    if let Some(s) = addr_of
                        .get(addr.index())
                        .copied()
                        .flatten()
                        .filter(|s| is_promoted(*s))
                    {
                        cur[s.index()].push(*value);
                        pushed_here.push(s.index());
                        dead[i.index()] = true;
                    }
                }
                _ => {}
            }
            f.insts[i.index()].op = op;
        }
        // Arguments for the successors' new parameters.
        if let Some(&last) = f.blocks[b].insts.last() {
            let mut op = std::mem::replace(&mut f.insts[last.index()].op, Op::Unreachable);
            let add = |bc: &mut BlockCall| {
                for &(s, _) in &phi_param[bc.block.index()] {
                    let v = cur[s].last().copied().or(undef[s]).unwrap();
                    bc.args.push(v);
                }
            };
            match &mut op {
                Op::Jump(bc) => add(bc),
                Op::Branch { then, els, .. } => {
                    add(then);
                    add(els)
                }
                _ => {}
            }
            f.insts[last.index()].op = op;
        }
        stack.push((b, true, pushed_here));
        for &c in children[b].iter().rev() {
            stack.push((c, false, Vec::new()));
        }
    }
    // Unreachable blocks keep their code; substitute there too.
    for (b, bd) in f.blocks.iter().enumerate() {
        if idom[b].is_some() {
            continue;
        }
        for &i in &bd.insts {
            f.insts[i.index()].op.for_each_operand_mut(|v| {
                while let Some(w) = subst[v.index()] {
                    *v = w;
                }
            });
        }
    }
    for bd in &mut f.blocks {
        bd.insts.retain(|i| !dead[i.index()]);
    }
    // The removed instructions leave the arena inert (passes that scan every
    // instruction must not see their operands).
    for (i, d) in dead.iter().enumerate() {
        if *d {
            f.insts[i] = InstData {
                op: Op::Unreachable,
                result: None,
            };
        }
    }
}

/// Removes the functions with internal linkage nothing refers to (static functions never
/// called nor address-taken, the unused `static inline` functions of headers): no other
/// function, data object, alias, constructor or destructor names them, and they are not
/// `__attribute__((used))`. Only the functions `removable` accepts may go; the others are
/// kept, with everything they refer to. gcc removes every such function from -O1
/// (`|_| true`) and at -O0 only those declared inline (`|f| f.declared_inline`). Modules
/// with file-scope asm keep everything (its text may name them).
pub fn remove_unreferenced_functions(m: &mut Module, removable: impl Fn(&Function) -> bool) {
    let mut refs = Vec::new();
    let summaries: Vec<FunctionRefs> = m
        .functions
        .iter()
        .map(|f| {
            refs.clear();
            function_refs(f, &mut refs);
            FunctionRefs {
                sym: f.sym,
                removable: removable(f),
                refs: refs.clone(),
            }
        })
        .collect();
    let Some(referenced) = referenced_symbols(m, &summaries) else {
        return;
    };
    m.functions.retain(|f| referenced[f.sym.index()]);
    forget_unreferenced_functions(m, &referenced);
}

/// What [`referenced_symbols`] needs of a function (which may be compiled and gone).
#[derive(Clone, Debug)]
pub struct FunctionRefs {
    pub sym: Sym,
    /// It may be removed when nothing refers to it.
    pub removable: bool,
    /// The symbols its code names ([`function_refs`]).
    pub refs: Vec<Sym>,
}

/// Appends the symbols `f` names (addresses taken, direct calls), in instruction order.
pub fn function_refs(f: &Function, out: &mut Vec<Sym>) {
    for b in &f.blocks {
        for &i in &b.insts {
            inst_refs(&f.inst(i).op, out);
        }
    }
}

/// [`function_refs`] of a function as a [`FunctionBuilder`](crate::builder::FunctionBuilder)
/// made it, before any pass: each of its instructions is in a block, so its table of
/// instructions is walked straight (the same symbols, in the order they were made).
pub fn built_function_refs(f: &Function, out: &mut Vec<Sym>) {
    debug_assert_eq!(
        f.blocks.iter().map(|b| b.insts.len()).sum::<usize>(),
        f.insts.len(),
        "an instruction outside the blocks"
    );
    for d in &f.insts {
        inst_refs(&d.op, out);
    }
}

#[inline(always)]
fn inst_refs(op: &Op, out: &mut Vec<Sym>) {
    match op {
        Op::SymAddr { sym, .. } => out.push(*sym),
        Op::Call(c) => {
            if let Callee::Direct(sym) = c.callee {
                out.push(sym)
            }
        }
        _ => {}
    }
}

/// The reachability [`remove_unreferenced_functions`] decides by, over function summaries
/// (`m.functions` is not looked at): by symbol, whether something kept refers to it. None
/// when the module has file-scope asm (everything stays).
pub fn referenced_symbols(m: &Module, functions: &[FunctionRefs]) -> Option<Vec<bool>> {
    if !m.toplevel_asm.is_empty() {
        return None;
    }
    let n = m.symbols.len();
    let mut referenced = vec![false; n];
    let mut work: Vec<Sym> = Vec::new();
    let mark = |s: Sym, referenced: &mut Vec<bool>, work: &mut Vec<Sym>| {
        if !referenced[s.index()] {
            referenced[s.index()] = true;
            work.push(s);
        }
    };
    // Roots: everything visible outside, used, data (with its relocations, below), the
    // constructor and destructor lists, and the functions that may not be removed.
    for (i, sd) in m.symbols.iter().enumerate() {
        if sd.binding != Binding::Local || sd.used || sd.alias_of.is_some() {
            mark(Sym(i as u32), &mut referenced, &mut work);
        }
    }
    for f in functions {
        if !f.removable {
            mark(f.sym, &mut referenced, &mut work);
        }
    }
    for d in &m.data {
        mark(d.sym, &mut referenced, &mut work);
    }
    for &(_, s) in m.constructors.iter().chain(m.destructors.iter()) {
        mark(s, &mut referenced, &mut work);
    }
    let by_sym: std::collections::HashMap<Sym, usize> = functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.sym, i))
        .collect();
    let data_by_sym: std::collections::HashMap<Sym, usize> =
        m.data.iter().enumerate().map(|(i, d)| (d.sym, i)).collect();
    while let Some(s) = work.pop() {
        if let Some(t) = m.symbols[s.index()].alias_of {
            mark(t, &mut referenced, &mut work);
        }
        if let Some(&di) = data_by_sym.get(&s) {
            let d = &m.data[di];
            for &(_, t, _, _) in &d.relocs {
                mark(t, &mut referenced, &mut work);
            }
            for &(_, t, _) in &d.block_relocs {
                mark(t, &mut referenced, &mut work);
            }
        }
        if let Some(&fi) = by_sym.get(&s) {
            for &t in &functions[fi].refs {
                mark(t, &mut referenced, &mut work);
            }
        }
    }
    Some(referenced)
}

/// After removing the functions [`referenced_symbols`] left unreferenced: their symbols
/// are no longer defined.
pub fn forget_unreferenced_functions(m: &mut Module, referenced: &[bool]) {
    for (i, sd) in m.symbols.iter_mut().enumerate() {
        if !referenced[i] && sd.binding == Binding::Local && sd.kind == SymKind::Func {
            // No body any more; nothing refers to it, so the object does not list it.
            sd.defined = false;
        }
    }
}

/// Turns calls of a function to itself in tail position (`return f(...)`) into jumps back
/// to its start (-O1): the entry block's code moves to a new loop header whose
/// parameters are the function's incoming values, which the entry block and every such
/// call pass. Only for functions with no stack slots (after `mem2reg`, so no address of
/// this activation's memory can be an argument of the next one), nothing the activation
/// owns (`alloca`, VLAs, va_list, labels as values, `setjmp`), and calls made with the
/// function's own plan, no aggregate in memory and no result buffer. True when it changed
/// something.
pub fn tail_recursion_to_loop(f: &mut Function) -> bool {
    if f.variadic
        || f.calls_setjmp
        || f.blocks_in_data
        || !f.slots.is_empty()
        || !f.param_mem.is_empty()
        || f.plan.returns.iter().any(|l| {
            l.flags.contains(neverc_abi::Flags::SRET)
                || l.flags.contains(neverc_abi::Flags::SRET_OUT)
        })
    {
        return false;
    }
    let owns_frame = f.blocks.iter().any(|b| {
        b.insts.iter().any(|&i| {
            matches!(
                f.inst(i).op,
                Op::Alloca { .. }
                    | Op::StackSave
                    | Op::StackRestore(_)
                    | Op::VaStart(_)
                    | Op::BlockAddr(_)
                    | Op::IndirectJump { .. }
                    | Op::NonLocalGoto { .. }
                    | Op::FrameAddress
            )
        })
    });
    if owns_frame {
        return false;
    }
    // (block, position of the call) of each tail call.
    let mut sites: Vec<(usize, usize)> = Vec::new();
    for (b, bd) in f.blocks.iter().enumerate() {
        let n = bd.insts.len();
        if n < 2 {
            continue;
        }
        let (call, ret) = (bd.insts[n - 2], bd.insts[n - 1]);
        let Op::Return(vs) = &f.inst(ret).op else {
            continue;
        };
        let Op::Call(c) = &f.inst(call).op else {
            continue;
        };
        if let Call {
            callee: Callee::Direct(s),
            args,
            arg_mem,
            plan,
            results,
            ..
        } = &**c
        {
            if *s == f.sym
                && arg_mem.is_empty()
                && results == vs
                && f.plans[plan.index()] == f.plan
                && args.len() == f.blocks[0].params.len()
                && args
                    .iter()
                    .zip(&f.blocks[0].params)
                    .all(|(&a, &p)| f.value_type(a) == f.value_type(p))
            {
                sites.push((b, n - 2));
            }
        }
    }
    if sites.is_empty() {
        return false;
    }
    // The loop header takes over the entry block's parameters and code.
    let header = Block(f.blocks.len() as u32);
    let old_params = std::mem::take(&mut f.blocks[0].params);
    let old_insts = std::mem::take(&mut f.blocks[0].insts);
    for (k, &p) in old_params.iter().enumerate() {
        f.values[p.index()].def = ValueDef::Param(header, k as u32);
    }
    let mut entry_params = Vec::with_capacity(old_params.len());
    for (k, &p) in old_params.iter().enumerate() {
        f.values.push(ValueData {
            ty: f.value_type(p),
            def: ValueDef::Param(Block(0), k as u32),
        });
        entry_params.push(Value(f.values.len() as u32 - 1));
    }
    f.blocks.push(BlockData {
        params: old_params,
        insts: old_insts,
    });
    f.blocks[0].params = entry_params.clone();
    let jump = Inst(f.insts.len() as u32);
    f.insts.push(InstData {
        op: Op::Jump(BlockCall {
            block: header,
            args: entry_params.into(),
        }),
        result: None,
    });
    f.blocks[0].insts.push(jump);
    for (b, k) in sites {
        // The tail call sites of block 0 are in the header now.
        let b = if b == 0 { header.index() } else { b };
        let call = f.blocks[b].insts[k];
        let ret = f.blocks[b].insts[k + 1];
        let Op::Call(c) = std::mem::replace(&mut f.insts[call.index()].op, Op::Unreachable) else {
            unreachable!()
        };
        f.insts[ret.index()].op = Op::Jump(BlockCall {
            block: header,
            args: c.args.into(),
        });
        f.blocks[b].insts.remove(k);
    }
    // The loop header goes right after the entry block (the back end lays blocks out in
    // order, and the loop is entered from there).
    let nb = f.blocks.len();
    let order: Vec<usize> = std::iter::once(0)
        .chain(std::iter::once(nb - 1))
        .chain(1..nb - 1)
        .collect();
    reorder_blocks(f, &order);
    true
}

/// Puts the blocks in the order `order` gives (`order[new] = old`; block 0 stays first).
/// Not for functions holding block addresses (data may name their blocks).
pub fn reorder_blocks(f: &mut Function, order: &[usize]) {
    debug_assert_eq!(order[0], 0);
    let mut new_of = vec![0u32; order.len()];
    for (new, &old) in order.iter().enumerate() {
        new_of[old] = new as u32;
    }
    let map = |b: &mut Block| *b = Block(new_of[b.index()]);
    let mut old_blocks: Vec<Option<BlockData>> = std::mem::take(&mut f.blocks)
        .into_iter()
        .map(Some)
        .collect();
    f.blocks = order
        .iter()
        .map(|&old| old_blocks[old].take().unwrap())
        .collect();
    for v in &mut f.values {
        if let ValueDef::Param(b, _) = &mut v.def {
            map(b);
        }
    }
    for d in &mut f.insts {
        match &mut d.op {
            Op::Jump(bc) => map(&mut bc.block),
            Op::Branch { then, els, .. } => {
                map(&mut then.block);
                map(&mut els.block);
            }
            Op::Switch { cases, default, .. } => {
                cases.iter_mut().for_each(|c| map(&mut c.1));
                map(default);
            }
            Op::IndirectJump { targets, .. } => targets.iter_mut().for_each(map),
            Op::BlockAddr(b) => map(b),
            _ => {}
        }
    }
}
