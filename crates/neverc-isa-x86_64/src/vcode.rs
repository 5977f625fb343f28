//! Virtual-register code: the back end's view of a function between lowering and register
//! allocation (the shared `neverc_codegen::vcode` shape, which implements
//! `regalloc2::Function`), and the x86-64 pieces of it.
//!
//! A `VInst` is a short sequence of `asm::Inst` *templates* plus the regalloc2 operands they
//! read and write. A template register field holding `Gpr(PH | k)` / `Xmm(PH | k)` names
//! operand `k`; after allocation [`map_regs`] replaces it with the allocated register. Other
//! register fields (rsp, rbp, the scratch r11) are physical. All operands are
//! register-constrained, so every allocation an instruction sees is a register; spills and
//! reloads are regalloc2's edits.
//!
//! Sequences of several machine instructions follow one rule: uses that must stay readable
//! after the first write are "late" uses, temporaries are early defs (see `lower.rs`).

use crate::asm::{Cond, Gpr, Inst, Label, Mem, Xmm};
use regalloc2::{PReg, RegClass};

/// Placeholder bit: a register field `PH | k` means operand `k`.
pub const PH: u8 = crate::asm::att::OPERAND_REG;

pub fn ph_gpr(k: usize) -> Gpr {
    Gpr(PH | k as u8)
}
pub fn ph_xmm(k: usize) -> Xmm {
    Xmm(PH | k as u8)
}

/// A condition as tested by a branch or a set: one flag condition, both of two, or either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CondSpec {
    One(Cond),
    /// Both hold (float `==`: E and NP).
    And(Cond, Cond),
    /// Either holds (float `!=`: NE or P).
    Or(Cond, Cond),
}

impl CondSpec {
    pub fn invert(self) -> CondSpec {
        match self {
            CondSpec::One(c) => CondSpec::One(c.invert()),
            CondSpec::And(a, b) => CondSpec::Or(a.invert(), b.invert()),
            CondSpec::Or(a, b) => CondSpec::And(a.invert(), b.invert()),
        }
    }
}

/// The shared virtual-register code (`neverc_codegen::vcode`) over this back end's
/// instructions and conditions. A vblock `b`'s label is `Label(b)`.
pub type Term = neverc_codegen::vcode::Term<CondSpec>;
pub type VInst = neverc_codegen::vcode::VInst<Inst, CondSpec>;
pub type VBlock = neverc_codegen::vcode::VBlock<Inst, CondSpec>;
pub type VCode = neverc_codegen::vcode::VCode<Inst, CondSpec>;
pub type Recycled = neverc_codegen::vcode::Recycled<Inst, CondSpec>;
pub use neverc_codegen::vcode::Operands;
pub type Templates = neverc_codegen::vcode::Templates<Inst>;

/// The label of vblock `b`.
pub fn block_label(b: usize) -> Label {
    Label(b as u32)
}

/// Physical register for a GPR hardware number.
pub fn preg_gpr(hw: u8) -> PReg {
    PReg::new(hw as usize, RegClass::Int)
}
pub fn preg_xmm(n: u8) -> PReg {
    PReg::new(n as usize, RegClass::Float)
}

/// The register a plan's DWARF number names, as a regalloc2 register.
pub fn dwarf_to_preg(n: u16) -> Option<PReg> {
    const GPR: [u8; 16] = [0, 2, 1, 3, 6, 7, 5, 4, 8, 9, 10, 11, 12, 13, 14, 15];
    match n {
        0..=15 => Some(preg_gpr(GPR[n as usize])),
        17..=32 => Some(preg_xmm((n - 17) as u8)),
        _ => None,
    }
}

/// Rewrites every register field of `inst` through `g` (GPRs) and `x` (XMMs).
pub fn map_regs(inst: &mut Inst, g: &mut dyn FnMut(Gpr) -> Gpr, x: &mut dyn FnMut(Xmm) -> Xmm) {
    inst.map_regs(g, x)
}

/// Calls `f` on every memory operand of `inst`.
pub fn for_each_mem(inst: &mut Inst, f: &mut dyn FnMut(&mut Mem)) {
    inst.visit_operands(&mut |_| {}, &mut |_| {}, f)
}

/// Whether every mention of `r` in `inst` is as the base of a memory operand.
pub fn only_as_base(inst: &Inst, r: Gpr) -> bool {
    let mut all = 0;
    let mut t = *inst;
    map_regs(
        &mut t,
        &mut |g| {
            if g == r {
                all += 1
            }
            g
        },
        &mut |x| x,
    );
    let mut bases = 0;
    let mut t = *inst;
    for_each_mem(&mut t, &mut |m| {
        if m.base == Some(r) {
            bases += 1
        }
        if m.index.is_some_and(|(i, _)| i == r) {
            bases += 100
        }
    });
    all == bases
}
