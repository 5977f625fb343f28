//! After register allocation: the frame, the prologue and epilogue, the allocator's moves,
//! and the final `asm::Inst` list of one function (with its jump tables and CFI points).
//!
//! Frame, from rbp down (rbp is always the frame pointer):
//!
//! ```text
//!   rbp+16 ...        incoming stack arguments
//!   rbp+8             return address
//!   rbp               saved rbp
//!   rbp-fixed_size    fixed slots (IR slots, f80 homes, x87 scratch, va register save area)
//!   ...               regalloc2 spill slots, 8 bytes each
//!   ...               callee-saved registers the function uses (saved with mov)
//!   rsp+max_out       (dynamic allocas go between here and the outgoing area)
//!   rsp               outgoing argument area
//! ```
//!
//! Every return jumps to one epilogue at the end of the code, so the unwind description
//! needs no remember/restore state.

use crate::asm::*;
use crate::lower::{FrameInfo, Lowered, INTERNAL_LABEL, OUT_MARK};
use crate::vcode::*;
use neverc_codegen::cfi::CfaOp;
use regalloc2::{Allocation, Edit, InstOrEdit, Output, PReg, PRegSet, RegClass};

/// `.cfi_*` text for a frame change.
pub fn cfi_text(op: CfaOp) -> String {
    match op {
        CfaOp::PushRbp => ".cfi_def_cfa_offset 16\n\t.cfi_offset 6, -16".into(),
        CfaOp::MovRspRbp => ".cfi_def_cfa_register 6".into(),
        CfaOp::SaveReg { reg, cfa_offset } => format!(".cfi_offset {reg}, {cfa_offset}"),
        CfaOp::RestoreReg(r) => format!(".cfi_restore {r}"),
        CfaOp::AfterLeave => ".cfi_def_cfa 7, 8".into(),
        CfaOp::DefCfaOffset(o) => format!(".cfi_def_cfa_offset {o}"),
        CfaOp::DefCfaRegister(r) => format!(".cfi_def_cfa_register {r}"),
        CfaOp::DefCfa { reg, offset } => format!(".cfi_def_cfa {reg}, {offset}"),
        CfaOp::RememberState => ".cfi_remember_state".into(),
        CfaOp::RestoreState => ".cfi_restore_state".into(),
    }
}

pub struct Emitted {
    pub insts: Vec<Inst>,
    /// CFI before `insts[i]`, each with the label placed there.
    pub cfi: Vec<(usize, Label, CfaOp)>,
    /// The label after the last instruction of the code (the symbol's size).
    pub end: Label,
    /// Final labels of the lowered blocks, by IR block index.
    pub block_labels: Vec<Option<Label>>,
    /// Inline asm statements: ranges of `insts` (the `-S` text marks them `#APP`).
    pub app: Vec<(usize, usize)>,
}

fn gpr_dwarf(hw: u8) -> u16 {
    const D: [u16; 16] = [0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15];
    D[hw as usize]
}

// Not inlined into its caller: it is a phase of its own in profiles.
#[inline(never)]
pub fn emit_function(low: &Lowered, out: &Output) -> Emitted {
    let vc = &low.vcode;
    let fr: &FrameInfo = &low.frame;
    let mut next_label = low.next_label + 1;
    let mut new_label = || {
        next_label += 1;
        Label(next_label)
    };

    // Callee-saved registers in use (as sets: every allocation is looked at).
    let mut callee_saved = PRegSet::empty();
    for &r in &fr.callee_saved {
        if r != preg_gpr(5) {
            callee_saved.add(r);
        }
    }
    let mut used_set = PRegSet::empty();
    let mut note = |a: Allocation| {
        if let Some(r) = a.as_reg() {
            if callee_saved.contains(r) {
                used_set.add(r);
            }
        }
    };
    for &a in &out.allocs {
        note(a);
    }
    for &r in &fr.asm_saved {
        note(Allocation::reg(r));
    }
    for (_, e) in &out.edits {
        let Edit::Move { from, to } = e;
        note(*from);
        note(*to);
    }
    if fr.save_all {
        used_set.union_from(callee_saved);
    }
    let mut used: Vec<PReg> = used_set.into_iter().collect();
    used.sort();
    let spill_base = fr.fixed_size as i32;
    let nspill = out.num_spillslots as i32;
    let spill_off = |slot: usize| -(spill_base + 8 * (slot as i32 + 1));
    let save_base = spill_base + 8 * nspill;
    // A general register takes 8 bytes; an xmm register (callee-saved only under a custom
    // `csr:` set) 16, the xmm ones first, so all of them are 16-byte aligned.
    used.sort_by_key(|r| (r.class() == RegClass::Int, r.hw_enc()));
    let mut save_offs: Vec<i32> = Vec::with_capacity(used.len());
    let mut at = save_base;
    for r in &used {
        if r.class() == RegClass::Int {
            at += 8;
        } else {
            at = (at + 16 + 15) / 16 * 16;
        }
        save_offs.push(-at);
    }
    let save_off = |j: usize| save_offs[j];
    let local = (at as u32).next_multiple_of(16);
    let total = local + fr.max_out;
    // Without a frame pointer, rsp sits `total` bytes below where rbp would be (rbp's
    // push becomes 8 more bytes of the frame, keeping rsp 16-aligned): every rbp-based
    // address becomes rsp-based with `total` added.
    // Kept when an instruction names rbp other than as a base (rsp-relative it would
    // mean something else).
    let omit_fp = fr.omit_fp
        && vc
            .insts
            .iter()
            .all(|vi| vi.insts.iter().all(|t| only_as_base(t, Gpr::RBP)));

    // Room for the usual case (about two templates per instruction, the allocator's moves,
    // a label and a branch per block), not to regrow the list instruction by instruction.
    let mut insts: Vec<Inst> =
        Vec::with_capacity(2 * vc.insts.len() + out.edits.len() + 2 * vc.blocks.len() + 32);
    let mut cfi: Vec<(usize, Label, CfaOp)> = Vec::new();
    fn add_cfi(insts: &mut Vec<Inst>, cfi: &mut Vec<(usize, Label, CfaOp)>, c: CfaOp, l: Label) {
        insts.push(Inst::Label(l));
        cfi.push((insts.len(), l, c));
    }

    // Prologue.
    if omit_fp {
        insts.push(Inst::Alu {
            op: AluOp::Sub,
            size: Size::S64,
            src: Rmi::Imm(total as i64 + 8),
            dst: Rm::Reg(Gpr::RSP),
        });
        add_cfi(
            &mut insts,
            &mut cfi,
            CfaOp::DefCfaOffset(total as i32 + 16),
            new_label(),
        );
    } else {
        insts.push(Inst::Push { src: Gpr::RBP });
        add_cfi(&mut insts, &mut cfi, CfaOp::PushRbp, new_label());
        insts.push(Inst::Mov {
            size: Size::S64,
            src: Rmi::Reg(Gpr::RSP),
            dst: Rm::Reg(Gpr::RBP),
        });
        add_cfi(&mut insts, &mut cfi, CfaOp::MovRspRbp, new_label());
    }
    if total > 0 && !omit_fp {
        insts.push(Inst::Alu {
            op: AluOp::Sub,
            size: Size::S64,
            src: Rmi::Imm(total as i64),
            dst: Rm::Reg(Gpr::RSP),
        });
    }
    if fr.realign > 16 {
        insts.push(Inst::Alu {
            op: AluOp::And,
            size: Size::S64,
            src: Rmi::Imm(-(fr.realign as i64)),
            dst: Rm::Reg(Gpr::RSP),
        });
    }
    for (j, r) in used.iter().enumerate() {
        let reg = if r.class() == RegClass::Int {
            let g = Gpr(r.hw_enc() as u8);
            insts.push(Inst::Mov {
                size: Size::S64,
                src: Rmi::Reg(g),
                dst: Rm::Mem(Mem::base(Gpr::RBP, save_off(j))),
            });
            gpr_dwarf(g.0)
        } else {
            insts.push(Inst::XmmMov {
                op: XmmMovOp::Movups,
                src: XmmMem::Xmm(Xmm(r.hw_enc() as u8)),
                dst: XmmMem::Mem(Mem::base(Gpr::RBP, save_off(j))),
            });
            17 + r.hw_enc() as u16
        };
        add_cfi(
            &mut insts,
            &mut cfi,
            CfaOp::SaveReg {
                reg,
                cfa_offset: save_off(j) - 16,
            },
            new_label(),
        );
    }
    if let Some(va) = fr.va_save {
        va_save_insts(va, new_label(), |i| insts.push(i));
    }

    // Block layout: each block after the block it was made for.
    let nb = vc.blocks.len();
    let root = |mut i: usize| {
        while vc.blocks[i].origin != i {
            i = vc.blocks[i].origin;
        }
        i
    };
    let mut order: Vec<usize> = (0..nb).collect();
    order.sort_by_key(|&i| (root(i), i));
    if low.rotate_loops {
        order = rpo_layout(vc, &root);
        rotate_loops(vc, &mut order, &root);
    }

    // Forwarding of empty jump blocks.
    let mut fwd: Vec<Option<usize>> = vec![None; nb];
    #[allow(clippy::needless_range_loop)]
    for b in 1..nb {
        let (s, e) = vc.ranges[b];
        if e - s == 1
            && matches!(vc.insts[s].term, Term::Jump)
            && vc.insts[s].insts.is_empty()
            && out
                .block_insts_and_edits(vc, regalloc2::Block::new(b))
                .all(|x| matches!(x, InstOrEdit::Inst(_)))
        {
            fwd[b] = Some(vc.succs(b)[0].index());
        }
    }
    // Empty blocks jumping round in a cycle (`for (;;);`) stay: one of them is emitted.
    for b in 1..nb {
        let mut x = b;
        let mut n = 0;
        while let Some(t) = fwd[x] {
            x = t;
            n += 1;
            if x == b || n > nb {
                fwd[b] = None;
                break;
            }
        }
    }
    let resolve = |mut b: usize| {
        let mut n = 0;
        while let Some(t) = fwd[b] {
            b = t;
            n += 1;
            if n > nb {
                break;
            }
        }
        b
    };
    let label_of = |b: usize| block_label(resolve(b));
    let emitted: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&b| fwd[b].is_none())
        .collect();
    let epilogue = new_label();
    let mut tables: Vec<(Label, Vec<Label>)> = Vec::new();
    let mut app: Vec<(usize, usize)> = Vec::new();

    let phys = |a: Allocation| a.as_reg().expect("register allocation");
    for (pos, &b) in emitted.iter().enumerate() {
        let next = emitted.get(pos + 1).map(|&n| block_label(n));
        insts.push(Inst::Label(block_label(b)));
        let succ_label = |i: usize| label_of(vc.succs(b)[i].index());
        for item in out.block_insts_and_edits(vc, regalloc2::Block::new(b)) {
            match item {
                InstOrEdit::Edit(Edit::Move { from, to }) => {
                    emit_move(&mut insts, *from, *to, &spill_off, vc.wide_float);
                }
                InstOrEdit::Inst(ix) => {
                    let vi = &vc.insts[ix.index()];
                    let allocs = out.inst_allocs(ix);
                    let app_start = insts.len();
                    for t in &vi.insts {
                        // Copied once, straight into the list, then rewritten there.
                        insts.push(*t);
                        let t = insts.last_mut().expect("just pushed");
                        t.map_regs_pure(
                            &|g: Gpr| {
                                if g.0 & PH != 0 {
                                    Gpr(phys(allocs[(g.0 & !PH) as usize]).hw_enc() as u8)
                                } else {
                                    g
                                }
                            },
                            &|x: Xmm| {
                                if x.0 & PH != 0 {
                                    Xmm(phys(allocs[(x.0 & !PH) as usize]).hw_enc() as u8)
                                } else {
                                    x
                                }
                            },
                        );
                        if let Inst::Lea { src, .. } = t {
                            if src.disp == OUT_MARK {
                                src.disp = fr.max_out as i32;
                            }
                            // Block addresses follow forwarded blocks.
                            if let Some(l) = src.label {
                                if l.0 < INTERNAL_LABEL {
                                    src.label = Some(label_of(l.0 as usize));
                                }
                            }
                        }
                        if let Inst::Jcc { target, .. } = t {
                            if target.0 > u32::MAX - 0x1000_0000 {
                                *target = succ_label((u32::MAX - target.0) as usize);
                            }
                        }
                    }
                    if vi.inline_asm {
                        app.push((app_start, insts.len()));
                    }
                    match &vi.term {
                        Term::None | Term::Indirect | Term::Trap => {}
                        Term::Jump => {
                            let t = succ_label(0);
                            if Some(t) != next {
                                insts.push(Inst::Jmp { target: t });
                            }
                        }
                        Term::Cond(cs) => {
                            let (t, e) = (succ_label(0), succ_label(1));
                            if Some(e) == next {
                                branch_if(&mut insts, *cs, t, &mut new_label);
                            } else if Some(t) == next {
                                branch_if(&mut insts, cs.invert(), e, &mut new_label);
                            } else {
                                branch_if(&mut insts, *cs, t, &mut new_label);
                                insts.push(Inst::Jmp { target: e });
                            }
                        }
                        Term::Table { table, entries } => {
                            tables.push((
                                Label(*table),
                                entries.iter().map(|&i| succ_label(i)).collect(),
                            ));
                        }
                        Term::Ret => {
                            if next.is_some() {
                                insts.push(Inst::Jmp { target: epilogue });
                            }
                        }
                    }
                }
            }
        }
    }
    // Epilogue.
    insts.push(Inst::Label(epilogue));
    for (j, r) in used.iter().enumerate() {
        if r.class() == RegClass::Int {
            insts.push(Inst::Mov {
                size: Size::S64,
                src: Rmi::Mem(Mem::base(Gpr::RBP, save_off(j))),
                dst: Rm::Reg(Gpr(r.hw_enc() as u8)),
            });
        } else {
            insts.push(Inst::XmmMov {
                op: XmmMovOp::Movups,
                src: XmmMem::Mem(Mem::base(Gpr::RBP, save_off(j))),
                dst: XmmMem::Xmm(Xmm(r.hw_enc() as u8)),
            });
        }
    }
    if omit_fp {
        insts.push(Inst::Alu {
            op: AluOp::Add,
            size: Size::S64,
            src: Rmi::Imm(total as i64 + 8),
            dst: Rm::Reg(Gpr::RSP),
        });
        add_cfi(&mut insts, &mut cfi, CfaOp::DefCfaOffset(8), new_label());
    } else {
        insts.push(Inst::Leave);
        add_cfi(&mut insts, &mut cfi, CfaOp::AfterLeave, new_label());
    }
    insts.push(Inst::Ret);
    if omit_fp {
        for t in &mut insts {
            rebase_frame(t, total as i32);
        }
    }
    let end = new_label();
    insts.push(Inst::Label(end));
    jump_table_data(tables, &mut insts);
    let block_labels = low
        .block_labels
        .iter()
        .map(|l| l.map(|l| label_of(l.0 as usize)))
        .collect();
    Emitted {
        insts,
        cfi,
        end,
        block_labels,
        app,
    }
}

/// An rbp-based memory operand of `t` made rsp-based (`total` bytes further).
fn rebase_frame(t: &mut Inst, total: i32) {
    for_each_mem(t, &mut |m| {
        if m.base == Some(Gpr::RBP) {
            m.base = Some(Gpr::RSP);
            m.disp += total;
        }
    });
}

/// Blocks in reverse postorder of the control-flow graph (each block with the edge blocks
/// made for it right after it), visiting a block's first successor last so that it comes
/// right after the block: a branch falls into its `then` side, a loop header into its body,
/// and a block comes after its predecessors but on back edges. Blocks the walk does not
/// reach (landing pads are reached) keep their order at the end.
fn rpo_layout(vc: &VCode, root: &dyn Fn(usize) -> usize) -> Vec<usize> {
    let nb = vc.blocks.len();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for b in 0..nb {
        members[root(b)].push(b);
    }
    let succs = |g: usize| -> Vec<usize> {
        let mut v: Vec<usize> = Vec::new();
        for &b in &members[g] {
            for s in vc.succs(b) {
                let r = root(s.index());
                if r != g && !v.contains(&r) {
                    v.push(r);
                }
            }
        }
        v
    };
    let mut seen = vec![false; nb];
    let mut post = Vec::with_capacity(nb);
    let mut stack: Vec<(usize, Vec<usize>)> = vec![(0, succs(0))];
    seen[0] = true;
    while let Some((g, rest)) = stack.last_mut() {
        // Successors are taken from the back: the first one is visited last.
        match rest.pop() {
            Some(s) if !seen[s] => {
                seen[s] = true;
                let ss = succs(s);
                stack.push((s, ss));
            }
            Some(_) => {}
            None => {
                post.push(*g);
                stack.pop();
            }
        }
    }
    let mut order: Vec<usize> = Vec::with_capacity(nb);
    for &g in post.iter().rev() {
        order.extend(&members[g]);
    }
    for g in 0..nb {
        if root(g) == g && !seen[g] {
            order.extend(&members[g]);
        }
    }
    order
}

/// Moves each loop header that is a lone conditional branch block to after its last latch
/// (the last block, in layout order, that jumps back to it): the latch then falls into the
/// test, and the test jumps back to the body, one taken branch per iteration instead of a
/// test at the top plus a jump back at the bottom.
fn rotate_loops(vc: &VCode, order: &mut Vec<usize>, root: &dyn Fn(usize) -> usize) {
    let nb = vc.blocks.len();
    let mut group_size = vec![0u32; nb];
    for b in 0..nb {
        group_size[root(b)] += 1;
    }
    let mut h = 1;
    while h < nb {
        let header = h;
        h += 1;
        // A header alone in its group (no edge blocks laid out after it) ending in a test.
        if root(header) != header || group_size[header] != 1 {
            continue;
        }
        let (s, e) = vc.ranges[header];
        if e == s || !matches!(vc.insts[e - 1].term, Term::Cond(_)) {
            continue;
        }
        let pos = |order: &Vec<usize>, b: usize| order.iter().position(|&x| x == b).unwrap();
        let hp = pos(order, header);
        // The last block after the header that branches back to it.
        let mut latch = None;
        for (p, &b) in order.iter().enumerate().skip(hp + 1) {
            if vc.succs(b).iter().any(|s| s.index() == header) {
                latch = Some(p);
            }
        }
        let Some(lp) = latch else { continue };
        // The latch must end in a plain jump to the header, so that it can fall into it.
        let (ls, le) = vc.ranges[order[lp]];
        if le == ls
            || !matches!(vc.insts[le - 1].term, Term::Jump)
            || vc.succs(order[lp]).len() != 1
        {
            continue;
        }
        let b = order.remove(hp);
        order.insert(lp, b);
    }
}

pub(crate) fn branch_if(
    insts: &mut Vec<Inst>,
    cs: CondSpec,
    target: Label,
    new_label: &mut dyn FnMut() -> Label,
) {
    match cs {
        CondSpec::One(c) => insts.push(Inst::Jcc { cond: c, target }),
        CondSpec::Or(a, b) => {
            insts.push(Inst::Jcc { cond: a, target });
            insts.push(Inst::Jcc { cond: b, target });
        }
        CondSpec::And(a, b) => {
            let skip = new_label();
            insts.push(Inst::Jcc {
                cond: a.invert(),
                target: skip,
            });
            insts.push(Inst::Jcc { cond: b, target });
            insts.push(Inst::Label(skip));
        }
    }
}

fn emit_move(
    insts: &mut Vec<Inst>,
    from: Allocation,
    to: Allocation,
    spill_off: &dyn Fn(usize) -> i32,
    wide_float: bool,
) {
    let slot = |a: Allocation| Mem::base(Gpr::RBP, spill_off(a.as_stack().unwrap().index()));
    let class = from
        .as_reg()
        .or(to.as_reg())
        .map(|r| r.class())
        .unwrap_or(RegClass::Int);
    match class {
        RegClass::Int => {
            let src = match from.as_reg() {
                Some(r) => Rmi::Reg(Gpr(r.hw_enc() as u8)),
                None => Rmi::Mem(slot(from)),
            };
            let dst = match to.as_reg() {
                Some(r) => Rm::Reg(Gpr(r.hw_enc() as u8)),
                None => Rm::Mem(slot(to)),
            };
            insts.push(Inst::Mov {
                size: Size::S64,
                src,
                dst,
            });
        }
        _ => {
            let src = match from.as_reg() {
                Some(r) => XmmMem::Xmm(Xmm(r.hw_enc() as u8)),
                None => XmmMem::Mem(slot(from)),
            };
            let dst = match to.as_reg() {
                Some(r) => XmmMem::Xmm(Xmm(r.hw_enc() as u8)),
                None => XmmMem::Mem(slot(to)),
            };
            let op = if from.is_reg() && to.is_reg() {
                XmmMovOp::Movaps
            } else if wide_float {
                // 16-byte slots (VCode::wide_float), not necessarily 16-aligned.
                XmmMovOp::Movups
            } else {
                XmmMovOp::Movsd
            };
            insts.push(Inst::XmmMov { op, src, dst });
        }
    }
}

/// The jump tables after a function's code: each aligned to 4, its label, then an entry
/// (a 32-bit offset from the table) per case target. Shared with the direct -O0 selector.
pub(crate) fn jump_table_data(
    tables: impl IntoIterator<Item = (Label, Vec<Label>)>,
    insts: &mut Vec<Inst>,
) {
    for (table, entries) in tables {
        insts.push(Inst::Align(4));
        insts.push(Inst::Label(table));
        for e in entries {
            insts.push(Inst::JumpTableEntry {
                target: e,
                base: table,
            });
        }
    }
}

/// A variadic function's prologue part (System V): the six argument registers into the
/// register save area at `va` (from rbp), and the eight vector ones when al says any are
/// used (jumping to `skip` otherwise). Shared by this emitter and the direct -O0 selector.
pub(crate) fn va_save_insts(va: i32, skip: Label, mut emit: impl FnMut(Inst)) {
    for (i, r) in [Gpr::RDI, Gpr::RSI, Gpr::RDX, Gpr::RCX, Gpr::R8, Gpr::R9]
        .into_iter()
        .enumerate()
    {
        emit(Inst::Mov {
            size: Size::S64,
            src: Rmi::Reg(r),
            dst: Rm::Mem(Mem::base(Gpr::RBP, va + 8 * i as i32)),
        });
    }
    emit(Inst::Test {
        size: Size::S8,
        src: Rmi::Reg(Gpr::RAX),
        dst: Rm::Reg(Gpr::RAX),
    });
    emit(Inst::Jcc {
        cond: Cond::E,
        target: skip,
    });
    for i in 0..8u8 {
        emit(Inst::XmmMov {
            op: XmmMovOp::Movaps,
            src: XmmMem::Xmm(Xmm(i)),
            dst: XmmMem::Mem(Mem::base(Gpr::RBP, va + 48 + 16 * i as i32)),
        });
    }
    emit(Inst::Label(skip));
}
