//! neverc-abi: C type layout and every platform calling convention as call plans.
//!
//! This crate owns one question: *for this C signature, under this convention, on this
//! target, where does every byte of every argument and result live?* It answers with a
//! [`CallPlan`], which back ends consume without knowing which ABI produced it.
//!
//! It owns:
//! - a small C type model ([`Type`], [`Record`], [`Field`]) and its layout on each target
//!   ([`layout`], [`record_layout`]), equal to gcc's;
//! - classification for System V x86-64, Win64, AAPCS64 (Linux) and Apple arm64, AAPCS32
//!   (base and VFP), RISC-V (ilp32/lp64 with no, single or double FP registers), MIPS o32
//!   and avr-gcc, one module each, every rule citing its psABI clause;
//! - the call plan, its text form `neverc-cc-plan-v1;...` and its validation.
//!
//! It depends on nothing but `neverc-target` (target rows and register schemas).

pub mod layout;
pub mod types;

pub use layout::{layout, record_layout, FieldLayout, Layout, RecordLayout};
pub use types::{Field, FloatKind, IntKind, Record, Type};

use neverc_target::{Arch, DataModel, Os, Target, Variant};

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
