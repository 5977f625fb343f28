//! The libgcc helpers behind IR operations on `__int128` that no back end does in a few
//! instructions: variable shifts, division and remainder, and conversions to and from
//! floating point. One table for irgen (which calls the conversion helpers for C casts)
//! and every back end (which calls them for the IR operations).
//!
//! The helpers follow the C calling convention of the target: an `__int128` argument or
//! result takes two integer registers (low half first), a shift count one.

use crate::{BinaryOp, Type};

/// What a binary `__int128` helper takes after the first operand's two halves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondOperand {
    /// An `int` shift count, in the next integer argument register (`__ashlti3`, ...).
    Count,
    /// The other `__int128`, in the next two (`__divti3`, ...).
    Int128,
}

/// libgcc's helper for `op` on `__int128` operands when the machine has no short
/// sequence for it: shifts (by a count not known at compile time), division and
/// remainder. `None` for the other operations.
pub fn int128_binary(op: BinaryOp) -> Option<(&'static str, SecondOperand)> {
    use SecondOperand::*;
    Some(match op {
        BinaryOp::Shl => ("__ashlti3", Count),
        BinaryOp::LShr => ("__lshrti3", Count),
        BinaryOp::AShr => ("__ashrti3", Count),
        BinaryOp::SDiv => ("__divti3", Int128),
        BinaryOp::UDiv => ("__udivti3", Int128),
        BinaryOp::SRem => ("__modti3", Int128),
        BinaryOp::URem => ("__umodti3", Int128),
        _ => return None,
    })
}

/// libgcc's helper converting `__int128` (`signed`, or unsigned) to floating type `to`
/// (`__floattidf`, `__floatuntisf`, ...), or floating type `from` to `__int128`
/// (`__fixdfti`, `__fixunssfti`, ...). `None` unless exactly one side is `I128` and the
/// other floating.
pub fn int128_float_conversion(from: Type, to: Type, signed: bool) -> Option<&'static str> {
    // The helpers' names end in the machine mode of the floating type: `hf` _Float16,
    // `sf` float, `df` double, `xf` the x87 long double, `tf` binary128.
    let name = match (from, to, signed) {
        (Type::I128, Type::F32, true) => "__floattisf",
        (Type::I128, Type::F64, true) => "__floattidf",
        (Type::I128, Type::F80, true) => "__floattixf",
        (Type::I128, Type::F16, true) => "__floattihf",
        (Type::I128, Type::F128, true) => "__floattitf",
        (Type::I128, Type::F32, false) => "__floatuntisf",
        (Type::I128, Type::F64, false) => "__floatuntidf",
        (Type::I128, Type::F80, false) => "__floatuntixf",
        (Type::I128, Type::F16, false) => "__floatuntihf",
        (Type::I128, Type::F128, false) => "__floatuntitf",
        (Type::F32, Type::I128, true) => "__fixsfti",
        (Type::F64, Type::I128, true) => "__fixdfti",
        (Type::F80, Type::I128, true) => "__fixxfti",
        (Type::F16, Type::I128, true) => "__fixhfti",
        (Type::F128, Type::I128, true) => "__fixtfti",
        (Type::F32, Type::I128, false) => "__fixunssfti",
        (Type::F64, Type::I128, false) => "__fixunsdfti",
        (Type::F80, Type::I128, false) => "__fixunsxfti",
        (Type::F16, Type::I128, false) => "__fixunshfti",
        (Type::F128, Type::I128, false) => "__fixunstfti",
        _ => return None,
    };
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_helpers() {
        assert_eq!(
            int128_binary(BinaryOp::AShr),
            Some(("__ashrti3", SecondOperand::Count))
        );
        assert_eq!(
            int128_binary(BinaryOp::URem),
            Some(("__umodti3", SecondOperand::Int128))
        );
        assert_eq!(int128_binary(BinaryOp::Add), None);
    }

    #[test]
    fn conversion_helpers() {
        let c = int128_float_conversion;
        assert_eq!(c(Type::I128, Type::F64, true), Some("__floattidf"));
        assert_eq!(c(Type::I128, Type::F32, false), Some("__floatuntisf"));
        assert_eq!(c(Type::I128, Type::F80, true), Some("__floattixf"));
        assert_eq!(c(Type::F128, Type::I128, true), Some("__fixtfti"));
        // _Float16 has helpers of its own (libgcc 12 on x86-64 and AArch64).
        assert_eq!(c(Type::I128, Type::F16, true), Some("__floattihf"));
        assert_eq!(c(Type::F16, Type::I128, false), Some("__fixunshfti"));
        assert_eq!(c(Type::F64, Type::I128, false), Some("__fixunsdfti"));
        assert_eq!(c(Type::I64, Type::F64, true), None);
        assert_eq!(c(Type::I128, Type::I128, true), None);
    }
}
