//! Custom conventions on AArch64 (AAPCS64 on ELF targets): the registers a spec may name,
//! how values split into pieces, and the check of a plan given ready-made. The walk that
//! makes the plan is the one in [`super::materialise`], which every ISA shares.
//!
//! The spec's AArch64 rules, made precise here:
//! - General registers are named `x0`-`x28` and vector registers `v0`-`v31`, always in
//!   those spellings (`w3`, `d1`, `q0` are errors that say so); the back end picks the
//!   `w`/`x` width and the `h`/`s`/`d`/`q` form from each value's type: a plan location's
//!   size is the piece's (4 for `int`, 8 for `long`, 16 for `long double`).
//! - Values are classified as AAPCS64 classifies them: a homogeneous floating-point or
//!   short-vector aggregate (and a lone `float`, `double`, `long double`, vector) takes
//!   one vector register per member; anything else up to 16 bytes takes one general
//!   register per 8 bytes. A composite over 16 bytes, which AAPCS64 passes by reference,
//!   goes on the stack by value here (as System V's MEMORY class does on x86-64).
//! - **Pool mode** and **positional mode** as on x86-64 (see [`super::materialise`]): an
//!   argument takes the next entries of `gpr:` for its general pieces and of
//!   `fpr:`/`xmm:` for its vector ones, or goes on the stack whole; in positional mode
//!   a one-piece value takes its token's register. Unwritten pools are the standard ones
//!   (`x0`-`x7`, `v0`-`v7`).
//! - `sp` (`x31`), `x29` (`fp`) and `x30` (`lr`) never carry values: naming one skips it
//!   with a warning. So do `x16` and `x17` (`ip0`/`ip1`): AAPCS64 §6.4 lets linker veneers
//!   and PLT entries change them between a `bl` and its target, so a value (or a
//!   callee-saved register) there could arrive changed. `x18`, the platform register,
//!   is an ordinary temporary on Linux and may be used.
//! - A result returned in memory: its address goes in the first general register of the
//!   `gpr:` pool when the spec writes one (pool mode), else in `x8` as in AAPCS64; as in
//!   AAPCS64, the callee does not give it back.
//! - Results: general pieces in the `ret:` registers in order, vector pieces in
//!   `ret_fpr:`/`ret_xmm:`, continuing with the standard ones (`x0 x1`, `v0`-`v3`).
//! - Integers are not extended by the caller (AAPCS64 leaves the upper bits unspecified).
//! - Stack arguments in argument order, in 8-byte slots, 16-byte aligned for 16-byte
//!   aligned values, as AAPCS64 lays them out.
//! - `csr:` replaces the callee-saved set (`x19`-`x29`, `d8`-`d15`) with general and
//!   vector registers; a vector register is preserved in its low 64 bits, as AAPCS64
//!   preserves `v8`-`v15`. `x29` is always preserved (the frame record).

use super::materialise::{Bank, CcError, Isa, Piece};
use super::spec::Segment;
use crate::aarch64::{kind, Kind};
use crate::classify::{natural_align, round, Builder};
use crate::plan::{CallPlan, Flags, Location, Place};
use crate::types::Type;
use crate::{Convention, Machine, Signature};
use neverc_target::registers;
use neverc_target::Arch;

// Register numbers (DWARF, as in `neverc_target::registers`).
const X8: u16 = 8;
const X16: u16 = 16;
const X17: u16 = 17;
const FP: u16 = 29;
const LR: u16 = 30;
const SP: u16 = 31;
const V0: u16 = 64;

/// The standard callee-saved set: x19-x29 and v8-v15 (their low 64 bits).
#[rustfmt::skip]
const STD_CSR: [u16; 19] = [
    19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
    V0 + 8, V0 + 9, V0 + 10, V0 + 11, V0 + 12, V0 + 13, V0 + 14, V0 + 15,
];

/// The AArch64 registers and AAPCS64's pieces, for the shared walk.
pub(super) static ISA: Isa = Isa {
    arch: Arch::AArch64,
    convention: Convention::Aapcs64,
    number,
    // The registers that cannot carry values are skipped (with a warning) instead.
    refused: &[],
    std_gpr: &[0, 1, 2, 3, 4, 5, 6, 7],
    std_vector: &[V0, V0 + 1, V0 + 2, V0 + 3, V0 + 4, V0 + 5, V0 + 6, V0 + 7],
    std_ret_gpr: &[0, 1],
    std_ret_vector: &[V0, V0 + 1, V0 + 2, V0 + 3],
    std_csr: &STD_CSR,
    // The frame record always preserves x29.
    always_saved: &[FP],
    ret_vector_key: "ret_fpr",
    csr_takes: "general and vector registers",
    // In memory: the buffer's address in the first general register of a written `gpr:`
    // pool, else in x8 as in AAPCS64; the callee does not give it back.
    sret: X8,
    sret_from_std_pool: false,
    sret_out: None,
    pieces: |ty, b, _| pieces(ty, b),
    // AAPCS64 leaves the upper bits unspecified: the caller does not extend.
    extension: |_, _| Flags::NONE,
    stack_align: |ty, m, _| Some(natural_align(ty, m).clamp(8, 16)),
};

fn reg_name(r: u16) -> &'static str {
    registers::schema(Arch::AArch64).name(r).unwrap_or("?")
}

/// The spelling a sub-register name should have been written in, if `name` is one
/// (`w3` -> `x3`, `d1` -> `v1`).
fn full_spelling(name: &str) -> Option<String> {
    let (first, digits) = name.split_at(1.min(name.len()));
    let n: u8 = digits.parse().ok()?;
    match first {
        "w" if n <= 30 => Some(format!("x{n}")),
        "b" | "h" | "s" | "d" | "q" if n <= 31 => Some(format!("v{n}")),
        _ => None,
    }
}

/// A register name of a spec; registers that cannot carry values are skipped with a
/// warning, sub-register spellings are errors that name the register to write.
fn number(name: &str, seg: Segment, warnings: &mut Vec<String>) -> Result<Option<u16>, CcError> {
    let key = seg.key();
    let num = match name {
        "x31" | "wsp" => SP,
        "ip0" => X16,
        "ip1" => X17,
        _ => match registers::schema(Arch::AArch64).number(name) {
            Some(n) => n,
            None => {
                return Err(CcError::Spec(match full_spelling(name) {
                    Some(full) => format!(
                        "'{name}' in '{key}:': write AArch64 registers as x0-x28 and \
                         v0-v31 ('{full}'); the width follows each value's type"
                    ),
                    None => format!("'{name}' in '{key}:' is not an AArch64 register"),
                }))
            }
        },
    };
    let why = match num {
        SP => Some("the stack pointer"),
        LR => Some("the link register"),
        FP if seg != Segment::Csr => Some("the frame pointer"),
        X16 | X17 => Some(
            "an intra-procedure-call register (linker veneers and PLT entries may change \
             it between a call and its target)",
        ),
        _ => None,
    };
    if let Some(why) = why {
        let what = if seg == Segment::Csr {
            "cannot be callee-saved"
        } else {
            "cannot carry values"
        };
        warnings.push(format!(
            "'{}' in '{key}:' is {why} and {what}; skipped",
            reg_name(num)
        ));
        return Ok(None);
    }
    Ok(Some(num))
}

/// The register pieces of a value as AAPCS64 classifies it (results as arguments); `None`
/// for a value passed in memory, `Some(empty)` for one with nothing to pass.
fn pieces(ty: &Type, b: &Builder) -> Option<Vec<Piece>> {
    let (size, _) = b.layout(ty);
    match kind(ty, b) {
        Kind::Empty => Some(Vec::new()),
        Kind::ByRef => None,
        Kind::Simd(base, n) => Some(
            (0..n)
                .map(|k| Piece {
                    offset: k * base.size(),
                    size: base.size(),
                    bank: Bank::Vector,
                })
                .collect(),
        ),
        Kind::General => Some(
            (0..size.div_ceil(8))
                .map(|k| Piece {
                    offset: k * 8,
                    size: (size - k * 8).min(8),
                    bank: Bank::General,
                })
                .collect(),
        ),
    }
}

/// Can register `r` carry a piece of `bank`?
fn reg_ok(r: u16, bank: Bank) -> bool {
    match bank {
        Bank::Vector => (V0..V0 + 32).contains(&r),
        Bank::General => r <= 28 && r != X16 && r != X17,
        Bank::Fixed(f) => r == f,
    }
}

/// Does a plan given as text fit `sig` as AAPCS64 classifies its values? (Which register
/// each piece is in is free; its class, offset and size are not.)
pub(crate) fn fits(m: &Machine, plan: &CallPlan, sig: &Signature) -> Result<(), String> {
    let b = Builder::new(m);
    let rets = &plan.returns;
    let mut used: Vec<u16> = Vec::new();
    if sig.ret == Type::Void {
        if !rets.is_empty() {
            return Err("a void function has result locations".into());
        }
    } else {
        match pieces(&sig.ret, &b) {
            None => {
                let ok = matches!(rets.as_slice(), [l] if l.flags == Flags::SRET
                    && (l.value, l.offset, l.size, l.align) == (0, 0, 8, 8)
                    && matches!(l.place, Place::Reg(r) if reg_ok(r, Bank::General)));
                if !ok {
                    return Err(
                        "the result is returned in memory: expected one sret general register"
                            .into(),
                    );
                }
                if let Place::Reg(r) = rets[0].place {
                    used.push(r);
                }
            }
            Some(ps) => {
                if rets.len() != ps.len() {
                    return Err(format!(
                        "the result has {} locations, its type needs {}",
                        rets.len(),
                        ps.len()
                    ));
                }
                let mut seen = Vec::new();
                for (l, p) in rets.iter().zip(&ps) {
                    let ok = matches!(l.place, Place::Reg(r) if reg_ok(r, p.bank) && !seen.contains(&r))
                        && l.offset == p.offset
                        && l.size == p.size
                        && l.flags == Flags::NONE;
                    if !ok {
                        return Err(format!(
                            "result location '{l}' does not fit the result type"
                        ));
                    }
                    if let Place::Reg(r) = l.place {
                        seen.push(r);
                    }
                }
            }
        }
    }
    if plan
        .arguments
        .iter()
        .any(|l| l.value as usize >= sig.params.len())
    {
        return Err("a location names an argument the function does not have".into());
    }
    let mut slots: Vec<(u32, u32)> = Vec::new();
    for (i, ty) in sig.params.iter().enumerate() {
        let locs: Vec<&Location> = plan.argument(i as u32).collect();
        let (size, align) = b.layout(ty);
        let ps = pieces(ty, &b);
        match locs.as_slice() {
            [] if ps.as_ref().is_some_and(|p| p.is_empty()) => {}
            [l] if matches!(l.place, Place::Stack(_)) => {
                let Place::Stack(off) = l.place else {
                    unreachable!()
                };
                if l.offset != 0 || l.size != size || l.align != align || l.flags != Flags::NONE {
                    return Err(format!("stack location '{l}' does not fit argument {i}"));
                }
                if off % natural_align(ty, m).clamp(8, 16) != 0 || off + size > plan.stack {
                    return Err(format!(
                        "stack location '{l}' is misaligned or outside the area"
                    ));
                }
                slots.push((off, round(size, 8)));
            }
            _ => {
                let Some(ps) = ps else {
                    return Err(format!(
                        "argument {i} is passed in memory, not in registers"
                    ));
                };
                if ps.len() != locs.len() {
                    return Err(format!(
                        "argument {i} has {} locations, its type needs {}",
                        locs.len(),
                        ps.len()
                    ));
                }
                for (l, p) in locs.iter().zip(&ps) {
                    let Place::Reg(r) = l.place else {
                        return Err(format!(
                            "argument {i} is split between registers and the stack"
                        ));
                    };
                    if !reg_ok(r, p.bank)
                        || l.offset != p.offset
                        || l.size != p.size
                        || l.flags != Flags::NONE
                        || used.contains(&r)
                    {
                        return Err(format!("location '{l}' does not fit argument {i}"));
                    }
                    used.push(r);
                }
            }
        }
    }
    slots.sort_unstable();
    if slots.windows(2).any(|w| w[0].0 + w[0].1 > w[1].0) {
        return Err("two stack arguments overlap".into());
    }
    for &r in &plan.callee_saved {
        let ret_reg = rets
            .iter()
            .any(|l| l.flags != Flags::SRET && l.place == Place::Reg(r));
        let ok = r == FP || reg_ok(r, Bank::General) || reg_ok(r, Bank::Vector);
        if !ok || ret_reg {
            return Err(format!("register {r} cannot be callee-saved"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::materialise::{check_plan, convention_id, is_custom, materialise};
    use super::super::spec::Spec;
    use super::*;
    use crate::types::IntKind;

    fn arm() -> &'static neverc_target::Target {
        neverc_target::lookup("aarch64-linux-gnu").unwrap()
    }

    fn long() -> Type {
        Type::Int(IntKind::Long)
    }

    fn ldouble() -> Type {
        Type::Float(crate::types::FloatKind::LongDouble)
    }

    /// `value:name/size` per location, `s<offset>` for stack ones.
    fn show(locs: &[Location]) -> Vec<String> {
        locs.iter()
            .map(|l| {
                let place = match l.place {
                    Place::Reg(r) => reg_name(r).to_string(),
                    Place::Stack(o) => format!("s{o}"),
                };
                format!("{}:{place}/{}", l.value, l.size)
            })
            .collect()
    }

    fn plan(spec: &str, sig: &Signature) -> (CallPlan, Vec<String>) {
        let (s, _) = Spec::parse(spec).unwrap();
        materialise(arm(), &s, sig).unwrap()
    }

    fn err(spec: &str, sig: &Signature) -> String {
        let (s, _) = Spec::parse(spec).unwrap();
        materialise(arm(), &s, sig).unwrap_err().to_string()
    }

    #[test]
    fn gpr_pool_takes_x_registers_at_each_value_width() {
        let sig = Signature::new(Type::int(), [Type::int(), long(), Type::Pointer]);
        let (p, w) = plan("gpr:x9,x10,x11;ret:x12", &sig);
        assert!(w.is_empty());
        // Size 4: the w form; size 8: the x form.
        assert_eq!(show(&p.arguments), ["0:x9/4", "1:x10/8", "2:x11/8"]);
        assert_eq!(show(&p.returns), ["0:x12/4"]);
        assert_eq!(p.stack, 0);
        assert_eq!(p.callee_saved, STD_CSR);
        assert!(is_custom(&p));
        assert!(p
            .to_string()
            .starts_with("neverc-cc-plan-v1;schema=neverc-aarch64-linux-gnu;"));
        // No extension by the caller, as in AAPCS64.
        let sig = Signature::new(
            Type::Void,
            [Type::Int(IntKind::SChar), Type::Int(IntKind::UShort)],
        );
        let (p, _) = plan("gpr:x20,x21", &sig);
        assert!(p.arguments.iter().all(|l| l.flags == Flags::NONE));
        assert_eq!(show(&p.arguments), ["0:x20/1", "1:x21/2"]);
    }

    #[test]
    fn fpr_pool_takes_v_registers_in_the_form_of_each_type() {
        let hfa = Type::structure([Type::float(), Type::float(), Type::float()]);
        let sig = Signature::new(
            Type::double(),
            [Type::float(), Type::double(), ldouble(), hfa, Type::int()],
        );
        let (p, _) = plan("fpr:v16,v17,v31,v20,v21,v22;ret_fpr:v18", &sig);
        // s (4), d (8), q (16); an HFA of three floats in three registers; the int takes
        // the standard x0.
        assert_eq!(
            show(&p.arguments),
            ["0:v16/4", "1:v17/8", "2:v31/16", "3:v20/4", "3:v21/4", "3:v22/4", "4:x0/4"]
        );
        assert_eq!(show(&p.returns), ["0:v18/8"]);
        // `xmm:` is the same segment as `fpr:`.
        let (q, _) = plan("xmm:v16,v17,v31,v20,v21,v22;ret_xmm:v18", &sig);
        assert_eq!(q.arguments, p.arguments);
        assert_eq!(q.returns, p.returns);
    }

    #[test]
    fn pools_spill_to_the_stack_and_uncovered_classes_stay_standard() {
        let sig = Signature::new(
            Type::Void,
            [Type::int(), Type::double(), Type::int(), long(), ldouble()],
        );
        let (p, _) = plan("gpr:x9", &sig);
        assert_eq!(
            show(&p.arguments),
            ["0:x9/4", "1:v0/8", "2:s0/4", "3:s8/8", "4:v1/16"]
        );
        assert_eq!(p.stack, 16);
        // An empty pool sends its class to the stack; a 16-byte value 16-aligned.
        let (p, _) = plan("gpr:;fpr:", &sig);
        assert_eq!(
            show(&p.arguments),
            ["0:s0/4", "1:s8/8", "2:s16/4", "3:s24/8", "4:s32/16"]
        );
        assert_eq!(p.stack, 48);
        // A pool too short for a two-register record sends it to the stack whole.
        let two = Type::structure([long(), long()]);
        let (p, _) = plan(
            "gpr:x9,x10",
            &Signature::new(Type::Void, [long(), two, long()]),
        );
        assert_eq!(show(&p.arguments), ["0:x9/8", "1:s0/16", "2:x10/8"]);
    }

    #[test]
    fn positional_mode_and_its_fallbacks() {
        let sig = Signature::new(long(), [long(), long(), Type::double()]);
        let (p, _) = plan("args:x3,stack,v5;ret:x4", &sig);
        assert_eq!(show(&p.arguments), ["0:x3/8", "1:s0/8", "2:v5/8"]);
        assert_eq!(show(&p.returns), ["0:x4/8"]);
        // Wrong class (long in v1, double in x2), taken (x3 twice), past the list.
        let sig = Signature::new(Type::Void, [long(), Type::double(), long(), long(), long()]);
        let (p, _) = plan("gpr:x20;args:v1,x2,x3,x3", &sig);
        assert_eq!(
            show(&p.arguments),
            ["0:s0/8", "1:s8/8", "2:x3/8", "3:s16/8", "4:s24/8"]
        );
    }

    #[test]
    fn reserved_registers_are_skipped_with_warnings() {
        let sig = Signature::new(Type::Void, [long(), long()]);
        let (p, w) = plan("gpr:sp,x31,x29,fp,x30,LR,x16,ip1,x18,x28", &sig);
        assert_eq!(show(&p.arguments), ["0:x18/8", "1:x28/8"]);
        assert_eq!(w.len(), 8);
        assert_eq!(
            w[0],
            "'sp' in 'gpr:' is the stack pointer and cannot carry values; skipped"
        );
        assert_eq!(
            w[2],
            "'x29' in 'gpr:' is the frame pointer and cannot carry values; skipped"
        );
        assert_eq!(
            w[4],
            "'x30' in 'gpr:' is the link register and cannot carry values; skipped"
        );
        assert!(w[6].starts_with("'x16' in 'gpr:' is an intra-procedure-call register"));
        let (p, _) = plan("args:x30,x17", &sig);
        assert_eq!(show(&p.arguments), ["0:s0/8", "1:s8/8"]);
        let (p, _) = plan("ret:x29,x5", &Signature::new(long(), []));
        assert_eq!(show(&p.returns), ["0:x5/8"]);
    }

    #[test]
    fn sub_register_spellings_and_unknown_names_are_errors() {
        let sig = Signature::new(Type::int(), [Type::int()]);
        assert_eq!(
            err("gpr:w3", &sig),
            "invalid calling convention spec: 'w3' in 'gpr:': write AArch64 registers as \
             x0-x28 and v0-v31 ('x3'); the width follows each value's type"
        );
        assert!(err("fpr:d1", &sig).contains("('v1')"));
        assert!(err("ret_fpr:q31", &sig).contains("('v31')"));
        assert_eq!(
            err("gpr:x32", &sig),
            "invalid calling convention spec: 'x32' in 'gpr:' is not an AArch64 register"
        );
        assert_eq!(
            err("gpr:rdi", &sig),
            "invalid calling convention spec: 'rdi' in 'gpr:' is not an AArch64 register"
        );
    }

    #[test]
    fn memory_results_and_large_records() {
        let big = Type::structure([long(), long(), long()]);
        let sig = Signature::new(big.clone(), [big.clone(), Type::int()]);
        // The buffer's address in the pool's first register; the 24-byte record on the
        // stack by value (not by reference); the int in the next pool entry.
        let (p, _) = plan("gpr:x9,x10;ret:x11", &sig);
        assert_eq!(show(&p.returns), ["0:x9/8"]);
        assert_eq!(p.returns[0].flags, Flags::SRET);
        assert_eq!(show(&p.arguments), ["0:s0/24", "1:x10/4"]);
        assert_eq!(p.stack, 24);
        // Without a gpr pool, x8 as in AAPCS64.
        let (p, _) = plan("fpr:v9", &sig);
        assert_eq!(show(&p.returns), ["0:x8/8"]);
        assert_eq!(show(&p.arguments), ["0:s0/24", "1:x0/4"]);
        let (p, _) = plan("args:x8,x1", &Signature::new(big, [long(), long()]));
        assert_eq!(show(&p.returns), ["0:x8/8"]);
        assert_eq!(show(&p.arguments), ["0:s0/8", "1:x1/8"]);
    }

    #[test]
    fn record_results_use_the_lists_then_the_standard_registers() {
        let two = Type::structure([long(), Type::int()]);
        let (p, w) = plan("ret:v1,x5", &Signature::new(two, []));
        // (16 bytes with the padding: two 8-byte pieces.)
        assert_eq!(show(&p.returns), ["0:x5/8", "0:x0/8"]);
        assert_eq!(w, ["'v1' in 'ret:' is not a general register; ignored"]);
        let hfa = Type::structure([Type::double(), Type::double()]);
        let (p, _) = plan("ret_fpr:v9", &Signature::new(hfa, []));
        assert_eq!(show(&p.returns), ["0:v9/8", "0:v0/8"]);
    }

    #[test]
    fn csr_replaces_the_callee_saved_set() {
        let sig = Signature::new(long(), [long()]);
        let (p, w) = plan("gpr:x9;csr:x10,v16,x10,x18", &sig);
        assert_eq!(p.callee_saved, [10, V0 + 16, 18, FP]);
        assert!(w.is_empty());
        let (p, w) = plan("gpr:x9;ret:x20;csr:x20,x9,x16,v31", &sig);
        assert_eq!(p.callee_saved, [9, V0 + 31, FP]);
        assert_eq!(
            w,
            [
                "'x16' in 'csr:' is an intra-procedure-call register (linker veneers and PLT \
                 entries may change it between a call and its target) and cannot be \
                 callee-saved; skipped",
                "register 'x20' is both callee-saved (csr:) and in an argument or return list",
                "register 'x9' is both callee-saved (csr:) and in an argument or return list",
            ]
        );
        // Without csr, a result in a standard callee-saved register is not preserved.
        let (p, _) = plan("ret:x19", &sig);
        assert_eq!(p.callee_saved[0], 20);
        assert!(!p.callee_saved.contains(&19));
        assert!(err("csr:stack", &sig).contains("'stack' in 'csr:' is not a register"));
    }

    #[test]
    fn a_given_plan_is_validated_not_remade() {
        let sig = Signature::new(Type::int(), [Type::int(), Type::double()]);
        let (spec, _) = Spec::parse("gpr:x9;fpr:v20;ret:x10").unwrap();
        let (p, _) = materialise(arm(), &spec, &sig).unwrap();
        let text = p.to_string();
        assert_eq!(
            check_plan(arm(), &text, Some(convention_id(&spec)), &sig),
            Ok(p.clone())
        );
        // Another free register of the right class is accepted as it is.
        let edited = text.replace("r,1,0,8,8,84,0,-", "r,1,0,8,8,95,0,-");
        assert_eq!(
            check_plan(arm(), &edited, None, &sig).unwrap().arguments[1].place,
            Place::Reg(95)
        );
        for bad in [
            // An int in a vector register, in x16, in sp.
            text.replace("r,0,0,4,4,9,0,-", "r,0,0,4,4,64,0,-"),
            text.replace("r,0,0,4,4,9,0,-", "r,0,0,4,4,16,0,-"),
            text.replace("r,0,0,4,4,9,0,-", "r,0,0,4,4,31,0,-"),
            // A double in a general register.
            text.replace("r,1,0,8,8,84,0,-", "r,1,0,8,8,3,0,-"),
        ] {
            let e = check_plan(arm(), &bad, None, &sig).unwrap_err().to_string();
            assert!(
                e.starts_with("malformed NeverC calling convention plan: it does not fit"),
                "{bad}\n{e}"
            );
        }
        // An x86-64 plan on AArch64.
        let x86 = neverc_target::lookup("x86_64-linux-gnu").unwrap();
        let (xs, _) = Spec::parse("gpr:r10").unwrap();
        let (xp, _) = materialise(x86, &xs, &sig).unwrap();
        let e = check_plan(arm(), &xp.to_string(), None, &sig).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("NeverC calling convention plan belongs to a foreign target schema"));
    }

    #[test]
    fn the_policy_has_aarch64_defaults_and_layouts() {
        use super::super::policy::{Policy, DEFAULT_POLICY_SPEC_AARCH64, SHUFFLE_LAYOUTS_AARCH64};
        let mut p = Policy {
            aarch64: true,
            ..Policy::default()
        };
        p.apply("callconv-all").unwrap();
        assert_eq!(p.spec_for("f"), Some(DEFAULT_POLICY_SPEC_AARCH64));
        p.apply("callconv-shuffle=7").unwrap();
        let mut seen = [false; 4];
        for i in 0..64 {
            let s = p.spec_for(&format!("f{i}")).unwrap();
            seen[SHUFFLE_LAYOUTS_AARCH64
                .iter()
                .position(|l| *l == s)
                .unwrap()] = true;
        }
        assert_eq!(seen, [true; 4]);
        // Every one is a spec AArch64 takes without a warning.
        let sig = Signature::new(long(), [long(), Type::double(), long()]);
        for l in SHUFFLE_LAYOUTS_AARCH64
            .iter()
            .chain([&DEFAULT_POLICY_SPEC_AARCH64])
        {
            let (_, w) = plan(l, &sig);
            assert!(w.is_empty(), "{l}: {w:?}");
        }
    }

    #[test]
    fn variadic_functions_are_refused() {
        let (s, _) = Spec::parse("gpr:x9").unwrap();
        let sig = Signature::variadic(Type::int(), [Type::Pointer, Type::int()], 1);
        assert_eq!(materialise(arm(), &s, &sig).unwrap_err(), CcError::Variadic);
    }
}
