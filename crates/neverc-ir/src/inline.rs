//! Inlining at -O1, and the -O1 function pipeline around it.
//!
//! Functions are optimised callees first (a post-order of the call graph), so a call is
//! judged by the size of its callee's optimised body: a callee already done is copied into
//! the caller in place of the call, and then the caller is optimised (`mem2reg`, the
//! scalar passes) with the callee's code in it. A function is never inlined into itself,
//! nor into a function it calls (back edges of the walk: recursion stays calls).
//!
//! At the call site the callee's entry block becomes a block of the caller entered by a
//! jump whose arguments are the call's; its returns become jumps to the rest of the
//! caller's block, whose parameters are the call's results. An aggregate the call passes
//! as memory to copy (the callee owns its copy) is copied into a new slot of the caller.
//! The callee's slots and call plans join the caller's.
//!
//! What is inlined: calls whose plan is the callee's own (a call through an unprototyped
//! declaration may disagree), to a body that cannot be replaced at link time (not weak,
//! and under -fPIC internal or non-default visibility), not `noinline`, not variadic, not
//! of a custom calling convention (the user chose how its calls pass values: they stay
//! calls, as the placement tests and the plan records of other files expect), that
//! neither calls `setjmp` nor uses what belongs to its own frame: `alloca` and VLAs (the
//! caller's stack would grow at every iteration of a loop around the call), labels as
//! values (in its code or in data), `__builtin_frame_address`, nonlocal gotos, and inline asm with a colon in its
//! text (it may define a label, which two copies would define twice). Within those, a
//! callee is inlined when it is `always_inline`, small, or static with few call sites
//! (see [`Budget`]).

use crate::*;
use std::collections::HashMap;

/// Settings of the -O1 pipeline that depend on the compilation.
#[derive(Clone, Copy, Debug, Default)]
pub struct InlineOptions {
    /// -fPIC: a global function of default visibility may be replaced by another
    /// definition when the shared object is loaded, so calls to it are not inlined.
    pub interposable_globals: bool,
}

/// The inliner's size limits, in [`cost`] units.
struct Budget;

impl Budget {
    /// Callees this small are inlined at every call site (a call costs about as much).
    const SMALL: u32 = 12;
    /// Functions declared `inline`.
    const DECLARED_INLINE: u32 = 60;
    /// A static function no one takes the address of, with `n` call sites, is inlined
    /// when `(n - 1) * cost` stays under this: its own body then disappears.
    const STATIC_GROWTH: u32 = 160;
    /// Nor when a called-once static function is bigger than this.
    const CALLED_ONCE: u32 = 600;
    /// A caller stops growing past this many instructions (`always_inline` excepted).
    const CALLER_MAX: usize = 12_000;
    /// Callees with more stack slot bytes than this are not inlined (deep recursion in
    /// the caller would multiply them).
    const SLOT_BYTES: u64 = 512;
}

/// What the inliner needs to know of each function.
struct Info {
    cost: u32,
    /// Nothing in the body stops it from being copied into another function.
    copyable: bool,
    slot_bytes: u64,
}

/// The size of a function for the inliner: its instructions in blocks, except constants,
/// addresses and bit casts, which cost nothing after selection.
pub fn cost(f: &Function) -> u32 {
    let mut n = 0u32;
    for b in &f.blocks {
        for &i in &b.insts {
            n += match &f.inst(i).op {
                Op::Iconst { .. }
                | Op::Fconst { .. }
                | Op::SlotAddr(_)
                | Op::SymAddr { .. }
                | Op::Conv {
                    op: ConvOp::Bitcast,
                    ..
                } => 0,
                Op::Call(c) => 2 + c.args.len() as u32 / 2,
                Op::Copy { size, .. } | Op::Zero { size, .. } => 1 + (*size / 16) as u32,
                _ => 1,
            };
        }
    }
    n
}

/// Whether the body may be copied into another function (see the module comment).
fn copyable(f: &Function) -> bool {
    if f.variadic || f.calls_setjmp || f.blocks_in_data || neverc_abi::callconv::is_custom(&f.plan)
    {
        return false;
    }
    f.blocks.iter().all(|b| {
        b.insts.iter().all(|&i| match &f.inst(i).op {
            Op::Alloca { .. }
            | Op::StackSave
            | Op::StackRestore(_)
            | Op::VaStart(_)
            | Op::BlockAddr(_)
            | Op::IndirectJump { .. }
            | Op::NonLocalGoto { .. }
            | Op::FrameAddress => false,
            Op::InlineAsm(a) => !a.template.contains(':'),
            _ => true,
        })
    })
}

/// The -O1 function pipeline over the whole module: inlining, `mem2reg`, the scalar
/// simplifications, each function after the functions it calls; then the functions
/// nothing refers to any more are removed.
pub fn optimise_module(m: &mut Module, opts: &InlineOptions) {
    crate::opt::remove_unreferenced_functions(m, |_| true);
    crate::simplify::mark_blocks_in_data(m);
    let nf = m.functions.len();
    let by_sym: HashMap<Sym, usize> = m
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.sym, i))
        .collect();
    // Direct call sites of each function, and whether its address is taken anywhere
    // (then its body stays, whatever is inlined).
    let mut call_sites = vec![0u32; nf];
    let mut address_taken = vec![false; nf];
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); nf];
    for (fi, f) in m.functions.iter().enumerate() {
        for b in &f.blocks {
            for &i in &b.insts {
                match &f.inst(i).op {
                    Op::Call(c) if matches!(c.callee, Callee::Direct(_)) => {
                        let Callee::Direct(s) = &c.callee else {
                            unreachable!()
                        };
                        if let Some(&g) = by_sym.get(s) {
                            call_sites[g] += 1;
                            callees[fi].push(g);
                        }
                    }
                    Op::SymAddr { sym, .. } => {
                        if let Some(&g) = by_sym.get(sym) {
                            address_taken[g] = true;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    for d in &m.data {
        for &(_, s, _, _) in &d.relocs {
            if let Some(&g) = by_sym.get(&s) {
                address_taken[g] = true;
            }
        }
    }
    for (i, sd) in m.symbols.iter().enumerate() {
        if let Some(&g) = sd.alias_of.and_then(|t| by_sym.get(&t)) {
            address_taken[g] = true;
        }
        if let Some(&g) = by_sym.get(&Sym(i as u32)) {
            if sd.used {
                address_taken[g] = true;
            }
        }
    }
    for &(_, s) in m.constructors.iter().chain(m.destructors.iter()) {
        if let Some(&g) = by_sym.get(&s) {
            address_taken[g] = true;
        }
    }
    // Which callees may be inlined at all (their symbol cannot be replaced).
    let replaceable: Vec<bool> = m
        .functions
        .iter()
        .map(|f| {
            let sd = m.sym(f.sym);
            sd.binding == Binding::Weak
                || (opts.interposable_globals
                    && sd.binding == Binding::Global
                    && sd.visibility == Visibility::Default)
        })
        .collect();
    // Post-order of the call graph from every function (iterative depth-first walk).
    let mut state = vec![0u8; nf]; // 0 new, 1 on the walk, 2 done
    let mut order: Vec<usize> = Vec::with_capacity(nf);
    for root in 0..nf {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (fi, ref mut next)) = stack.last_mut() {
            if let Some(&g) = callees[fi].get(*next) {
                *next += 1;
                if state[g] == 0 {
                    state[g] = 1;
                    stack.push((g, 0));
                }
            } else {
                state[fi] = 2;
                order.push(fi);
                stack.pop();
            }
        }
    }
    let mut info: Vec<Option<Info>> = (0..nf).map(|_| None).collect();
    for &fi in &order {
        let stand_in = placeholder(&m.functions[fi]);
        let mut f = std::mem::replace(&mut m.functions[fi], stand_in);
        inline_calls(&mut f, m, &by_sym, &info, &|g: usize, info: &Info| {
            if replaceable[g] || !info.copyable {
                return false;
            }
            let callee = &m.functions[g];
            match callee.inline_hint {
                InlineHint::Never => return false,
                InlineHint::Always => return true,
                InlineHint::Default => {}
            }
            if info.slot_bytes > Budget::SLOT_BYTES {
                return false;
            }
            let static_fn = m.sym(callee.sym).binding == Binding::Local && !address_taken[g];
            info.cost <= Budget::SMALL
                || (callee.declared_inline && info.cost <= Budget::DECLARED_INLINE)
                || (static_fn
                    && info.cost <= Budget::CALLED_ONCE
                    && (call_sites[g].saturating_sub(1)) * info.cost <= Budget::STATIC_GROWTH)
        });
        crate::opt::mem2reg(&mut f);
        crate::simplify::simplify(&mut f);
        if crate::sroa::split_slots(&mut f) {
            crate::opt::mem2reg(&mut f);
            crate::simplify::simplify(&mut f);
        }
        if crate::opt::tail_recursion_to_loop(&mut f) {
            crate::simplify::simplify(&mut f);
        }
        info[fi] = Some(Info {
            cost: cost(&f),
            copyable: copyable(&f),
            slot_bytes: f.slots.iter().map(|s| s.size).sum(),
        });
        m.functions[fi] = f;
    }
    crate::opt::remove_unreferenced_functions(m, |_| true);
}

/// An empty stand-in while a function is taken out of the module to be worked on.
fn placeholder(f: &Function) -> Function {
    let mut f = FunctionBuilder::new(f.sym, f.plan.clone(), false).func;
    f.inline_hint = InlineHint::Never;
    f
}

/// Inlines into `f` the calls of its own (not those of bodies inlined here) to finished
/// functions `want` accepts.
fn inline_calls(
    f: &mut Function,
    m: &Module,
    by_sym: &HashMap<Sym, usize>,
    info: &[Option<Info>],
    want: &dyn Fn(usize, &Info) -> bool,
) {
    if f.calls_setjmp {
        return;
    }
    let own_insts = f.insts.len();
    let mut b = 0;
    while b < f.blocks.len() {
        let mut k = 0;
        while k < f.blocks[b].insts.len() {
            let i = f.blocks[b].insts[k];
            k += 1;
            if i.index() >= own_insts {
                continue;
            }
            let Op::Call(c) = &f.inst(i).op else {
                continue;
            };
            let Call {
                callee: Callee::Direct(s),
                plan,
                args,
                ..
            } = &**c
            else {
                continue;
            };
            let Some(&g) = by_sym.get(s) else { continue };
            let Some(gi) = &info[g] else { continue };
            let callee = &m.functions[g];
            if callee.sym == f.sym || !want(g, gi) {
                continue;
            }
            if callee.inline_hint != InlineHint::Always && f.insts.len() > Budget::CALLER_MAX {
                return;
            }
            // The call must be made the way the body expects it.
            if f.plans[plan.index()] != callee.plan
                || args.len() != callee.blocks[0].params.len()
                || args
                    .iter()
                    .zip(&callee.blocks[0].params)
                    .any(|(&a, &p)| f.value_type(a) != callee.value_type(p))
            {
                continue;
            }
            inline_one(f, Block(b as u32), k - 1, callee);
            // The rest of block b moved to a new block, visited in its turn.
            break;
        }
        b += 1;
    }
}

/// Replaces the call at `f.blocks[b].insts[k]` with a copy of `g`'s body.
fn inline_one(f: &mut Function, b: Block, k: usize, g: &Function) {
    let call = f.blocks[b.index()].insts[k];
    let Op::Call(c) = f.inst(call).op.clone() else {
        unreachable!("inline_one on a non-call")
    };
    let Call {
        args,
        arg_mem,
        results,
        ..
    } = *c;
    let vo = f.values.len() as u32;
    let bo = f.blocks.len() as u32;
    let so = f.slots.len() as u32;
    let po = f.plans.len() as u32;
    let io = f.insts.len() as u32;
    let cont = Block(bo + g.blocks.len() as u32);
    let new_inst = |f: &mut Function, op: Op, ty: Option<Type>| -> Inst {
        let inst = Inst(f.insts.len() as u32);
        let result = ty.map(|t| {
            f.values.push(ValueData {
                ty: t,
                def: ValueDef::Result(inst, 0),
            });
            Value(f.values.len() as u32 - 1)
        });
        f.insts.push(InstData { op, result });
        inst
    };
    // The callee's values, instructions, slots and plans, renumbered.
    let v = |x: Value| Value(x.0 + vo);
    let blk = |x: Block| Block(x.0 + bo);
    for vd in &g.values {
        let def = match vd.def {
            ValueDef::Param(pb, n) => ValueDef::Param(blk(pb), n),
            ValueDef::Result(pi, n) => ValueDef::Result(Inst(pi.0 + io), n),
        };
        f.values.push(ValueData { ty: vd.ty, def });
    }
    for d in &g.insts {
        let mut op = d.op.clone();
        op.for_each_operand_mut(|x| *x = v(*x));
        match &mut op {
            Op::SlotAddr(s) => s.0 += so,
            Op::Call(c) => {
                c.results.iter_mut().for_each(|x| *x = v(*x));
                c.plan.0 += po;
                // No longer the last thing its function does.
                c.tail = false;
            }
            Op::InlineAsm(a) => a.results.iter_mut().for_each(|x| *x = v(*x)),
            Op::Jump(bc) => bc.block = blk(bc.block),
            Op::Branch { then, els, .. } => {
                then.block = blk(then.block);
                els.block = blk(els.block);
            }
            Op::Switch { cases, default, .. } => {
                cases.iter_mut().for_each(|c| c.1 = blk(c.1));
                *default = blk(*default);
            }
            Op::Return(vs) => {
                op = Op::Jump(BlockCall {
                    block: cont,
                    args: std::mem::take(vs).into(),
                })
            }
            _ => {}
        }
        f.insts.push(InstData {
            op,
            result: d.result.map(v),
        });
    }
    f.slots.extend(g.slots.iter().copied());
    f.plans.extend(g.plans.iter().cloned());
    for bd in &g.blocks {
        f.blocks.push(BlockData {
            params: bd.params.iter().map(|&x| v(x)).collect(),
            insts: bd.insts.iter().map(|&i| Inst(i.0 + io)).collect(),
        });
    }
    // The rest of the caller's block, entered with the call's results.
    let rest = f.blocks[b.index()].insts.split_off(k + 1);
    f.blocks[b.index()].insts.pop();
    for (n, &r) in results.iter().enumerate() {
        f.values[r.index()].def = ValueDef::Param(cont, n as u32);
    }
    f.blocks.push(BlockData {
        params: results,
        insts: rest,
    });
    // Aggregates passed as memory: the callee's own copies.
    let mut entry_args = args;
    for &n in &arg_mem {
        let loc = &g.plan.arguments[n as usize];
        let align = if loc.align >= 16 { 16 } else { 8 };
        let s = Slot(f.slots.len() as u32);
        f.slots.push(SlotData {
            size: u64::from(loc.size),
            align,
        });
        let addr_inst = new_inst(f, Op::SlotAddr(s), Some(Type::Ptr));
        let addr = f.inst(addr_inst).result.unwrap();
        let copy = new_inst(
            f,
            Op::Copy {
                dst: addr,
                src: entry_args[n as usize],
                size: u64::from(loc.size),
                align: 1,
            },
            None,
        );
        f.blocks[b.index()].insts.extend([addr_inst, copy]);
        entry_args[n as usize] = addr;
    }
    let jump = new_inst(
        f,
        Op::Jump(BlockCall {
            block: Block(bo),
            args: entry_args.into(),
        }),
        None,
    );
    f.blocks[b.index()].insts.push(jump);
    // The call instruction is gone from every block; leave its arena entry inert.
    f.insts[call.index()] = InstData {
        op: Op::Unreachable,
        result: None,
    };
}
