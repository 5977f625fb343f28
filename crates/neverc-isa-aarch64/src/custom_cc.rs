//! What custom calling conventions (issue 7; `neverc_abi::callconv`) need from this back
//! end beyond honouring plans, which `lower.rs` does for every convention alike.
//!
//! - **Registers the allocator never hands out.** A custom plan may put a value in `x18`
//!   (the platform register, which neverc's code leaves alone) or `v31` (regalloc2's
//!   scratch register for float moves). Such a value is moved by an instruction inside the
//!   call, entry or return instruction itself, where no allocator move can come between:
//!   an argument `mov x18, <reg>` right before the `bl`, a result `mov <fixed temp>, x18`
//!   right after it, a parameter likewise at entry, a result right before the return.
//! - **Callee-saved registers.** A plan's `csr:` list is the set the function preserves:
//!   the prologue saves those the allocator uses (`emit.rs`), those its callees' plans do
//!   not preserve (see `Lower::note_callee`), and `x18`/`v31` always.
//! - **-O0.** The allocator gets only the caller-saved registers; a function whose own plan
//!   or one of whose calls is custom gets the registers its plans name too (a plan may
//!   name `x19`-`x28` or `v8`-`v15`, and fixed operands need allocatable registers).

use crate::asm::{Fpr, Gpr, Inst, Reg, Size};
use crate::lower::{preg_fpr, preg_gpr};
use neverc_abi::callconv::is_custom;
use neverc_abi::CallPlan;
use neverc_ir as ir;
use regalloc2::{MachineEnv, PReg, RegClass};

/// The register of a plan number that values reach by hand: `x18` and `v31`.
pub fn hand_moved(r: u16) -> Option<Reg> {
    match r {
        18 => Some(Reg::G(Gpr(18))),
        95 => Some(Reg::V(Fpr(31))),
        _ => None,
    }
}

/// `dst = src`, whole registers of one class.
pub fn move_reg(dst: Reg, src: Reg) -> Inst {
    match (dst, src) {
        (Reg::G(d), Reg::G(s)) => Inst::mov(Size::X, d, s),
        (Reg::V(d), Reg::V(s)) => Inst::MovV { rd: d, rn: s },
        _ => unreachable!("a move between register files"),
    }
}

/// Does function `f`'s entry or one of its calls follow a custom plan?
pub fn involves_custom(f: &ir::Function) -> bool {
    is_custom(&f.plan) || f.plans.iter().any(is_custom)
}

/// The callee-saved set of AAPCS64 (x19-x29, v8-v15), by plan number.
pub fn standard_callee_saved() -> Vec<u16> {
    (19..=29).chain(72..=79).collect()
}

/// The registers of `plan`'s callee-saved set the prologue saves whether or not the
/// allocator uses them: `x18` (callees may change it) and `v31` (the allocator's scratch).
pub fn always_saved(plan: &CallPlan) -> Vec<PReg> {
    let mut out = Vec::new();
    if plan.callee_saved.contains(&18) {
        out.push(preg_gpr(18));
    }
    if plan.callee_saved.contains(&95) {
        out.push(preg_fpr(31));
    }
    out
}

/// A caller-saved register of `class` outside `avoid`, to receive a hand-moved value
/// (a fixed def, which the allocator then moves wherever it wants); `None` when a plan
/// fills them all.
pub fn temp_for(class: RegClass, avoid: &[PReg]) -> Option<PReg> {
    let candidates: Vec<PReg> = match class {
        RegClass::Int => (9u8..16).chain(0..9).map(preg_gpr).collect(),
        _ => (16u8..31).chain(0..8).map(preg_fpr).collect(),
    };
    candidates.into_iter().find(|p| !avoid.contains(p))
}

/// The refusal when [`temp_for`] finds no register.
pub const NO_TEMP: &str = "a value in x18 or v31 when the plan leaves no caller-saved \
                           register of its class free";

/// `env` (the -O0 registers) with every register `f`'s plans place values in, as
/// non-preferred registers of their class.
pub fn env_with_plan_registers(env: &MachineEnv, f: &ir::Function) -> MachineEnv {
    let mut out = env.clone();
    for plan in std::iter::once(&f.plan).chain(f.plans.iter()) {
        for l in plan.arguments.iter().chain(plan.returns.iter()) {
            let neverc_abi::Place::Reg(r) = l.place else {
                continue;
            };
            let Some(p) = crate::lower::dwarf_to_preg(r) else {
                continue;
            };
            let k = p.class() as usize;
            if !out.preferred_regs_by_class[k].contains(p) {
                out.non_preferred_regs_by_class[k].add(p);
            }
        }
    }
    out
}
