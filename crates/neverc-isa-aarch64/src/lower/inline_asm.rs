//! Inline assembly: operands become regalloc2 operands (`r` any general register, `w` any
//! vector register, `m`/`Q` an address in a general register read to the end, `i`/`n` and
//! the AArch64 immediate letters a constant, `Z` zero as `xzr`/`wzr`; a digit an early def
//! that a move gives the tied input's value; `&` an early def), the clobbers become the
//! instruction's clobbers (callee-saved ones are saved by the prologue), and the template,
//! with the operands substituted (registers as `%?N` placeholders of the allocation to
//! come), is parsed by `asm::parse` into this back end's own instructions and checked
//! against the encoder. One `VInst` holds them all; no load or store moves across it
//! (every asm is a `memory` barrier) and the flags are never live across it (`cc` is
//! always assumed).
//!
//! As gcc prints them: a general register is `x` unless `%w` asks for `w`; a vector
//! register is `v` (for `%0.16b`) unless `%b %h %s %d %q` name the scalar view; an
//! immediate is bare (`add %0, %1, %2` gives `add x0, x1, 5`); memory is `[xN]`.

use super::*;
use crate::asm::parse;
use neverc_codegen::inline_asm::{self, Dialects};
use std::collections::HashMap;

/// What an operand is in the template.
#[derive(Clone, Copy, Debug)]
enum Sub {
    /// A general register: regalloc operand `idx`.
    G(u8),
    /// A vector register: regalloc operand `idx`.
    V(u8),
    Imm(i64),
    /// Zero for a `Z` constraint: the zero register.
    Zero,
    /// Memory at the address in regalloc operand `idx`.
    Mem(u8),
}

/// The AArch64 constraint letters known here.
const KNOWN: &str = "rwmQoigXnIJKLMNZ";

/// Whether constant `c` suits one of the immediate letters of `letters` (gcc's AArch64
/// meanings: `I` an add immediate, `J` its negation, `K`/`L` a 32/64-bit logical
/// immediate, `M`/`N` a 32/64-bit `mov` immediate (here: one `movz`/`movn`), `Z` zero).
fn imm_allowed(letters: &str, c: i64) -> bool {
    let add_imm = |v: i64| (0..4096).contains(&v) || (v & 0xfff == 0 && (0..1 << 24).contains(&v));
    let one_mov = |v: u64, bits: u32| {
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let v = v & mask;
        (0..bits)
            .step_by(16)
            .any(|s| v & !(0xffff << s) == 0 || (!v & mask) & !(0xffff << s) == 0)
    };
    letters.chars().any(|l| match l {
        'i' | 'n' => true,
        'I' => add_imm(c),
        'J' => add_imm(c.wrapping_neg()),
        'K' => i32::try_from(c).is_ok() && encode::bitmask_imm(c as u32 as u64, 32).is_some(),
        'L' => encode::bitmask_imm(c as u64, 64).is_some(),
        'M' => i32::try_from(c).is_ok() && one_mov(c as u64, 32),
        'N' => one_mov(c as u64, 64),
        'Z' => c == 0,
        _ => false,
    })
}

/// A message with the placeholder registers (`%?3w`) spelled as the template could have
/// named them (`%w1`).
fn user_spelling(msg: &str, operand_of: &HashMap<u8, usize>) -> String {
    inline_asm::user_spelling(msg, |idx, c| {
        let j = operand_of.get(&u8::try_from(idx).ok()?)?;
        let m = if matches!(c, 'x' | 'v') {
            String::new()
        } else {
            c.to_string()
        };
        Some(format!("%{m}{j}"))
    })
}

impl<'a> Lower<'a> {
    fn asm_refuse(&self, what: &str) -> BackendError {
        self.err(what)
    }

    fn asm_plain_err(&self, msg: String) -> BackendError {
        BackendError {
            message: format!("{msg} (function {})", self.name),
        }
    }

    /// The vreg of an input, copied when this instruction already uses it (regalloc2 takes
    /// one constraint per vreg and instruction).
    fn asm_input(&mut self, v: Value, used: &mut Vec<VReg>) -> Result<VReg, BackendError> {
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
            b.i(Inst::mov(Size::X, d, s));
        } else {
            let s = b.use_v(r);
            let d = b.def_v(c);
            b.i(Inst::MovV { rd: d, rn: s });
        }
        self.emit(b);
        used.push(c);
        Ok(c)
    }

    /// The register file an operand's letters and type ask for: true for a vector
    /// register.
    fn asm_class(&self, letters: &str, ty: Type) -> Result<Option<bool>, BackendError> {
        let gpr = letters.contains('r') || letters.contains('g');
        let vec = letters.contains('w');
        let float = in_v(ty);
        match (gpr, vec) {
            (false, false) => Ok(None),
            (true, true) if float => Ok(Some(true)),
            (true, _) if !float => Ok(Some(false)),
            (_, true) if float => Ok(Some(true)),
            (true, _) => {
                Err(self.asm_refuse(&format!("a floating asm operand in constraint '{letters}'")))
            }
            (_, true) => {
                Err(self.asm_refuse(&format!("an integer asm operand in constraint '{letters}'")))
            }
        }
    }

    pub(super) fn lower_inline_asm(&mut self, a: &ir::InlineAsm) -> Result<(), BackendError> {
        let mut b = B::default();
        let mut subs: Vec<Option<Sub>> = vec![None; a.operands.len()];
        let mut tied: HashMap<usize, usize> = HashMap::new();
        let mut used: Vec<VReg> = Vec::new();
        let mut tie_copies: Vec<Inst> = Vec::new();
        for o in &a.operands {
            if let Some(c) = o
                .constraint
                .chars()
                .find(|c| !KNOWN.contains(*c) && !c.is_ascii_digit())
            {
                return Err(self.asm_refuse(&format!(
                    "the asm constraint '{}' (letter '{c}')",
                    o.constraint
                )));
            }
        }
        // Inputs first (a tied output names its input's operand).
        for (j, o) in a.operands.iter().enumerate() {
            match o.role {
                ir::AsmRole::Input(v) => {
                    let ty = self.ty(v);
                    if let Ok(k) = o.constraint.parse::<usize>() {
                        if k >= a.visible
                            || !matches!(a.operands[k].role, ir::AsmRole::Output { .. })
                        {
                            return Err(self.asm_plain_err(format!(
                                "asm operand {j} is tied to operand {k}, which is not a register output"
                            )));
                        }
                        if tied.insert(k, j).is_some() {
                            return Err(
                                self.asm_refuse(&format!("two asm inputs tied to operand {k}"))
                            );
                        }
                        continue;
                    }
                    if let Some(c) = self.const_of(v).filter(|&c| imm_allowed(&o.constraint, c)) {
                        subs[j] = Some(if c == 0 && o.constraint.contains('Z') {
                            Sub::Zero
                        } else {
                            Sub::Imm(c)
                        });
                        continue;
                    }
                    let Some(vector) = self.asm_class(&o.constraint, ty)? else {
                        if o.constraint.chars().any(|c| "inIJKLMNZ".contains(c)) {
                            return Err(self.asm_plain_err(format!(
                                "impossible constraint in 'asm': operand {j} ('{}') needs a constant that fits",
                                o.constraint
                            )));
                        }
                        return Err(self.asm_plain_err("impossible constraint in 'asm'".into()));
                    };
                    let r = self.asm_input(v, &mut used)?;
                    let idx = b.op(Operand::reg_use(r)) & !PH;
                    subs[j] = Some(if vector { Sub::V(idx) } else { Sub::G(idx) });
                }
                ir::AsmRole::Memory(addr) => {
                    if !o.constraint.chars().any(|c| "mQog".contains(c)) {
                        return Err(self.asm_plain_err("impossible constraint in 'asm'".into()));
                    }
                    let r = self.asm_input(addr, &mut used)?;
                    // Live to the end: no output may take the address's register.
                    let idx = b.op(Operand::reg_use_at_end(r)) & !PH;
                    subs[j] = Some(Sub::Mem(idx));
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
            let d = self.vreg(res)?;
            let Some(vector) = self.asm_class(&o.constraint, ty)? else {
                return Err(self.asm_plain_err("impossible constraint in 'asm'".into()));
            };
            let sub = if let Some(&ti) = tied.get(&j) {
                let ir::AsmRole::Input(v) = a.operands[ti].role else {
                    unreachable!()
                };
                if in_v(self.ty(v)) != vector {
                    return Err(self.asm_refuse(&format!(
                        "an asm input tied to operand {j} in the other register file"
                    )));
                }
                let r = self.asm_input(v, &mut used)?;
                let u = b.op(Operand::reg_use(r));
                // An early def given the input's value first (not a reuse def: the
                // copy keeps the input's register free for the other operands).
                let od = b.op(Operand::new(
                    d,
                    OperandConstraint::Reg,
                    OperandKind::Def,
                    OperandPos::Early,
                ));
                tie_copies.push(if vector {
                    Inst::MovV {
                        rd: Fpr(od),
                        rn: Fpr(u),
                    }
                } else {
                    Inst::mov(Size::X, Gpr(od), Gpr(u))
                });
                let s = if vector {
                    Sub::V(od & !PH)
                } else {
                    Sub::G(od & !PH)
                };
                subs[ti] = Some(s);
                s
            } else {
                let pos = if early_clobber {
                    OperandPos::Early
                } else {
                    OperandPos::Late
                };
                let idx = b.op(Operand::new(
                    d,
                    OperandConstraint::Reg,
                    OperandKind::Def,
                    pos,
                )) & !PH;
                if vector {
                    Sub::V(idx)
                } else {
                    Sub::G(idx)
                }
            };
            subs[j] = Some(sub);
        }
        if b.ops.len() >= PH as usize {
            return Err(self.asm_refuse("an asm statement with this many operands"));
        }
        // Clobbers.
        let mut clobbers = PRegSet::empty();
        for c in &a.clobbers {
            let c = c.trim();
            if matches!(c, "memory" | "cc") {
                continue;
            }
            let Some(n) = parse::clobber_reg(c) else {
                return Err(self.asm_plain_err(format!("unknown register name '{c}' in 'asm'")));
            };
            let p = match n {
                // The back end's scratch registers never hold a value across an
                // instruction; x18 (the platform register) is never allocated.
                16..=18 => continue,
                29 | 30 => {
                    return Err(self.asm_refuse(&format!("an asm statement that clobbers '{c}'")))
                }
                0..=28 => preg_gpr(n),
                _ if n - 32 == VSCRATCH.0 => continue,
                _ => preg_fpr(n - 32),
            };
            let dwarf = if n < 32 {
                n as u16
            } else {
                64 + (n - 32) as u16
            };
            if self.f.plan.callee_saved.contains(&dwarf) && !self.extra_saved.contains(&p) {
                self.extra_saved.push(p);
            }
            clobbers.add(p);
        }
        let subs: Vec<Sub> = subs.into_iter().map(|s| s.unwrap()).collect();
        // `%?N` is the placeholder syntax of substituted operands: not the user's to write.
        if a.template.contains("%?") {
            return Err(self.asm_plain_err(format!(
                "neverc cannot assemble '{}' in inline asm yet",
                a.template.trim()
            )));
        }
        let text = if a.basic {
            a.template.clone()
        } else {
            self.asm_substitute(a, &subs)?
        };
        // For messages: which asm operand each placeholder register stands for.
        let mut operand_of: HashMap<u8, usize> = HashMap::new();
        for (j, s) in subs.iter().enumerate().take(a.visible) {
            if let Sub::G(idx) | Sub::V(idx) | Sub::Mem(idx) = *s {
                operand_of.insert(idx, j);
            }
        }
        let mut next = self.next_label;
        let insts = parse::parse(&text, &mut || {
            next += 1;
            Label(next)
        })
        .map_err(|e| self.asm_plain_err(user_spelling(&e.0, &operand_of)))?;
        self.next_label = next;
        // Every instruction must encode once its placeholders are registers (x0/v0 for
        // all of them: only field ranges and register kinds matter here).
        for i in &insts {
            if matches!(i, Inst::Label(_)) {
                continue;
            }
            let mut t = *i;
            t.map_regs(&mut |g| if g.0 & PH != 0 { Gpr(0) } else { g }, &mut |v| {
                if v.0 & PH != 0 {
                    Fpr(0)
                } else {
                    v
                }
            });
            if let Err(e) = crate::asm::encode(&t) {
                return Err(self.asm_plain_err(format!(
                    "neverc cannot assemble '{}' in inline asm: {e}",
                    crate::asm::print(&t, &|_| "sym".into(), &|l| format!(".L{}", l.0))
                )));
            }
        }
        self.check_asm_pressure(&b.ops, &clobbers)?;
        let mut all = tie_copies;
        all.extend(insts);
        let mut vi = VInst::new(all, b.ops);
        vi.clobbers = clobbers;
        vi.inline_asm = true;
        self.push(vi);
        Ok(())
    }

    /// Refuses what regalloc2 could not allocate: more registers of a class than there are.
    fn check_asm_pressure(&self, ops: &[Operand], clobbers: &PRegSet) -> Result<(), BackendError> {
        let allocatable = [
            (RegClass::Int, gpr_allocatable()),
            (RegClass::Float, fpr_allocatable()),
        ];
        if !inline_asm::registers_suffice(ops, clobbers, &allocatable) {
            return Err(self.asm_plain_err("impossible constraint in 'asm'".into()));
        }
        Ok(())
    }

    /// The template with `%N`, `%[name]`, their modifiers, `%%` and `%=` replaced.
    fn asm_substitute(&mut self, a: &ir::InlineAsm, subs: &[Sub]) -> Result<String, BackendError> {
        // `%=`: a number unique to this asm statement in the function.
        self.next_label += 1;
        let uniq = self.next_label - INTERNAL_LABEL;
        inline_asm::substitute(
            a,
            Dialects::None,
            uniq,
            |j, modifier| self.asm_operand_text(subs[j], modifier),
            |msg| self.asm_plain_err(msg),
        )
    }

    fn asm_operand_text(&self, s: Sub, modifier: Option<char>) -> Result<String, BackendError> {
        let bad =
            |m: char| self.asm_refuse(&format!("the asm operand modifier '%{m}' for this operand"));
        Ok(match (s, modifier) {
            (Sub::G(idx), None | Some('x')) => format!("%?{idx}x"),
            (Sub::G(idx), Some('w')) => format!("%?{idx}w"),
            (Sub::V(idx), None) => format!("%?{idx}v"),
            (Sub::V(idx), Some(m @ ('b' | 'h' | 's' | 'd' | 'q'))) => format!("%?{idx}{m}"),
            (Sub::Zero, None | Some('x')) => "xzr".into(),
            (Sub::Zero, Some('w')) => "wzr".into(),
            // gcc leaves a constant bare; `%x`/`%w` of a constant print it as it is.
            (Sub::Imm(v), None | Some('x' | 'w' | 'c')) => v.to_string(),
            (Sub::Mem(idx), None) => format!("[%?{idx}x]"),
            (_, Some(m)) => return Err(bad(m)),
        })
    }
}
