//! After register allocation: the frame, the prologue and epilogue, the allocator's moves,
//! and the final `asm::Inst` list of one function with its CFI points.
//!
//! Frame, from x29 (the frame record is always kept):
//!
//! ```text
//!   x29+16 ...        incoming stack arguments (the CFA is x29 + 16)
//!   x29+8             saved x30
//!   x29               saved x29
//!   x29-fixed_size    fixed slots (IR slots)
//!   ...               regalloc2 spill slots, 8 bytes each
//!   ...               callee-saved registers the function uses, in stp/ldp pairs
//!   sp+max_out        (dynamic allocas go between here and the outgoing area)
//!   sp                outgoing argument area
//! ```
//!
//! Every return branches to one epilogue at the end of the code, so the unwind description
//! needs no remember/restore state. A leaf function with nothing in its frame gets no frame
//! record at all (its code is the body and `ret`).

use crate::asm::*;
use crate::lower::{FrameInfo, Lowered, PH, SCRATCH2};
use neverc_codegen::cfi::CfaOp;
use neverc_codegen::vcode::Term;
use regalloc2::{Allocation, Edit, InstOrEdit, Output, PReg, PRegSet, RegClass};

/// `.cfi_*` text for a frame change (the target-neutral ops this back end uses).
pub fn cfi_text(op: CfaOp) -> String {
    match op {
        CfaOp::SaveReg { reg, cfa_offset } => format!(".cfi_offset {reg}, {cfa_offset}"),
        CfaOp::RestoreReg(r) => format!(".cfi_restore {r}"),
        CfaOp::DefCfaOffset(o) => format!(".cfi_def_cfa_offset {o}"),
        CfaOp::DefCfaRegister(r) => format!(".cfi_def_cfa_register {r}"),
        CfaOp::DefCfa { reg, offset } => format!(".cfi_def_cfa {reg}, {offset}"),
        CfaOp::RememberState => ".cfi_remember_state".into(),
        CfaOp::RestoreState => ".cfi_restore_state".into(),
        other => unreachable!("x86-64 CFI op {other:?} in AArch64 code"),
    }
}

pub struct Emitted {
    pub insts: Vec<Inst>,
    /// CFI before `insts[i]`, each with the label placed there.
    pub cfi: Vec<(usize, Label, CfaOp)>,
    /// The label after the last instruction (the symbol's size).
    pub end: Label,
    /// Inline asm statements: ranges of `insts` (the `-S` text marks them `#APP`).
    pub app: Vec<(usize, usize)>,
}

/// DWARF number of an allocated register.
fn dwarf(r: PReg) -> u16 {
    match r.class() {
        RegClass::Int => r.hw_enc() as u16,
        _ => 64 + r.hw_enc() as u16,
    }
}

/// A load or store of `bytes` at `x29 + off`, through x17 when no single instruction
/// reaches it.
fn frame_access(insts: &mut Vec<Inst>, op: MemOp, rt: Reg, off: i64) {
    match crate::lower::mem_at(Gpr::FP, off, op.bytes()) {
        Some(addr) => insts.push(Inst::Mem { op, rt, addr }),
        None => {
            insts
                .extend(crate::lower::add_imm(SCRATCH2, Gpr::FP, off).expect("frame under 16 MiB"));
            insts.push(Inst::Mem {
                op,
                rt,
                addr: Addr::UImm {
                    base: SCRATCH2,
                    off: 0,
                },
            });
        }
    }
}

pub fn emit_function(low: &Lowered, out: &Output) -> Result<Emitted, String> {
    let vc = &low.vcode;
    let fr: &FrameInfo = &low.frame;
    let mut next_label = low.next_label + 1;
    let mut new_label = || {
        next_label += 1;
        Label(next_label)
    };

    // Callee-saved registers in use.
    let mut used: Vec<PReg> = Vec::new();
    let mut note = |a: Allocation| {
        if let Some(r) = a.as_reg() {
            if fr.callee_saved.contains(&r) && !used.contains(&r) {
                used.push(r);
            }
        }
    };
    for &a in &out.allocs {
        note(a);
    }
    for &r in &fr.extra_saved {
        note(Allocation::reg(r));
    }
    for (_, e) in &out.edits {
        let Edit::Move { from, to } = e;
        note(*from);
        note(*to);
    }
    if fr.save_all {
        used = fr.callee_saved.clone();
    }
    used.sort();
    let spill_base = fr.fixed_size as i64;
    let nspill = out.num_spillslots as i64;
    let spill_off = move |slot: usize| -(spill_base + 8 * (slot as i64 + 1));
    // The save area: 16-byte pairs below the spill slots.
    let save_base = ((spill_base + 8 * nspill) as u64).next_multiple_of(16) as i64;
    // Callee-saved registers in pairs of one class, a 16-byte slot per pair or single: an
    // odd number of general registers and an odd number of vector registers make two
    // singles, so the area is not used.len() / 2 pairs.
    let mut pairs: Vec<(PReg, Option<PReg>)> = Vec::new();
    let mut k = 0;
    while k < used.len() {
        if k + 1 < used.len() && used[k + 1].class() == used[k].class() {
            pairs.push((used[k], Some(used[k + 1])));
            k += 2;
        } else {
            pairs.push((used[k], None));
            k += 1;
        }
    }
    let local = (save_base + 16 * pairs.len() as i64) as u32;
    let total = local + fr.max_out;
    if total >= 1 << 24 {
        return Err("a stack frame over 16 MiB".into());
    }

    let mut insts: Vec<Inst> = Vec::new();
    let mut app: Vec<(usize, usize)> = Vec::new();
    let mut cfi: Vec<(usize, Label, CfaOp)> = Vec::new();
    let add_cfi = |insts: &mut Vec<Inst>, cfi: &mut Vec<(usize, Label, CfaOp)>, c: CfaOp, l| {
        insts.push(Inst::Label(l));
        cfi.push((insts.len(), l, c));
    };

    // A leaf whose frame would hold nothing needs no frame record: no calls, no slots,
    // spills or saves, and nothing that names sp, x29 or x30 (stack arguments, alloca,
    // the frame address).
    let names_frame = |t: &Inst| {
        let mut hit = matches!(t, Inst::Bl(_) | Inst::Blr(_));
        let mut t = *t;
        t.map_regs(
            &mut |g| {
                hit |= matches!(g, Gpr::SP | Gpr::FP | Gpr::LR);
                g
            },
            &mut |v| v,
        );
        hit
    };
    let frameless = total == 0
        && used.is_empty()
        && fr.va_save.is_none()
        && vc
            .insts
            .iter()
            .all(|vi| vi.clobbers == PRegSet::empty() && !vi.insts.iter().any(names_frame));

    // Prologue: the frame record, then the rest of the frame.
    if !frameless {
        insts.push(Inst::Pair {
            load: false,
            class: PairClass::X,
            rt: Reg::G(Gpr::FP),
            rt2: Reg::G(Gpr::LR),
            base: Gpr::SP,
            off: -16,
            mode: PairMode::Pre,
        });
        let l = new_label();
        add_cfi(&mut insts, &mut cfi, CfaOp::DefCfaOffset(16), l);
        cfi.push((
            insts.len(),
            l,
            CfaOp::SaveReg {
                reg: 29,
                cfa_offset: -16,
            },
        ));
        cfi.push((
            insts.len(),
            l,
            CfaOp::SaveReg {
                reg: 30,
                cfa_offset: -8,
            },
        ));
        insts.push(Inst::mov(Size::X, Gpr::FP, Gpr::SP));
        let l = new_label();
        add_cfi(
            &mut insts,
            &mut cfi,
            CfaOp::DefCfa {
                reg: 29,
                offset: 16,
            },
            l,
        );
        if total > 0 {
            insts.extend(crate::lower::add_imm(Gpr::SP, Gpr::SP, -(total as i64)).unwrap());
        }
    }
    let pair_off = |p: usize| -(save_base + 16 * (p as i64 + 1));
    let reg_of = |r: PReg| match r.class() {
        RegClass::Int => Reg::G(Gpr(r.hw_enc() as u8)),
        _ => Reg::V(Fpr(r.hw_enc() as u8)),
    };
    let save_insts = |load: bool, p: usize, a: PReg, b: Option<PReg>, insts: &mut Vec<Inst>| {
        let off = pair_off(p);
        let fp = a.class() != RegClass::Int;
        match b {
            Some(b) => {
                let (base, o) = if off >= -512 {
                    (Gpr::FP, off as i32)
                } else {
                    insts.extend(crate::lower::add_imm(SCRATCH2, Gpr::FP, off).unwrap());
                    (SCRATCH2, 0)
                };
                insts.push(Inst::Pair {
                    load,
                    class: if fp { PairClass::D } else { PairClass::X },
                    rt: reg_of(a),
                    rt2: reg_of(b),
                    base,
                    off: o,
                    mode: PairMode::Offset,
                });
            }
            None => {
                let op = match (load, fp) {
                    (false, false) => MemOp::StrX,
                    (true, false) => MemOp::LdrX,
                    (false, true) => MemOp::StrD,
                    (true, true) => MemOp::LdrD,
                };
                frame_access(insts, op, reg_of(a), off);
            }
        }
    };
    for (p, &(a, b)) in pairs.iter().enumerate() {
        save_insts(false, p, a, b, &mut insts);
        let l = new_label();
        let off = pair_off(p);
        add_cfi(
            &mut insts,
            &mut cfi,
            CfaOp::SaveReg {
                reg: dwarf(a),
                cfa_offset: (off - 16) as i32,
            },
            l,
        );
        if let Some(b) = b {
            cfi.push((
                insts.len(),
                l,
                CfaOp::SaveReg {
                    reg: dwarf(b),
                    cfa_offset: (off - 8) as i32,
                },
            ));
        }
    }

    // A variadic function's register save area: x0-x7, then q0-q7.
    if let Some(va) = fr.va_save {
        insts.extend(crate::lower::add_imm(SCRATCH2, Gpr::FP, va).unwrap());
        for k in 0..4u8 {
            insts.push(Inst::Pair {
                load: false,
                class: PairClass::X,
                rt: Reg::G(Gpr(2 * k)),
                rt2: Reg::G(Gpr(2 * k + 1)),
                base: SCRATCH2,
                off: 16 * k as i32,
                mode: PairMode::Offset,
            });
        }
        for k in 0..4u8 {
            insts.push(Inst::Pair {
                load: false,
                class: PairClass::Q,
                rt: Reg::V(Fpr(2 * k)),
                rt2: Reg::V(Fpr(2 * k + 1)),
                base: SCRATCH2,
                off: 64 + 32 * k as i32,
                mode: PairMode::Offset,
            });
        }
    }

    // Blocks in the order they were made, each after the block it was made for.
    let nb = vc.blocks.len();
    let root = |mut i: usize| {
        while vc.blocks[i].origin != i {
            i = vc.blocks[i].origin;
        }
        i
    };
    let mut order: Vec<usize> = (0..nb).collect();
    order.sort_by_key(|&i| (root(i), i));
    let block_label = |b: usize| Label(b as u32);
    let epilogue = new_label();
    let phys = |a: Allocation| a.as_reg().expect("register allocation");
    // Jump tables, placed after the code: (table label, one successor label per entry).
    let mut tables: Vec<(Label, Vec<Label>)> = Vec::new();
    for (pos, &b) in order.iter().enumerate() {
        let next = order.get(pos + 1).map(|&n| block_label(n));
        insts.push(Inst::Label(block_label(b)));
        let succ_label = |i: usize| block_label(vc.succs(b)[i].index());
        for item in out.block_insts_and_edits(vc, regalloc2::Block::new(b)) {
            match item {
                InstOrEdit::Edit(Edit::Move { from, to }) => {
                    emit_move(&mut insts, *from, *to, &spill_off, vc.wide_float)?;
                }
                InstOrEdit::Inst(ix) => {
                    let vi = &vc.insts[ix.index()];
                    let allocs = out.inst_allocs(ix);
                    let app_start = insts.len();
                    let place = |mut t: Inst| {
                        t.map_regs(
                            &mut |g: Gpr| {
                                if g.0 & PH != 0 && g.0 < 0x80 {
                                    Gpr(phys(allocs[(g.0 & !PH) as usize]).hw_enc() as u8)
                                } else {
                                    g
                                }
                            },
                            &mut |x: Fpr| {
                                if x.0 & PH != 0 && x.0 < 0x80 {
                                    Fpr(phys(allocs[(x.0 & !PH) as usize]).hw_enc() as u8)
                                } else {
                                    x
                                }
                            },
                        );
                        t
                    };
                    for t in &vi.insts {
                        let t = place(*t);
                        // `mov xN, xN` (a copy whose two sides got one register) does
                        // nothing; `mov wN, wN` clears the upper half and stays.
                        if t == Inst::mov(Size::X, mov_dest(&t), mov_dest(&t))
                            && mov_dest(&t) != Gpr::SP
                        {
                            continue;
                        }
                        insts.push(t);
                    }
                    if vi.inline_asm {
                        app.push((app_start, insts.len()));
                    }
                    match &vi.term {
                        Term::None | Term::Indirect | Term::Trap => {}
                        Term::Table { table, entries } => {
                            tables.push((
                                Label(*table),
                                entries.iter().map(|&i| succ_label(i)).collect(),
                            ));
                        }
                        Term::Jump => {
                            let t = succ_label(0);
                            if Some(t) != next {
                                insts.push(Inst::B(Target::Label(t)));
                            }
                        }
                        Term::Cond(c) => {
                            let (t, e) = (succ_label(0), succ_label(1));
                            if Some(e) == next {
                                insts.push(place(c.branch(Target::Label(t))));
                            } else if Some(t) == next {
                                insts.push(place(c.invert().branch(Target::Label(e))));
                            } else {
                                insts.push(place(c.branch(Target::Label(t))));
                                insts.push(Inst::B(Target::Label(e)));
                            }
                        }
                        Term::Ret => {
                            if next.is_some() {
                                insts.push(Inst::B(Target::Label(epilogue)));
                            }
                        }
                    }
                }
            }
        }
    }
    // Epilogue.
    insts.push(Inst::Label(epilogue));
    for (p, &(a, b)) in pairs.iter().enumerate() {
        save_insts(true, p, a, b, &mut insts);
    }
    if !frameless {
        insts.push(Inst::mov(Size::X, Gpr::SP, Gpr::FP));
        insts.push(Inst::Pair {
            load: true,
            class: PairClass::X,
            rt: Reg::G(Gpr::FP),
            rt2: Reg::G(Gpr::LR),
            base: Gpr::SP,
            off: 16,
            mode: PairMode::Post,
        });
        let l = new_label();
        add_cfi(
            &mut insts,
            &mut cfi,
            CfaOp::DefCfa { reg: 31, offset: 0 },
            l,
        );
        for r in [30, 29] {
            cfi.push((insts.len(), l, CfaOp::RestoreReg(r)));
        }
    }
    insts.push(Inst::Ret(Gpr::LR));
    for (table, entries) in tables {
        insts.push(Inst::Label(table));
        for target in entries {
            insts.push(Inst::JumpTableEntry {
                target,
                base: table,
            });
        }
    }
    // The literal pool: 8-byte constants first, 8-byte aligned (functions start at least
    // 16-byte aligned), then 4-byte ones.
    if !low.pool.is_empty() {
        let words = insts
            .iter()
            .filter(|i| !matches!(i, Inst::Label(_)))
            .count();
        if words % 2 == 1 && low.pool.iter().any(|p| p.2 == FSize::D) {
            insts.push(Inst::DataWord(0));
        }
        for size in [FSize::D, FSize::S] {
            for &(l, bits, _) in low.pool.iter().filter(|p| p.2 == size) {
                insts.push(Inst::Label(l));
                insts.push(Inst::DataWord(bits as u32));
                if size == FSize::D {
                    insts.push(Inst::DataWord((bits >> 32) as u32));
                }
            }
        }
    }
    relax_bit_tests(&mut insts, &mut cfi, &mut new_label);
    let end = new_label();
    insts.push(Inst::Label(end));
    Ok(Emitted {
        insts,
        cfi,
        end,
        app,
    })
}

/// The destination of a register-to-register `mov` (`orr rd, zr, rm`), else the zero
/// register.
fn mov_dest(i: &Inst) -> Gpr {
    match *i {
        Inst::LogicShift {
            op: LogicOp::Orr,
            not: false,
            rd,
            rn: Gpr::ZR,
            shift: Shift::Lsl,
            amount: 0,
            ..
        } => rd,
        _ => Gpr::ZR,
    }
}

/// `tbz`/`tbnz` reach 32 KiB either way: in a function larger than that, one whose label
/// is too far becomes the opposite test over an unconditional branch (as assemblers relax
/// it). CFI points after an insertion move with their instructions.
fn relax_bit_tests(
    insts: &mut Vec<Inst>,
    cfi: &mut [(usize, Label, CfaOp)],
    new_label: &mut dyn FnMut() -> Label,
) {
    const REACH: i64 = 1 << 15;
    let words = |insts: &[Inst]| {
        insts
            .iter()
            .filter(|i| !matches!(i, Inst::Label(_)))
            .count()
    };
    if (words(insts) as i64) * 4 < REACH {
        return;
    }
    loop {
        let mut at = std::collections::HashMap::new();
        let mut pc = 0i64;
        let mut pcs = Vec::with_capacity(insts.len());
        for i in insts.iter() {
            pcs.push(pc);
            match i {
                Inst::Label(l) => {
                    at.insert(*l, pc);
                }
                _ => pc += 4,
            }
        }
        // A margin for the branches this pass itself adds between them.
        let far = insts.iter().enumerate().position(|(k, i)| match i {
            Inst::Tbz {
                target: Target::Label(l),
                ..
            } => at
                .get(l)
                .is_some_and(|&t| (t - pcs[k]).abs() >= REACH - 4096),
            _ => false,
        });
        let Some(k) = far else { return };
        let Inst::Tbz {
            nz,
            rt,
            bit,
            target,
        } = insts[k]
        else {
            unreachable!()
        };
        let skip = new_label();
        insts[k] = Inst::Tbz {
            nz: !nz,
            rt,
            bit,
            target: Target::Label(skip),
        };
        insts.insert(k + 1, Inst::B(target));
        insts.insert(k + 2, Inst::Label(skip));
        for c in cfi.iter_mut() {
            if c.0 > k {
                c.0 += 2;
            }
        }
    }
}

fn emit_move(
    insts: &mut Vec<Inst>,
    from: Allocation,
    to: Allocation,
    spill_off: &dyn Fn(usize) -> i64,
    wide: bool,
) -> Result<(), String> {
    let class = from
        .as_reg()
        .or(to.as_reg())
        .map(|r| r.class())
        .unwrap_or(RegClass::Int);
    let int = class == RegClass::Int;
    let reg = |r: PReg| {
        if int {
            Reg::G(Gpr(r.hw_enc() as u8))
        } else {
            Reg::V(Fpr(r.hw_enc() as u8))
        }
    };
    match (from.as_reg(), to.as_reg()) {
        (Some(f), Some(t)) => insts.push(if int {
            Inst::mov(Size::X, Gpr(t.hw_enc() as u8), Gpr(f.hw_enc() as u8))
        } else if wide {
            Inst::MovV {
                rd: Fpr(t.hw_enc() as u8),
                rn: Fpr(f.hw_enc() as u8),
            }
        } else {
            Inst::FMov {
                size: FSize::D,
                rd: Fpr(t.hw_enc() as u8),
                rn: Fpr(f.hw_enc() as u8),
            }
        }),
        (Some(f), None) => {
            let off = spill_off(to.as_stack().unwrap().index());
            let op = match (int, wide) {
                (true, _) => MemOp::StrX,
                (false, false) => MemOp::StrD,
                (false, true) => MemOp::StrQ,
            };
            frame_access(insts, op, reg(f), off);
        }
        (None, Some(t)) => {
            let off = spill_off(from.as_stack().unwrap().index());
            let op = match (int, wide) {
                (true, _) => MemOp::LdrX,
                (false, false) => MemOp::LdrD,
                (false, true) => MemOp::LdrQ,
            };
            frame_access(insts, op, reg(t), off);
        }
        (None, None) => return Err("a stack-to-stack move from the register allocator".into()),
    }
    Ok(())
}
