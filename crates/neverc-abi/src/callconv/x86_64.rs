//! Custom conventions on x86-64 (System V, not Windows): the registers a spec may name,
//! how values split into pieces, and the check of a plan given ready-made. The walk that
//! makes the plan is the one in [`super::materialise`], which every ISA shares.
//!
//! The spec's x86-64 rules, made precise (by the description here and the shared walk):
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

use super::materialise::{Bank, CcError, Isa, Piece};
use super::spec::Segment;
use crate::classify::{extension, round, Builder};
use crate::plan::{CallPlan, Flags, Location, Place};
use crate::sysv::{classify, gcc_empty, is_memory, place, Class};
use crate::types::Type;
use crate::{Convention, Machine, Signature};
use neverc_target::registers::{self, RegClass};
use neverc_target::Arch;

// x86-64 register numbers (DWARF, as in `neverc_target::registers`).
const RAX: u16 = 0;
const RDX: u16 = 1;
const RDI: u16 = 5;
const RBP: u16 = 6;
const RSP: u16 = 7;
const XMM0: u16 = 17;
const ST0: u16 = 33;
pub(super) const STD_CSR: [u16; 6] = crate::SYSV_CALLEE_SAVED;

/// The x86-64 registers and System V's pieces, for the shared walk.
pub(super) static ISA: Isa = Isa {
    arch: Arch::X86_64,
    convention: Convention::SysV64,
    number,
    refused: &[(RBP, "it is the frame pointer")],
    // rdi rsi rdx rcx r8 r9
    std_gpr: &[RDI, 4, RDX, 2, 8, 9],
    // xmm0-xmm7 (DWARF 17-24)
    std_vector: &[17, 18, 19, 20, 21, 22, 23, 24],
    std_ret_gpr: &[RAX, RDX],
    std_ret_vector: &[XMM0, XMM0 + 1],
    std_csr: &STD_CSR,
    always_saved: &[],
    ret_vector_key: "ret_xmm",
    csr_takes: "general and xmm registers",
    sret: RDI,
    sret_from_std_pool: true,
    sret_out: Some(RAX),
    pieces,
    // `char` and `short` are extended to 32 bits by the caller.
    extension: |ty, m| extension(ty, m, 32, false),
    // A record with no data that is not in registers takes no stack slot either.
    stack_align: |ty, _, align| (!gcc_empty(ty)).then_some(align.max(8)),
};

/// A register name of a spec; `rsp` is skipped with a warning.
fn number(name: &str, seg: Segment, warnings: &mut Vec<String>) -> Result<Option<u16>, CcError> {
    let Some(num) = registers::schema(Arch::X86_64).number(name) else {
        return Err(CcError::Spec(format!(
            "'{name}' in '{}:' is not an x86-64 register",
            seg.key()
        )));
    };
    if num == RSP {
        warnings.push(format!(
            "'rsp' in '{}:' is the stack pointer and cannot carry values; skipped",
            seg.key()
        ));
        return Ok(None);
    }
    Ok(Some(num))
}

/// The register pieces of a value as System V classifies it: INTEGER eightbytes general,
/// SSE ones (with their SSEUP) vector, an x87 result in `st0` (and `st1`). `None` for a
/// value passed in memory.
fn pieces(ty: &Type, b: &Builder, result: bool) -> Option<Vec<Piece>> {
    let classes = classify(ty, b);
    let (size, align) = b.layout(ty);
    if result && classes == [Class::ComplexX87] {
        return Some(vec![
            Piece {
                offset: 0,
                size: 10,
                bank: Bank::Fixed(ST0),
            },
            Piece {
                offset: size / 2,
                size: 10,
                bank: Bank::Fixed(ST0 + 1),
            },
        ]);
    }
    let in_memory = if result {
        classes.contains(&Class::Memory)
    } else {
        is_memory(&classes)
    };
    if in_memory {
        return None;
    }
    let mut out = Vec::new();
    place(&classes, size, align, |offset, size, class| {
        let bank = match class {
            Class::X87 => Bank::Fixed(ST0),
            Class::Integer => Bank::General,
            _ => Bank::Vector,
        };
        out.push(Piece { offset, size, bank })
    });
    Some(out)
}

pub(super) fn fits(m: &Machine, plan: &CallPlan, sig: &Signature) -> Result<(), String> {
    let b = Builder::new(m);
    let schema = registers::schema(Arch::X86_64);
    let class_of = |r: u16| schema.get(r).map(|x| (x.class, x.bits));
    let reg_ok = |r: u16, bank: Bank| match (bank, class_of(r)) {
        (Bank::General, Some((RegClass::Gpr, 64))) => r != RSP && r != RBP,
        (Bank::Vector, Some((RegClass::Vector, _))) => true,
        (Bank::Fixed(f), _) => r == f,
        _ => false,
    };
    // Results.
    let rets = &plan.returns;
    if sig.ret == Type::Void {
        if !rets.is_empty() {
            return Err("a void function has result locations".into());
        }
    } else {
        match pieces(&sig.ret, &b, true) {
            None => {
                let ok = rets.len() == 2
                    && rets[0].flags == Flags::SRET
                    && rets[1].flags == Flags::SRET_OUT
                    && rets.iter().all(|l| {
                        (l.value, l.offset, l.size, l.align) == (0, 0, 8, 8)
                            && matches!(l.place, Place::Reg(r) if reg_ok(r, Bank::General))
                    });
                if !ok {
                    return Err(
                        "the result is returned in memory: expected sret and sretout general registers"
                            .into(),
                    );
                }
            }
            Some(want) => {
                if rets.len() != want.len() {
                    return Err(format!(
                        "the result has {} locations, its type needs {}",
                        rets.len(),
                        want.len()
                    ));
                }
                let mut used = Vec::new();
                for (l, p) in rets.iter().zip(&want) {
                    let Place::Reg(r) = l.place else {
                        return Err("a result on the stack".into());
                    };
                    if !reg_ok(r, p.bank)
                        || l.offset != p.offset
                        || l.size != p.size
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
        let ps = pieces(ty, &b, false);
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
                    if !reg_ok(r, p.bank)
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
