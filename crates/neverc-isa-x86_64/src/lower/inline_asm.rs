//! Inline assembly: operands become regalloc2 operands (fixed registers for `a b c d S D`,
//! any GPR for `r q Q R l g`, any XMM for `x`, for a digit an early def that a move gives
//! the tied input's value, early defs for `&`), the clobbers become the instruction's
//! clobbers, x87 `t`/`u` operands are pushed before it and popped after, and the template,
//! with the operands substituted (registers as `%?N` placeholders of the allocation to
//! come), is assembled by `asm::att` into this back end's own instructions. One `VInst` holds them all; it is no
//! pure instruction, so no load or store moves across it (every asm is a `memory` barrier)
//! and the flags are never live across it (`cc` is always assumed).

use super::*;
use crate::asm::att;
use neverc_codegen::inline_asm::{self, Dialects, Piece};

/// What an operand is in the template.
#[derive(Clone, Debug)]
enum Sub {
    /// Regalloc operand `idx`: a GPR whose default width is `size` (`fixed`: the register
    /// the constraint or `%h` chose), or an XMM.
    Reg {
        idx: usize,
        size: Size,
        fixed: Option<u8>,
    },
    Xmm {
        idx: usize,
    },
    Imm(i64),
    /// A memory operand already in AT&T text.
    Mem(String),
}

const FIXED: [(char, u8); 6] = [('a', 0), ('b', 3), ('c', 1), ('d', 2), ('S', 6), ('D', 7)];
const ANY_GPR: &str = "rqQRlg";
const IMM: &str = "inIJKLMNeZEFGHsX";

/// Whether the constant `c` may be an immediate for one of `constraint`'s letters: `i`
/// and `n` any value; gcc's x86 ranges for `I` (0..31), `J` (0..63), `K` (signed 8-bit),
/// `M` (0..3) and `N` (0..255, an in/out port: `"Nd"(0x3f8)` goes in %dx); the other
/// immediate letters a value that fits 32 bits sign-extended.
fn imm_allowed(constraint: &str, c: i64) -> bool {
    constraint.chars().any(|l| match l {
        'i' | 'n' => true,
        'I' => (0..=31).contains(&c),
        'J' => (0..=63).contains(&c),
        'K' => (-128..=127).contains(&c),
        'M' => (0..=3).contains(&c),
        'N' => (0..=255).contains(&c),
        _ => (IMM.contains(l) || l == 'g') && fits32(c),
    })
}

/// The x87 stack depth a constraint names: `t` is st(0), `u` st(1).
fn x87_depth(letters: &str) -> Option<u8> {
    if letters.contains('t') {
        Some(0)
    } else if letters.contains('u') {
        Some(1)
    } else {
        None
    }
}

fn st_text(depth: u8) -> String {
    if depth == 0 {
        "%st".into()
    } else {
        format!("%st({depth})")
    }
}

/// x87 stack operands of one asm: inputs pushed before it, outputs popped after it.
#[derive(Default)]
struct X87Plan {
    /// (depth, instructions pushing the value, popped or replaced by the asm)
    inputs: Vec<(u8, Vec<Inst>, bool)>,
    /// (depth, instructions popping st(0) into the output)
    outputs: Vec<(u8, Vec<Inst>)>,
}

/// A message with the placeholder registers (`%?3l`) spelled as the template could have
/// named them (`%k1`).
fn user_spelling(msg: &str, operand_of: &HashMap<usize, usize>) -> String {
    inline_asm::user_spelling(msg, |idx, w| {
        let m = match w {
            'b' => "b",
            'w' => "w",
            'l' => "k",
            'q' => "q",
            _ => "",
        };
        operand_of.get(&idx).map(|j| format!("%{m}{j}"))
    })
}

/// The register an operand's letters ask for.
#[derive(Clone, Copy)]
enum RegKind {
    Fixed(u8),
    Gpr,
    Xmm,
}

impl<'a> Lower<'a> {
    fn asm_err(&self, msg: String) -> BackendError {
        BackendError {
            message: format!("{msg} (function {})", self.name),
        }
    }

    fn reg_kind(&self, letters: &str, ty: Type) -> Result<Option<RegKind>, BackendError> {
        let mut fixed: Vec<u8> = letters
            .chars()
            .filter_map(|c| FIXED.iter().find(|f| f.0 == c).map(|f| f.1))
            .collect();
        fixed.dedup();
        let gpr = letters.chars().any(|c| ANY_GPR.contains(c));
        let xmm = letters.contains('x');
        if fixed.len() > 1 || (xmm && (gpr || !fixed.is_empty())) {
            return Err(self.asm_err(format!(
                "neverc cannot compile the asm constraint '{letters}' yet"
            )));
        }
        let float = matches!(ty, Type::F32 | Type::F64);
        let kind = if let Some(&f) = fixed.first() {
            RegKind::Fixed(f)
        } else if gpr {
            RegKind::Gpr
        } else if xmm {
            RegKind::Xmm
        } else {
            return Ok(None);
        };
        match (&kind, float) {
            (RegKind::Xmm, false) if ty != Type::I64 && ty != Type::I32 => {
                Err(self.asm_err("impossible constraint in 'asm'".into()))
            }
            (RegKind::Xmm, false) => Err(self.asm_err(format!(
                "neverc cannot compile an integer asm operand in constraint '{letters}' yet"
            ))),
            (RegKind::Fixed(_) | RegKind::Gpr, true) => Err(self.asm_err(format!(
                "neverc cannot compile a floating asm operand in constraint '{letters}' yet"
            ))),
            _ => Ok(Some(kind)),
        }
    }

    fn check_letters(&self, letters: &str) -> Result<(), BackendError> {
        for c in letters.chars() {
            let known = ANY_GPR.contains(c)
                || IMM.contains(c)
                || FIXED.iter().any(|f| f.0 == c)
                || matches!(c, 'x' | 't' | 'u' | 'm' | 'o' | 'V' | '<' | '>')
                || c.is_ascii_digit();
            if !known {
                return Err(self.asm_err(format!(
                    "neverc cannot compile the asm constraint '{letters}' yet"
                )));
            }
        }
        Ok(())
    }

    pub(super) fn lower_inline_asm(&mut self, a: &ir::InlineAsm) -> Result<(), BackendError> {
        let mut b = B::default();
        let mut subs: Vec<Option<Sub>> = vec![None; a.operands.len()];
        // Inputs tied to each output (by operand index).
        let mut tied: HashMap<usize, usize> = HashMap::new();
        let mut used_vregs: Vec<VReg> = Vec::new();
        let mut fixed_defs = PRegSet::empty();
        let mut x87 = X87Plan::default();
        // Copies of tied inputs into their outputs, before the asm.
        let mut tie_copies: Vec<Inst> = Vec::new();
        let forced = if a.basic {
            HashMap::new()
        } else {
            self.high_byte_registers(a)?
        };
        // Inputs first (a tied output names its input's operand).
        for (j, o) in a.operands.iter().enumerate() {
            self.check_letters(&o.constraint)?;
            match o.role {
                ir::AsmRole::Input(v) => {
                    let ty = self.ty(v);
                    if let Some(depth) = x87_depth(&o.constraint) {
                        let push = self.x87_push(&mut b, v, &mut used_vregs)?;
                        x87.inputs.push((depth, push, false));
                        subs[j] = Some(Sub::Mem(st_text(depth)));
                        continue;
                    }
                    if ty == Type::F80 && o.constraint.parse::<usize>().is_err() {
                        return Err(self.asm_err(format!(
                            "neverc cannot compile a long double asm operand in constraint '{}' yet",
                            o.constraint
                        )));
                    }
                    if let Ok(k) = o.constraint.parse::<usize>() {
                        if k >= a.visible
                            || !matches!(a.operands[k].role, ir::AsmRole::Output { .. })
                        {
                            return Err(self.asm_err(format!(
                                "asm operand {j} is tied to operand {k}, which is not a register output"
                            )));
                        }
                        if tied.insert(k, j).is_some() {
                            return Err(self.asm_err(format!(
                                "neverc cannot compile two asm inputs tied to operand {k} yet"
                            )));
                        }
                        continue;
                    }
                    let allows_imm = o.constraint.chars().any(|c| IMM.contains(c) || c == 'g');
                    if allows_imm {
                        if let Some(c) = self.const_of(v).filter(|&c| imm_allowed(&o.constraint, c))
                        {
                            subs[j] = Some(Sub::Imm(c));
                            continue;
                        }
                    }
                    let Some(kind) = self.reg_kind_for(j, &o.constraint, ty, &forced)? else {
                        if allows_imm && matches!(self.def_of(v), Some(Op::SymAddr { .. })) {
                            return Err(self.asm_err(
                                "neverc cannot compile a symbol address as an asm 'i' operand yet"
                                    .into(),
                            ));
                        }
                        return Err(self.asm_err("impossible constraint in 'asm'".into()));
                    };
                    let r = self.asm_input_vreg(v, &mut used_vregs)?;
                    subs[j] = Some(self.asm_use(&mut b, r, kind, ty, false));
                }
                ir::AsmRole::Memory(addr) => {
                    if !o.constraint.chars().any(|c| "mogV<>".contains(c)) {
                        return Err(self.asm_err("impossible constraint in 'asm'".into()));
                    }
                    let text = match self.def_of(addr) {
                        Some(Op::SlotAddr(s)) if self.f.slots[s.index()].align <= 16 => {
                            format!("{}(%rbp)", self.slot_off[s.index()])
                        }
                        _ => {
                            let r = self.asm_input_vreg(addr, &mut used_vregs)?;
                            // Live to the end: no output may take the address's register.
                            let idx = b.op(Operand::reg_use_at_end(r));
                            format!("(%?{idx}q)")
                        }
                    };
                    subs[j] = Some(Sub::Mem(text));
                }
                ir::AsmRole::Output { .. } => {}
            }
        }
        // Outputs.
        let mut ri = 0;
        for (j, o) in a.operands.iter().enumerate() {
            let ir::AsmRole::Output { early_clobber } = o.role else {
                continue;
            };
            let res = a.results[ri];
            ri += 1;
            let ty = self.ty(res);
            if let Some(depth) = x87_depth(&o.constraint) {
                if let Some(&ti) = tied.get(&j) {
                    let ir::AsmRole::Input(v) = a.operands[ti].role else {
                        unreachable!()
                    };
                    let push = self.x87_push(&mut b, v, &mut used_vregs)?;
                    x87.inputs.push((depth, push, true));
                    subs[ti] = Some(Sub::Mem(st_text(depth)));
                }
                let pop = self.x87_pop(&mut b, res)?;
                x87.outputs.push((depth, pop));
                subs[j] = Some(Sub::Mem(st_text(depth)));
                continue;
            }
            if ty == Type::F80 {
                return Err(self.asm_err(format!(
                    "neverc cannot compile a long double asm operand in constraint '{}' yet",
                    o.constraint
                )));
            }
            let d = self.vreg(res)?;
            let Some(kind) = self.reg_kind_for(j, &o.constraint, ty, &forced)? else {
                return Err(self.asm_err("impossible constraint in 'asm'".into()));
            };
            let sub = if let Some(&ti) = tied.get(&j) {
                let ir::AsmRole::Input(v) = a.operands[ti].role else {
                    unreachable!()
                };
                let r = self.asm_input_vreg(v, &mut used_vregs)?;
                let s = self.asm_use(&mut b, r, kind, ty, true);
                let use_idx = match s {
                    Sub::Reg { idx, .. } | Sub::Xmm { idx } => idx,
                    _ => unreachable!(),
                };
                if let RegKind::Fixed(h) = kind {
                    b.fixed_def(d, preg_gpr(h));
                    fixed_defs.add(preg_gpr(h));
                    subs[ti] = Some(s.clone());
                    s
                } else {
                    // Not a reuse def (regalloc2's Ion fails on reuse next to fixed
                    // registers): an early def, given the input's value first.
                    let od = b.op(early_def(d, OperandConstraint::Reg));
                    let (o, copy) = match s {
                        Sub::Xmm { .. } => (
                            Sub::Xmm { idx: od },
                            Inst::XmmMov {
                                op: XmmMovOp::Movaps,
                                src: XmmMem::Xmm(ph_xmm(use_idx)),
                                dst: XmmMem::Xmm(ph_xmm(od)),
                            },
                        ),
                        _ => (
                            Sub::Reg {
                                idx: od,
                                size: size_of(ty),
                                fixed: None,
                            },
                            Inst::Mov {
                                size: Size::S64,
                                src: Rmi::Reg(ph_gpr(use_idx)),
                                dst: Rm::Reg(ph_gpr(od)),
                            },
                        ),
                    };
                    tie_copies.push(copy);
                    subs[ti] = Some(o.clone());
                    o
                }
            } else {
                let pos = if early_clobber {
                    OperandPos::Early
                } else {
                    OperandPos::Late
                };
                let (c, x, fixed) = match kind {
                    RegKind::Fixed(h) => {
                        fixed_defs.add(preg_gpr(h));
                        (OperandConstraint::FixedReg(preg_gpr(h)), false, Some(h))
                    }
                    RegKind::Gpr => (OperandConstraint::Reg, false, None),
                    RegKind::Xmm => (OperandConstraint::Reg, true, None),
                };
                let idx = b.op(Operand::new(d, c, OperandKind::Def, pos));
                if x {
                    Sub::Xmm { idx }
                } else {
                    Sub::Reg {
                        idx,
                        size: size_of(ty),
                        fixed,
                    }
                }
            };
            subs[j] = Some(sub);
        }
        // Clobbers.
        let mut clobbers = PRegSet::empty();
        for c in &a.clobbers {
            let c = c.trim();
            // An x87 input the asm pops is listed as clobbered.
            let st = match c {
                "st" | "st(0)" => Some(0),
                "st(1)" => Some(1),
                _ => None,
            };
            if let Some(d) = st {
                for inp in x87.inputs.iter_mut().filter(|i| i.0 == d) {
                    inp.2 = true;
                }
                continue;
            }
            if matches!(c, "memory" | "cc" | "flags" | "dirflag" | "fpsr" | "fpcr")
                || c.starts_with("st(")
            {
                continue;
            }
            let Some(n) = att::clobber_reg(c) else {
                return Err(self.asm_err(format!("unknown register name '{c}' in 'asm'")));
            };
            let p = if n >= 16 {
                preg_xmm(n - 16)
            } else {
                if n == 4 || n == 5 {
                    return Err(self.asm_err(format!(
                        "neverc cannot compile an asm statement that clobbers '{c}' yet"
                    )));
                }
                preg_gpr(n)
            };
            if n == Gpr::R11.0 || n == 16 + XSCRATCH.0 {
                // The back end's scratch registers never hold a value across an
                // instruction.
                continue;
            }
            if self
                .f
                .plan
                .callee_saved
                .iter()
                .any(|&r| dwarf_to_preg(r) == Some(p))
                && !self.asm_saved.contains(&p)
            {
                self.asm_saved.push(p);
            }
            if !fixed_defs.contains(p) {
                clobbers.add(p);
            }
        }
        let subs: Vec<Sub> = subs.into_iter().map(|s| s.unwrap()).collect();
        // For messages: which asm operand each placeholder register stands for.
        let mut operand_of: HashMap<usize, usize> = HashMap::new();
        for (j, s) in subs.iter().enumerate().take(a.visible) {
            match s {
                Sub::Reg { idx, .. } | Sub::Xmm { idx } => {
                    operand_of.insert(*idx, j);
                }
                Sub::Mem(m) => {
                    if let Some(idx) = m
                        .strip_prefix("(%?")
                        .and_then(|r| r.strip_suffix("q)"))
                        .and_then(|r| r.parse().ok())
                    {
                        operand_of.insert(idx, j);
                    }
                }
                Sub::Imm(_) => {}
            }
        }
        // `%?N` is the placeholder syntax of substituted operands: not the user's to write.
        if a.template.contains("%?") {
            return Err(self.asm_err(format!(
                "neverc cannot assemble '{}' in inline asm yet",
                a.template.trim()
            )));
        }
        let text = if a.basic {
            a.template.clone()
        } else {
            self.asm_substitute(a, &subs)?
        };
        let mut next = self.next_label;
        let insts = att::parse_with_operands(&text, b.ops.len(), &mut || {
            next += 1;
            Label(next)
        })
        .map_err(|e| self.asm_err(user_spelling(&e.0, &operand_of)))?;
        self.next_label = next;
        // x87 inputs, the deepest first; then the asm; then the outputs from the top and
        // whatever inputs it left on the stack.
        x87.inputs.sort_by_key(|i| std::cmp::Reverse(i.0));
        x87.outputs.sort_by_key(|o| o.0);
        let depths_ok = x87.inputs.windows(2).all(|w| w[0].0 != w[1].0)
            && x87.outputs.windows(2).all(|w| w[0].0 != w[1].0)
            && x87
                .inputs
                .iter()
                .all(|i| usize::from(i.0) < x87.inputs.len())
            && x87
                .outputs
                .iter()
                .all(|o| usize::from(o.0) < x87.outputs.len());
        let left: Vec<u8> = x87.inputs.iter().filter(|i| !i.2).map(|i| i.0).collect();
        if !depths_ok || left.iter().any(|d| x87.outputs.iter().any(|o| o.0 == *d)) {
            return Err(self.asm_err(
                "neverc cannot compile these x87 stack operands of an asm statement yet".into(),
            ));
        }
        self.check_register_pressure(&b.ops, &clobbers)?;
        for c in tie_copies {
            b.i(c);
        }
        for (_, push, _) in std::mem::take(&mut x87.inputs) {
            push.into_iter().for_each(|i| b.i(i));
        }
        for i in insts {
            b.i(i);
        }
        for (_, pop) in std::mem::take(&mut x87.outputs) {
            pop.into_iter().for_each(|i| b.i(i));
        }
        for _ in left {
            b.i(Inst::X87Reg {
                op: X87RegOp::Fstp,
                st: 0,
            });
        }
        let mut vi = b.vinst();
        vi.clobbers = clobbers;
        vi.inline_asm = true;
        self.push(vi);
        Ok(())
    }

    /// Instructions pushing `v` on the x87 stack (from its home, or through a scratch slot
    /// from its XMM register).
    fn x87_push(
        &mut self,
        b: &mut B,
        v: Value,
        used: &mut Vec<VReg>,
    ) -> Result<Vec<Inst>, BackendError> {
        let ty = self.ty(v);
        if ty == Type::F80 {
            let mem = self.f80_home(v);
            return Ok(vec![Inst::X87Mem {
                op: X87MemOp::Fldt,
                mem,
            }]);
        }
        let (mov, ld) = match ty {
            Type::F64 => (XmmMovOp::Movsd, X87MemOp::Fldl),
            Type::F32 => (XmmMovOp::Movss, X87MemOp::Flds),
            _ => return Err(self.asm_err("impossible constraint in 'asm'".into())),
        };
        let r = self.asm_input_vreg(v, used)?;
        let x = b.use_x(r);
        let slot = Mem::base(Gpr::RBP, self.frame_slot(8, 8));
        Ok(vec![
            Inst::XmmMov {
                op: mov,
                src: XmmMem::Xmm(x),
                dst: XmmMem::Mem(slot),
            },
            Inst::X87Mem { op: ld, mem: slot },
        ])
    }

    /// Instructions popping st(0) into the result `r`.
    fn x87_pop(&mut self, b: &mut B, r: Value) -> Result<Vec<Inst>, BackendError> {
        let ty = self.ty(r);
        if ty == Type::F80 {
            let mem = self.f80_home(r);
            return Ok(vec![Inst::X87Mem {
                op: X87MemOp::Fstpt,
                mem,
            }]);
        }
        let (mov, st) = match ty {
            Type::F64 => (XmmMovOp::Movsd, X87MemOp::Fstpl),
            Type::F32 => (XmmMovOp::Movss, X87MemOp::Fstps),
            _ => return Err(self.asm_err("impossible constraint in 'asm'".into())),
        };
        let d = self.vreg(r)?;
        let x = b.def_x(d);
        let slot = Mem::base(Gpr::RBP, self.frame_slot(8, 8));
        Ok(vec![
            Inst::X87Mem { op: st, mem: slot },
            Inst::XmmMov {
                op: mov,
                src: XmmMem::Mem(slot),
                dst: XmmMem::Xmm(x),
            },
        ])
    }

    /// Refuses what regalloc2 could not allocate: two values in one fixed register, or
    /// more registers of a class than there are.
    fn check_register_pressure(
        &self,
        ops: &[Operand],
        clobbers: &PRegSet,
    ) -> Result<(), BackendError> {
        let mut fixed_uses: Vec<PReg> = Vec::new();
        let mut fixed_defs: Vec<PReg> = Vec::new();
        for o in ops {
            if let OperandConstraint::FixedReg(p) = o.constraint() {
                let list = if o.kind() == OperandKind::Use {
                    &mut fixed_uses
                } else {
                    &mut fixed_defs
                };
                if list.contains(&p) {
                    return Err(self.asm_err("impossible constraint in 'asm'".into()));
                }
                list.push(p);
            }
        }
        let allocatable = [
            (RegClass::Int, gpr_allocatable()),
            (RegClass::Float, xmm_allocatable()),
        ];
        if !inline_asm::registers_suffice(ops, clobbers, &allocatable) {
            return Err(self.asm_err("impossible constraint in 'asm'".into()));
        }
        Ok(())
    }

    fn reg_kind_for(
        &self,
        j: usize,
        letters: &str,
        ty: Type,
        forced: &HashMap<usize, u8>,
    ) -> Result<Option<RegKind>, BackendError> {
        let k = self.reg_kind(letters, ty)?;
        Ok(match (forced.get(&j), k) {
            (Some(&h), Some(RegKind::Gpr)) => Some(RegKind::Fixed(h)),
            _ => k,
        })
    }

    /// Operands the template names with `%h` (the high byte: %ah %ch %dh %bh) that may be
    /// in any GPR, and 'Q' operands, get one of a, c, d, b that no other operand or clobber
    /// takes.
    fn high_byte_registers(&self, a: &ir::InlineAsm) -> Result<HashMap<usize, u8>, BackendError> {
        // A template error ends the operands looked at here; substituting reports it.
        let mut wanted: Vec<usize> = inline_asm::pieces(a, Dialects::Alternatives)
            .map_while(Result::ok)
            .filter_map(|p| match p {
                Piece::Operand {
                    index,
                    modifier: Some('h'),
                } => Some(index),
                _ => None,
            })
            .collect();
        // 'Q' is a, b, c or d: one of them, chosen here.
        for (j, o) in a.operands.iter().enumerate() {
            if o.constraint.contains('Q') {
                wanted.push(j);
            }
        }
        let mut forced = HashMap::new();
        if wanted.is_empty() {
            return Ok(forced);
        }
        let mut taken: Vec<u8> = a
            .operands
            .iter()
            .flat_map(|o| o.constraint.chars())
            .filter_map(|c| FIXED.iter().find(|f| f.0 == c).map(|f| f.1))
            .collect();
        taken.extend(a.clobbers.iter().filter_map(|c| att::clobber_reg(c)));
        for j in wanted {
            let letters = &a.operands[j].constraint;
            if letters.chars().any(|c| "abcd".contains(c)) || forced.contains_key(&j) {
                continue;
            }
            if !letters.chars().any(|c| ANY_GPR.contains(c)) {
                return Err(self.asm_err(
                    "neverc cannot compile the asm operand modifier '%h' for this operand yet"
                        .into(),
                ));
            }
            let Some(h) = [0u8, 1, 2, 3].into_iter().find(|h| !taken.contains(h)) else {
                return Err(self.asm_err("impossible constraint in 'asm'".into()));
            };
            taken.push(h);
            forced.insert(j, h);
        }
        Ok(forced)
    }

    /// The vreg of an input, copied when this instruction already uses it (regalloc2 takes
    /// one constraint per vreg and instruction).
    fn asm_input_vreg(&mut self, v: Value, used: &mut Vec<VReg>) -> Result<VReg, BackendError> {
        let r = self.reg(v)?;
        if !used.contains(&r) {
            used.push(r);
            return Ok(r);
        }
        let c = self.new_vreg(r.class());
        let mut b = B::default();
        if r.class() == RegClass::Int {
            let s = b.use_g(r);
            let d = b.def_g(c);
            b.i(Inst::Mov {
                size: Size::S64,
                src: Rmi::Reg(s),
                dst: Rm::Reg(d),
            });
        } else {
            let s = b.use_x(r);
            let d = b.def_x(c);
            b.i(Inst::XmmMov {
                op: XmmMovOp::Movaps,
                src: XmmMem::Xmm(s),
                dst: XmmMem::Xmm(d),
            });
        }
        self.emit(b);
        used.push(c);
        Ok(c)
    }

    fn asm_use(&mut self, b: &mut B, r: VReg, kind: RegKind, ty: Type, _tied: bool) -> Sub {
        match kind {
            RegKind::Fixed(h) => {
                let idx = b.op(Operand::reg_fixed_use(r, preg_gpr(h)));
                Sub::Reg {
                    idx,
                    size: size_of(ty),
                    fixed: Some(h),
                }
            }
            RegKind::Gpr => Sub::Reg {
                idx: b.op(Operand::reg_use(r)),
                size: size_of(ty),
                fixed: None,
            },
            RegKind::Xmm => Sub::Xmm {
                idx: b.op(Operand::reg_use(r)),
            },
        }
    }

    /// The template with `%N`, `%[name]`, their modifiers, `%%` and `%=` replaced.
    fn asm_substitute(&mut self, a: &ir::InlineAsm, subs: &[Sub]) -> Result<String, BackendError> {
        // `%=`: a number unique to this asm statement in the function.
        self.next_label += 1;
        let uniq = self.next_label - INTERNAL_LABEL;
        // gcc's dialect alternatives `{att|intel}`: neverc speaks AT&T, the first.
        inline_asm::substitute(
            a,
            Dialects::Alternatives,
            uniq,
            |j, modifier| self.asm_operand_text(&subs[j], modifier),
            |msg| self.asm_err(msg),
        )
    }

    fn asm_operand_text(&self, s: &Sub, modifier: Option<char>) -> Result<String, BackendError> {
        let bad = |m: char| {
            self.asm_err(format!(
                "neverc cannot compile the asm operand modifier '%{m}' for this operand yet"
            ))
        };
        Ok(match (s, modifier) {
            (Sub::Reg { fixed, .. }, Some('h')) => match fixed {
                Some(h @ 0..=3) => ["%ah", "%ch", "%dh", "%bh"][*h as usize].to_string(),
                _ => return Err(bad('h')),
            },
            (Sub::Reg { idx, size, .. }, m) => {
                let w = match m {
                    None => size.suffix(),
                    Some('k') => 'l',
                    Some('q') => 'q',
                    Some('w') => 'w',
                    Some('b') => 'b',
                    Some('a') => return Ok(format!("(%?{idx}q)")),
                    Some(m) => return Err(bad(m)),
                };
                format!("%?{idx}{w}")
            }
            (Sub::Xmm { idx }, None | Some('x')) => format!("%?{idx}x"),
            // The register-width modifiers leave an immediate as it is (gcc: `inb %w1, %0`
            // with an "N" port gives `inb $128, %al`).
            (Sub::Imm(v), None | Some('b' | 'w' | 'k' | 'q' | 'h')) => format!("${v}"),
            (Sub::Imm(v), Some('c' | 'P' | 'a')) => v.to_string(),
            (Sub::Imm(v), Some('n')) => v.wrapping_neg().to_string(),
            (Sub::Mem(m), None) => m.clone(),
            (_, Some(m)) => return Err(bad(m)),
        })
    }
}
