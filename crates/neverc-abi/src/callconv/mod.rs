//! Custom calling conventions: specs that name registers, their materialisation into
//! call plans, plans given ready-made, and the command line's policy.
//!
//! - [`spec`]: the spec language (`gpr:r10,r11;ret:rdx`), its keys defined once.
//! - [`materialise`]: spec + signature → [`CallPlan`](crate::CallPlan) by one walk for
//!   every ISA (x86-64 System V and AArch64 AAPCS64 ELF targets), each ISA's registers
//!   and rules described in `x86_64` and `aarch64`; and the validation of a plan given as
//!   text.
//! - [`policy`]: which functions the command line gives a convention.

mod aarch64;
pub mod materialise;
pub mod policy;
pub mod spec;
mod x86_64;

pub use materialise::{
    check_plan, convention_id, is_custom, materialise, tail_call_allowed, CcError,
};
pub use policy::{
    Policy, DEFAULT_POLICY_SPEC, DEFAULT_POLICY_SPEC_AARCH64, PLUGIN_NAME, SHUFFLE_LAYOUTS,
    SHUFFLE_LAYOUTS_AARCH64,
};
pub use spec::{Segment, Spec, SpecWarning, Token, ATTR_PLAN, ATTR_SPEC, SEGMENT_KEYS};
