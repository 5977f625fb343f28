//! Microsoft x64 calling convention ("x64 calling convention", Microsoft Learn): four
//! register slots by position, 8-byte stack slots after a 32-byte home area, aggregates of
//! 1, 2, 4 or 8 bytes by value and everything else by reference to a caller copy.

use crate::classify::{round, Builder};
use crate::layout::layout_in;
use crate::plan::Flags;
use crate::types::{FloatKind, IntKind, Type};
use crate::Signature;

const GPR: [u16; 4] = [2, 1, 8, 9]; // rcx rdx r8 r9
const XMM0: u16 = 17;
const RAX: u16 = 0;

/// How a value of this type is passed.
enum Pass {
    Int,
    Float,
    /// The __m128 kind: by reference as an argument, xmm0 as a result.
    Vector,
    ByRef,
}

fn pass(ty: &Type, b: &Builder) -> Pass {
    let (size, _) = b.layout(ty);
    match ty.unaligned() {
        // "Floating-point and double-precision arguments are passed in XMM0-XMM3";
        // an x87 long double (gcc's) is not one of them.
        Type::Float(FloatKind::Float | FloatKind::Double) => Pass::Float,
        Type::Float(FloatKind::LongDouble) if size == 8 => Pass::Float,
        // GNU vectors (no MSVC type; clang is the reference): a one-element vector is
        // passed as its element, any other by reference and returned in xmm0, as __m128
        // is. clang treats __int128 the same way (by reference, xmm0).
        Type::Vector(e, _) if layout_in(e, b.m).size == size as u64 => pass(e, b),
        Type::Vector(..) | Type::Int(IntKind::Int128 | IntKind::UInt128) => Pass::Vector,
        // "Structs and unions of size 8, 16, 32, or 64 bits ... are passed as if they were
        // integers of the same size"; everything else by reference.
        _ if matches!(size, 1 | 2 | 4 | 8) => Pass::Int,
        _ => Pass::ByRef,
    }
}

pub(crate) fn plan(b: &mut Builder, sig: &Signature) {
    let mut slot = 0usize;
    if sig.ret != Type::Void {
        let (size, align) = b.layout(&sig.ret);
        match pass(&sig.ret, b) {
            Pass::Float | Pass::Vector => b.ret_reg(0, size, align, XMM0, Flags::NONE),
            Pass::Int => b.ret_reg(0, size, align, RAX, Flags::NONE),
            Pass::ByRef => {
                // "The caller ... passes a pointer to it as the first argument; the callee
                // returns the same pointer in RAX".
                b.ret_reg(0, 8, 8, GPR[0], Flags::SRET);
                b.ret_reg(0, 8, 8, RAX, Flags::SRET_OUT);
                slot = 1;
            }
        }
    }
    for (i, ty) in sig.params.iter().enumerate() {
        let (size, align) = b.layout(ty);
        let vflag = if sig.is_vararg(i) {
            Flags::VARARG
        } else {
            Flags::NONE
        };
        let (psize, palign, kind, flags) = match pass(ty, b) {
            Pass::ByRef | Pass::Vector => (8, 8, Pass::Int, Flags::BYREF | vflag),
            k => (size, align, k, vflag),
        };
        if slot < 4 {
            match kind {
                Pass::Float => {
                    b.arg_reg(i, 0, psize, palign, XMM0 + slot as u16, flags);
                    // "For floating-point values only, both the integer register and the
                    // floating-point register must contain the value" in variadic calls.
                    if sig.is_vararg(i) {
                        b.arg_reg(i, 0, psize, palign, GPR[slot], flags);
                    }
                }
                _ => b.arg_reg(i, 0, psize, palign, GPR[slot], flags),
            }
        } else {
            b.arg_stack(i, 0, psize, palign, slot as u32 * 8, flags);
        }
        slot += 1;
    }
    // The 32-byte home area is always allocated.
    b.stack = round((slot as u32 * 8).max(32), 8);
    // RBX, RBP, RDI, RSI, R12-R15 and XMM6-XMM15 are nonvolatile.
    b.callee_saved = [3, 6, 5, 4, 12, 13, 14, 15]
        .into_iter()
        .chain(XMM0 + 6..=XMM0 + 15)
        .collect();
}
