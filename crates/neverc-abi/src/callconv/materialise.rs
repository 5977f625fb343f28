//! From a spec to a call plan, and the checks on a plan given ready-made.
//!
//! The result is an ordinary [`CallPlan`] (convention id high half 2, low half the 32-bit
//! FNV-1a hash of the spec's canonical text), so a back end honours it exactly as it
//! honours a platform convention's plan.
//!
//! One walk makes the plan for every ISA: it resolves the spec's register lists, places
//! the result, takes argument registers from the pools (or the `args:` list), lays out
//! the stack and settles the callee-saved set. What differs between ISAs is in an [`Isa`]
//! description: which names are registers and which of them are skipped or refused, the
//! standard pools, result registers and callee-saved set, where the hidden result pointer
//! goes, and how the platform convention splits a value into pieces. The descriptions,
//! with each ISA's rules in words and its check of given plans, are in
//! [`super::x86_64`] and [`super::aarch64`].
//!
//! The rules every ISA shares:
//! - **Pool mode** (no `args:`): each argument takes the next entries of the `gpr:` pool
//!   for its general pieces and of the vector pool (`xmm:`/`fpr:`) for its vector ones.
//!   An argument that does not fit in what is left of the pools goes on the stack whole
//!   (the pools keep their entries for later arguments). An entry of the wrong class, or a
//!   register already carrying another value, sends the argument that met it to the
//!   stack (the entry is used up). A pool that is not written is the standard one: values
//!   the spec does not cover travel as in the standard convention.
//! - **Positional mode** (`args:`): argument `i` takes token `i`. It is in that register
//!   when it is one piece of the register's class and the register is free; otherwise (a
//!   `stack`/`mem` token, a wrong class, a taken register, two pieces, an index past the
//!   list) it is on the stack.
//! - Results: general pieces in the `ret:` registers in order, vector ones in the vector
//!   result list, continuing with the standard ones when the list is short or missing;
//!   entries of the other class (or `stack`) are ignored with a warning.
//! - `csr:` replaces the callee-saved set. A register named both there and in an
//!   argument or result list draws a warning. Registers that carry the result are never
//!   callee-saved in the plan (the callee cannot both preserve and set them), whatever
//!   the set says.
//! - Variadic functions cannot have a custom convention (an error).

use super::spec::{Segment, Spec, Token};
use crate::classify::{round, Builder};
use crate::plan::{fnv1a32, CallPlan, Flags, Id, Place, PlanError};
use crate::types::Type;
use crate::{AbiError, Convention, Machine, Signature};
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

/// Plans `sig` under `spec` on `target`. The warnings are the spec's own (skipped
/// registers, wrong-class entries of result lists, registers both callee-saved and
/// carrying values).
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
    let isa = if m.arch == Arch::AArch64 {
        &super::aarch64::ISA
    } else {
        &super::x86_64::ISA
    };
    walk(&m, isa, spec, sig)
}

/// A token of a spec's register list, resolved against the ISA's register schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Res {
    /// A (full-width) general register.
    Gpr(u16),
    /// A vector register (x86-64 xmm, AArch64 v).
    Vector(u16),
    /// A register of another class (x87).
    Other(u16),
    Stack,
}

/// Where a piece of a value travels: the next general or vector register of a list, or
/// a register of its own (x87 results).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bank {
    General,
    Vector,
    Fixed(u16),
}

/// One register's worth of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Piece {
    pub offset: u32,
    pub size: u32,
    pub bank: Bank,
}

/// How an ISA reads a register name of segment `seg` (see [`Isa::number`]).
pub(super) type RegisterNumber =
    fn(name: &str, seg: Segment, warnings: &mut Vec<String>) -> Result<Option<u16>, CcError>;

/// What the materialiser needs to know of an ISA: its registers as the spec may name
/// them, the standard convention it falls back on, and how the platform convention
/// splits values into pieces. One walk (`walk`) serves every ISA.
pub(super) struct Isa {
    pub arch: Arch,
    pub convention: Convention,
    /// The register number a name in segment `seg` stands for, `None` for a register
    /// the spec may not use there (skipped, with a warning pushed), or an error for a
    /// name that is no register of the ISA (saying which spelling to use).
    pub number: RegisterNumber,
    /// Registers that can never carry values, and why: naming one in `args:`, `gpr:` or
    /// `ret:` is an error.
    pub refused: &'static [(u16, &'static str)],
    /// The standard argument pools and result registers (general, then vector).
    pub std_gpr: &'static [u16],
    pub std_vector: &'static [u16],
    pub std_ret_gpr: &'static [u16],
    pub std_ret_vector: &'static [u16],
    /// The standard callee-saved set, and what a `csr:` list always gets added.
    pub std_csr: &'static [u16],
    pub always_saved: &'static [u16],
    /// The key messages give the vector result list (`ret_xmm`, `ret_fpr`), and what a
    /// `csr:` list may name (for the refusal of anything else).
    pub ret_vector_key: &'static str,
    pub csr_takes: &'static str,
    /// The hidden result pointer: its register when no pool gives one, whether an
    /// unwritten (standard) `gpr:` pool gives it, and where the callee gives it back (if
    /// it does).
    pub sret: u16,
    pub sret_from_std_pool: bool,
    pub sret_out: Option<u16>,
    /// The pieces of a value as the platform convention classifies it (`result`: as a
    /// result); `None` for one passed in memory, `Some(empty)` for one with nothing to
    /// pass.
    pub pieces: fn(ty: &Type, b: &Builder, result: bool) -> Option<Vec<Piece>>,
    /// The extension flags of an argument in a register.
    pub extension: fn(ty: &Type, m: &Machine) -> Flags,
    /// The alignment of an argument's stack slot (`align`: the type's), `None` for an
    /// argument that takes no slot when it is not in registers.
    pub stack_align: fn(ty: &Type, m: &Machine, align: u32) -> Option<u32>,
}

pub(super) fn reg_name(arch: Arch, r: u16) -> &'static str {
    registers::schema(arch).name(r).unwrap_or("?")
}

/// Resolves the tokens of one segment.
fn resolve(
    isa: &Isa,
    spec: &Spec,
    seg: Segment,
    warnings: &mut Vec<String>,
) -> Result<Option<Vec<Res>>, CcError> {
    let Some(tokens) = spec.segment(seg) else {
        return Ok(None);
    };
    let schema = registers::schema(isa.arch);
    let mut out = Vec::new();
    for t in tokens {
        let name = match t {
            Token::Stack => {
                out.push(Res::Stack);
                continue;
            }
            Token::Reg(n) => n,
        };
        let Some(num) = (isa.number)(name, seg, warnings)? else {
            continue;
        };
        let reg = schema.get(num).expect("numbered register");
        out.push(match reg.class {
            RegClass::Gpr if reg.bits == 64 => Res::Gpr(num),
            RegClass::Vector => Res::Vector(num),
            _ => Res::Other(num),
        });
    }
    Ok(Some(out))
}

/// Plans `sig` under `spec` with `isa`'s registers (the caller checked the target and
/// that `sig` is not variadic).
fn walk(
    m: &Machine,
    isa: &Isa,
    spec: &Spec,
    sig: &Signature,
) -> Result<(CallPlan, Vec<String>), CcError> {
    let mut warnings = Vec::new();
    let mut list = |seg| resolve(isa, spec, seg, &mut warnings);
    let args_list = list(Segment::Args)?;
    let gpr_list = list(Segment::ArgGpr)?;
    let vector_list = list(Segment::ArgXmm)?;
    let ret_gpr = list(Segment::RetGpr)?;
    let ret_vector = list(Segment::RetXmm)?;
    let csr = list(Segment::Csr)?;

    for (seg, list) in [
        (Segment::Args, &args_list),
        (Segment::ArgGpr, &gpr_list),
        (Segment::RetGpr, &ret_gpr),
    ] {
        for &(r, why) in isa.refused {
            if list.iter().flatten().any(|x| *x == Res::Gpr(r)) {
                let name = reg_name(isa.arch, r);
                return Err(CcError::Unsupported(format!(
                    "pass values in {name} ('{name}' in '{}:'): {why}",
                    seg.key()
                )));
            }
        }
    }

    let mut b = Builder::new(m);
    let mut taken: Vec<u16> = Vec::new();
    let positional = args_list.is_some();
    let gpool = gpr_list
        .clone()
        .unwrap_or_else(|| isa.std_gpr.iter().map(|&r| Res::Gpr(r)).collect());
    let vpool = vector_list
        .clone()
        .unwrap_or_else(|| isa.std_vector.iter().map(|&r| Res::Vector(r)).collect());
    let (mut gi, mut vi) = (0usize, 0usize);

    // The result.
    if sig.ret != Type::Void {
        let (_, align) = b.layout(&sig.ret);
        match (isa.pieces)(&sig.ret, &b, true) {
            None => {
                // In memory: the buffer's address in the gpr pool's first general
                // register, else in the ISA's register.
                let mut sret = isa.sret;
                if !positional && (gpr_list.is_some() || isa.sret_from_std_pool) {
                    if let Some(k) = gpool[gi..].iter().position(|r| matches!(r, Res::Gpr(_))) {
                        let Res::Gpr(r) = gpool[gi + k] else {
                            unreachable!()
                        };
                        gi += k + 1;
                        sret = r;
                    }
                }
                taken.push(sret);
                b.ret_reg(0, 8, 8, sret, Flags::SRET);
                if let Some(standard) = isa.sret_out {
                    let out = ret_gpr
                        .iter()
                        .flatten()
                        .find_map(|r| match r {
                            Res::Gpr(g) => Some(*g),
                            _ => None,
                        })
                        .unwrap_or(standard);
                    b.ret_reg(0, 8, 8, out, Flags::SRET_OUT);
                }
            }
            Some(ps) => {
                let mut gprs = result_list(isa, &ret_gpr, false, &mut warnings);
                let mut vectors = result_list(isa, &ret_vector, true, &mut warnings);
                for p in ps {
                    let r = match p.bank {
                        Bank::General => gprs.remove(0),
                        Bank::Vector => vectors.remove(0),
                        Bank::Fixed(r) => r,
                    };
                    b.ret_reg(p.offset, p.size, align, r, Flags::NONE);
                }
            }
        }
    }

    // The arguments.
    let mut stack = 0u32;
    for (i, ty) in sig.params.iter().enumerate() {
        let (size, align) = b.layout(ty);
        let ps = (isa.pieces)(ty, &b, false);
        if ps.as_ref().is_some_and(|p| p.is_empty()) {
            continue; // nothing to pass (an empty record)
        }
        let chosen = match &ps {
            None => None,
            Some(ps) if positional => {
                let tokens = args_list.as_deref().unwrap_or(&[]);
                match (tokens.get(i), ps.as_slice()) {
                    (Some(Res::Gpr(r)), [p]) if p.bank == Bank::General => Some(vec![*r]),
                    (Some(Res::Vector(r)), [p]) if p.bank == Bank::Vector => Some(vec![*r]),
                    _ => None,
                }
                .filter(|r| !taken.contains(&r[0]))
            }
            Some(ps) => take_from_pools(ps, &gpool, &vpool, &mut gi, &mut vi, &taken),
        };
        match (chosen, ps) {
            (Some(regs), Some(ps)) => {
                let ext = (isa.extension)(ty, m);
                for (p, &r) in ps.iter().zip(&regs) {
                    b.arg_reg(i, p.offset, p.size, align, r, ext);
                }
                taken.extend(regs);
            }
            _ => {
                if let Some(a) = (isa.stack_align)(ty, m, align) {
                    stack = round(stack, a);
                    b.arg_stack(i, 0, size, align, stack, Flags::NONE);
                    stack += round(size, 8);
                }
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
                    Res::Gpr(g) | Res::Vector(g) if !out.contains(&g) => out.push(g),
                    Res::Gpr(_) | Res::Vector(_) => {}
                    Res::Other(x) => {
                        return Err(CcError::Unsupported(format!(
                            "keep '{}' callee-saved (csr: takes {})",
                            reg_name(isa.arch, x),
                            isa.csr_takes
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
                let carries = [&args_list, &gpr_list, &vector_list, &ret_gpr, &ret_vector]
                    .iter()
                    .any(|l| {
                        l.iter()
                            .flatten()
                            .any(|r| matches!(r, Res::Gpr(x) | Res::Vector(x) if *x == g))
                    });
                if carries {
                    warnings.push(format!(
                        "register '{}' is both callee-saved (csr:) and in an argument or return list",
                        reg_name(isa.arch, g)
                    ));
                }
            }
            for &r in isa.always_saved {
                if !out.contains(&r) {
                    out.push(r);
                }
            }
            out
        }
        None => isa.std_csr.to_vec(),
    };
    // Registers that carry the result are never callee-saved.
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

    let mut plan = b.finish(isa.convention);
    plan.convention = convention_id(spec);
    Ok((plan, warnings))
}

/// Pool mode: the registers for one argument's pieces, or `None` for the stack. Entries
/// are used up when the argument fits in what is left of the pools, even if one of them
/// turns out unusable (wrong class, already taken), which sends the argument to the stack.
fn take_from_pools(
    ps: &[Piece],
    gpool: &[Res],
    vpool: &[Res],
    gi: &mut usize,
    vi: &mut usize,
    taken: &[u16],
) -> Option<Vec<u16>> {
    let need_g = ps.iter().filter(|p| p.bank == Bank::General).count();
    let need_v = ps.len() - need_g;
    if *gi + need_g > gpool.len() || *vi + need_v > vpool.len() {
        return None;
    }
    let mut got = Vec::new();
    let mut ok = true;
    for p in ps {
        let entry = if p.bank == Bank::General {
            *gi += 1;
            gpool[*gi - 1]
        } else {
            *vi += 1;
            vpool[*vi - 1]
        };
        match (p.bank, entry) {
            (Bank::General, Res::Gpr(r)) | (Bank::Vector, Res::Vector(r))
                if !taken.contains(&r) && !got.contains(&r) =>
            {
                got.push(r)
            }
            _ => ok = false,
        }
    }
    ok.then_some(got)
}

/// The registers of one result class (`vector` or general): the spec's list (entries of
/// the other class skipped with a warning), then the standard ones not yet named.
fn result_list(
    isa: &Isa,
    list: &Option<Vec<Res>>,
    vector: bool,
    warnings: &mut Vec<String>,
) -> Vec<u16> {
    let (key, standard) = if vector {
        (isa.ret_vector_key, isa.std_ret_vector)
    } else {
        ("ret", isa.std_ret_gpr)
    };
    let mut out: Vec<u16> = Vec::new();
    for r in list.iter().flatten() {
        match (*r, vector) {
            (Res::Gpr(g), false) | (Res::Vector(g), true) => {
                if !out.contains(&g) {
                    out.push(g)
                }
            }
            (Res::Stack, _) => warnings.push(format!(
                "'stack' in '{key}:' ignored: results come back in registers"
            )),
            (Res::Gpr(g) | Res::Vector(g) | Res::Other(g), _) => warnings.push(format!(
                "'{}' in '{key}:' is not a {} register; ignored",
                reg_name(isa.arch, g),
                if vector { "vector" } else { "general" }
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
        super::x86_64::fits(&m, &plan, sig)
    };
    fit.map_err(|why| {
        CcError::Plan(PlanError::Malformed(format!(
            "it does not fit the function's signature: {why}"
        )))
    })?;
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::super::x86_64::STD_CSR;
    use super::*;
    // x86-64 register numbers (DWARF).
    const RBX: u16 = 3;
    const RDI: u16 = 5;
    const RBP: u16 = 6;
    use crate::plan::Location;
    use crate::types::IntKind;

    fn reg_name(r: u16) -> &'static str {
        super::reg_name(Arch::X86_64, r)
    }

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
