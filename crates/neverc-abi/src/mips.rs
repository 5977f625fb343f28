//! MIPS o32 (System V ABI MIPS RISC Processor Supplement, 3rd ed., "Function Calling
//! Sequence", and gcc's o32 practice): arguments are laid out as if in a memory block of
//! words whose first 16 bytes travel in $4-$7; the first two arguments use $f12/$f14 when
//! they, and everything before them, are floating point.

use crate::classify::{extension, round, Builder};
use crate::plan::Flags;
use crate::types::{FloatKind, Type};
use crate::Signature;

const A0: u16 = 4;
const V0: u16 = 2;
const F0: u16 = 32;

fn is_fp_scalar(ty: &Type) -> bool {
    matches!(
        ty.unaligned(),
        Type::Float(FloatKind::Float | FloatKind::Double | FloatKind::LongDouble)
    )
}

pub(crate) fn plan(b: &mut Builder, sig: &Signature) {
    let mut offset = 0u32; // in the argument block
                           // Results: floats in $f0, complex in $f0 (real) and $f2 (imaginary), integers in $2
                           // (and $3); structures and unions in memory whose address is passed as a hidden first
                           // argument and returned in $2.
    if sig.ret != Type::Void {
        let (size, align) = b.layout(&sig.ret);
        match sig.ret.unaligned() {
            t if is_fp_scalar(t) => b.ret_reg(0, size, align, F0, Flags::NONE),
            Type::Complex(_) => {
                b.ret_reg(0, size / 2, align, F0, Flags::NONE);
                b.ret_reg(size / 2, size / 2, align, F0 + 2, Flags::NONE);
            }
            // Even an empty structure (gcc).
            Type::Record(_) | Type::Vector(..) => {
                b.ret_reg(0, 4, 4, A0, Flags::SRET);
                b.ret_reg(0, 4, 4, V0, Flags::SRET_OUT);
                offset = 4;
            }
            _ => {
                let ext = extension(&sig.ret, b.m, 32, false);
                for k in 0..size.div_ceil(4) {
                    b.ret_reg(k * 4, (size - k * 4).min(4), align, V0 + k as u16, ext);
                }
            }
        }
    }

    // FP registers are used only while every argument so far was floating point, and
    // never for a variadic callee, whose named floating-point arguments travel in the
    // integer registers too (gcc), so that va_arg finds every argument in one block.
    let mut fp_ok = offset == 0 && sig.variadic.is_none();
    for (i, ty) in sig.params.iter().enumerate() {
        let (size, align) = b.layout(ty);
        let vararg = sig.is_vararg(i);
        let vflag = if vararg { Flags::VARARG } else { Flags::NONE };
        // Each argument starts on a word, doubleword-aligned types on a doubleword; even an
        // empty record, which then takes no words (gcc).
        offset = round(offset, align.clamp(4, 8));
        if size == 0 {
            // Not being floating point, it also ends the use of FP registers (gcc).
            fp_ok = false;
            continue;
        }
        if fp_ok && i < 2 && !vararg && is_fp_scalar(ty) {
            b.arg_reg(i, 0, size, align, F0 + 12 + 2 * i as u16, vflag);
            offset += round(size, 4);
            continue;
        }
        fp_ok = false;
        let flags = extension(ty, b.m, 32, false) | vflag;
        // Words below 16 go in $4-$7, the rest stay in the block (the caller's stack).
        let mut k = 0;
        while k < size {
            let at = offset + k;
            if at < 16 {
                b.arg_reg(i, k, (size - k).min(4), align, A0 + (at / 4) as u16, flags);
                k += 4;
            } else {
                b.arg_stack(i, k, size - k, align, at, flags);
                break;
            }
        }
        offset += round(size, 4);
    }
    // The caller always reserves the 16-byte home area for $4-$7.
    b.stack = round(offset.max(16), 8);
    // $16-$23, $30 and the even/odd pairs $f20-$f31 are callee-saved.
    b.callee_saved = (16..=23).chain([30]).chain(F0 + 20..=F0 + 31).collect();
}
