//! neverc-abi: C type layout and every platform calling convention as call plans.
//!
//! This crate owns one question: *for this C signature, under this convention, on this
//! target, where does every byte of every argument and result live?* It answers with a
//! [`CallPlan`], which back ends consume without knowing which ABI produced it.
//!
//! It owns:
//! - a small C type model ([`Type`], [`Record`], [`Field`]) and its layout on each target
//!   ([`mod@layout`], [`record_layout`]), equal to gcc's, and C11 `_Alignof`, which gcc caps
//!   where the layout alignment is over-wide ([`c11_alignof`]);
//! - classification for System V x86-64, Win64, AAPCS64 (Linux) and Apple arm64, AAPCS32
//!   (base and VFP), RISC-V (ilp32/lp64 with no, single or double FP registers), MIPS o32
//!   and avr-gcc, one module each, every rule citing its psABI clause;
//! - the call plan, its text form `neverc-cc-plan-v1;...` and its validation.
//!
//! It depends on nothing but `neverc-target` (target rows and register schemas), which it
//! re-exports as [`target`], so a language implementer needs this crate alone:
//!
//! ```
//! use neverc_abi::{plan_call, target, Place, Signature, Type};
//! // struct P { double x; int tag; } on AArch64 Linux: how is `struct P f(struct P, ...)`
//! // passed, with every piece named by its register?
//! let t = target::lookup("aarch64-linux-gnu").unwrap();
//! let p = Type::structure([Type::double(), Type::int()]);
//! let plan = plan_call(t, &Signature::new(p.clone(), [p])).unwrap();
//! let regs = target::registers::schema(t.arch);
//! let args: Vec<_> = plan
//!     .arguments
//!     .iter()
//!     .map(|l| match l.place {
//!         Place::Reg(r) => format!("{}@{}..{}", regs.name(r).unwrap(), l.offset, l.offset + l.size),
//!         Place::Stack(off) => format!("stack+{off}"),
//!     })
//!     .collect();
//! // 16 bytes, not an HFA: two general registers, as AAPCS64 C.10 says.
//! assert_eq!(args, ["x0@0..8", "x1@8..16"]);
//! // A record result of 16 bytes comes back the same way.
//! assert_eq!(plan.returns.len(), 2);
//! ```

mod aarch64;
mod arm32;
mod avr;
pub mod callconv;
mod classify;
pub mod layout;
mod mips;
pub mod plan;
mod riscv;
mod sysv;
pub mod types;
mod win64;

/// System V x86-64's callee-saved registers, by DWARF number.
pub use sysv::CALLEE_SAVED as SYSV_CALLEE_SAVED;

pub use layout::{c11_alignof, layout, record_layout, FieldLayout, Layout, RecordLayout};
/// The target database and register schemas the plans refer to (`neverc-target`).
pub use neverc_target as target;
pub use plan::{CallPlan, Flags, Id, Location, Place, PlanError};
pub use types::{Field, FloatKind, IntKind, Record, Type};

use neverc_target::{Arch, DataModel, FloatAbi, Os, RiscvFloatAbi, Target, Variant};

/// The parts of a target that the ABI depends on. Made from a [`Target`] row with `into()`,
/// or by hand for a target the table does not have yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    /// Canonical triple; it names the register schema digest and the target id of plans.
    pub triple: &'static str,
    pub arch: Arch,
    /// Arm float ABI, RISC-V XLEN and float ABI, ...
    pub variant: Variant,
    pub os: Os,
    pub data_model: DataModel,
}

impl From<&Target> for Machine {
    fn from(t: &Target) -> Machine {
        Machine {
            triple: t.triple,
            arch: t.arch,
            variant: t.variant,
            os: t.os,
            data_model: t.data_model,
        }
    }
}

impl From<&Machine> for Machine {
    fn from(m: &Machine) -> Machine {
        *m
    }
}

/// A platform calling convention. The numbers are stable: they are the low half of the
/// convention id printed in plans (high half 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Convention {
    /// System V AMD64 psABI.
    SysV64 = 1,
    /// Microsoft x64.
    Win64 = 2,
    /// AAPCS64 as on Linux.
    Aapcs64 = 3,
    /// Apple's arm64 variant of AAPCS64.
    AppleArm64 = 4,
    /// AAPCS32 base standard (floating point in core registers).
    Aapcs32 = 5,
    /// AAPCS32 with the VFP variant (hard float).
    Aapcs32Vfp = 6,
    /// RISC-V integer convention (ilp32, lp64).
    RiscvInt = 7,
    /// RISC-V with single-precision FP registers (ilp32f, lp64f).
    RiscvF = 8,
    /// RISC-V with double-precision FP registers (ilp32d, lp64d).
    RiscvD = 9,
    /// MIPS o32.
    MipsO32 = 10,
    /// avr-gcc.
    Avr = 11,
}

impl Convention {
    /// The stable number of this convention.
    pub fn number(self) -> u32 {
        self as u32
    }

    /// The convention id printed in plans: `1:<number>`.
    pub fn id(self) -> Id {
        Id {
            high: 1,
            low: self.number(),
        }
    }

    /// The C convention of a target (what gcc uses by default there).
    pub fn for_target(target: impl Into<Machine>) -> Result<Convention, AbiError> {
        let m = target.into();
        Ok(match (m.arch, m.os) {
            (Arch::X86_64, Os::Windows) => Convention::Win64,
            (Arch::X86_64, _) => Convention::SysV64,
            (Arch::AArch64, Os::Darwin) => Convention::AppleArm64,
            (Arch::AArch64, _) => Convention::Aapcs64,
            (Arch::Arm, _) => match m.variant {
                Variant::Arm(v) if v.float_abi == FloatAbi::Hard => Convention::Aapcs32Vfp,
                _ => Convention::Aapcs32,
            },
            (Arch::Riscv32 | Arch::Riscv64, _) => match m.variant {
                Variant::Riscv(v) => match v.float_abi {
                    RiscvFloatAbi::Soft => Convention::RiscvInt,
                    RiscvFloatAbi::Single => Convention::RiscvF,
                    RiscvFloatAbi::Double => Convention::RiscvD,
                },
                _ => Convention::RiscvInt,
            },
            (Arch::Mips32, _) => Convention::MipsO32,
            (Arch::Avr, _) => Convention::Avr,
        })
    }

    fn arch_ok(self, arch: Arch) -> bool {
        use Convention::*;
        match self {
            SysV64 | Win64 => arch == Arch::X86_64,
            Aapcs64 | AppleArm64 => arch == Arch::AArch64,
            Aapcs32 | Aapcs32Vfp => arch == Arch::Arm,
            RiscvInt | RiscvF | RiscvD => matches!(arch, Arch::Riscv32 | Arch::Riscv64),
            MipsO32 => arch == Arch::Mips32,
            Avr => arch == Arch::Avr,
        }
    }
}

/// A C function type as seen at one call: its result, the types of the arguments passed,
/// and, for a variadic function, how many of them are the named parameters.
///
/// Arguments are given after C's promotions: an array parameter is a [`Type::Pointer`],
/// and a variadic `float` argument is passed as `double` by the caller of a variadic function
/// (the plan does not promote for you).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// [`Type::Void`] for no result.
    pub ret: Type,
    pub params: Vec<Type>,
    /// `Some(n)`: the callee is variadic with `n` named parameters; `params[n..]` are the
    /// variadic arguments of this call. `None`: a prototyped, non-variadic function.
    pub variadic: Option<usize>,
}

impl Signature {
    /// A non-variadic signature.
    pub fn new(ret: Type, params: impl IntoIterator<Item = Type>) -> Signature {
        Signature {
            ret,
            params: params.into_iter().collect(),
            variadic: None,
        }
    }

    /// A call to a variadic function with `named` named parameters.
    pub fn variadic(ret: Type, params: impl IntoIterator<Item = Type>, named: usize) -> Signature {
        Signature {
            ret,
            params: params.into_iter().collect(),
            variadic: Some(named),
        }
    }

    /// Is argument `i` a variadic (unnamed) one?
    pub fn is_vararg(&self, i: usize) -> bool {
        self.variadic.is_some_and(|n| i >= n)
    }
}

/// A signature that cannot be planned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AbiError {
    /// The type does not exist on this target (`__int128` on a 32-bit target, ...).
    Unsupported(String),
    /// A `void` or array parameter, or a flexible array member passed by value.
    Invalid(String),
    /// The convention belongs to another architecture.
    WrongArch { convention: Convention, arch: Arch },
}

impl std::fmt::Display for AbiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AbiError::Unsupported(s) => write!(f, "unsupported on this target: {s}"),
            AbiError::Invalid(s) => write!(f, "invalid signature: {s}"),
            AbiError::WrongArch { convention, arch } => {
                write!(f, "the {convention:?} convention is not for {arch:?}")
            }
        }
    }
}

impl std::error::Error for AbiError {}

/// Plans a call under the target's C convention ([`Convention::for_target`]).
///
/// ```
/// use neverc_abi::{plan_call, Place, Signature, Type};
/// let target = neverc_abi::target::lookup("x86_64-linux-gnu").unwrap();
/// // struct { double d; long l; } f(int, struct { float a, b; });
/// let dl = Type::structure([Type::double(), Type::Int(neverc_abi::IntKind::Long)]);
/// let ff = Type::structure([Type::float(), Type::float()]);
/// let plan = plan_call(target, &Signature::new(dl, [Type::int(), ff])).unwrap();
/// // The result comes back in xmm0 (17) and rax (0); the int goes in edi (5), the two
/// // floats together in xmm0.
/// let ret: Vec<_> = plan.returns.iter().map(|l| l.place).collect();
/// assert_eq!(ret, [Place::Reg(17), Place::Reg(0)]);
/// assert_eq!(plan.argument(0).next().unwrap().place, Place::Reg(5));
/// assert_eq!(plan.argument(1).next().unwrap().place, Place::Reg(17));
/// assert!(plan.to_string().starts_with("neverc-cc-plan-v1;schema=neverc-x86_64-linux-gnu;"));
/// ```
pub fn plan_call(target: impl Into<Machine>, sig: &Signature) -> Result<CallPlan, AbiError> {
    let m = target.into();
    plan_call_with(m, Convention::for_target(m)?, sig)
}

/// Plans a call under an explicit convention.
pub fn plan_call_with(
    target: impl Into<Machine>,
    convention: Convention,
    sig: &Signature,
) -> Result<CallPlan, AbiError> {
    let m = target.into();
    if !convention.arch_ok(m.arch) {
        return Err(AbiError::WrongArch {
            convention,
            arch: m.arch,
        });
    }
    classify::check_signature(&m, sig)?;
    let mut b = classify::Builder::new(&m);
    match convention {
        Convention::SysV64 => sysv::plan(&mut b, sig),
        Convention::Win64 => win64::plan(&mut b, sig),
        Convention::Aapcs64 => aarch64::plan(&mut b, sig, false),
        Convention::AppleArm64 => aarch64::plan(&mut b, sig, true),
        Convention::Aapcs32 => arm32::plan(&mut b, sig, false),
        Convention::Aapcs32Vfp => arm32::plan(&mut b, sig, true),
        Convention::RiscvInt => riscv::plan(&mut b, sig, 0),
        Convention::RiscvF => riscv::plan(&mut b, sig, 32),
        Convention::RiscvD => riscv::plan(&mut b, sig, 64),
        Convention::MipsO32 => mips::plan(&mut b, sig),
        Convention::Avr => avr::plan(&mut b, sig),
    }
    Ok(b.finish(convention))
}
