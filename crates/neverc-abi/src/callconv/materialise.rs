//! From a spec to a call plan, and the checks on a plan given ready-made.
//!
//! The result is an ordinary [`CallPlan`] (convention id high half 2, low half the 32-bit
//! FNV-1a hash of the spec's canonical text), so a back end honours it exactly as it
//! honours a platform convention's plan.
//!
//! The AArch64 rules are in [`super::aarch64`]; x86-64 rules (the spec's, made precise
//! here):
//! - Values are classified as System V classifies them (INTEGER and SSE eightbytes,
//!   MEMORY); what changes is which register each eightbyte goes in.
//! - **Pool mode** (no `args:`): each argument takes the next entries of the `gpr:` pool
//!   for its INTEGER eightbytes and of the `xmm:` pool for its SSE ones. An argument that
//!   does not fit in what is left of the pools goes on the stack whole (the pools keep
//!   their entries for later arguments). An entry of the wrong class, or a register already
//!   carrying another value, sends the argument that met it to the stack (the entry is
//!   used up). A pool that is not written is the standard one (`rdi rsi rdx rcx r8 r9`,
//!   `xmm0`-`xmm7`): values the spec does not cover travel as in the standard convention.
//! - **Positional mode** (`args:`): argument `i` takes token `i`. It is in that register
//!   when it is one eightbyte of the register's class and the register is free; otherwise
//!   (a `stack`/`mem` token, a wrong class, a taken register, two eightbytes, an index past
//!   the list) it is on the stack.
//! - A hidden result pointer (a MEMORY result) takes the first general register of the
//!   `gpr:` pool in pool mode and `rdi` in positional mode; the callee gives it back in the
//!   first general register of `ret:` (else `rax`).
//! - Results: INTEGER eightbytes in the `ret:` registers in order, SSE ones in `ret_xmm:`,
//!   continuing with the standard ones (`rax rdx`, `xmm0 xmm1`) when the list is short or
//!   missing; x87 results in `st0`/`st1` as always.
//! - `rsp` is never a location: a spec naming it skips it (warning). `rbp` cannot carry
//!   values (neverc keeps frame pointers): naming it in an argument or result list is an
//!   error.
//! - Stack arguments are laid out as System V lays them out (8-byte slots, 16-byte
//!   alignment for 16-byte aligned values), in argument order.
//! - Integers travel at their own width: an `int` in the 32-bit sub-register, `long` and
//!   pointers in the full one; `char` and `short` are extended to 32 bits by the caller,
//!   as in the standard convention.
//! - `csr:` replaces the callee-saved set (general and xmm registers). A register named both
//!   there and in an argument or result list draws a warning. Registers that carry the
//!   result are never callee-saved in the plan (the callee cannot both preserve and set
//!   them), whatever the set says.
//! - Variadic functions cannot have a custom convention (an error).

use super::spec::{Segment, Spec, Token};
use crate::classify::{extension, round, Builder};
use crate::plan::{fnv1a32, CallPlan, Flags, Id, Location, Place, PlanError};
use crate::sysv::{classify, gcc_empty, is_memory, place, Class};
use crate::types::Type;
use crate::{AbiError, Machine, Signature};
use neverc_target::registers::{self, RegClass};
use neverc_target::{Arch, Os};
use std::fmt;

/// Why no custom plan could be made or accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CcError {
    /// A spec that does not parse or names an unknown register.
    Spec(String),
    /// A plan given as text that cannot be used (the four diagnostics of plans).
    Plan(PlanError),
    /// The signature cannot be planned at all.
    Abi(AbiError),
    /// A variadic function with a custom convention.
    Variadic,
    /// Something neverc does not do (yet): the text names it.
    Unsupported(String),
}

impl fmt::Display for CcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CcError::Spec(s) => write!(f, "invalid calling convention spec: {s}"),
            CcError::Plan(e) => write!(f, "{e}"),
            CcError::Abi(e) => write!(f, "{e}"),
            CcError::Variadic => f.write_str(
                "a variadic function cannot have a custom calling convention \
                 (its variadic arguments could not be found)",
            ),
            CcError::Unsupported(s) => write!(f, "neverc cannot {s}"),
        }
    }
}

impl std::error::Error for CcError {}

impl From<PlanError> for CcError {
    fn from(e: PlanError) -> CcError {
        CcError::Plan(e)
    }
}

impl From<AbiError> for CcError {
    fn from(e: AbiError) -> CcError {
        CcError::Abi(e)
    }
}

/// The convention id of a spec: `2:<FNV-1a-32 of its canonical text>`.
pub fn convention_id(spec: &Spec) -> Id {
    Id {
        high: 2,
        low: fnv1a32(spec.to_string().as_bytes()),
    }
}

/// Is this plan one of a custom convention (made from a spec or given as text)?
pub fn is_custom(plan: &CallPlan) -> bool {
    plan.convention.high == 2
}

/// May a call with plan `callee` in a function with plan `caller` become a jump? Not when
/// either is custom: the callee would return to the caller's caller with its own
/// callee-saved set and result registers, not the ones that caller expects.
pub fn tail_call_allowed(caller: &CallPlan, callee: &CallPlan) -> bool {
    !is_custom(caller) && !is_custom(callee)
}

// x86-64 register numbers (DWARF, as in `neverc_target::registers`).
const RAX: u16 = 0;
const RDX: u16 = 1;
const RBX: u16 = 3;
const RDI: u16 = 5;
const RBP: u16 = 6;
const RSP: u16 = 7;
const XMM0: u16 = 17;
const ST0: u16 = 33;
const STD_GPR: [u16; 6] = [5, 4, 1, 2, 8, 9];
const STD_CSR: [u16; 6] = [RBX, RBP, 12, 13, 14, 15];

/// A token resolved against the x86-64 register schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Res {
    Gpr(u16),
    Xmm(u16),
    /// A register of another class (x87).
    Other(u16),
    Stack,
}

fn reg_name(r: u16) -> &'static str {
    registers::schema(Arch::X86_64).name(r).unwrap_or("?")
}

/// Resolves the tokens of one segment; `rsp` is skipped with a warning.
fn resolve(
    spec: &Spec,
    seg: Segment,
    warnings: &mut Vec<String>,
) -> Result<Option<Vec<Res>>, CcError> {
    let Some(tokens) = spec.segment(seg) else {
        return Ok(None);
    };
    let schema = registers::schema(Arch::X86_64);
    let mut out = Vec::new();
    for t in tokens {
        let name = match t {
            Token::Stack => {
                out.push(Res::Stack);
                continue;
            }
            Token::Reg(n) => n,
        };
        let Some(num) = schema.number(name) else {
            return Err(CcError::Spec(format!(
                "'{name}' in '{}:' is not an x86-64 register",
                seg.key()
            )));
        };
        let reg = schema.get(num).expect("numbered register");
        if num == RSP {
            warnings.push(format!(
                "'rsp' in '{}:' is the stack pointer and cannot carry values; skipped",
                seg.key()
            ));
            continue;
        }
        out.push(match reg.class {
            RegClass::Gpr if reg.bits == 64 => Res::Gpr(num),
            RegClass::Vector => Res::Xmm(num),
            _ => Res::Other(num),
        });
    }
    Ok(Some(out))
}

/// One eightbyte (or SSE+SSEUP pair, or x87 value) of a value in registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    offset: u32,
    size: u32,
    class: Class,
}

/// The register pieces of a value classified as System V classifies it; `None` for a
/// value passed in memory, `Some(empty)` for one with nothing to pass.
fn pieces(ty: &Type, b: &Builder) -> Option<Vec<Piece>> {
    let classes = classify(ty, b);
    if is_memory(&classes) {
        return None;
    }
    let (size, align) = b.layout(ty);
    let mut out = Vec::new();
    place(&classes, size, align, |offset, size, class| {
        out.push(Piece {
            offset,
            size,
            class,
        })
    });
    Some(out)
}

fn check_target(m: &Machine) -> Result<(), CcError> {
    let ok = match m.arch {
        Arch::X86_64 => m.os != Os::Windows,
        Arch::AArch64 => m.os != Os::Darwin,
        _ => false,
    };
    if !ok {
        return Err(CcError::Unsupported(format!(
            "use custom calling conventions on {} yet (x86-64 System V and AArch64 \
             AAPCS64 ELF targets only)",
            m.triple
        )));
    }
    Ok(())
}

/// Plans `sig` under `spec` on `target`. The warnings are the spec's own (skipped `rsp`,
/// wrong-class entries of result lists, registers both callee-saved and carrying values).
pub fn materialise(
    target: impl Into<Machine>,
    spec: &Spec,
    sig: &Signature,
) -> Result<(CallPlan, Vec<String>), CcError> {
    let m = target.into();
    check_target(&m)?;
    if sig.variadic.is_some() {
        return Err(CcError::Variadic);
    }
    crate::classify::check_signature(&m, sig)?;
    if m.arch == Arch::AArch64 {
        return super::aarch64::materialise(&m, spec, sig);
    }
    let mut warnings = Vec::new();
    let args_list = resolve(spec, Segment::Args, &mut warnings)?;
    let gpr_list = resolve(spec, Segment::ArgGpr, &mut warnings)?;
    let xmm_list = resolve(spec, Segment::ArgXmm, &mut warnings)?;
    let ret_gpr = resolve(spec, Segment::RetGpr, &mut warnings)?;
    let ret_xmm = resolve(spec, Segment::RetXmm, &mut warnings)?;
    let csr = resolve(spec, Segment::Csr, &mut warnings)?;

    // rbp is the frame pointer of every function neverc compiles: it cannot carry values.
    for (seg, list) in [
        (Segment::Args, &args_list),
        (Segment::ArgGpr, &gpr_list),
        (Segment::RetGpr, &ret_gpr),
    ] {
        if list.iter().flatten().any(|r| *r == Res::Gpr(RBP)) {
            return Err(CcError::Unsupported(format!(
                "pass values in rbp ('rbp' in '{}:'): it is the frame pointer",
                seg.key()
            )));
        }
    }

    let mut b = Builder::new(&m);
    let mut taken: Vec<u16> = Vec::new();
    let positional = args_list.is_some();
    let std_gpr: Vec<Res> = STD_GPR.iter().map(|&r| Res::Gpr(r)).collect();
    let std_xmm: Vec<Res> = (0..8).map(|i| Res::Xmm(XMM0 + i)).collect();
    let gpool = gpr_list.clone().unwrap_or(std_gpr);
    let xpool = xmm_list.clone().unwrap_or(std_xmm);
    let (mut gi, mut xi) = (0usize, 0usize);

    // The result.
    if sig.ret != Type::Void {
        let classes = classify(&sig.ret, &b);
        let (size, align) = b.layout(&sig.ret);
        if classes.contains(&Class::Memory) {
            let sret_in = if positional {
                RDI
            } else {
                match gpool[gi..].iter().position(|r| matches!(r, Res::Gpr(_))) {
                    Some(k) => {
                        let Res::Gpr(r) = gpool[gi + k] else {
                            unreachable!()
                        };
                        gi += k + 1;
                        r
                    }
                    None => RDI,
                }
            };
            taken.push(sret_in);
            let sret_out = ret_gpr
                .iter()
                .flatten()
                .find_map(|r| match r {
                    Res::Gpr(g) => Some(*g),
                    _ => None,
                })
                .unwrap_or(RAX);
            b.ret_reg(0, 8, 8, sret_in, Flags::SRET);
            b.ret_reg(0, 8, 8, sret_out, Flags::SRET_OUT);
        } else if classes == [Class::ComplexX87] {
            b.ret_reg(0, 10, align, ST0, Flags::NONE);
            b.ret_reg(size / 2, 10, align, ST0 + 1, Flags::NONE);
        } else {
            let mut gprs = result_list(&ret_gpr, &[RAX, RDX], true, "ret", &mut warnings);
            let mut xmms =
                result_list(&ret_xmm, &[XMM0, XMM0 + 1], false, "ret_xmm", &mut warnings);
            place(&classes, size, align, |off, sz, class| match class {
                Class::X87 => b.ret_reg(off, 10, align, ST0, Flags::NONE),
                Class::Integer => b.ret_reg(off, sz, align, gprs.remove(0), Flags::NONE),
                _ => b.ret_reg(off, sz, align, xmms.remove(0), Flags::NONE),
            });
        }
    }

    // The arguments.
    let mut stack = 0u32;
    for (i, ty) in sig.params.iter().enumerate() {
        let (size, align) = b.layout(ty);
        let ps = pieces(ty, &b);
        if ps.as_ref().is_some_and(|p| p.is_empty()) {
            continue; // nothing to pass (an empty record)
        }
        let ext = extension(ty, &m, 32, false);
        let regs: Option<Vec<u16>> = match ps {
            None => None,
            Some(ps) => {
                let chosen = if positional {
                    let tokens = args_list.as_deref().unwrap_or(&[]);
                    match (tokens.get(i), ps.as_slice()) {
                        (Some(Res::Gpr(r)), [p]) if p.class == Class::Integer => Some(vec![*r]),
                        (Some(Res::Xmm(r)), [p]) if p.class == Class::Sse => Some(vec![*r]),
                        _ => None,
                    }
                    .filter(|r| !taken.contains(&r[0]))
                } else {
                    take_from_pools(&ps, &gpool, &xpool, &mut gi, &mut xi, &taken)
                };
                if let Some(regs) = &chosen {
                    for (p, &r) in ps.iter().zip(regs) {
                        b.arg_reg(i, p.offset, p.size, align, r, ext);
                    }
                }
                chosen
            }
        };
        match regs {
            Some(r) => taken.extend(r),
            None if gcc_empty(ty) => {}
            None => {
                let a = align.max(8);
                stack = round(stack, a);
                b.arg_stack(i, 0, size, align, stack, Flags::NONE);
                stack += round(size, 8);
            }
        }
    }
    b.stack = round(stack, 8);

    // The callee-saved set.
    let saved: Vec<u16> = match &csr {
        Some(list) => {
            let mut out: Vec<u16> = Vec::new();
            for r in list {
                match *r {
                    Res::Gpr(g) | Res::Xmm(g) if !out.contains(&g) => out.push(g),
                    Res::Gpr(_) | Res::Xmm(_) => {}
                    Res::Other(x) => {
                        return Err(CcError::Unsupported(format!(
                            "keep '{}' callee-saved (csr: takes general and xmm registers)",
                            reg_name(x)
                        )))
                    }
                    Res::Stack => {
                        return Err(CcError::Spec("'stack' in 'csr:' is not a register".into()))
                    }
                }
            }
            // A register both preserved and carrying values: the callee would restore it
            // over the value (for a result) or must save it first (for an argument).
            for &g in &out {
                let carries = [&args_list, &gpr_list, &xmm_list, &ret_gpr, &ret_xmm]
                    .iter()
                    .any(|l| {
                        l.iter()
                            .flatten()
                            .any(|r| matches!(r, Res::Gpr(x) | Res::Xmm(x) if *x == g))
                    });
                if carries {
                    warnings.push(format!(
                        "register '{}' is both callee-saved (csr:) and in an argument or return list",
                        reg_name(g)
                    ));
                }
            }
            out
        }
        None => STD_CSR.to_vec(),
    };
    let ret_regs: Vec<u16> = b
        .returns
        .iter()
        .filter(|l| !l.flags.contains(Flags::SRET))
        .filter_map(|l| match l.place {
            Place::Reg(r) => Some(r),
            Place::Stack(_) => None,
        })
        .collect();
    b.callee_saved = saved
        .into_iter()
        .filter(|r| !ret_regs.contains(r))
        .collect();

    let mut plan = b.finish(crate::Convention::SysV64);
    plan.convention = convention_id(spec);
    Ok((plan, warnings))
}

/// Pool mode: the registers for one argument's pieces, or `None` for the stack. Entries
/// are used up when the argument fits in what is left of the pools, even if one of them
/// turns out unusable (wrong class, already taken), which sends the argument to the stack.
fn take_from_pools(
    ps: &[Piece],
    gpool: &[Res],
    xpool: &[Res],
    gi: &mut usize,
    xi: &mut usize,
    taken: &[u16],
) -> Option<Vec<u16>> {
    let need_g = ps.iter().filter(|p| p.class == Class::Integer).count();
    let need_x = ps.len() - need_g;
    if *gi + need_g > gpool.len() || *xi + need_x > xpool.len() {
        return None;
    }
    let mut got = Vec::new();
    let mut ok = true;
    for p in ps {
        let entry = if p.class == Class::Integer {
            *gi += 1;
            gpool[*gi - 1]
        } else {
            *xi += 1;
            xpool[*xi - 1]
        };
        match (p.class, entry) {
            (Class::Integer, Res::Gpr(r)) | (Class::Sse, Res::Xmm(r))
                if !taken.contains(&r) && !got.contains(&r) =>
            {
                got.push(r)
            }
            _ => ok = false,
        }
    }
    ok.then_some(got)
}

/// The registers of one result class: the spec's list (entries of the wrong class
/// skipped with a warning), then the standard ones not yet named.
fn result_list(
    list: &Option<Vec<Res>>,
    standard: &[u16],
    gpr: bool,
    key: &str,
    warnings: &mut Vec<String>,
) -> Vec<u16> {
    let mut out: Vec<u16> = Vec::new();
    for r in list.iter().flatten() {
        match (*r, gpr) {
            (Res::Gpr(g), true) | (Res::Xmm(g), false) => {
                if !out.contains(&g) {
                    out.push(g)
                }
            }
            (Res::Stack, _) => warnings.push(format!(
                "'stack' in '{key}:' ignored: results come back in registers"
            )),
            (Res::Gpr(g) | Res::Xmm(g) | Res::Other(g), _) => warnings.push(format!(
                "'{}' in '{key}:' is not a {} register; ignored",
                reg_name(g),
                if gpr { "general" } else { "vector" }
            )),
        }
    }
    for &s in standard {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// Checks a plan given as text (`custom_attr("neverc-cc-plan-v1", ...)`) for `sig` on
/// `target`: it must parse, belong to this target's schema, target id and, when the
/// function also names a spec, to that spec's convention id (else to some custom
/// convention), and fit the signature exactly (every value's pieces where System V
/// classification puts them, each register of the right class and used once, stack slots
/// inside the area). It is then used as it is, not remade.
pub fn check_plan(
    target: impl Into<Machine>,
    text: &str,
    expected: Option<Id>,
    sig: &Signature,
) -> Result<CallPlan, CcError> {
    let m = target.into();
    check_target(&m)?;
    let plan = CallPlan::parse(text)?;
    let want = expected.unwrap_or(Id {
        high: 2,
        low: plan.convention.low,
    });
    plan.validate(m.triple, want)?;
    if sig.variadic.is_some() {
        return Err(CcError::Variadic);
    }
    crate::classify::check_signature(&m, sig)?;
    let fit = if m.arch == Arch::AArch64 {
        super::aarch64::fits(&m, &plan, sig)
    } else {
        fits(&m, &plan, sig)
    };
    fit.map_err(|why| {
        CcError::Plan(PlanError::Malformed(format!(
            "it does not fit the function's signature: {why}"
        )))
    })?;
    Ok(plan)
}

fn fits(m: &Machine, plan: &CallPlan, sig: &Signature) -> Result<(), String> {
    let b = Builder::new(m);
    let schema = registers::schema(Arch::X86_64);
    let class_of = |r: u16| schema.get(r).map(|x| (x.class, x.bits));
    let reg_ok = |r: u16, class: Class| match (class, class_of(r)) {
        (Class::Integer, Some((RegClass::Gpr, 64))) => r != RSP && r != RBP,
        (Class::Sse, Some((RegClass::Vector, _))) => true,
        _ => false,
    };
    // Results.
    let rets = &plan.returns;
    if sig.ret == Type::Void {
        if !rets.is_empty() {
            return Err("a void function has result locations".into());
        }
    } else {
        let classes = classify(&sig.ret, &b);
        let (size, align) = b.layout(&sig.ret);
        if classes.contains(&Class::Memory) {
            let ok = rets.len() == 2
                && rets[0].flags == Flags::SRET
                && rets[1].flags == Flags::SRET_OUT
                && rets.iter().all(|l| {
                    (l.value, l.offset, l.size, l.align) == (0, 0, 8, 8)
                        && matches!(l.place, Place::Reg(r) if reg_ok(r, Class::Integer))
                });
            if !ok {
                return Err(
                    "the result is returned in memory: expected sret and sretout general registers"
                        .into(),
                );
            }
        } else {
            let mut want = Vec::new();
            if classes == [Class::ComplexX87] {
                want.push((0, 10, Class::X87));
                want.push((size / 2, 10, Class::ComplexX87));
            } else {
                place(&classes, size, align, |o, s, c| want.push((o, s, c)));
            }
            if rets.len() != want.len() {
                return Err(format!(
                    "the result has {} locations, its type needs {}",
                    rets.len(),
                    want.len()
                ));
            }
            let mut used = Vec::new();
            for (l, &(o, s, c)) in rets.iter().zip(&want) {
                let Place::Reg(r) = l.place else {
                    return Err("a result on the stack".into());
                };
                let ok = match c {
                    Class::X87 => r == ST0,
                    Class::ComplexX87 => r == ST0 + 1,
                    c => reg_ok(r, c),
                };
                if !ok
                    || l.offset != o
                    || l.size != s
                    || l.flags != Flags::NONE
                    || used.contains(&r)
                {
                    return Err(format!(
                        "result location '{l}' does not fit the result type"
                    ));
                }
                used.push(r);
            }
        }
    }
    // Arguments.
    let mut used: Vec<u16> = rets
        .iter()
        .filter(|l| l.flags == Flags::SRET)
        .filter_map(|l| match l.place {
            Place::Reg(r) => Some(r),
            _ => None,
        })
        .collect();
    let mut slots: Vec<(u32, u32)> = Vec::new();
    if plan
        .arguments
        .iter()
        .any(|l| l.value as usize >= sig.params.len())
    {
        return Err("a location names an argument the function does not have".into());
    }
    for (i, ty) in sig.params.iter().enumerate() {
        let locs: Vec<&Location> = plan.argument(i as u32).collect();
        let (size, align) = b.layout(ty);
        let ps = pieces(ty, &b);
        let ext = extension(ty, m, 32, false);
        match locs.as_slice() {
            [] if ps.as_ref().is_some_and(|p| p.is_empty()) || gcc_empty(ty) => {}
            [l] if matches!(l.place, Place::Stack(_)) => {
                let Place::Stack(off) = l.place else {
                    unreachable!()
                };
                if l.offset != 0 || l.size != size || l.align != align || l.flags != Flags::NONE {
                    return Err(format!("stack location '{l}' does not fit argument {i}"));
                }
                if off % align.clamp(8, 16) != 0 || off + size > plan.stack {
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
                    if !reg_ok(r, p.class)
                        || l.offset != p.offset
                        || l.size != p.size
                        || l.flags != ext
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
        let class_ok = matches!(
            class_of(r),
            Some((RegClass::Gpr, 64) | (RegClass::Vector, _))
        );
        if !class_ok || r == RSP || ret_reg {
            return Err(format!("register {r} cannot be callee-saved"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::IntKind;

    fn x86() -> &'static neverc_target::Target {
        neverc_target::lookup("x86_64-linux-gnu").unwrap()
    }

    fn long() -> Type {
        Type::Int(IntKind::Long)
    }

    /// `name@offset:size` per location, `s<offset>` for stack ones.
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
        materialise(x86(), &s, sig).unwrap()
    }

    #[test]
    fn pool_mode_takes_registers_in_order_at_each_value_width() {
        let sig = Signature::new(Type::int(), [Type::int(), long(), Type::Pointer]);
        let (p, w) = plan("gpr:r10,r11,rsi;ret:rdx", &sig);
        assert!(w.is_empty());
        assert_eq!(show(&p.arguments), ["0:r10/4", "1:r11/8", "2:rsi/8"]);
        assert_eq!(show(&p.returns), ["0:rdx/4"]);
        assert_eq!(p.stack, 0);
        assert_eq!(p.callee_saved, STD_CSR);
        assert_eq!(p.convention.high, 2);
        assert!(is_custom(&p));
        let std = crate::plan_call(x86(), &sig).unwrap();
        assert!(!tail_call_allowed(&std, &p) && !tail_call_allowed(&p, &std));
        assert!(tail_call_allowed(&std, &std));
    }

    #[test]
    fn pools_spill_to_the_stack_and_uncovered_classes_stay_standard() {
        let sig = Signature::new(
            Type::double(),
            [
                Type::int(),
                Type::double(),
                Type::int(),
                Type::int(),
                Type::double(),
            ],
        );
        let (p, _) = plan("gpr:r9", &sig);
        assert_eq!(
            show(&p.arguments),
            ["0:r9/4", "1:xmm0/8", "2:s0/4", "3:s8/4", "4:xmm1/8"]
        );
        assert_eq!(p.stack, 16);
        assert_eq!(show(&p.returns), ["0:xmm0/8"]);
        // An empty pool sends every value of its class to the stack.
        let (p, _) = plan("gpr:;xmm:xmm5", &sig);
        assert_eq!(
            show(&p.arguments),
            ["0:s0/4", "1:xmm5/8", "2:s8/4", "3:s16/4", "4:s24/8"]
        );
    }

    #[test]
    fn positional_mode_with_stack_tokens() {
        let sig = Signature::new(long(), [long(), long(), long()]);
        let (p, _) = plan("args:rcx,stack,r8;ret:rax", &sig);
        assert_eq!(show(&p.arguments), ["0:rcx/8", "1:s0/8", "2:r8/8"]);
        assert_eq!(show(&p.returns), ["0:rax/8"]);
        // `args` takes precedence over `gpr`, and `mem` is `stack`.
        let (p, _) = plan("gpr:r10,r11,r9;args:mem,rdi,MEM", &sig);
        assert_eq!(show(&p.arguments), ["0:s0/8", "1:rdi/8", "2:s8/8"]);
    }

    #[test]
    fn positional_fallbacks_go_to_the_stack() {
        let sig = Signature::new(
            Type::Void,
            [Type::int(), Type::double(), long(), long(), long()],
        );
        // int in an xmm register: wrong class; double in a gpr: wrong class; r10 twice:
        // taken; the fifth argument is past the list.
        let (p, _) = plan("args:xmm0,rax,r10,r10", &sig);
        assert_eq!(
            show(&p.arguments),
            ["0:s0/4", "1:s8/8", "2:r10/8", "3:s16/8", "4:s24/8"]
        );
        // A record of two eightbytes cannot be one register.
        let two = Type::structure([long(), long()]);
        let (p, _) = plan("args:rdi,rsi", &Signature::new(Type::Void, [two, long()]));
        assert_eq!(show(&p.arguments), ["0:s0/16", "1:rsi/8"]);
    }

    #[test]
    fn pool_fallbacks_go_to_the_stack() {
        let sig = Signature::new(Type::Void, [long(), long(), long()]);
        // xmm0 in the gpr pool sends the argument meeting it to the stack; the repeated
        // r10 too.
        let (p, _) = plan("gpr:xmm0,r10,r10", &sig);
        assert_eq!(show(&p.arguments), ["0:s0/8", "1:r10/8", "2:s8/8"]);
    }

    #[test]
    fn rsp_is_skipped_and_rbp_refused() {
        let sig = Signature::new(Type::Void, [long(), long()]);
        let (p, w) = plan("gpr:rsp,r10,r11", &sig);
        assert_eq!(show(&p.arguments), ["0:r10/8", "1:r11/8"]);
        assert_eq!(
            w,
            ["'rsp' in 'gpr:' is the stack pointer and cannot carry values; skipped"]
        );
        let (p, _) = plan("args:RSP,r9,r8", &sig);
        assert_eq!(show(&p.arguments), ["0:r9/8", "1:r8/8"]);
        for spec in ["gpr:rbp", "args:rbp", "ret:rbp"] {
            let (s, _) = Spec::parse(spec).unwrap();
            let e = materialise(x86(), &s, &sig).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with("neverc cannot pass values in rbp"),
                "{e}"
            );
        }
        let (s, _) = Spec::parse("gpr:r16").unwrap();
        assert_eq!(
            materialise(x86(), &s, &sig).unwrap_err().to_string(),
            "invalid calling convention spec: 'r16' in 'gpr:' is not an x86-64 register"
        );
    }

    #[test]
    fn memory_results_and_by_value_records() {
        let big = Type::structure([long(), long(), long()]);
        let sig = Signature::new(big.clone(), [big.clone(), Type::int()]);
        let (p, _) = plan("gpr:r10,r11;ret:rdx", &sig);
        // The hidden pointer takes the pool's first register, comes back in rdx; the
        // 24-byte record goes on the stack by value; the int takes the next pool entry.
        assert_eq!(show(&p.returns), ["0:r10/8", "0:rdx/8"]);
        assert_eq!(p.returns[0].flags, Flags::SRET);
        assert_eq!(p.returns[1].flags, Flags::SRET_OUT);
        assert_eq!(show(&p.arguments), ["0:s0/24", "1:r11/4"]);
        assert_eq!(p.stack, 24);
        // Positional: the pointer is in rdi, so `args:rdi` finds it taken.
        let (p, _) = plan("args:rdi,rsi", &Signature::new(big, [long(), long()]));
        assert_eq!(show(&p.returns), ["0:rdi/8", "0:rax/8"]);
        assert_eq!(show(&p.arguments), ["0:s0/8", "1:rsi/8"]);
    }

    #[test]
    fn record_results_use_the_lists_then_the_standard_registers() {
        let mixed = Type::structure([long(), Type::double()]);
        let (p, _) = plan("ret:r8;ret_xmm:xmm4", &Signature::new(mixed, []));
        assert_eq!(show(&p.returns), ["0:r8/8", "0:xmm4/8"]);
        let two = Type::structure([long(), long()]);
        let (p, w) = plan("ret:xmm1,rcx", &Signature::new(two, []));
        assert_eq!(show(&p.returns), ["0:rcx/8", "0:rax/8"]);
        assert_eq!(w, ["'xmm1' in 'ret:' is not a general register; ignored"]);
    }

    #[test]
    fn small_integers_are_extended_as_in_the_standard_convention() {
        let sig = Signature::new(
            Type::Void,
            [
                Type::Int(IntKind::SChar),
                Type::Int(IntKind::UShort),
                Type::Bool,
            ],
        );
        let (p, _) = plan("gpr:r10,r11,rax", &sig);
        let flags: Vec<Flags> = p.arguments.iter().map(|l| l.flags).collect();
        assert_eq!(flags, [Flags::SEXT32, Flags::ZEXT32, Flags::ZEXT32]);
    }

    #[test]
    fn csr_replaces_the_callee_saved_set() {
        let sig = Signature::new(long(), [long()]);
        let (p, w) = plan("gpr:r10;csr:r12,rdi,r12", &sig);
        assert_eq!(p.callee_saved, [12, RDI]);
        assert!(w.is_empty());
        // Both callee-saved and carrying a value: a warning; a result register is never
        // callee-saved in the plan.
        let (p, w) = plan("gpr:rdi;ret:rbx;csr:rbx,rdi,r15", &sig);
        assert_eq!(p.callee_saved, [RDI, 15]);
        assert_eq!(
            w,
            [
                "register 'rbx' is both callee-saved (csr:) and in an argument or return list",
                "register 'rdi' is both callee-saved (csr:) and in an argument or return list"
            ]
        );
        // Without csr, a result in a standard callee-saved register is not preserved.
        let (p, _) = plan("ret:r12", &sig);
        assert_eq!(p.callee_saved, [RBX, RBP, 13, 14, 15]);
        // xmm registers too; x87 ones cannot be.
        let (p, w) = plan("xmm:xmm6;csr:xmm6,xmm15,rbx", &sig);
        assert_eq!(p.callee_saved, [23, 32, RBX]);
        assert_eq!(
            w,
            ["register 'xmm6' is both callee-saved (csr:) and in an argument or return list"]
        );
        let (s, _) = Spec::parse("csr:st0").unwrap();
        assert!(materialise(x86(), &s, &sig)
            .unwrap_err()
            .to_string()
            .starts_with("neverc cannot keep 'st0' callee-saved"));
    }

    #[test]
    fn variadic_and_foreign_targets_are_refused() {
        let (s, _) = Spec::parse("gpr:r10").unwrap();
        let sig = Signature::variadic(Type::int(), [Type::Pointer, Type::int()], 1);
        assert_eq!(materialise(x86(), &s, &sig).unwrap_err(), CcError::Variadic);
        let sig = Signature::new(Type::int(), [Type::int()]);
        for t in [
            "aarch64-apple-darwin",
            "x86_64-windows-msvc",
            "riscv64-linux-gnu",
        ] {
            let t = neverc_target::lookup(t).unwrap();
            assert!(matches!(
                materialise(t, &s, &sig),
                Err(CcError::Unsupported(_))
            ));
        }
    }

    #[test]
    fn the_convention_id_ignores_spelling() {
        let (a, _) = Spec::parse("gpr:r10,r11;ret:rdx").unwrap();
        let (b, _) = Spec::parse(" RET : RDX ; arg_gpr: r10 , r11 ").unwrap();
        let (c, _) = Spec::parse("gpr:r11,r10;ret:rdx").unwrap();
        assert_eq!(convention_id(&a), convention_id(&b));
        assert_ne!(convention_id(&a), convention_id(&c));
        assert_eq!(convention_id(&a).low, fnv1a32(b"gpr:r10,r11;ret:rdx"));
    }

    #[test]
    fn a_given_plan_is_validated_not_remade() {
        let sig = Signature::new(Type::int(), [Type::int(), Type::double()]);
        let (spec, _) = Spec::parse("gpr:r10;xmm:xmm3;ret:rdx").unwrap();
        let (p, _) = materialise(x86(), &spec, &sig).unwrap();
        let text = p.to_string();
        assert_eq!(
            check_plan(x86(), &text, Some(convention_id(&spec)), &sig),
            Ok(p.clone())
        );
        assert_eq!(check_plan(x86(), &text, None, &sig), Ok(p.clone()));
        // A hand-edited plan that still fits is taken as it is.
        let edited = text.replace("r,1,0,8,8,20,0,-", "r,1,0,8,8,22,0,-");
        assert_eq!(
            check_plan(x86(), &edited, None, &sig).unwrap().arguments[1].place,
            Place::Reg(22)
        );
        let cases = [
            (
                text.replace(";stack=", ";stak="),
                "malformed NeverC calling convention plan",
            ),
            (
                text.replace(
                    "schema=neverc-x86_64-linux-gnu",
                    "schema=neverc-aarch64-linux-gnu",
                ),
                "NeverC calling convention plan belongs to a foreign target schema",
            ),
            (
                text.replace(&format!("target={}", p.target), "target=1:2"),
                "NeverC calling convention plan has a foreign target ID",
            ),
            (
                text.replace(&format!("cc={}", p.convention), "cc=1:1"),
                "NeverC calling convention plan has a foreign convention ID",
            ),
            // An int in an xmm register does not fit.
            (
                text.replace("r,0,0,4,4,10,0,-", "r,0,0,4,4,17,0,-"),
                "malformed NeverC calling convention plan: it does not fit",
            ),
            // rsp never carries a value.
            (
                text.replace("r,0,0,4,4,10,0,-", "r,0,0,4,4,7,0,-"),
                "malformed NeverC calling convention plan: it does not fit",
            ),
        ];
        for (bad, msg) in cases {
            let e = check_plan(x86(), &bad, None, &sig).unwrap_err().to_string();
            assert!(e.starts_with(msg), "{bad}\n{e}");
        }
        // The plan of another spec has another convention id.
        let (other, _) = Spec::parse("gpr:r11").unwrap();
        let e = check_plan(x86(), &text, Some(convention_id(&other)), &sig).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("NeverC calling convention plan has a foreign convention ID"));
    }
}
