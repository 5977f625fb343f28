//! Inline assembly statements to [`Op::InlineAsm`].
//!
//! irgen decides what each operand is to the back end: an output in a register (its value
//! comes back as a result and is stored to the lvalue afterwards), an input value (a
//! register or an immediate, the back end chooses by the constraint), or memory (the
//! address of the object, for constraints that allow only memory). A `+` operand is an
//! output plus a hidden input tied to it, as gcc numbers them. The back end checks the
//! constraint letters themselves and assembles the template.

use crate::expr::{Lv, Rv};
use crate::Gen;
use neverc_front::parse::ast::{AsmStmt, ExprId};
use neverc_front::source::Loc;
use neverc_ir::*;

/// Constraint letters that name a register (or a register class).
const REG_LETTERS: &str = "rqQRlabcdSDxyYgtuf";
/// Letters that allow an immediate.
const IMM_LETTERS: &str = "inIJKLMNOeEFGHsXZ";
/// Letters that allow memory.
const MEM_LETTERS: &str = "mogV<>";

/// A constraint split into its modifiers and letters.
struct Constraint {
    output: bool,
    read_write: bool,
    early_clobber: bool,
    letters: String,
}

fn split_constraint(c: &str) -> Constraint {
    let mut k = Constraint {
        output: false,
        read_write: false,
        early_clobber: false,
        letters: String::new(),
    };
    for ch in c.chars() {
        match ch {
            '=' => k.output = true,
            '+' => {
                k.output = true;
                k.read_write = true
            }
            '&' => k.early_clobber = true,
            // Commutative hint and whitespace mean nothing to neverc.
            '%' | ' ' | '\t' => {}
            _ => k.letters.push(ch),
        }
    }
    k
}

/// Only memory is allowed: the operand is passed by address.
fn memory_only(letters: &str) -> bool {
    letters.chars().any(|c| MEM_LETTERS.contains(c) && c != 'g')
        && !letters
            .chars()
            .any(|c| REG_LETTERS.contains(c) || IMM_LETTERS.contains(c) || c.is_ascii_digit())
}

/// A constraint's letters with the target's own memory letters spelled `m`: on AArch64
/// `Q` is memory at an address in a single base register (on x86-64 it is a register).
fn target_letters(letters: &str, arch: neverc_target::Arch) -> String {
    if arch == neverc_target::Arch::AArch64 {
        letters.replace('Q', "m")
    } else {
        letters.to_string()
    }
}

/// Memory is one of the choices (an aggregate or array operand is passed as memory then).
fn allows_memory(letters: &str) -> bool {
    letters.chars().any(|c| MEM_LETTERS.contains(c))
}

impl<'a> Gen<'a> {
    fn lit_text(&self, lit: u32) -> String {
        self.ast.lits.strs[lit as usize]
            .units
            .iter()
            .map(|&u| char::from_u32(u).unwrap_or('\u{fffd}'))
            .collect()
    }

    pub(crate) fn asm_stmt(&mut self, loc: Loc, a: &AsmStmt) {
        if a.goto {
            self.refuse(loc, "asm goto");
            return;
        }
        let template = self.lit_text(a.template);
        if template.trim().is_empty() && !self.asm_operands_supported(a) {
            self.empty_asm_fallback(a);
            return;
        }
        let mut operands: Vec<AsmOperand> = Vec::new();
        // Register outputs: (lvalue, its IR type) in operand order.
        let mut outs: Vec<(Lv, Type)> = Vec::new();
        // Hidden inputs of `+` register outputs: (operand index, lvalue).
        let mut rw: Vec<(usize, Lv)> = Vec::new();
        let name_of = |g: &Self, n: Option<neverc_front::token::Symbol>| n.map(|s| g.name(s));

        for (k, op) in a.outputs.iter().enumerate() {
            let c = split_constraint(&self.lit_text(op.constraint));
            if !c.output {
                self.refuse(
                    loc,
                    format!("an asm output constraint without '=' or '+' (operand {k})"),
                );
                return;
            }
            if c.letters.contains(',') {
                self.refuse(loc, "asm constraints with alternatives");
                return;
            }
            let lv = self.lvalue(op.expr);
            let name = name_of(self, op.name);
            let l = target_letters(&c.letters, self.machine.arch);
            if memory_only(&l) || (allows_memory(&l) && !self.is_scalar(self.expr_type(op.expr))) {
                operands.push(AsmOperand {
                    constraint: c.letters,
                    name,
                    role: AsmRole::Memory(self.lv_addr(lv)),
                });
                continue;
            }
            let Some(ty) = self.asm_value_type(loc, op.expr) else {
                return;
            };
            if c.read_write {
                rw.push((k, lv));
            }
            outs.push((lv, ty));
            operands.push(AsmOperand {
                constraint: c.letters,
                name,
                role: AsmRole::Output {
                    early_clobber: c.early_clobber,
                },
            });
        }
        for op in a.inputs.iter() {
            let c = split_constraint(&self.lit_text(op.constraint));
            if c.output || c.early_clobber {
                self.refuse(loc, "an asm input constraint with '=', '+' or '&'");
                return;
            }
            if c.letters.contains(',') {
                self.refuse(loc, "asm constraints with alternatives");
                return;
            }
            let name = name_of(self, op.name);
            let role = if let Ok(k) = c.letters.parse::<usize>() {
                // Tied to output k: the input arrives converted to the output's type.
                let Some(out) = a.outputs.get(k) else {
                    self.refuse(
                        loc,
                        format!("an asm input tied to operand {k}, which is not an output"),
                    );
                    return;
                };
                if !matches!(operands[k].role, AsmRole::Output { .. }) {
                    self.refuse(loc, "an asm input tied to a memory output");
                    return;
                }
                let ot = self.expr_type(out.expr);
                match self.rv_as(op.expr, ot) {
                    Rv::Scalar(v) => AsmRole::Input(v),
                    _ => {
                        self.refuse(loc, "an asm operand that is not a scalar");
                        return;
                    }
                }
            } else if memory_only(&target_letters(&c.letters, self.machine.arch))
                || (allows_memory(&target_letters(&c.letters, self.machine.arch))
                    && !self.is_scalar(self.expr_type(op.expr)))
            {
                if !self.is_lvalue_expr(op.expr) {
                    self.refuse(loc, "an asm memory input that is not an lvalue");
                    return;
                }
                let lv = self.lvalue(op.expr);
                AsmRole::Memory(self.lv_addr(lv))
            } else {
                if self.asm_value_type(loc, op.expr).is_none() {
                    return;
                }
                match self.rvalue(op.expr) {
                    Rv::Scalar(v) => AsmRole::Input(v),
                    _ => {
                        self.refuse(loc, "an asm operand that is not a scalar");
                        return;
                    }
                }
            };
            operands.push(AsmOperand {
                constraint: c.letters,
                name,
                role,
            });
        }
        let visible = operands.len();
        for (k, lv) in rw {
            let Rv::Scalar(v) = self.load(lv) else {
                self.refuse(loc, "an asm operand that is not a scalar");
                return;
            };
            operands.push(AsmOperand {
                constraint: k.to_string(),
                name: None,
                role: AsmRole::Input(v),
            });
        }
        let clobbers = a.clobbers.iter().map(|&c| self.lit_text(c)).collect();
        let types: Vec<Type> = outs.iter().map(|o| o.1).collect();
        let asm = InlineAsm {
            template,
            operands,
            visible,
            clobbers,
            basic: a.basic,
            results: Vec::new(),
        };
        let results = self.b().inline_asm(asm, &types);
        for ((lv, _), v) in outs.into_iter().zip(results) {
            self.store(lv, Rv::Scalar(v));
        }
    }

    /// Whether every operand has a type the back end takes in its constraint.
    fn asm_operands_supported(&self, a: &AsmStmt) -> bool {
        a.outputs.iter().chain(&a.inputs).all(|op| {
            let c = split_constraint(&self.lit_text(op.constraint));
            let ty = self.expr_type(op.expr);
            memory_only(&target_letters(&c.letters, self.machine.arch))
                || (allows_memory(&target_letters(&c.letters, self.machine.arch))
                    && !self.is_scalar(ty))
                || matches!(
                    self.ir_type(ty),
                    Some(
                        Type::I8
                            | Type::I16
                            | Type::I32
                            | Type::I64
                            | Type::Ptr
                            | Type::F32
                            | Type::F64
                            | Type::F80
                    )
                )
        })
    }

    /// An empty template with operands the back end cannot place (`__int128` in "r", a
    /// structure in "r"): it emits nothing, so evaluating the inputs is all there is to
    /// do; an input tied to output k leaves its value there, other outputs keep theirs
    /// (one of the values they may have).
    fn empty_asm_fallback(&mut self, a: &AsmStmt) {
        let mut tied = Vec::new();
        for op in a.inputs.iter() {
            let c = self.lit_text(op.constraint);
            match c.trim().parse::<usize>() {
                Ok(k) if k < a.outputs.len() => {
                    let ot = self.expr_type(a.outputs[k].expr);
                    let v = self.rv_as(op.expr, ot);
                    tied.push((k, v));
                }
                _ => self.effect(op.expr),
            }
        }
        for (k, op) in a.outputs.iter().enumerate() {
            let lv = self.lvalue(op.expr);
            if let Some(&(_, v)) = tied.iter().find(|(j, _)| *j == k) {
                self.store(lv, v);
            }
        }
    }

    /// Syntactically an lvalue (sema has checked the operands already).
    fn is_lvalue_expr(&self, e: ExprId) -> bool {
        use neverc_front::parse::ast::{ExprKind, UnOp};
        match &self.ast.expr(e).kind {
            ExprKind::Ident(_)
            | ExprKind::Unary(UnOp::Deref, _)
            | ExprKind::Index(..)
            | ExprKind::Str(_)
            | ExprKind::CompoundLit(..) => true,
            ExprKind::Paren(x) => self.is_lvalue_expr(*x),
            ExprKind::Member { base, arrow, .. } => *arrow || self.is_lvalue_expr(*base),
            _ => false,
        }
    }

    /// The IR type of a register operand, refusing aggregates and other wide objects.
    fn asm_value_type(&mut self, loc: Loc, e: ExprId) -> Option<Type> {
        let ty = self.expr_type(e);
        match self.ir_type(ty) {
            Some(t @ (Type::I8 | Type::I16 | Type::I32 | Type::I64 | Type::Ptr)) => Some(t),
            // long double only for the x87 stack constraints (the back end checks).
            Some(t @ (Type::F32 | Type::F64 | Type::F80)) => Some(t),
            Some(t) => {
                self.refuse(loc, format!("an asm register operand of type {}", t.name()));
                None
            }
            None if self.is_scalar(ty) => Some(Type::Ptr),
            None => {
                self.refuse(loc, "an asm register operand that is not a scalar");
                None
            }
        }
    }
}
